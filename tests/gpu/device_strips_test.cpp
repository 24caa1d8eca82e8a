// Ribbon strips written on the device (gpu/ribbon_strips.h, recordRibbonStrips): the strip pass
// writes the polylines the host builds from the same trails (kernels/ribbon.h), point by
// point within the parity tolerance, and lays out its buffers within the limits.
#include <cstdio>
#include <map>

#include "cook/effect_file.h"
#include "gpu/gpu_parity.h"
#include "gpu/gpu_trails.h"

namespace spindrift::gpu::test {
namespace {

std::shared_ptr<const CompiledEffect> loadSwordTrail() {
    auto effect = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    const std::string path =
        std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/sword_trail.json";
    EXPECT_TRUE(loadCompiledEffect(path, *effect, diagnostics)) << joinedDiagnostics(diagnostics);
    return effect;
}

// portable: the strip pass with one invocation per ribbon, else the subgroup variant (one
// subgroup per ribbon) where the device has subgroup arithmetic, as lavapipe does.
GpuConfig deviceStripsConfig(bool portable) {
    GpuConfig config = testGpuConfig();
    config.device_strips = true;
    config.force_portable_strips = portable;
    return config;
}

// The sword trail on both backends, moving (its space is local: the world transform applies),
// for `frames` frames of one fixed step each.
void runBoth(cpu::CpuEffect& cpu_fx, GpuEffect& gpu_fx, uint32_t frames) {
    const double dt = static_cast<double>(cpu_fx.effect->effect.fixed_timestep_s);
    for (uint32_t frame = 0; frame < frames; ++frame) {
        const float t = static_cast<float>(frame + 1) * 0.05f;
        const Rows3x4 m = makeRigidTransform(0.5f + t, 0.25f * t, -t, 0.7f * t);
        cpu::setTransform(cpu_fx, m);
        setTransform(gpu_fx, m);
        cpu::advanceFrame(cpu_fx, dt);
        advanceFrame(gpu_fx, dt);
        ASSERT_TRUE(gpu_fx.errors.empty()) << joinedDiagnostics(gpu_fx.errors);
    }
}

// What expectDeviceStrips compared.
struct StripComparison {
    uint64_t points = 0;  // strip points compared
    uint32_t longest = 0; // points of the longest polyline
    uint64_t particles = 0;
};

// Runs `effect` `frames` frames on both backends, then checks every live particle's block of the
// device strips against the polylines both host writers build: the CPU backend's (matched by
// key) and the host's own from the trails gathered on the device (same order), the same point
// count exactly and each point within the parity tolerance.
StripComparison expectDeviceStrips(const std::shared_ptr<const CompiledEffect>& effect,
                                   uint32_t frames, bool portable) {
    StripComparison result;
    auto cpu_fx = cpu::createCpuEffect(effect, cpu::CpuConfig{});
    std::vector<Diagnostic> d;
    auto gpu_fx = createGpuEffect(effect, deviceStripsConfig(portable), d);
    if (gpu_fx == nullptr) {
        ADD_FAILURE() << joinedDiagnostics(d);
        return result;
    }
    // Lavapipe (CI) has subgroup arithmetic: both variants must really run there.
    if (gpu_fx->gpu->device_name.find("llvmpipe") != std::string::npos) {
        EXPECT_EQ(gpu_fx->gpu->passes->variant.subgroup_strips, !portable);
    }
    runBoth(*cpu_fx, *gpu_fx, frames);
    if (::testing::Test::HasFailure()) return result;
    EXPECT_TRUE(submitDrawOutput(*gpu_fx, GpuDrawRequest{}, d)) << joinedDiagnostics(d);
    std::vector<DrawRecord> records;
    EXPECT_TRUE(readBackDrawRecordsForTest(*gpu_fx, records, d)) << joinedDiagnostics(d);
    if (::testing::Test::HasFailure()) return result;

    float worst = 0;
    size_t first_record = 0;
    for (uint32_t e = 0; e < effect->emitters.size(); ++e) {
        const auto live = static_cast<size_t>(gpu_fx->stats[e].live);
        const std::span<const DrawRecord> emitter_records(records.data() + first_record, live);
        first_record += live;
        const GpuStripSource source = deviceStripSource(*gpu_fx, e);
        if (effect->emitters[e].render_type != kRenderRibbon) {
            EXPECT_EQ(source.points, 0u) << "emitter " << e << " is not a ribbon";
            continue;
        }
        EXPECT_NE(source.points, 0u);
        EXPECT_EQ(source.points_per_strip, effect->emitters[e].ribbon_max_points + 1);
        EXPECT_GE(source.max_strips, live);
        std::vector<StripPoint> points;
        std::vector<uint32_t> counts;
        EXPECT_TRUE(readBackDeviceStripsForTest(*gpu_fx, e, points, counts, d))
            << joinedDiagnostics(d);
        if (::testing::Test::HasFailure()) return result;

        // The CPU's polylines, per slot; the host-built GPU ones, per record.
        const cpu::ParticlePool& pool = cpu_fx->pools[e];
        const cpu::TrailStore& trails = cpu_fx->trails[e];
        EXPECT_EQ(pool.count, live);
        std::vector<StripPoint> cpu_points, host_points;
        std::vector<uint32_t> cpu_segments, host_segments;
        cpu::writeRibbonStrips(*cpu_fx, e, cpu_points, cpu_segments);
        writeRibbonStrips(*gpu_fx, e, emitter_records, host_points, host_segments);
        std::map<uint32_t, uint32_t> slot_of;
        std::vector<size_t> cpu_first(pool.count);
        std::vector<uint32_t> cpu_n(pool.count);
        size_t at = 0;
        for (uint32_t slot = 0; slot < pool.count; ++slot) {
            slot_of[pool.key[slot]] = slot;
            const vec3 head(pool.position_x[slot], pool.position_y[slot], pool.position_z[slot]);
            cpu_first[slot] = at;
            cpu_n[slot] =
                polylinePoints(head, trails.count[slot], cpu::trailPoint(trails, slot, 0));
            at += cpu_n[slot];
        }
        size_t host_at = 0;
        for (uint32_t i = 0; i < live; ++i) {
            const std::string where = "emitter " + std::to_string(e) + " particle " +
                                      std::to_string(i) + " key " +
                                      std::to_string(emitter_records[i].key);
            const auto found = slot_of.find(emitter_records[i].key);
            if (found == slot_of.end()) {
                ADD_FAILURE() << where << ": alive on the GPU only";
                return result;
            }
            const uint32_t slot = found->second;
            const uint32_t n = counts[i];
            EXPECT_EQ(n, cpu_n[slot]) << where << ": points";
            EXPECT_LE(n, source.points_per_strip) << where;
            if (::testing::Test::HasFailure()) return result;
            const StripPoint* block = points.data() + size_t{i} * source.points_per_strip;
            for (uint32_t k = 0; k < n; ++k) {
                const std::string point = where + " point " + std::to_string(k);
                worst = std::max(worst, compareStripPoints(cpu_points[cpu_first[slot] + k],
                                                           block[k], point + " (cpu backend)"));
                worst = std::max(worst, compareStripPoints(host_points[host_at + k], block[k],
                                                           point + " (host-built)"));
            }
            host_at += n;
            result.points += n;
            result.longest = std::max(result.longest, n);
            ++result.particles;
            if (::testing::Test::HasFailure()) return result;
        }
        EXPECT_EQ(host_at, host_points.size());
    }
    EXPECT_TRUE(validationMessages(*gpu_fx).empty()) << joined(validationMessages(*gpu_fx));
    std::printf("device strips: %llu points of %llu particles compared, largest difference %g\n",
                static_cast<unsigned long long>(result.points),
                static_cast<unsigned long long>(result.particles), static_cast<double>(worst));
    return result;
}

TEST(DeviceStrips, SwordTrailStripsWrittenOnTheDeviceEqualTheHostBuiltOnes) {
    for (const bool portable : {false, true}) {
        const StripComparison r = expectDeviceStrips(loadSwordTrail(), 28, portable);
        EXPECT_GT(r.points, 20u) << "strip points compared, portable " << portable;
        EXPECT_GT(r.longest, 4u) << "a trail of several points, portable " << portable;
    }
}

// Many particles, rings that wrap (12 points), slow particles that skip steps, a taper, stable
// order with uv_tiling: blocks are found by alive-list index whatever the slots. Polylines of up
// to 13 points take two rounds of lavapipe's 8-lane subgroups in the subgroup variant (the
// distance carried from one round to the next).
TEST(DeviceStrips, BusyRibbonStripsWrittenOnTheDeviceEqualTheHostBuiltOnes) {
    for (const bool stable : {false, true})
        for (const bool portable : {false, true}) {
            EffectDesc fx;
            fx.name = "busy_ribbons";
            fx.seed = 5;
            fx.capacity = 128;
            EmitterDesc e;
            e.name = "trails";
            e.capacity = 128;
            e.spawn.rate_per_s = 90;
            e.init.lifetime_s = {0.5f, 1.5f};
            e.init.speed = {0.1f, 3};
            e.update.push_back(UpdateModule{true, GravityModule{}});
            e.render.type = RenderType::ribbon;
            e.render.stable_order = stable;
            e.render.ribbon.max_points = 12;
            e.render.ribbon.min_sample_distance = 0.01f;
            e.render.ribbon.taper = 0.5f;
            e.render.ribbon.uv_tiling = stable ? 2.0f : 0.0f;
            fx.emitters.push_back(e);
            const StripComparison r = expectDeviceStrips(compileOrFail(fx), 60, portable);
            EXPECT_GT(r.particles, 40u) << "stable " << stable << ", portable " << portable;
            EXPECT_GE(r.longest, 12u) << "full rings, portable " << portable;
        }
}

// Without device_strips no strip buffer is made, and the strip pass records nothing.
TEST(DeviceStrips, NoStripBufferUnlessAsked) {
    const auto effect = loadSwordTrail();
    std::vector<Diagnostic> d;
    auto gpu_fx = createGpuEffect(effect, testGpuConfig(), d);
    ASSERT_NE(gpu_fx, nullptr) << joinedDiagnostics(d);
    for (uint32_t e = 0; e < effect->emitters.size(); ++e) {
        EXPECT_EQ(deviceStripSource(*gpu_fx, e).points, 0u);
        EXPECT_EQ(gpu_fx->trail_layout[e].strips_bytes, 0u);
    }
    std::vector<StripPoint> points;
    std::vector<uint32_t> counts;
    EXPECT_FALSE(readBackDeviceStripsForTest(*gpu_fx, 0, points, counts, d));
}

// A strip buffer holds capacity blocks of max_points + 1 StripPoints, then a count per block; it
// counts against the buffer and total limits like the trails, naming the emitter.
TEST(DeviceStrips, LaysOutStripBuffersWithinTheLimits) {
    EffectDesc fx;
    fx.name = "ribbons";
    fx.capacity = 256;
    EmitterDesc e;
    e.name = "trail";
    e.capacity = 256;
    e.render.type = RenderType::ribbon;
    e.render.ribbon.max_points = 10;
    fx.emitters.push_back(e);
    const auto compiled = compileOrFail(fx);
    std::vector<TrailRegion> regions;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutTrails(*compiled, PoolLimits{}, 0, true, regions, d)) << joinedDiagnostics(d);
    ASSERT_EQ(regions.size(), 1u);
    EXPECT_EQ(regions[0].strip_counts_offset_bytes, 256u * 11 * 48); // a multiple of 256
    EXPECT_EQ(regions[0].strips_bytes, 256u * 11 * 48 + 256 * 4);

    PoolLimits small;
    small.buffer_bytes = 100000; // the trails (33 KiB) fit, the strips (136 KiB) do not
    EXPECT_FALSE(layoutTrails(*compiled, small, 0, true, regions, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].path, "$.emitters[0].render.max_points");
    EXPECT_NE(d[0].message.find("device ribbon strips"), std::string::npos) << d[0].message;
    d.clear();
    EXPECT_TRUE(layoutTrails(*compiled, small, 0, false, regions, d)) << joinedDiagnostics(d);
}

} // namespace
} // namespace spindrift::gpu::test
