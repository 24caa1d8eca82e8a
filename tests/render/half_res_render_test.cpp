// Half-resolution particles on lavapipe, validation on (FrameView::particle_resolution,
// docs/rendering.md "Half-resolution particles"), seen straight down on a green ground with a
// blue box (neither has any red, so the red channel is the particles' alone):
// - a large soft particle gives the full-resolution image within a few codes away from edges, in
//   front of the box and behind it; additive light does not cover the ground;
// - a particle behind the box never bleeds onto it, even on the box's border pixels that a plain
//   bilinear upsample would tint, nor leaves a gap on the ground beside it;
// - soft particles fade against the half-size depth as at full resolution, and the background
//   has none;
// - strips go into the layer too; distortion, compute-drawn and OIT batches do not;
// - with the option off the frame is the same as before one at half resolution, and an unknown
//   value is refused.
// And RasterPath::automatic's default threshold on this CPU device (render/raster_threshold.h).
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/raster_threshold.h"
#include "render/renderer.h"
#include "render/strip_params.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::batchOf;
using test::channel;
using test::errors;
using test::kHeight_m;
using test::kSide;
using test::particle;
using test::pixelAt;

constexpr float kBoxTop_m = 4;
// The box's top spans pixels [48 - 16.4, 48 + 16.4): its border pixels 32 and 63 share their
// 2 x 2 blocks with the box only, and their bilinear neighbours outside are ground texels.
constexpr float kBoxHalf_m = 2.05f;
// The same with the top spanning [32.6, 63.4): pixels 32 and 63 are ground sharing a block with
// the box's border pixels 33 and 62.
constexpr float kOddBoxHalf_m = 1.925f;

std::vector<PrimitiveDesc> boxOf(float half_m) {
    return {PrimitiveDesc{PrimitiveKind::box,
                          {0, kBoxTop_m / 2, 0},
                          {2 * half_m, kBoxTop_m, 2 * half_m},
                          1,
                          {0, 0, 0.6f}}};
}

FrameView greenGroundView(const std::vector<PrimitiveDesc>& primitives) {
    FrameView view = test::topDownView(kHeight_m);
    view.ground.enabled = true;
    view.ground.color = {0, 0.5f, 0};
    view.ambient = {0.6f, 0.6f, 0.6f};
    view.primitives = primitives;
    return view;
}

FrameView halfOf(FrameView view) {
    view.particle_resolution = ParticleResolution::half;
    return view;
}

// Success when channel c of every pixel of a and b differs by at most tolerance codes, leaving
// out those within `margin` pixels of the box's top edges (centred, half_px across); else names
// the first that differs.
::testing::AssertionResult within(const Image& a, const Image& b, int c, int tolerance,
                                  float half_px = 0, float margin = -1) {
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            const float dx = std::abs(float(x) + 0.5f - 48.0f) - half_px;
            const float dy = std::abs(float(y) + 0.5f - 48.0f) - half_px;
            const float to_edge = std::max(dx, dy) <= 0 ? -std::max(dx, dy) : std::max(dx, dy);
            if (margin >= 0 && std::abs(to_edge) <= margin) continue;
            if (std::abs(channel(a, x, y, c) - channel(b, x, y, c)) > tolerance) {
                return ::testing::AssertionFailure()
                       << "pixel (" << x << ", " << y << "): channel " << c << " "
                       << channel(a, x, y, c) << " against " << channel(b, x, y, c);
            }
        }
    }
    return ::testing::AssertionSuccess();
}

class HalfResRenderTest : public test::SquareFrameTest {};

