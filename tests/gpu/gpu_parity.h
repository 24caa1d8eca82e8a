// Runs an effect on the CPU and the GPU backends side by side and compares them
// (docs/gpu-backend.md, "Parity"): live counts and statistics exactly, every frame; draw records
// matched by (emitter, key) within the documented tolerance, and in the same order for
// stable-order emitters.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "compiler/compile_effect.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "gpu/gpu_effect.h"

namespace spindrift::gpu::test {

// |gpu - cpu| <= kAbsoluteTolerance + kRelativeTolerance * |cpu|, per component
// (docs/gpu-backend.md says why the GPU may differ at all).
inline constexpr float kAbsoluteTolerance = 1e-4f;
inline constexpr float kRelativeTolerance = 1e-4f;

inline std::shared_ptr<const CompiledEffect> compileOrFail(const EffectDesc& desc) {
    auto compiled = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    const bool ok = compileEffect(desc, *compiled, diagnostics);
    for (const Diagnostic& d : diagnostics) ADD_FAILURE() << formatDiagnostic(d);
    EXPECT_TRUE(ok);
    return compiled;
}

inline std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += l + "\n";
    return out;
}

inline std::string joinedDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += formatDiagnostic(d) + "\n";
    return out;
}

inline GpuConfig testGpuConfig() {
    GpuConfig config;
    config.validation = true;
    return config;
}

struct ParityResult {
    float max_abs_error = 0;           // largest |gpu - cpu| of any compared component
    uint64_t particles = 0;            // compared at the end
    uint64_t in_order = 0;             // of those, compared in draw order (stable-order emitters)
    uint64_t replaced = 0;             // particles replace_oldest replaced on the CPU, over the run
    uint64_t events_dropped = 0;       // sub-emitter events past the step limit, over the run
    std::vector<uint64_t> per_emitter; // particles compared per emitter
};

inline bool within(float cpu, float gpu) {
    return std::fabs(gpu - cpu) <= kAbsoluteTolerance + kRelativeTolerance * std::fabs(cpu);
}

// Compares every component of two records of the same particle; returns the largest error.
inline float compareRecords(const DrawRecord& c, const DrawRecord& g, const std::string& where) {
    const float cv[] = {c.position_size.x,
                        c.position_size.y,
                        c.position_size.z,
                        c.position_size.w,
                        c.color.x,
                        c.color.y,
                        c.color.z,
                        c.color.w,
                        c.velocity_rotation.x,
                        c.velocity_rotation.y,
                        c.velocity_rotation.z,
                        c.velocity_rotation.w,
                        c.normalized_age};
    const float gv[] = {g.position_size.x,
                        g.position_size.y,
                        g.position_size.z,
                        g.position_size.w,
                        g.color.x,
                        g.color.y,
                        g.color.z,
                        g.color.w,
                        g.velocity_rotation.x,
                        g.velocity_rotation.y,
                        g.velocity_rotation.z,
                        g.velocity_rotation.w,
                        g.normalized_age};
    static const char* kNames[] = {"px", "py", "pz", "size", "r",        "g",    "b",
                                   "a",  "vx", "vy", "vz",   "rotation", "age_n"};
    float worst = 0;
    for (int k = 0; k < 13; ++k) {
        worst = std::max(worst, std::fabs(gv[k] - cv[k]));
        EXPECT_TRUE(within(cv[k], gv[k]))
            << where << " " << kNames[k] << ": cpu " << cv[k] << " gpu " << gv[k];
    }
    EXPECT_EQ(c.flipbook_frame, g.flipbook_frame) << where;
    return worst;
}

inline bool byEmitterAndKey(const DrawRecord& a, const DrawRecord& b) {
    if (a.emitter_index != b.emitter_index) return a.emitter_index < b.emitter_index;
    if (a.key != b.key) return a.key < b.key;
    return a.position_size.x < b.position_size.x;
}

