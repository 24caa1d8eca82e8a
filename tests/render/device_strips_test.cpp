// Ribbons and beams drawn straight from the device (render::DeviceStrips, gpu::deviceStripSource):
// the renderer draws a GPU instance's strip blocks with an indirect draw whose count is the live
// count the simulation left on the device. Lavapipe, validation on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/compile_effect.h"
#include "gpu/draw_output.h"
#include "gpu/gpu_effect.h"
#include "gpu/ribbon_strips.h"
#include "render/renderer.h"
#include "render/strip_params.h"

namespace spindrift::render {
namespace {

std::string joinedDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += formatDiagnostic(d) + "\n";
    return out;
}

// fx with the one emitter e, compiled (a failure fails the test).
std::shared_ptr<const CompiledEffect> compileOneEmitter(EffectDesc fx, EmitterDesc e) {
    fx.emitters.push_back(std::move(e));
    auto compiled = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> d;
    EXPECT_TRUE(compileEffect(fx, *compiled, d)) << joinedDiagnostics(d);
    return compiled;
}

// One burst of ribbons at time 0 that all die within 0.3 s, flying out of the origin.
std::shared_ptr<const CompiledEffect> shortRibbonBurst() {
    EffectDesc fx;
    fx.name = "short_ribbons";
    fx.seed = 3;
    fx.capacity = 32;
    fx.duration_s = 2;
    fx.looping = false;
    EmitterDesc e;
    e.name = "trails";
    e.capacity = 32;
    e.spawn.rate_per_s = 0;
    Burst burst;
    burst.count = {20, 20};
    e.spawn.bursts.push_back(burst);
    e.init.lifetime_s = {0.3f, 0.3f};
    e.init.speed = {1.0f, 2.0f};
    e.init.size = {1.0f, 1.0f};
    e.render.type = RenderType::ribbon;
    e.render.blend = BlendMode::additive;
    e.render.ribbon.width = 0.2f;
    e.render.ribbon.taper = 0;
    e.render.ribbon.max_points = 16;
    e.render.ribbon.min_sample_distance = 0.01f;
    return compileOneEmitter(std::move(fx), std::move(e));
}

// One burst of beams at time 0 that all die within 0.3 s, across the view.
std::shared_ptr<const CompiledEffect> shortBeamBurst() {
    EffectDesc fx;
    fx.name = "short_beams";
    fx.seed = 4;
    fx.capacity = 16;
    fx.duration_s = 2;
    fx.looping = false;
    EmitterDesc e;
    e.name = "arcs";
    e.capacity = 16;
    e.spawn.rate_per_s = 0;
    Burst burst;
    burst.count = {6, 6};
    e.spawn.bursts.push_back(burst);
    e.init.lifetime_s = {0.3f, 0.3f};
    e.init.speed = {0, 0};
    e.render.type = RenderType::beam;
    e.render.blend = BlendMode::additive;
    e.render.beam.start = {-1.5f, -0.5f, 0};
    e.render.beam.end = {1.5f, 0.5f, 0};
    e.render.beam.segments = 12;
    e.render.beam.width = 0.15f;
    e.render.beam.sag = 0.3f;
    e.render.beam.jitter = 0.2f;
    return compileOneEmitter(std::move(fx), std::move(e));
}

FrameView frontView() {
    FrameView view;
    view.camera.eye = {0, 0, 4};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 1, 0};
    view.ground.enabled = false;
    return view;
}

uint64_t differingChannels(const Image& a, const Image& b) {
    uint64_t n = 0;
    for (size_t i = 0; i < a.rgba8.size(); ++i) n += a.rgba8[i] != b.rgba8[i] ? 1 : 0;
    return n;
}

// The strip batch of the emitter's device strips; max_strips as given (the live bound, or more).
StripBatch deviceBatch(const gpu::GpuEffect& fx, uint32_t max_strips) {
    const gpu::GpuStripSource s = gpu::deviceStripSource(fx, 0);
    StripBatch batch;
    batch.params = stripParams(fx.effect->emitters[0]);
    batch.device = {s.points, s.point_counts, s.count, s.points_per_strip, max_strips};
    return batch;
}