// A particle larger than the frame, in front of the box: the half-resolution layer gives the
// full-resolution image within 3 codes wherever the particle and the scene are smooth (away from
// the box's edges), and within 8 on the edges themselves (the layer's texel across an edge holds
// the same particle, sampled a pixel away).
TEST_F(HalfResRenderTest, AParticleInFrontIsCloseToFullResolution) {
    const std::vector<PrimitiveDesc> box = boxOf(kBoxHalf_m);
    const DrawRecord records[] = {particle(vec3(0, 5, 0), 30, vec4(1, 0.2f, 0, 0.7f))};
    const std::vector<DrawBatch> batches = {batchOf(records, kBlendAlpha)};
    const Image full = render(greenGroundView(box), batches);
    EXPECT_EQ(stats_.half_res_batches, 0u);
    const Image half = render(halfOf(greenGroundView(box)), batches);
    EXPECT_EQ(stats_.half_res_batches, 1u);
    const float box_px = pixelAt(kBoxHalf_m, kBoxTop_m) - 48.0f;
    for (int c = 0; c < 3; ++c) {
        EXPECT_TRUE(within(full, half, c, 3, box_px, 1.5f));
        EXPECT_TRUE(within(full, half, c, 8));
    }
    // The particle is there: the box's red is the particle's.
    EXPECT_GT(channel(full, 48, 48, 0), 100);
}

// A particle behind the box (between its top and the ground) is hidden by it: at full resolution
// the box has no red at all, and at half resolution neither, on every box pixel, for a box whose
// edges fall between blocks (where a bilinear upsample gives the border pixels a quarter of the
// ground texel beside them) and one whose edges cut blocks in two. The ground beside the box keeps
// the particle (no gap: its pixels take the ground texel beside them).
TEST_F(HalfResRenderTest, AParticleBehindAnOpaqueEdgeDoesNotBleedOntoIt) {
    const DrawRecord records[] = {particle(vec3(0, 1, 0), 30, vec4(1, 0, 0, 0.8f))};
    const std::vector<DrawBatch> batches = {batchOf(records, kBlendAlpha)};
    for (const float half_m : {kBoxHalf_m, kOddBoxHalf_m}) {
        SCOPED_TRACE(half_m);
        const std::vector<PrimitiveDesc> box = boxOf(half_m);
        const Image full = render(greenGroundView(box), batches);
        const Image half = render(halfOf(greenGroundView(box)), batches);
        const float box_px = pixelAt(half_m, kBoxTop_m) - 48.0f;
        uint32_t box_pixels = 0;
        for (uint32_t y = 0; y < kSide; ++y) {
            for (uint32_t x = 0; x < kSide; ++x) {
                const bool on_box = std::abs(float(x) + 0.5f - 48.0f) < box_px &&
                                    std::abs(float(y) + 0.5f - 48.0f) < box_px;
                if (!on_box) continue;
                ++box_pixels;
                ASSERT_EQ(channel(full, x, y, 0), 0) << x << ", " << y;
                ASSERT_EQ(channel(half, x, y, 0), 0) << "bled onto the box at " << x << ", " << y;
            }
        }
        EXPECT_GE(box_pixels, 30u * 30u);
        // The ground, right up to the box: the particle as at full resolution.
        EXPECT_TRUE(within(full, half, 0, 3, box_px, 0.5f));
        EXPECT_GT(channel(full, 30, 48, 0), 100);
        EXPECT_GT(channel(half, 31, 48, 0), 100);
    }
}

// Additive light adds to the layer's colour and leaves its coverage alone: the ground's green
// under it is the full-resolution frame's, not dimmed as an alpha particle's coverage would.
TEST_F(HalfResRenderTest, AdditiveLightCoversNothing) {
    const std::vector<PrimitiveDesc> none;
    const DrawRecord records[] = {particle(vec3(0, 2, 0), 30, vec4(0.8f, 0, 0, 1))};
    const std::vector<DrawBatch> batches = {batchOf(records, kBlendAdditive)};
    const Image full = render(greenGroundView(none), batches);
    const Image half = render(halfOf(greenGroundView(none)), batches);
    EXPECT_GT(channel(full, 48, 48, 0), 100);
    for (int c = 0; c < 3; ++c) EXPECT_TRUE(within(full, half, c, 3)) << c;
}

