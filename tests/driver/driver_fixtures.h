// Effects built in code for the driver tests, and helpers that run the driver like a host.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/compile_effect.h"
#include "driver/driver.h"

namespace spindrift::test {

// 1/60 s as the format stores it (a float); every step-time expectation uses this value.
inline constexpr float kStep60 = 1.0f / 60.0f;
inline const double kDt60 = static_cast<double>(kStep60);

inline Burst makeBurst(float time_s, uint32_t count_min, uint32_t count_max, uint32_t cycles = 1,
                       float interval_s = 1, float probability = 1) {
    Burst burst;
    burst.time_s = time_s;
    burst.count = {count_min, count_max};
    burst.cycles = cycles;
    burst.interval_s = interval_s;
    burst.probability = probability;
    return burst;
}

inline EmitterDesc makeEmitter(std::string name, float rate_per_s, std::vector<Burst> bursts = {},
                               float delay_s = 0, uint32_t capacity = 1u << 20) {
    EmitterDesc emitter;
    emitter.name = std::move(name);
    emitter.capacity = capacity;
    emitter.spawn.rate_per_s = rate_per_s;
    emitter.spawn.delay_s = delay_s;
    emitter.spawn.bursts = std::move(bursts);
    return emitter;
}

inline EffectDesc makeEffect(std::vector<EmitterDesc> emitters, float duration_s, bool looping,
                             float fixed_timestep_s = kStep60, uint32_t seed = 1) {
    EffectDesc effect;
    effect.name = "driver_test";
    effect.seed = seed;
    effect.duration_s = duration_s;
    effect.looping = looping;
    effect.fixed_timestep_s = fixed_timestep_s;
    uint32_t capacity = 0;
    for (const EmitterDesc& e : emitters) capacity += e.capacity;
    effect.capacity = capacity;
    effect.emitters = std::move(emitters);
    return effect;
}

inline CompiledEffect compileOrFail(const EffectDesc& desc) {
    std::vector<Diagnostic> diagnostics;
    CompiledEffect out;
    EXPECT_TRUE(compileEffect(desc, out, diagnostics))
        << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics.front()));
    return out;
}

// Plans `steps` consecutive steps with no frames in between: the reference sequence.
inline std::vector<SpawnPlan> planSteps(DriverState& state, const CompiledEffect& effect,
                                        uint64_t steps, const DriverConfig& config = {}) {
    std::vector<SpawnPlan> plans(steps);
    for (SpawnPlan& plan : plans) planStep(state, effect, config, plan);
    return plans;
}

inline std::vector<SpawnPlan> planSteps(const CompiledEffect& effect, uint64_t steps,
                                        const DriverConfig& config = {}) {
    DriverState state = makeDriverState(effect);
    return planSteps(state, effect, steps, config);
}

// Runs host frames of the given lengths, planning every step beginFrame grants.
inline std::vector<SpawnPlan> planFrames(const CompiledEffect& effect,
                                         const std::vector<double>& frames_s,
                                         const DriverConfig& config) {
    DriverState state = makeDriverState(effect);
    std::vector<SpawnPlan> plans;
    for (double frame_s : frames_s) {
        FrameReport report;
        const uint32_t steps = beginFrame(state, effect, frame_s, config, report);
        for (uint32_t i = 0; i < steps; ++i) planStep(state, effect, config, plans.emplace_back());
    }
    return plans;
}

inline uint64_t totalBirths(const std::vector<SpawnPlan>& plans, uint32_t emitter) {
    uint64_t births = 0;
    for (const SpawnPlan& plan : plans) births += plan.emitters[emitter].count;
    return births;
}

// Indices of the plans with births for the emitter.
inline std::vector<uint64_t> birthSteps(const std::vector<SpawnPlan>& plans, uint32_t emitter) {
    std::vector<uint64_t> steps;
    for (const SpawnPlan& plan : plans) {
        if (plan.emitters[emitter].count > 0) steps.push_back(plan.step_index);
    }
    return steps;
}

inline bool samePlan(const SpawnPlan& a, const SpawnPlan& b) {
    return std::memcmp(&a, &b, sizeof(SpawnPlan)) == 0;
}

} // namespace spindrift::test
