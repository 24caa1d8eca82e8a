// Runs an effect on the CPU and the GPU backends side by side and compares them
// (docs/gpu-backend.md, "Parity"): live counts and statistics exactly, every frame; draw records
// matched by (emitter, key) within the documented tolerance, and in the same order for
// stable-order emitters.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/compile_effect.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "cpu/trails.h"
#include "gpu/gpu_effect.h"
#include "gpu/gpu_test_effects.h"
#include "gpu/ribbon_strips.h"

namespace spindrift::gpu::test {

// |gpu - cpu| <= kAbsoluteTolerance + kRelativeTolerance * |cpu|, per component
// (docs/gpu-backend.md says why the GPU may differ at all).
inline constexpr float kAbsoluteTolerance = 1e-4f;
inline constexpr float kRelativeTolerance = 1e-4f;

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

// Validation on; each pool buffer and draw-record chunk at most max_buffer_bytes (tests force
// tiny buffers so columns and draw records split).
inline GpuConfig testGpuConfig(uint64_t max_buffer_bytes = kGpuMaxBufferBytes) {
    GpuConfig config;
    config.validation = true;
    config.max_buffer_bytes = max_buffer_bytes;
    return config;
}

struct ParityResult {
    float max_abs_error = 0;           // largest |gpu - cpu| of any compared component
    uint64_t particles = 0;            // compared at the end
    uint64_t in_order = 0;             // of those, compared in draw order (stable-order emitters)
    uint64_t replaced = 0;             // particles replace_oldest replaced on the CPU, over the run
    uint64_t trail_points = 0;         // recorded ribbon trail points compared, matched by key
    uint64_t strip_points = 0;         // ribbon strip points compared, matched by key
    uint64_t events_dropped = 0;       // sub-emitter events past the step limit, over the run
    std::vector<uint64_t> per_emitter; // particles compared per emitter
    std::vector<uint64_t> births;      // per emitter over the run (the CPU's, as the GPU's)
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
    // The flipbook frame: integer part the frame, fraction the blend. Within the tolerance like
    // every value (an NVIDIA GPU rounds its age arithmetic a last bit differently from
    // lavapipe); a different frame differs by about 1 and fails.
    worst = std::max(worst, std::fabs(g.flipbook_frame - c.flipbook_frame));
    EXPECT_TRUE(within(c.flipbook_frame, g.flipbook_frame))
        << where << " flipbook frame: cpu " << c.flipbook_frame << " gpu " << g.flipbook_frame;
    return worst;
}

inline float compareVec(vec3 c, vec3 g, const std::string& where) {
    float worst = 0;
    for (int k = 0; k < 3; ++k) {
        worst = std::max(worst, std::fabs(g[k] - c[k]));
        EXPECT_TRUE(within(c[k], g[k]))
            << where << " [" << k << "]: cpu " << c[k] << " gpu " << g[k];
    }
    return worst;
}

inline float compareStripPoints(const StripPoint& c, const StripPoint& g,
                                const std::string& where) {
    float worst = 0;
    const vec4 cv[] = {c.position_width, c.color, c.tangent_u};
    const vec4 gv[] = {g.position_width, g.color, g.tangent_u};
    for (int v = 0; v < 3; ++v) {
        for (int k = 0; k < 4; ++k) {
            worst = std::max(worst, std::fabs(gv[v][k] - cv[v][k]));
            EXPECT_TRUE(within(cv[v][k], gv[v][k])) << where << " field " << v << "[" << k
                                                    << "]: cpu " << cv[v][k] << " gpu " << gv[v][k];
        }
    }
    return worst;
}

// Points of a particle's strip polyline by the writers' rule (kernels/ribbon.h): the
// head and the recorded points, less the newest when it is the head; 0 below 2. Lets a test split
// a batch into per-particle polylines and match them by key.
inline uint32_t polylinePoints(vec3 head, uint32_t recorded, vec3 newest) {
    const uint32_t n = 1 + recorded - (recorded != 0 && newest == head ? 1u : 0u);
    return n < 2 ? 0 : n;
}

// Every ribbon emitter's trails and strips, matched by key (gpu_records: the records
// readBackDrawRecords returned, emitters packed in compiled order, before any sorting):
// - each live particle's recorded points, newest first: the same count exactly, each point and
//   the head within the tolerance;
// - the strips both backends' writeRibbonStrips build: the same number of points and segments,
//   each particle's polyline point by point within the tolerance; for a stable-order emitter
//   also in the same order (both draw in birth order).
inline void compareTrails(const CompiledEffect& effect, const cpu::CpuEffect& cpu_fx,
                          const GpuEffect& gpu_fx, const std::vector<DrawRecord>& gpu_records,
                          ParityResult& result) {
    size_t first = 0;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        size_t count = 0;
        while (first + count < gpu_records.size() && gpu_records[first + count].emitter_index == e)
            ++count;
        const std::span<const DrawRecord> records(gpu_records.data() + first, count);
        first += count;
        if (effect.emitters[e].render_type != kRenderRibbon) continue;
        const cpu::ParticlePool& pool = cpu_fx.pools[e];
        const cpu::TrailStore& trails = cpu_fx.trails[e];
        std::map<uint32_t, uint32_t> slot_of; // key -> CPU slot
        for (uint32_t slot = 0; slot < pool.count; ++slot) slot_of[pool.key[slot]] = slot;
        // The CPU's polylines per slot, then the GPU's per record, in writing order.
        std::vector<StripPoint> cpu_points, gpu_points;
        std::vector<uint32_t> cpu_segments, gpu_segments;
        cpu::writeRibbonStrips(cpu_fx, e, cpu_points, cpu_segments);
        writeRibbonStrips(gpu_fx, e, records, gpu_points, gpu_segments);
        ASSERT_EQ(gpu_points.size(), cpu_points.size()) << "emitter " << e << " strip points";
        ASSERT_EQ(gpu_segments.size(), cpu_segments.size()) << "emitter " << e << " segments";
        std::vector<size_t> cpu_first(pool.count);
        std::vector<uint32_t> cpu_n(pool.count);
        size_t at = 0;
        for (uint32_t slot = 0; slot < pool.count; ++slot) {
            const vec3 head(pool.position_x[slot], pool.position_y[slot], pool.position_z[slot]);
            cpu_first[slot] = at;
            cpu_n[slot] =
                polylinePoints(head, trails.count[slot], cpu::trailPoint(trails, slot, 0));
            at += cpu_n[slot];
        }
        const bool in_order = (effect.emitters[e].render_flags & kRenderFlagStableOrder) != 0;
        at = 0;
        for (uint32_t i = 0; i < records.size(); ++i) {
            const std::string where =
                "emitter " + std::to_string(e) + " key " + std::to_string(records[i].key);
            const auto found = slot_of.find(records[i].key);
            ASSERT_NE(found, slot_of.end()) << where << ": alive on the GPU only";
            const uint32_t slot = found->second;
            if (in_order) {
                EXPECT_EQ(slot, i) << where << ": trail not in birth order";
            }
            const GatheredTrail g = gatheredTrail(gpu_fx, e, i);
            ASSERT_EQ(g.count, trails.count[slot]) << where << ": recorded points";
            const vec3 head(pool.position_x[slot], pool.position_y[slot], pool.position_z[slot]);
            result.max_abs_error =
                std::max(result.max_abs_error, compareVec(head, g.head_sim, where + " head"));
            for (uint32_t k = 0; k < g.count; ++k) {
                result.max_abs_error = std::max(
                    result.max_abs_error, compareVec(cpu::trailPoint(trails, slot, k), g.point(k),
                                                     where + " point " + std::to_string(k)));
            }
            result.trail_points += g.count;
            const uint32_t n = polylinePoints(g.head_sim, g.count, g.count ? g.point(0) : head);
            ASSERT_EQ(n, cpu_n[slot]) << where << ": strip points";
            for (uint32_t k = 0; k < n; ++k) {
                result.max_abs_error =
                    std::max(result.max_abs_error,
                             compareStripPoints(cpu_points[cpu_first[slot] + k], gpu_points[at + k],
                                                where + " strip point " + std::to_string(k)));
            }
            at += n;
            result.strip_points += n;
            if (::testing::Test::HasFailure()) return;
        }
        if (in_order) {
            EXPECT_EQ(gpu_segments, cpu_segments) << "emitter " << e;
        }
    }
}