// Soft particles fade against the half-size depth: a puff 0.25 m over the ground with a fade
// distance of 1 m draws at about a quarter of its alpha, as at full resolution.
TEST_F(HalfResRenderTest, SoftParticlesFadeAgainstTheHalfSizeDepth) {
    const std::vector<PrimitiveDesc> none;
    const DrawRecord records[] = {particle(vec3(0, 0.25f, 0), 30, vec4(1, 0, 0, 1))};
    BillboardBatch hard = batchOf(records, kBlendAlpha);
    BillboardBatch soft = hard;
    soft.params.soft_fade_distance = 1;
    const Image solid = render(greenGroundView(none), {hard});
    const Image full = render(greenGroundView(none), {soft});
    const Image half = render(halfOf(greenGroundView(none)), {soft});
    EXPECT_LT(channel(full, 48, 48, 0) + 60, channel(solid, 48, 48, 0));
    EXPECT_TRUE(within(full, half, 0, 3));
    EXPECT_TRUE(within(full, half, 1, 3));
}

// Where no surface is (the background), the half-size depth says so whatever the frame before
// held there: a soft puff over the background alone (fade distance 5 m, 9 m from the eye) draws
// unfaded as at full resolution, right after a frame whose ground was everywhere.
TEST_F(HalfResRenderTest, TheBackgroundHasNoDepthAtHalfResolution) {
    const std::vector<PrimitiveDesc> box = boxOf(kBoxHalf_m);
    const DrawRecord records[] = {particle(vec3(0, 1, 0), 30, vec4(1, 0, 0, 0.8f))};
    BillboardBatch soft = batchOf(records, kBlendAlpha);
    soft.params.soft_fade_distance = 5;
    FrameView sky = greenGroundView(box);
    sky.ground.enabled = false;
    const Image full = render(sky, {soft});
    render(halfOf(greenGroundView(box)), {soft});
    const Image half = render(halfOf(sky), {soft});
    EXPECT_GT(channel(full, 10, 10, 0), 100);
    const float box_px = pixelAt(kBoxHalf_m, kBoxTop_m) - 48.0f;
    EXPECT_TRUE(within(full, half, 0, 3, box_px, 1.5f));
}

// A ribbon goes into the layer with the billboards: across the frame behind the box, it is hidden
// on the box and drawn on the ground as at full resolution along its middle.
TEST_F(HalfResRenderTest, StripsDrawIntoTheLayerToo) {
    EmitterRecord e{};
    e.blend = kBlendAlpha;
    e.render_type = kRenderRibbon;
    e.emission = vec4(1, 0, 0, 0);
    std::vector<StripPoint> points(2);
    for (int i = 0; i < 2; ++i) {
        points[i].position_width = vec4(i == 0 ? -12.0f : 12.0f, 1, 0, 4);
        points[i].color = vec4(1, 0, 0, 0.8f);
        points[i].tangent_u = vec4(1, 0, 0, float(i));
    }
    const std::vector<uint32_t> segments = {0};
    StripBatch ribbon;
    ribbon.params = stripParams(e);
    ribbon.points = points;
    ribbon.segments = segments;
    const std::vector<PrimitiveDesc> box = boxOf(kBoxHalf_m);
    const Image full = render(greenGroundView(box), {ribbon});
    const Image half = render(halfOf(greenGroundView(box)), {ribbon});
    EXPECT_EQ(stats_.half_res_batches, 1u);
    EXPECT_GT(channel(full, 10, 48, 0), 100);
    for (const uint32_t x : {4u, 10u, 20u, 30u, 66u, 80u, 90u}) {
        EXPECT_LE(std::abs(channel(full, x, 48, 0) - channel(half, x, 48, 0)), 3) << x;
    }
    for (uint32_t x = 32; x < 64; ++x) EXPECT_EQ(channel(half, x, 48, 0), 0) << x;
}

