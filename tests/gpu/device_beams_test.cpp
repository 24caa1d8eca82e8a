// Beams written on the device (gpu/ribbon_strips.h, recordDeviceStrips in beam mode): every live
// particle's block holds the polyline the host builds with appendBeamStrips (render/beam_strips.h)
// from the same curve and jitter cycle, point by point within the parity tolerance, both from the
// GPU's own records (record i is block i) and from the CPU backend's (matched by key); the strip
// buffers are laid out within the limits, and a request without a beam's curve is an error.
#include <cstdio>
#include <map>

#include "cpu/draw_records.h"
#include "gpu/gpu_parity.h"
#include "gpu/gpu_test_effects.h"
#include "gpu/gpu_trails.h"
#include "gpu/ribbon_strips.h"
#include "render/beam_strips.h"
#include "render/strip_params.h"

namespace spindrift::gpu::test {
namespace {

GpuConfig deviceBeamsConfig() {
    GpuConfig config = testGpuConfig();
    config.device_strips = true;
    return config;
}

// The transform of frame `frame`: the effect moves and turns, so the curve is not the authored one.
Rows3x4 movingTransform(uint32_t frame) {
    const float t = static_cast<float>(frame + 1) * 0.05f;
    return makeRigidTransform(0.3f + t, -0.2f * t, 0.5f * t, 0.4f * t);
}

// The request that draws every beam emitter of `effect` placed at world_from_effect, with the
// jitter cycle of simulation time sim_time_s: what the scene player asks for.
GpuDrawRequest beamRequest(const CompiledEffect& effect, const Rows3x4& world_from_effect,
                           float sim_time_s) {
    GpuDrawRequest request;
    request.beams.resize(effect.emitters.size());
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        if (effect.emitters[e].render_type != kRenderBeam) continue;
        BeamFrame& beam = request.beams[e];
        beam.curve = render::beamCurve(effect.emitters[e], world_from_effect);
        beam.jitter_cycle = sdBeamJitterCycle(sim_time_s, beam.curve.end_frequency.w);
    }
    return request;
}

struct BeamComparison {
    uint64_t points = 0;    // strip points compared
    uint64_t particles = 0; // beams compared, over all frames
    uint32_t frames_with_beams = 0;
    uint32_t cycles_seen = 0; // distinct jitter cycles drawn
    float worst = 0;
};

// Compares emitter e's device blocks after the last submitDrawOutput with the host-built beams:
// gpu_records are its records as the GPU read them back, cpu_records the CPU backend's.
void compareBeamEmitter(GpuEffect& gpu_fx, uint32_t e, const BeamFrame& frame,
                        std::span<const DrawRecord> gpu_records,
                        std::span<const DrawRecord> cpu_records, BeamComparison& result) {
    const EmitterRecord& emitter = gpu_fx.effect->emitters[e];
    const uint32_t block = std::max(emitter.beam_segments, 1u) + 1;
    const GpuStripSource source = deviceStripSource(gpu_fx, e);
    EXPECT_NE(source.points, 0u);
    EXPECT_EQ(source.points_per_strip, block);
    EXPECT_GE(source.max_strips, gpu_records.size());
    ASSERT_EQ(gpu_records.size(), cpu_records.size()) << "live counts";
    std::vector<StripPoint> points;
    std::vector<uint32_t> counts;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(readBackDeviceStripsForTest(gpu_fx, e, points, counts, d)) << joinedDiagnostics(d);

    std::vector<StripPoint> host_points;
    std::vector<uint32_t> host_segments;
    render::appendBeamStrips(frame.curve, frame.jitter_cycle, gpu_records, host_points,
                             host_segments);
    ASSERT_EQ(host_points.size(), gpu_records.size() * block);
    std::map<uint32_t, size_t> cpu_index;
    for (size_t i = 0; i < cpu_records.size(); ++i) cpu_index[cpu_records[i].key] = i;
    for (size_t i = 0; i < gpu_records.size(); ++i) {
        const std::string where = "emitter " + std::to_string(e) + " beam " + std::to_string(i) +
                                  " key " + std::to_string(gpu_records[i].key) + " cycle " +
                                  std::to_string(frame.jitter_cycle);
        const auto found = cpu_index.find(gpu_records[i].key);
        ASSERT_NE(found, cpu_index.end()) << where << ": alive on the GPU only";
        EXPECT_EQ(counts[i], block) << where;
        std::vector<StripPoint> cpu_points;
        std::vector<uint32_t> cpu_segments;
        render::appendBeamStrips(frame.curve, frame.jitter_cycle,
                                 cpu_records.subspan(found->second, 1), cpu_points, cpu_segments);
        const StripPoint* device = points.data() + i * block;
        for (uint32_t k = 0; k < block; ++k) {
            const std::string point = where + " point " + std::to_string(k);
            result.worst = std::max(
                result.worst, compareStripPoints(host_points[i * block + k], device[k],
                                                 point + " (host-built from the GPU records)"));
            result.worst =
                std::max(result.worst, compareStripPoints(cpu_points[k], device[k],
                                                          point + " (cpu backend's records)"));
        }
        if (::testing::Test::HasFailure()) return;
        result.points += block;
        ++result.particles;
    }
}

// Runs `effect` on both backends, moving, one fixed step a frame, and after every frame compares
// every beam emitter's device strips with the host-built beams (compareBeamEmitter).
BeamComparison expectDeviceBeams(const std::shared_ptr<const CompiledEffect>& effect,
                                 uint32_t frames) {
    BeamComparison result;
    auto cpu_fx = cpu::createCpuEffect(effect, cpu::CpuConfig{});
    std::vector<Diagnostic> d;
    auto gpu_fx = createGpuEffect(effect, deviceBeamsConfig(), d);
    if (gpu_fx == nullptr) {
        ADD_FAILURE() << joinedDiagnostics(d);
        return result;
    }
    const float dt = effect->effect.fixed_timestep_s;
    std::vector<DrawRecord> cpu_records(effect->effect.capacity);
    std::map<uint32_t, bool> cycles;
    for (uint32_t frame = 0; frame < frames; ++frame) {
        const Rows3x4 m = movingTransform(frame);
        cpu::setTransform(*cpu_fx, m);
        setTransform(*gpu_fx, m);
        cpu::advanceFrame(*cpu_fx, dt);
        advanceFrame(*gpu_fx, dt);
        const float sim_time_s = static_cast<float>(frame + 1) * dt;
        const GpuDrawRequest request = beamRequest(*effect, m, sim_time_s);
        EXPECT_TRUE(submitDrawOutput(*gpu_fx, request, d)) << joinedDiagnostics(d);
        std::vector<DrawRecord> gpu_records;
        EXPECT_TRUE(readBackDrawRecordsForTest(*gpu_fx, gpu_records, d)) << joinedDiagnostics(d);
        cpu::writeDrawRecords(*cpu_fx, cpu_records.data());
        if (::testing::Test::HasFailure()) return result;

        size_t gpu_first = 0;
        size_t cpu_first = 0;
        bool any = false;
        for (uint32_t e = 0; e < effect->emitters.size(); ++e) {
            const auto gpu_live = static_cast<size_t>(gpu_fx->stats[e].live);
            const size_t cpu_live = cpu_fx->pools[e].count;
            const std::span<const DrawRecord> gpu_e(gpu_records.data() + gpu_first, gpu_live);
            const std::span<const DrawRecord> cpu_e(cpu_records.data() + cpu_first, cpu_live);
            gpu_first += gpu_live;
            cpu_first += cpu_live;
            if (effect->emitters[e].render_type != kRenderBeam) {
                EXPECT_EQ(deviceStripSource(*gpu_fx, e).points, 0u) << "emitter " << e;
                continue;
            }
            if (gpu_live == 0 && cpu_live == 0) continue;
            any = true;
            cycles[request.beams[e].jitter_cycle] = true;
            compareBeamEmitter(*gpu_fx, e, request.beams[e], gpu_e, cpu_e, result);
            if (::testing::Test::HasFailure()) return result;
        }
        result.frames_with_beams += any ? 1 : 0;
    }
    result.cycles_seen = static_cast<uint32_t>(cycles.size());
    EXPECT_TRUE(validationMessages(*gpu_fx).empty()) << joined(validationMessages(*gpu_fx));
    std::printf("device beams: %llu points of %llu beams over %u frames compared, largest "
                "difference %g\n",
                static_cast<unsigned long long>(result.points),
                static_cast<unsigned long long>(result.particles), result.frames_with_beams,
                static_cast<double>(result.worst));
    return result;
}

TEST(DeviceBeams, LightningWrittenOnTheDeviceEqualsTheHostBuiltBeams) {
    const BeamComparison r = expectDeviceBeams(loadSample("lightning.json"), 90);
    EXPECT_GT(r.frames_with_beams, 10u) << "frames with a live bolt";
    EXPECT_GT(r.cycles_seen, 4u) << "the jitter drawn anew as time goes on";
    EXPECT_GT(r.points, 10u * 49u);
}

// Many beams at once, with sag, tangents, jitter and a colour gradient: blocks are found by
// record index whatever the slots, and a beam emitter beside a billboard emitter.
TEST(DeviceBeams, BusyBeamsWrittenOnTheDeviceEqualTheHostBuiltOnes) {
    EmitterDesc beams;
    beams.name = "beams";
    beams.capacity = 64;
    beams.spawn.rate_per_s = 150;
    beams.init.lifetime_s = {0.2f, 0.5f};
    beams.init.speed = {0, 0};
    beams.update.push_back(UpdateModule{true, ColorOverLifeModule{}});
    beams.render.type = RenderType::beam;
    beams.render.beam.start = {0, 0, 0};
    beams.render.beam.end = {2, 1, -1};
    beams.render.beam.start_tangent = {0.5f, 1, 0};
    beams.render.beam.end_tangent = {0, -1, 0.5f};
    beams.render.beam.segments = 7;
    beams.render.beam.sag = 0.4f;
    beams.render.beam.jitter = 0.3f;
    beams.render.beam.jitter_frequency = 15;
    const SprayDesc spray{.name = "sparks", .capacity = 256, .rate_per_s = 60};
    const auto effect = compileOrFail(testEffect(
        {.name = "busy_beams", .seed = 9, .capacity = 64 + 256}, {sprayEmitter(spray), beams}));
    const BeamComparison r = expectDeviceBeams(effect, 40);
    EXPECT_GT(r.particles, 40u * 20u) << "dozens of beams a frame";
}

// Without device_strips a beam emitter has no strip buffer and no beam frames are made.
TEST(DeviceBeams, NoBeamStripsUnlessAsked) {
    const auto effect = loadSample("lightning.json");
    std::vector<Diagnostic> d;
    auto gpu_fx = createGpuEffect(effect, testGpuConfig(), d);
    ASSERT_NE(gpu_fx, nullptr) << joinedDiagnostics(d);
    EXPECT_EQ(deviceStripSource(*gpu_fx, 0).points, 0u);
    EXPECT_EQ(gpu_fx->trail_layout[0].strips_bytes, 0u);
    EXPECT_FALSE(static_cast<bool>(gpu_fx->buffers.beam_frames));
    EXPECT_TRUE(submitDrawOutput(*gpu_fx, GpuDrawRequest{}, d)) << "no beam is drawn from it";
}

// A beam drawn from the device needs its curve: a request without it is an error naming the
// emitter, never a draw of whatever the buffer holds.
TEST(DeviceBeams, RequestWithoutTheBeamCurveIsAnError) {
    const auto effect = loadSample("lightning.json");
    std::vector<Diagnostic> d;
    auto gpu_fx = createGpuEffect(effect, deviceBeamsConfig(), d);
    ASSERT_NE(gpu_fx, nullptr) << joinedDiagnostics(d);
    EXPECT_TRUE(static_cast<bool>(gpu_fx->buffers.beam_frames));
    advanceFrame(*gpu_fx, effect->effect.fixed_timestep_s);
    EXPECT_FALSE(submitDrawOutput(*gpu_fx, GpuDrawRequest{}, d));
    EXPECT_NE(joinedDiagnostics(d).find("beam emitter 'bolt'"), std::string::npos)
        << joinedDiagnostics(d);
}

// A beam's strip buffer holds capacity blocks of segments + 1 StripPoints, then a count per
// block; past the buffer limit it is refused at the beam's segments.
TEST(DeviceBeams, LaysOutBeamStripBuffersWithinTheLimits) {
    EmitterDesc e;
    e.name = "arc";
    e.capacity = 256;
    e.render.type = RenderType::beam;
    e.render.beam.segments = 20;
    const auto compiled = compileOrFail(testEffect({.name = "arcs", .capacity = 256}, {e}));
    std::vector<TrailRegion> regions;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutTrails(*compiled, PoolLimits{}, 0, true, regions, d)) << joinedDiagnostics(d);
    ASSERT_EQ(regions.size(), 1u);
    EXPECT_FALSE(hasTrails(regions[0]));
    EXPECT_EQ(regions[0].strip_block_points, 21u);
    EXPECT_EQ(regions[0].strip_counts_offset_bytes, 256u * 21 * 48); // a multiple of 256
    EXPECT_EQ(regions[0].strips_bytes, 256u * 21 * 48 + 256 * 4);
    EXPECT_EQ(regions[0].buffer_bytes, 0u) << "no trail storage";

    PoolLimits small;
    small.buffer_bytes = 200000; // the strips need 259 KiB
    EXPECT_FALSE(layoutTrails(*compiled, small, 0, true, regions, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].path, "$.emitters[0].render.segments");
    EXPECT_NE(d[0].message.find("device beam strips"), std::string::npos) << d[0].message;
    d.clear();
    EXPECT_TRUE(layoutTrails(*compiled, small, 0, false, regions, d)) << joinedDiagnostics(d);
    EXPECT_EQ(regions[0].strips_bytes, 0u);
}

} // namespace
} // namespace spindrift::gpu::test