// A renderer (validation on, width x 64) and `effect` simulated on its device with device
// strips, as the renderer draws them; fx is null (renderer too, if it failed) with errors in d.
struct OnRendererDevice {
    RendererPtr renderer;
    std::unique_ptr<gpu::GpuEffect> fx;
};
OnRendererDevice onRendererDevice(const std::shared_ptr<const CompiledEffect>& effect,
                                  uint32_t width, std::vector<Diagnostic>& d) {
    OnRendererDevice out;
    RendererConfig config;
    config.width = width;
    config.height = 64;
    config.validation = true;
    out.renderer = createRenderer(config, d);
    if (!out.renderer) return out;
    gpu::GpuConfig gpu_config;
    gpu_config.shared_device = rendererContext(*out.renderer);
    gpu_config.device_strips = true;
    out.fx = gpu::createGpuEffect(effect, gpu_config, d);
    return out;
}

// While the effect's one emitter lives (`live` particles after `frames` frames) its strips are
// drawn from the device, `points_per_strip` points a block; once every particle is dead the same
// batch draws nothing, even over every block of the capacity, whose stale polylines are still in
// the buffer: the draw count comes from the live count on the device.
void expectDrawnFromTheDeviceThenNothing(const std::shared_ptr<const CompiledEffect>& effect,
                                         const gpu::GpuDrawRequest& request, int frames,
                                         uint64_t live_count, uint32_t points_per_strip) {
    std::vector<Diagnostic> d;
    auto [renderer, fx] = onRendererDevice(effect, 96, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = effect->effect.fixed_timestep_s;

    Image empty;
    FrameStats stats;
    ASSERT_TRUE(renderFrame(*renderer, frontView(), {}, empty, stats, d)) << joinedDiagnostics(d);

    for (int frame = 0; frame < frames; ++frame) gpu::advanceFrame(*fx, dt);
    ASSERT_EQ(fx->stats[0].live, live_count);
    ASSERT_TRUE(gpu::submitDrawOutput(*fx, request, d)) << joinedDiagnostics(d);
    const StripBatch live = deviceBatch(*fx, gpu::deviceStripSource(*fx, 0).max_strips);
    ASSERT_GE(live.device.max_strips, live_count);
    EXPECT_EQ(live.device.points_per_strip, points_per_strip);
    Image drawn;
    std::vector<DrawBatch> batches = {live};
    ASSERT_TRUE(renderFrame(*renderer, frontView(), batches, drawn, stats, d))
        << joinedDiagnostics(d);
    EXPECT_EQ(stats.device_strip_batches, 1u);
    EXPECT_EQ(stats.device_batches, 0u);
    EXPECT_EQ(stats.strip_segments, 0u) << "no segment came from the host";
    EXPECT_GT(differingChannels(drawn, empty), 100u) << "the strips are drawn";

    for (int frame = 0; frame < 30 && fx->stats[0].live != 0; ++frame) gpu::advanceFrame(*fx, dt);
    ASSERT_EQ(fx->stats[0].live, 0u);
    ASSERT_TRUE(gpu::submitDrawOutput(*fx, request, d)) << joinedDiagnostics(d);
    Image none;
    batches = {deviceBatch(*fx, effect->emitters[0].capacity)};
    ASSERT_TRUE(renderFrame(*renderer, frontView(), batches, none, stats, d))
        << joinedDiagnostics(d);
    EXPECT_EQ(stats.device_strip_batches, 1u);
    EXPECT_EQ(differingChannels(none, empty), 0u) << "no live particle, nothing drawn";
    EXPECT_TRUE(validationMessages(*renderer).empty()) << validationMessages(*renderer).front();
}

TEST(DeviceStrips, RibbonsAreDrawnFromTheDeviceAndNothingOnceNoneLive) {
    // 20 ribbons of max_points 16: blocks of 17 points.
    expectDrawnFromTheDeviceThenNothing(shortRibbonBurst(), gpu::GpuDrawRequest{}, 8, 20, 17);
}

TEST(DeviceStrips, BeamsAreDrawnFromTheDeviceAndNothingOnceNoneLive) {
    const auto effect = shortBeamBurst();
    gpu::GpuDrawRequest request;
    request.beams.resize(1);
    request.beams[0].curve = beamCurve(effect->emitters[0], Rows3x4{});
    request.beams[0].jitter_cycle = 3;
    // 6 beams of 12 segments: blocks of 13 points.
    expectDrawnFromTheDeviceThenNothing(effect, request, 4, 6, 13);
}

// Motion vectors of device ribbons (docs/rendering.md, "Motion vectors"): polyline i moves by
// its particle's draw record i (DeviceStrips::records), which gives the motion the same ribbons
// give drawn from the host with each point's velocity (gpu::writeRibbonStrips' velocities, from
// the records read back); without the records the ribbons stand still, which differs.
TEST(DeviceStrips, DeviceRibbonsWriteTheMotionOfTheirHostCopy) {
    const auto effect = shortRibbonBurst();
    std::vector<Diagnostic> d;
    auto [renderer, fx] = onRendererDevice(effect, 96, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    for (int frame = 0; frame < 8; ++frame) gpu::advanceFrame(*fx, effect->effect.fixed_timestep_s);
    ASSERT_TRUE(gpu::submitDrawOutput(*fx, gpu::GpuDrawRequest{}, d)) << joinedDiagnostics(d);
    std::vector<DrawRecord> records;
    ASSERT_TRUE(gpu::readBackDrawRecordsForTest(*fx, records, d)) << joinedDiagnostics(d);
    ASSERT_EQ(records.size(), fx->stats[0].live);

    StripBatch device = deviceBatch(*fx, gpu::deviceStripSource(*fx, 0).max_strips);
    const gpu::GpuDrawSource source = gpu::drawSource(*fx, 0);
    device.device.records = source.records.address;
    device.device.chunk_records = source.records.chunk_records;
    device.device.first_in_chunk = source.records.first_in_chunk;
    StripBatch host;
    host.params = device.params;
    std::vector<StripPoint> points;
    std::vector<uint32_t> segments;
    std::vector<vec4> velocities;
    gpu::writeRibbonStrips(*fx, 0, records, points, segments, &velocities);
    ASSERT_FALSE(segments.empty());
    host.points = points;
    host.segments = segments;
    host.velocities = velocities;
    StripBatch still = device;
    still.device.records = 0;

    // Additive ribbons: every fragment writes (additive_writes, threshold 0); half a second of
    // their 1 to 2 m/s is many pixels.
    FrameView view = frontView();
    view.motion.enabled = true;
    view.motion.additive_writes = true;
    view.motion.coverage_threshold = 0;
    view.motion.interval_s = 0.5f;
    auto motionOf = [&](const StripBatch& batch) {
        Image image;
        MotionImage motion;
        FrameStats stats;
        const std::vector<DrawBatch> batches = {batch};
        EXPECT_TRUE(renderFrame(*renderer, view, batches, image, &motion, stats, d))
            << joinedDiagnostics(d);
        EXPECT_EQ(stats.motion_strip_batches, 1u);
        return motion;
    };
    const MotionImage from_device = motionOf(device);
    const MotionImage from_host = motionOf(host);
    const MotionImage standing = motionOf(still);
    ASSERT_EQ(from_device.xy.size(), from_host.xy.size());
    float worst = 0;
    size_t moving = 0;
    size_t differs_from_still = 0;
    for (size_t i = 0; i < from_device.xy.size(); ++i) {
        worst = std::max(worst, std::abs(from_device.xy[i] - from_host.xy[i]));
        moving += std::abs(from_device.xy[i]) > 1.0f ? 1 : 0;
        differs_from_still += std::abs(from_device.xy[i] - standing.xy[i]) > 1.0f ? 1 : 0;
    }
    // The same polylines (the parity test holds their points equal to the host's within
    // rounding) and the same velocities: half-float rounding of values up to ~20 px (2^-6).
    EXPECT_LE(worst, 0.02f);
    EXPECT_GT(moving, 50u) << "the ribbons' pixels move";
    EXPECT_GT(differs_from_still, 50u) << "the records' velocities are read";
    EXPECT_TRUE(validationMessages(*renderer).empty()) << validationMessages(*renderer).front();
}

// Blended ribbons drawn from the device cast sun shadows like host ones (docs/rendering.md,
// "Shadows"): their points are never read back, so the opacity map covers the last cascade's
// whole extent (counted in shadow_opacity_device); the ground beside them, seen from above with
// the sun 45 degrees up (the shadow falls 1 m off the ribbons), is darker with shadows on than off.
// Cast as cutouts they go into the cascades.
TEST(DeviceStrips, DeviceRibbonsCastSunShadowsOnTheGround) {
    std::vector<Diagnostic> d;
    auto [renderer, fx] = onRendererDevice(shortRibbonBurst(), 64, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = fx->effect->effect.fixed_timestep_s;
    for (int frame = 0; frame < 8; ++frame) gpu::advanceFrame(*fx, dt);
    ASSERT_GT(fx->stats[0].live, 0u);
    ASSERT_TRUE(gpu::submitDrawOutput(*fx, gpu::GpuDrawRequest{}, d)) << joinedDiagnostics(d);

    FrameView view;
    view.camera.eye = {0, 4, 0};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 0, -1};
    view.ground.enabled = true;
    view.ground.height = -1;
    view.ground.color = {0.5f, 0.5f, 0.5f};
    view.sun.direction = {0.70710678f, 0.70710678f, 0};
    view.sun.intensity = 1;
    view.ambient = {0.05f, 0.05f, 0.05f};
    view.shadows.enabled = true;
    // A short shadow distance: the opacity map covers the last cascade, a few metres.
    view.shadows.max_distance = 8;
    // The ribbons are white and additive in the effect; drawn here as alpha ribbons (their
    // shadow is what is measured), black so that they hide nothing by adding light.
    StripBatch batch = deviceBatch(*fx, gpu::deviceStripSource(*fx, 0).max_strips);
    batch.params.blend = kBlendAlpha;
    batch.overrides.tint = vec4(0, 0, 0, 1);
    const std::vector<DrawBatch> batches = {batch};
    FrameStats stats;
    Image on;
    ASSERT_TRUE(renderFrame(*renderer, view, batches, on, stats, d)) << joinedDiagnostics(d);
    EXPECT_EQ(stats.device_strip_batches, 1u);
    EXPECT_EQ(stats.shadow_opacity_batches, 1u);
    EXPECT_EQ(stats.shadow_opacity_device, 1u);
    view.shadows.enabled = false;
    Image off;
    ASSERT_TRUE(renderFrame(*renderer, view, batches, off, stats, d)) << joinedDiagnostics(d);
    EXPECT_EQ(stats.shadow_opacity_batches, 0u);
    EXPECT_GT(differingChannels(on, off), 50u) << "the ribbons' shadow darkens the ground";

    view.shadows.enabled = true;
    batch.params.render_flags |= kRenderFlagShadowCutout;
    const std::vector<DrawBatch> cutouts = {batch};
    Image cut;
    ASSERT_TRUE(renderFrame(*renderer, view, cutouts, cut, stats, d)) << joinedDiagnostics(d);
    EXPECT_EQ(stats.shadow_cutout_batches, 1u);
    EXPECT_EQ(stats.shadow_opacity_batches, 0u);
    EXPECT_GT(differingChannels(cut, off), 50u) << "the cutouts' shadow darkens the ground";
    EXPECT_TRUE(validationMessages(*renderer).empty()) << validationMessages(*renderer).front();
}

// A device strip batch the renderer cannot draw is an error naming it, never a crash.
TEST(DeviceStrips, MalformedDeviceStripBatchIsAnError) {
    RendererConfig config;
    config.width = 32;
    config.height = 32;
    std::vector<Diagnostic> setup;
    RendererPtr renderer = createRenderer(config, setup);
    ASSERT_NE(renderer, nullptr) << joinedDiagnostics(setup);
    StripBatch batch;
    batch.device = {0x1000, 0x2000, 0, 9, 4}; // no count address
    std::vector<Diagnostic> d;
    Image image;
    FrameStats stats;
    std::vector<DrawBatch> batches = {batch};
    EXPECT_FALSE(renderFrame(*renderer, frontView(), batches, image, stats, d));
    EXPECT_NE(joinedDiagnostics(d).find("no count"), std::string::npos) << joinedDiagnostics(d);
    batch.device = {0x1000, 0x2000, 0x3000, 1, 4}; // a block of one point has no segment
    batches = {batch};
    d.clear();
    EXPECT_FALSE(renderFrame(*renderer, frontView(), batches, image, stats, d));
    EXPECT_NE(joinedDiagnostics(d).find("at least 2"), std::string::npos) << joinedDiagnostics(d);
}

} // namespace
} // namespace spindrift::render