// What stays at full resolution: distortion billboards and the batches the compute rasteriser
// draws are not in the layer (half_res_batches counts what is).
TEST_F(HalfResRenderTest, ComputeDrawnAndDistortionBatchesStayAtFullResolution) {
    const std::vector<PrimitiveDesc> none;
    const DrawRecord records[] = {particle(vec3(0, 2, 0), 4, vec4(1, 0, 0, 0.5f))};
    BillboardBatch lens = batchOf(records, kBlendAdditive);
    lens.params = test::cameraFacingParams(kBlendAdditive, kRenderFlagDistortion, 0.5f);
    FrameView view = halfOf(greenGroundView(none));
    render(view, {batchOf(records, kBlendAlpha), lens});
    EXPECT_EQ(stats_.half_res_batches, 1u);
    EXPECT_EQ(stats_.distortion_batches, 1u);
    view.raster = RasterPath::compute;
    render(view, {batchOf(records, kBlendAlpha)});
    EXPECT_EQ(stats_.raster_batches, 1u);
    EXPECT_EQ(stats_.half_res_batches, 0u);
    view.raster = RasterPath::graphics;
    view.transparency = Transparency::weighted_oit;
    render(view, {batchOf(records, kBlendAlpha)});
    EXPECT_EQ(stats_.oit_records, 1u);
    EXPECT_EQ(stats_.half_res_batches, 0u);
}

// Off, the frame is drawn as before: the same bytes before and after a frame at half resolution
// (nothing of the layer leaks into the full-resolution path).
TEST_F(HalfResRenderTest, OffDrawsTheSameFrameAsBefore) {
    const std::vector<PrimitiveDesc> box = boxOf(kBoxHalf_m);
    const DrawRecord records[] = {particle(vec3(0, 1, 0), 30, vec4(1, 0, 0, 0.8f))};
    const std::vector<DrawBatch> batches = {batchOf(records, kBlendAlpha)};
    const Image before = render(greenGroundView(box), batches);
    const Image half = render(halfOf(greenGroundView(box)), batches);
    const Image after = render(greenGroundView(box), batches);
    EXPECT_EQ(before.rgba8, after.rgba8);
    EXPECT_NE(before.rgba8, half.rgba8);
}

TEST_F(HalfResRenderTest, AnUnknownParticleResolutionIsRefused) {
    FrameView view = greenGroundView({});
    view.particle_resolution = static_cast<ParticleResolution>(2);
    Image image;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, stats_, d));
    EXPECT_NE(errors(d).find("particle_resolution 2 is unknown (full or half)"), std::string::npos)
        << errors(d);
}

// On this CPU device (lavapipe), automatic leaves every batch to the graphics path unless the
// view names a threshold of its own.
TEST_F(HalfResRenderTest, AutomaticRasterUsesTheDevicesThresholdUnlessTheViewNamesOne) {
    ASSERT_EQ(rendererDevice(*renderer_).type, "cpu");
    EXPECT_EQ(deviceComputeRasterThreshold(rendererDevice(*renderer_)), kCpuComputeRasterThreshold);
    std::vector<DrawRecord> records;
    for (int i = 0; i < 200; ++i) {
        records.push_back(
            particle(vec3(float(i % 20) - 10, 1, float(i / 20) - 5), 0.5f, vec4(1, 0, 0, 0.5f)));
    }
    FrameView view = greenGroundView({});
    view.raster = RasterPath::automatic;
    render(view, {batchOf(records, kBlendAlpha)});
    EXPECT_EQ(stats_.raster_batches, 0u);
    view.compute_raster_threshold = 200;
    render(view, {batchOf(records, kBlendAlpha)});
    EXPECT_EQ(stats_.raster_batches, 1u);
}

} // namespace
} // namespace spindrift::render