inline bool byEmitterAndKey(const DrawRecord& a, const DrawRecord& b) {
    if (a.emitter_index != b.emitter_index) return a.emitter_index < b.emitter_index;
    if (a.key != b.key) return a.key < b.key;
    return a.position_size.x < b.position_size.x;
}

// Steps both backends `steps` frames of exactly one fixed step (the transform moving along
// `path` when given), comparing counts and statistics every frame and draw records at the end.
// `config` is the GPU backend's (tests force tiny buffers or the portable compaction with it).
// before_frame, when set, runs before each frame with both instances (a test that changes both
// mid-run: user parameters).
using ParityHook = std::function<void(uint32_t frame, cpu::CpuEffect&, GpuEffect&)>;
inline ParityResult runParity(std::shared_ptr<const CompiledEffect> effect, uint32_t steps,
                              bool moving = false, const GpuConfig& config = testGpuConfig(),
                              const ParityHook& before_frame = {}) {
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
        if (before_frame) before_frame(frame, *cpu_fx, *gpu_fx);
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
    compareTrails(*effect, *cpu_fx, *gpu_fx, gpu_records, result);
    if (::testing::Test::HasFailure()) return result;
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
        result.births.push_back(c.births);
        result.replaced += c.overflow_replaced;
        result.events_dropped += c.events_dropped;
    }
    return result;
}

// Steps in the parity tests of single effects (gpu_parity_test, sub_emitter_parity_test).
inline constexpr uint32_t kParitySteps = 60;

// Prints what a parity run compared and the largest difference, for the test log.
inline void printParity(const ParityResult& r) {
    std::printf("  %u particles, %u trail points, %u strip points compared, largest difference "
                "%g\n",
                static_cast<unsigned>(r.particles), static_cast<unsigned>(r.trail_points),
                static_cast<unsigned>(r.strip_points), static_cast<double>(r.max_abs_error));
}

// runParity, printed.
inline ParityResult expectParity(std::shared_ptr<const CompiledEffect> effect, uint32_t steps,
                                 bool moving = false, const GpuConfig& config = testGpuConfig()) {
    const ParityResult r = runParity(std::move(effect), steps, moving, config);
    printParity(r);
    return r;
}

// An effect built in code, compiled, kParitySteps steps, printed.
inline ParityResult expectParity(const EffectDesc& desc, bool moving = false) {
    return expectParity(compileOrFail(desc), kParitySteps, moving);
}

} // namespace spindrift::gpu::test
