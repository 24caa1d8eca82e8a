// The effect instance (runtime/effect_instance.h): one object over either backend. The same
// effect on the CPU and on the GPU backend (lavapipe, validation on) reports the same counters,
// field by field, at every checkpoint; on the CPU it is exactly the backend's own run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cook/effect_file.h"
#include "cpu/cpu_effect.h"
#include "runtime/effect_instance.h"
#include "runtime/simulation_device.h"

namespace spindrift {
namespace {

std::string allMessages(const std::vector<Diagnostic>& diagnostics) {
    std::string text;
    for (const Diagnostic& d : diagnostics) text += formatDiagnostic(d) + "\n";
    return text;
}

std::shared_ptr<const CompiledEffect> loadEffect(const std::string& relative) {
    auto effect = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    const bool ok = loadCompiledEffect(std::string(SPINDRIFT_SOURCE_DIR) + "/" + relative, *effect,
                                       diagnostics);
    EXPECT_TRUE(ok) << allMessages(diagnostics);
    return ok ? effect : nullptr;
}

std::unique_ptr<EffectInstance> makeInstance(std::shared_ptr<const CompiledEffect> effect,
                                             BackendRequest request,
                                             const SimulationDevice& device) {
    InstanceConfig config;
    config.backend = request;
    config.validation = true;
    std::vector<Diagnostic> diagnostics;
    auto instance = createEffectInstance(std::move(effect), config, device, "test", diagnostics);
    EXPECT_NE(instance, nullptr) << allMessages(diagnostics);
    return instance;
}

void expectSameStatistics(const EmitterStatistics& cpu, const EmitterStatistics& gpu,
                          const std::string& where) {
    EXPECT_EQ(cpu.live, gpu.live) << where;
    EXPECT_EQ(cpu.births, gpu.births) << where;
    EXPECT_EQ(cpu.deaths, gpu.deaths) << where;
    EXPECT_EQ(cpu.overflow_dropped, gpu.overflow_dropped) << where;
    EXPECT_EQ(cpu.overflow_replaced, gpu.overflow_replaced) << where;
    EXPECT_EQ(cpu.events_dropped, gpu.events_dropped) << where;
    EXPECT_EQ(cpu.contacts, gpu.contacts) << where;
}

// Sub-emitters (fireworks, fountain), colliders (campfire's embers, spark_burst), and a parent
// that overflows with replace_oldest whose death events overflow a drop_new child.
TEST(EffectInstance, ReportsTheSameCountersOnBothBackends) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    uint64_t replaced = 0;
    uint64_t dropped = 0;
    for (const char* path : {"examples/effects/campfire.json", "examples/effects/fireworks.json",
                             "examples/effects/fountain.json", "examples/effects/spark_burst.json",
                             "tests/data/runtime/overflowing_parent.json"}) {
        std::shared_ptr<const CompiledEffect> effect = loadEffect(path);
        ASSERT_NE(effect, nullptr);
        auto cpu = makeInstance(effect, BackendRequest::cpu, device);
        auto gpu = makeInstance(effect, BackendRequest::gpu, device);
        ASSERT_NE(cpu, nullptr);
        ASSERT_NE(gpu, nullptr);
        EXPECT_EQ(cpu->backend.backend, Backend::cpu);
        EXPECT_EQ(gpu->backend.backend, Backend::gpu);
        std::vector<EmitterStatistics> cpu_stats;
        std::vector<EmitterStatistics> gpu_stats;
        for (uint32_t checkpoint = 1; checkpoint <= 4; ++checkpoint) {
            runSteps(*cpu, 30);
            runSteps(*gpu, 30);
            ASSERT_TRUE(gpu->gpu->errors.empty()) << allMessages(gpu->gpu->errors);
            emitterStatistics(*cpu, cpu_stats);
            emitterStatistics(*gpu, gpu_stats);
            ASSERT_EQ(cpu_stats.size(), effect->emitters.size());
            ASSERT_EQ(gpu_stats.size(), effect->emitters.size());
            for (uint32_t e = 0; e < cpu_stats.size(); ++e) {
                expectSameStatistics(cpu_stats[e], gpu_stats[e],
                                     std::string(path) + " emitter " + std::to_string(e) +
                                         " after " + std::to_string(checkpoint * 30) + " steps");
                EXPECT_EQ(cpu_stats[e].live, emitterLive(*cpu, e));
            }
            EXPECT_EQ(liveCount(*cpu), liveCount(*gpu)) << path;
            EXPECT_EQ(finished(*cpu), finished(*gpu)) << path;
        }
        for (const EmitterStatistics& s : gpu_stats) {
            replaced += s.overflow_replaced;
            dropped += s.overflow_dropped;
        }
        std::vector<std::string> messages;
        appendValidationMessages(*gpu, messages);
        EXPECT_TRUE(messages.empty()) << messages.front();
    }
    // The overflowing effect did overflow both ways, so the comparison covered both counters.
    EXPECT_GT(replaced, 0u);
    EXPECT_GT(dropped, 0u);
}

// On the CPU the instance drives the backend and nothing else: its state after a run of whole
// steps is the backend's own after as many stepOnce calls, bit for bit.
TEST(EffectInstance, RunsTheCpuBackendExactly) {
    std::shared_ptr<const CompiledEffect> effect = loadEffect("examples/effects/fireworks.json");
    ASSERT_NE(effect, nullptr);
    auto instance = makeInstance(effect, BackendRequest::cpu, SimulationDevice{});
    ASSERT_NE(instance, nullptr);
    std::unique_ptr<cpu::CpuEffect> direct = cpu::createCpuEffect(effect, cpu::CpuConfig{});
    StepRun run;
    run.stop_when_finished = false;
    EXPECT_EQ(runSteps(*instance, 200, run), 200u);
    for (int i = 0; i < 200; ++i) cpu::stepOnce(*direct);
    EXPECT_EQ(cpu::stateHash(*instance->cpu), cpu::stateHash(*direct));
    EXPECT_EQ(liveCount(*instance), cpu::liveCount(*direct));
    EXPECT_DOUBLE_EQ(simulationTime(*instance), 200.0 * effect->effect.fixed_timestep_s);
}

// Host frames: whole fixed steps, the catch-up cap dropping (and reporting) the excess.
TEST(EffectInstance, StepsHostFramesThroughTheDriver) {
    std::shared_ptr<const CompiledEffect> effect = loadEffect("examples/effects/campfire.json");
    ASSERT_NE(effect, nullptr);
    auto instance = makeInstance(effect, BackendRequest::cpu, SimulationDevice{});
    ASSERT_NE(instance, nullptr);
    const double dt = effect->effect.fixed_timestep_s;
    EXPECT_EQ(step(*instance, 3 * dt).steps, 3u);
    EXPECT_EQ(instance->steps_run, 3u);
    const FrameReport late = step(*instance, 20 * dt); // the default cap is 8 steps
    EXPECT_EQ(late.steps, 8u);
    EXPECT_EQ(late.discarded_steps, 12u);
    EXPECT_EQ(driverStatistics(*instance).discarded_steps, 12u);
    EXPECT_EQ(instance->steps_run, 11u);
}

// A run along a motion ends placed where the motion is at the run's end; a restart goes back to
// time 0 with no particles, placed where asked.
TEST(EffectInstance, FollowsAMotionAndRestarts) {
    struct Slide final : InstanceMotion {
        Rows3x4 worldFromEffectAt(double time_s) const override {
            return makeRigidTransform(static_cast<float>(time_s), 0, 0, 0);
        }
    };
    std::shared_ptr<const CompiledEffect> effect = loadEffect("examples/effects/campfire.json");
    ASSERT_NE(effect, nullptr);
    auto instance = makeInstance(effect, BackendRequest::cpu, SimulationDevice{});
    ASSERT_NE(instance, nullptr);
    const Slide slide;
    StepRun run;
    run.motion = &slide;
    runSteps(*instance, 60, run);
    const float end_x = static_cast<float>(60.0 * effect->effect.fixed_timestep_s);
    EXPECT_FLOAT_EQ(instance->world_from_effect.rows[0].w, end_x);
    EXPECT_FLOAT_EQ(instance->cpu->world_from_effect.rows[0].w, end_x);
    EXPECT_GT(liveCount(*instance), 0u);
    restart(*instance, makeRigidTransform(-1, 0, 0, 0));
    EXPECT_EQ(instance->steps_run, 0u);
    EXPECT_EQ(liveCount(*instance), 0u);
    EXPECT_FLOAT_EQ(instance->cpu->step_start.rows[0].w, -1.0f);
}

} // namespace
} // namespace spindrift