// Steps both backends `steps` frames of exactly one fixed step (the transform moving along
// `path` when given), comparing counts and statistics every frame and draw records at the end.
// `config` is the GPU backend's (tests force tiny buffers or the portable compaction with it).
inline ParityResult runParity(std::shared_ptr<const CompiledEffect> effect, uint32_t steps,
                              bool moving = false, const GpuConfig& config = testGpuConfig()) {
    ParityResult result;
    cpu::CpuConfig cpu_config;
    auto cpu_fx = cpu::createCpuEffect(effect, cpu_config);
    std::vector<Diagnostic> diagnostics;
    auto gpu_fx = createGpuEffect(effect, config, diagnostics);
    if (gpu_fx == nullptr) {
        ADD_FAILURE() << "createGpuEffect failed:\n" << joinedDiagnostics(diagnostics);
        return result;
    }
    const double dt = static_cast<double>(effect->effect.fixed_timestep_s);
    const auto emitters = static_cast<uint32_t>(effect->emitters.size());
    for (uint32_t frame = 0; frame < steps; ++frame) {
        if (moving) {
            const float t = static_cast<float>(frame + 1) * 0.05f;
            const Rows3x4 m = makeRigidTransform(2.0f * t, 0.5f * t, -t, 0.7f * t);
            cpu::setTransform(*cpu_fx, m);
            setTransform(*gpu_fx, m);
        }
        const FrameReport cr = cpu::advanceFrame(*cpu_fx, dt);
        const FrameReport gr = advanceFrame(*gpu_fx, dt);
        EXPECT_EQ(cr.steps, gr.steps);
        if (!gpu_fx->errors.empty()) {
            ADD_FAILURE() << joinedDiagnostics(gpu_fx->errors);
            return result;
        }
        for (uint32_t e = 0; e < emitters; ++e) {
            const std::string where =
                "frame " + std::to_string(frame) + " emitter " + std::to_string(e);
            const GpuEmitterStats& g = gpu_fx->stats[e];
            const cpu::EmitterStats& c = cpu_fx->stats[e];
            EXPECT_EQ(g.live, cpu_fx->pools[e].count) << where;
            EXPECT_EQ(g.births, c.births) << where;
            EXPECT_EQ(g.deaths, c.deaths) << where;
            EXPECT_EQ(g.overflow_dropped, c.overflow_dropped) << where;
            EXPECT_EQ(g.overflow_replaced, c.overflow_replaced) << where;
            EXPECT_EQ(g.contacts, c.contacts) << where;
            EXPECT_EQ(g.events_dropped, c.events_dropped) << where;
            EXPECT_GE(liveBoundOf(*gpu_fx, e), g.live) << where << ": the live bound is not";
        }
        EXPECT_EQ(cpu::finished(*cpu_fx), finished(*gpu_fx)) << "frame " << frame;
        if (::testing::Test::HasFailure()) return result;
    }
    std::vector<DrawRecord> cpu_records(cpu::liveCount(*cpu_fx));
    cpu_records.resize(cpu::writeDrawRecords(*cpu_fx, cpu_records.data()));
    std::vector<DrawRecord> gpu_records;
    EXPECT_TRUE(readBackDrawRecordsForTest(*gpu_fx, gpu_records, diagnostics))
        << joinedDiagnostics(diagnostics);
    EXPECT_TRUE(validationMessages(*gpu_fx).empty()) << joined(validationMessages(*gpu_fx));
    EXPECT_EQ(gpu_records.size(), cpu_records.size());
    if (gpu_records.size() != cpu_records.size()) return result;
    // A stable-order emitter draws in birth order on both backends: its keys come in the same
    // order (both write emitters in compiled order, so the sequences line up).
    for (size_t i = 0; i < cpu_records.size(); ++i) {
        const uint32_t e = cpu_records[i].emitter_index;
        if ((effect->emitters[e].render_flags & kRenderFlagStableOrder) == 0) continue;
        EXPECT_EQ(gpu_records[i].emitter_index, e) << "record " << i;
        EXPECT_EQ(gpu_records[i].key, cpu_records[i].key)
            << "record " << i << " of stable-order emitter " << e << ": not in birth order";
        if (::testing::Test::HasFailure()) return result;
        ++result.in_order;
    }
    std::sort(cpu_records.begin(), cpu_records.end(), byEmitterAndKey);
    std::sort(gpu_records.begin(), gpu_records.end(), byEmitterAndKey);
    for (size_t i = 0; i < cpu_records.size(); ++i) {
        const DrawRecord& c = cpu_records[i];
        const DrawRecord& g = gpu_records[i];
        EXPECT_EQ(c.emitter_index, g.emitter_index) << "record " << i;
        EXPECT_EQ(c.key, g.key) << "record " << i << ": the same particles are alive";
        if (c.emitter_index != g.emitter_index || c.key != g.key) return result;
        result.max_abs_error = std::max(
            result.max_abs_error, compareRecords(c, g,
                                                 "emitter " + std::to_string(c.emitter_index) +
                                                     " key " + std::to_string(c.key)));
        if (::testing::Test::HasFailure()) return result;
    }
    result.particles = cpu_records.size();
    result.per_emitter.assign(emitters, 0);
    for (const DrawRecord& c : cpu_records) ++result.per_emitter[c.emitter_index];
    for (const cpu::EmitterStats& c : cpu_fx->stats) {
        result.replaced += c.overflow_replaced;
        result.events_dropped += c.events_dropped;
    }
    return result;
}

} // namespace spindrift::gpu::test
