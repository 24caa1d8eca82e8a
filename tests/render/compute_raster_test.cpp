// The compute rasteriser of billboards (render/compute_raster.h) on lavapipe, validation on: its
// image equals the graphics path's within rounding for sorted alpha, additive, premultiplied,
// textured flipbooks, soft particles, lit particles and every alignment, for host and device
// records and for batches interleaved with graphics-drawn ones; it is the same every run; and its
// bounds (empty batches, a particle over the whole screen or through the near plane, the pair
// limit, the batch size limit) give the right image or a clear error, never a silent one. Textures
// are minified through their mip chain, and the flipbook LOD clamp keeps far particles in their
// cell, on both paths.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/random.h"
#include "render/billboard_params.h"
#include "render/compute_raster.h"
#include "render/renderer.h"
#include "render_test_helpers.h"
#include "vulkan/buffer.h"
#include "vulkan/context.h"

namespace spindrift::render {
namespace {

using test::errors;

constexpr uint32_t kWidth = 120; // not a multiple of the 16-pixel tile: partial tiles
constexpr uint32_t kHeight = 88;

// Per pixel the largest difference over R, G and B, in 8-bit codes: the largest anywhere and
// the share of pixels above 2 codes.
struct Difference {
    int largest = 0;
    double share_above_2 = 0;
};

Difference difference(const Image& a, const Image& b) {
    Difference d;
    size_t above = 0;
    const size_t pixels = a.rgba8.size() / 4;
    for (size_t p = 0; p < pixels; ++p) {
        int largest = 0;
        for (size_t c = 0; c < 3; ++c) {
            largest =
                std::max(largest, std::abs(int{a.rgba8[4 * p + c]} - int{b.rgba8[4 * p + c]}));
        }
        d.largest = std::max(d.largest, largest);
        if (largest > 2) ++above;
    }
    d.share_above_2 = static_cast<double>(above) / static_cast<double>(pixels);
    return d;
}

// A radial glow, colour varying across the image so a wrong texture coordinate shows, alpha
// falling to 0 at the edge; premultiplied when asked. columns x rows flipbook cells, each cell's
// colour scaled by its index so a wrong frame shows too.
Image glowAtlas(uint32_t columns, uint32_t rows, bool premultiplied) {
    constexpr uint32_t kCell = 16;
    Image image;
    image.width = columns * kCell;
    image.height = rows * kCell;
    image.rgba8.resize(size_t{image.width} * image.height * 4);
    for (uint32_t y = 0; y < image.height; ++y) {
        for (uint32_t x = 0; x < image.width; ++x) {
            const uint32_t cell = (y / kCell) * columns + x / kCell;
            const float u = (float(x % kCell) + 0.5f) / kCell * 2 - 1;
            const float v = (float(y % kCell) + 0.5f) / kCell * 2 - 1;
            const float a = std::clamp(1.0f - (u * u + v * v), 0.0f, 1.0f);
            const float shade = 0.4f + 0.6f * float(cell + 1) / float(columns * rows);
            float rgb[3] = {shade * (0.5f + 0.5f * u), shade * (0.5f + 0.5f * v), shade};
            uint8_t* p = &image.rgba8[(size_t{y} * image.width + x) * 4];
            for (int c = 0; c < 3; ++c) {
                const float value = premultiplied ? rgb[c] * a : rgb[c];
                p[c] = static_cast<uint8_t>(std::lround(255 * value));
            }
            p[3] = static_cast<uint8_t>(std::lround(255 * a));
        }
    }
    return image;
}

// The camera on +Z, 5 m from the origin, a grey background and a box behind and beside the
// origin (the opaque depth particles are tested against and fade by).
FrameView boxBesideView(std::vector<PrimitiveDesc>& primitives) {
    FrameView view;
    view.camera.eye = {0, 0, 5};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 1, 0};
    view.fov_deg = 70;
    view.background = {0.2f, 0.25f, 0.3f};
    view.ground.enabled = false;
    view.sun.direction = {0.3f, 0.5f, 1};
    view.ambient = {0.2f, 0.2f, 0.2f};
    primitives.assign(1, PrimitiveDesc{});
    primitives[0].type = PrimitiveKind::box;
    primitives[0].center = {1.2f, -0.3f, -0.6f};
    primitives[0].size = {2, 2, 1};
    primitives[0].color = {0.6f, 0.5f, 0.4f};
    view.primitives = primitives;
    return view;
}

BillboardParams tiltedParamsFor(uint32_t blend, uint32_t alignment = kAlignCamera) {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.axis = vec4(0.3f, 1, 0.2f, 0.3f); // w: the velocity stretch, seconds
    e.blend = blend;
    e.alignment = alignment;
    e.emission = vec4(1, 0, 0, 0); // emissive 1: the colour as given (0 would draw black)
    return billboardParams(e, Rows3x4{});
}

// count particles in a 3 x 2.4 x 2 m box around the origin, colours, sizes, rotations, velocities
// and flipbook frames varied, the same every run, sorted back to front (farthest from the eye
// first) as a sorting emitter's are.
std::vector<DrawRecord> cloud(size_t count, uint32_t seed, float alpha_low = 0.3f) {
    std::vector<DrawRecord> records;
    for (size_t i = 0; i < count; ++i) {
        const uint key = sdParticleKey(seed, 0u, static_cast<uint>(i), 0u);
        const vec3 p(3.0f * sdRandom01(key, 0u) - 1.5f, 2.4f * sdRandom01(key, 1u) - 1.2f,
                     2.0f * sdRandom01(key, 2u) - 1.0f);
        const vec4 color(sdRandom01(key, 3u), sdRandom01(key, 4u), sdRandom01(key, 5u),
                         alpha_low + (0.95f - alpha_low) * sdRandom01(key, 6u));
        const vec3 velocity(sdRandom01(key, 7u) - 0.5f, 2.0f * sdRandom01(key, 8u), 0.3f);
        records.push_back(sdDrawRecord(p, 0.4f + 0.6f * sdRandom01(key, 9u), color, velocity,
                                       6.0f * sdRandom01(key, 10u), 0.5f,
                                       3.99f * sdRandom01(key, 11u), 0u, key));
    }
    std::stable_sort(records.begin(), records.end(), [](const DrawRecord& a, const DrawRecord& b) {
        return a.position_size.z < b.position_size.z; // the eye is on +Z
    });
    return records;
}

class ComputeRasterTest : public ::testing::Test {
protected:
    void SetUp() override {
        RendererConfig config;
        config.width = kWidth;
        config.height = kHeight;
        config.validation = true;
        std::vector<Diagnostic> d;
        renderer_ = createRenderer(config, d);
        ASSERT_NE(renderer_, nullptr) << errors(d);
        view_ = boxBesideView(primitives_);
    }

    void TearDown() override {
        if (!renderer_) return;
        for (const std::string& m : validationMessages(*renderer_)) ADD_FAILURE() << m;
    }

    TextureHandle texture(const Image& image) {
        std::vector<Diagnostic> d;
        TextureHandle handle = addTexture(*renderer_, image, "test texture", d);
        EXPECT_NE(handle, kNoTexture) << errors(d);
        return handle;
    }

    Image render(RasterPath path, const std::vector<DrawBatch>& batches) {
        FrameView view = view_;
        view.raster = path;
        Image image;
        std::vector<Diagnostic> d;
        EXPECT_TRUE(renderFrame(*renderer_, view, batches, image, stats_, d)) << errors(d);
        return image;
    }

    // Both paths; the compute path drew every batch, and the particles are in the image (it is
    // far from the empty frame), so a path that drew nothing could not pass.
    void expectSameImage(const std::vector<DrawBatch>& batches, int largest, double share) {
        const Image graphics = render(RasterPath::graphics, batches);
        EXPECT_EQ(stats_.raster_batches, 0u);
        const Image compute = render(RasterPath::compute, batches);
        EXPECT_EQ(stats_.raster_batches, batches.size());
        EXPECT_GT(stats_.raster_pairs, 0u);
        const Difference d = difference(graphics, compute);
        EXPECT_LE(d.largest, largest) << "share above 2 codes " << d.share_above_2;
        EXPECT_LE(d.share_above_2, share) << "largest " << d.largest;
        const Image empty = render(RasterPath::graphics, {});
        EXPECT_GT(difference(graphics, empty).largest, 60);
    }

    RendererPtr renderer_;
    std::vector<PrimitiveDesc> primitives_;
    FrameView view_;
    FrameStats stats_;
};

// Soft discs drawn back to front with alpha blending, many layers deep, partly behind the box:
// front-to-back compositing in the tiles gives what blending in draw order gives. The only
// differences are rounding (the graphics path blends in half floats layer by layer, the tiles
// in floats) and a pixel's coverage where a quad's edge passes exactly through its centre. On
// lavapipe every comparison here differs by at most 1 code; the tolerance (4 codes, 0.2 % of the
// pixels above 2) leaves room for another device's rasteriser, not for a wrong image.
TEST_F(ComputeRasterTest, SortedAlphaMatchesTheGraphicsPath) {
    const std::vector<DrawRecord> records = cloud(400, 1u);
    expectSameImage({BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, records, {}}}, 4,
                    0.002);
}

TEST_F(ComputeRasterTest, AdditiveAndPremultipliedMatchTheGraphicsPath) {
    const std::vector<DrawRecord> fire = cloud(300, 2u);
    const std::vector<DrawRecord> smoke = cloud(200, 3u);
    expectSameImage({BillboardBatch{tiltedParamsFor(kBlendAdditive), kNoTexture, fire, {}},
                     BillboardBatch{tiltedParamsFor(kBlendPremultiplied), kNoTexture, smoke, {}}},
                    4, 0.002);
}

// A 2 x 2 flipbook with frame blending (alpha, straight texture) and one without (premultiplied
// texture): the same texel, the same cell, the same cross-fade on both paths.
TEST_F(ComputeRasterTest, TexturedFlipbooksMatchTheGraphicsPath) {
    const TextureHandle straight = texture(glowAtlas(2, 2, false));
    const TextureHandle premultiplied = texture(glowAtlas(2, 2, true));
    BillboardParams blended = tiltedParamsFor(kBlendAlpha);
    blended.flipbook_frames = 4;
    blended.flipbook_columns = 2;
    blended.flipbook_rows = 2;
    blended.render_flags |= kRenderFlagFrameBlend;
    BillboardParams plain = tiltedParamsFor(kBlendPremultiplied);
    plain.flipbook_frames = 4;
    plain.flipbook_columns = 2;
    plain.flipbook_rows = 2;
    const std::vector<DrawRecord> a = cloud(150, 4u, 0.6f);
    const std::vector<DrawRecord> b = cloud(150, 5u, 0.6f);
    expectSameImage(
        {BillboardBatch{blended, straight, a, {}}, BillboardBatch{plain, premultiplied, b, {}}}, 8,
        0.02);
}

// Particles passing through the box with a soft fade, and without one (cut by the box's depth):
// the tiles fade by the same linear depth and test against it as the depth buffer does.
TEST_F(ComputeRasterTest, SoftParticlesAndTheOpaqueDepthMatchTheGraphicsPath) {
    BillboardParams soft = tiltedParamsFor(kBlendAlpha);
    soft.soft_fade_distance = 0.6f;
    std::vector<DrawRecord> near_box = cloud(150, 6u);
    for (DrawRecord& r : near_box) r.position_size.z -= 0.5f; // through the box's front face
    std::vector<DrawRecord> cut = cloud(150, 7u);
    for (DrawRecord& r : cut) r.position_size.z -= 0.5f;
    expectSameImage({BillboardBatch{soft, kNoTexture, near_box, {}},
                     BillboardBatch{tiltedParamsFor(kBlendPremultiplied), kNoTexture, cut, {}}},
                    4, 0.002);
}

// Velocity-stretched, axis-aligned and fixed (decal) quads, tilted away from the view plane, and
// lit particles: the per-pixel corner and depth of a tilted quad are the perspective-correct
// ones the graphics path interpolates.
TEST_F(ComputeRasterTest, AlignmentsAndLightingMatchTheGraphicsPath) {
    BillboardParams lit = tiltedParamsFor(kBlendAlpha);
    lit.render_flags |= kRenderFlagLit;
    expectSameImage(
        {BillboardBatch{
             tiltedParamsFor(kBlendAlpha, kAlignVelocityStretch), kNoTexture, cloud(80, 8u), {}},
         BillboardBatch{
             tiltedParamsFor(kBlendPremultiplied, kAlignAxis), kNoTexture, cloud(80, 9u), {}},
         BillboardBatch{
             tiltedParamsFor(kBlendAdditive, kAlignFixed), kNoTexture, cloud(80, 10u), {}},
         BillboardBatch{lit, kNoTexture, cloud(80, 11u), {}}},
        4, 0.002);
}

// Lit particles under a point and a spot light: both paths shade each pixel at its point on the
// quad with the one text (billboard_shade.glsl, lighting.h), so the images agree; and the lights
// are really in them (far from the image without lights).
TEST_F(ComputeRasterTest, LitParticlesUnderPointAndSpotLightsMatchTheGraphicsPath) {
    BillboardParams lit = tiltedParamsFor(kBlendAlpha);
    lit.render_flags |= kRenderFlagLit;
    const std::vector<DrawRecord> records = cloud(120, 15u);
    const std::vector<DrawBatch> batches = {BillboardBatch{lit, kNoTexture, records, {}}};
    view_.sun.intensity = 0.2f;
    view_.ambient = {0.05f, 0.05f, 0.05f};
    const Image unlit = render(RasterPath::graphics, batches);
    std::vector<LightDesc> lights(2);
    lights[0].position = {-0.5f, 0.3f, 1.5f};
    lights[0].color = {1.0f, 0.6f, 0.3f};
    lights[0].intensity = 3;
    lights[0].range = 6;
    lights[1].type = LightKind::spot;
    lights[1].position = {1.0f, 2.0f, 2.0f};
    lights[1].direction = {-0.4f, -0.8f, -1.0f};
    lights[1].color = {0.3f, 0.5f, 1.0f};
    lights[1].intensity = 6;
    lights[1].inner_deg = 15;
    lights[1].outer_deg = 35;
    view_.lights = lights;
    expectSameImage(batches, 4, 0.002);
    EXPECT_GT(difference(render(RasterPath::graphics, batches), unlit).largest, 60);
}

// automatic draws the large batch by compute and the small ones by the graphics path, in the
// batch order given: the image is the all-graphics one.
TEST_F(ComputeRasterTest, AutomaticInterleavesBothPathsInBatchOrder) {
    const std::vector<DrawRecord> back = cloud(60, 12u);
    const std::vector<DrawRecord> middle = cloud(300, 13u);
    const std::vector<DrawRecord> front = cloud(60, 14u);
    const std::vector<DrawBatch> batches = {
        BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, back, {}},
        BillboardBatch{tiltedParamsFor(kBlendPremultiplied), kNoTexture, middle, {}},
        BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, front, {}}};
    const Image graphics = render(RasterPath::graphics, batches);
    view_.compute_raster_threshold = 100;
    const Image automatic = render(RasterPath::automatic, batches);
    EXPECT_EQ(stats_.raster_batches, 1u);
    const Difference d = difference(graphics, automatic);
    EXPECT_LE(d.largest, 4);
    EXPECT_LE(d.share_above_2, 0.002);
    // Drawn in the wrong order (the middle batch last) the image differs: order is tested.
    const std::vector<DrawBatch> reordered = {batches[0], batches[2], batches[1]};
    EXPECT_GT(difference(graphics, render(RasterPath::automatic, reordered)).largest, 20);
}

// The same input gives the same bytes: a fixed per-tile order from a stable sort, no float
// atomics.
TEST_F(ComputeRasterTest, TwoRunsGiveTheSameBytes) {
    const std::vector<DrawRecord> records = cloud(500, 15u);
    const std::vector<DrawRecord> glow = cloud(200, 16u);
    const std::vector<DrawBatch> batches = {
        BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, records, {}},
        BillboardBatch{tiltedParamsFor(kBlendAdditive), kNoTexture, glow, {}}};
    const Image first = render(RasterPath::compute, batches);
    const uint64_t pairs = stats_.raster_pairs;
    render(RasterPath::graphics, batches); // something else in between
    const Image second = render(RasterPath::compute, batches);
    EXPECT_EQ(stats_.raster_pairs, pairs);
    EXPECT_TRUE(first.rgba8 == second.rgba8);
}

// Empty batches draw nothing and cost nothing; a particle larger than the screen covers every
// tile; one through the near plane (partly behind the eye) and one wholly behind it are clipped
// as the graphics path clips them.
TEST_F(ComputeRasterTest, EmptyBatchesAndScreenFillingParticles) {
    std::vector<DrawRecord> big;
    big.push_back(sdDrawRecord(vec3(0, 0, 3), 30.0f, vec4(0.9f, 0.4f, 0.2f, 0.5f), vec3(0), 0.3f,
                               0.5f, 0.0f, 0u, 0u));
    // A fixed quad facing +Y through the eye's plane: part of it in front of the near plane.
    std::vector<DrawRecord> through;
    through.push_back(sdDrawRecord(vec3(0, -0.4f, 4.5f), 3.0f, vec4(0.2f, 0.9f, 0.4f, 0.8f),
                                   vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u));
    through.push_back(sdDrawRecord(vec3(0, 0, 8), 1.0f, vec4(1, 1, 1, 1), vec3(0), 0.0f, 0.5f, 0.0f,
                                   0u, 0u)); // behind the eye
    BillboardParams flat = tiltedParamsFor(kBlendAlpha, kAlignFixed);
    flat.axis_stretch = vec4(0, 1, 0, 0);
    const std::vector<DrawRecord> none;
    const std::vector<DrawBatch> batches = {
        BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, none, {}},
        BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, big, {}},
        BillboardBatch{flat, kNoTexture, through, {}}};
    const Image graphics = render(RasterPath::graphics, batches);
    const Image compute = render(RasterPath::compute, batches);
    EXPECT_EQ(stats_.raster_batches, 2u); // the empty batch is no job
    const uint64_t tiles = ((kWidth + 15) / 16) * ((kHeight + 15) / 16);
    EXPECT_GE(stats_.raster_pairs, tiles);
    const Difference d = difference(graphics, compute);
    EXPECT_LE(d.largest, 4);
    EXPECT_LE(d.share_above_2, 0.002);
    // Only empty batches: the frame is the scene alone, no raster work.
    const Image empty = render(RasterPath::compute, {batches[0]});
    EXPECT_EQ(stats_.raster_batches, 0u);
    EXPECT_EQ(stats_.raster_pairs, 0u);
    EXPECT_TRUE(empty.rgba8 == render(RasterPath::graphics, {}).rgba8);
}

// Past the pair limit: raster compute refuses the frame with an error naming the count and the
// limit; automatic draws it with the graphics path and says so in the stats.
TEST_F(ComputeRasterTest, TooManyPairsAreRefusedOrFallBackVisibly) {
    const std::vector<DrawRecord> records = cloud(300, 17u);
    const std::vector<DrawBatch> batches = {
        BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, records, {}}};
    const Image graphics = render(RasterPath::graphics, batches);
    view_.compute_raster_max_pairs = 100;
    FrameView view = view_;
    view.raster = RasterPath::compute;
    Image image;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, view, batches, image, stats_, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(formatDiagnostic(d[0]).find("more than the limit of 100"), std::string::npos)
        << errors(d);
    view_.compute_raster_threshold = 1;
    const Image fallback = render(RasterPath::automatic, batches);
    EXPECT_EQ(stats_.raster_fallbacks, 1u);
    EXPECT_EQ(stats_.raster_batches, 0u);
    EXPECT_TRUE(fallback.rgba8 == graphics.rgba8);
}

// More particles in one tile than lavapipe lets an invocation loop (65 535 iterations in all):
// the frame either matches the graphics path (a device without the limit) or fails with the
// error that names it, never a silently wrong image. Faint particles, so no pixel stops early.
TEST_F(ComputeRasterTest, ATileBeyondTheLoopBudgetIsDrawnOrRefusedNeverWrong) {
    std::vector<DrawRecord> dense;
    for (uint32_t i = 0; i < 70000; ++i) {
        const float x = -1.5f + 0.01f * float(i % 7);
        dense.push_back(sdDrawRecord(vec3(x, 1.0f, 1.0f), 0.05f, vec4(1.0f, 0.5f, 0.2f, 0.002f),
                                     vec3(0), 0.0f, 0.5f, 0.0f, 0u, i));
    }
    const std::vector<DrawBatch> batches = {
        BillboardBatch{tiltedParamsFor(kBlendAlpha), kNoTexture, dense, {}}};
    const Image graphics = render(RasterPath::graphics, batches);
    FrameView view = view_;
    view.raster = RasterPath::compute;
    Image compute;
    std::vector<Diagnostic> d;
    if (renderFrame(*renderer_, view, batches, compute, stats_, d)) {
        const Difference diff = difference(graphics, compute);
        EXPECT_LE(diff.largest, 4);
        EXPECT_LE(diff.share_above_2, 0.002);
    } else {
        EXPECT_NE(errors(d).find("a compute raster loop ended before its work"), std::string::npos)
            << errors(d);
    }
}

// A device batch of more particles than the projection can dispatch, and batches of more
// particles together than a frame's buffers hold, are refused before anything is recorded
// (their addresses are never read); an unknown raster value is refused too.
TEST_F(ComputeRasterTest, RefusesABatchTooLargeAndAnUnknownPath) {
    BillboardBatch huge{tiltedParamsFor(kBlendAlpha), kNoTexture, {}, {}};
    huge.device.records = 0x10000;
    huge.device.count = 0x20000;
    huge.device.max_records = static_cast<uint32_t>(kMaxComputeRasterBatchParticles + 1);
    FrameView view = view_;
    view.raster = RasterPath::compute;
    Image image;
    std::vector<Diagnostic> d;
    const std::vector<DrawBatch> batches = {huge};
    EXPECT_FALSE(renderFrame(*renderer_, view, batches, image, stats_, d));
    ASSERT_FALSE(d.empty());
    EXPECT_NE(errors(d).find("more than the compute rasteriser takes"), std::string::npos)
        << errors(d);
    // Three batches each within the batch limit, together past the frame's.
    d.clear();
    huge.device.max_records = 100000000;
    const std::vector<DrawBatch> three = {huge, huge, huge};
    EXPECT_FALSE(renderFrame(*renderer_, view, three, image, stats_, d));
    EXPECT_NE(errors(d).find("batch 2: the frame's compute-rastered batches have more than "
                             "kMaxComputeRasterFrameParticles"),
              std::string::npos)
        << errors(d);
    d.clear();
    view.raster = static_cast<RasterPath>(7);
    EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, stats_, d));
    EXPECT_NE(errors(d).find("raster 7 is unknown"), std::string::npos) << errors(d);
}

// Device records (a GPU simulation's, on the renderer's device): read through a draw order and
// a count the device holds, with overrides; the same image as the graphics path's indirect draw.
TEST_F(ComputeRasterTest, DeviceRecordsMatchTheGraphicsPath) {
    const std::vector<DrawRecord> records = cloud(300, 18u);
    const vk::Device& device = *rendererContext(*renderer_)->device;
    std::vector<Diagnostic> d;
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    vk::Buffer record_buffer = vk::createBuffer(device, records.size() * sizeof(DrawRecord), usage,
                                                vk::MemoryUse::upload, "test records", d);
    vk::Buffer order_buffer = vk::createBuffer(device, records.size() * sizeof(uint32_t), usage,
                                               vk::MemoryUse::upload, "test order", d);
    vk::Buffer count_buffer =
        vk::createBuffer(device, sizeof(uint32_t), usage, vk::MemoryUse::upload, "test count", d);
    ASSERT_TRUE(record_buffer && order_buffer && count_buffer) << errors(d);
    // Stored front to back; the order draws them back to front. Only 250 are live.
    std::vector<DrawRecord> stored(records.rbegin(), records.rend());
    std::memcpy(record_buffer.mapped, stored.data(), stored.size() * sizeof(DrawRecord));
    std::vector<uint32_t> order(records.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<uint32_t>(order.size() - 1 - i);
    std::memcpy(order_buffer.mapped, order.data(), order.size() * sizeof(uint32_t));
    const uint32_t live = 250;
    std::memcpy(count_buffer.mapped, &live, sizeof(live));

    BillboardBatch batch{tiltedParamsFor(kBlendAlpha), kNoTexture, {}, {}};
    batch.device.records = record_buffer.address;
    batch.device.count = count_buffer.address;
    batch.device.order = order_buffer.address;
    batch.device.max_records = static_cast<uint32_t>(records.size());
    batch.overrides.tint = vec4(1.0f, 0.7f, 0.5f, 0.9f);
    batch.overrides.size_scale = 1.3f;
    expectSameImage({batch}, 4, 0.002);
}

// Device records spread over draw-record chunks (a table of chunk addresses, record 0 part-way
// into the first chunk: kernels/draw_record.h, sdDrawRecordPlace), no draw order.
TEST_F(ComputeRasterTest, ChunkedDeviceRecordsMatchTheGraphicsPath) {
    const std::vector<DrawRecord> records = cloud(300, 19u);
    constexpr uint32_t kChunk = 128;
    constexpr uint32_t kFirst = 50; // record 0 is entry 50 of chunk 0
    const vk::Device& device = *rendererContext(*renderer_)->device;
    std::vector<Diagnostic> d;
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    const uint32_t chunks = (kFirst + uint32_t(records.size()) + kChunk - 1) / kChunk;
    std::vector<vk::Buffer> chunk_buffers;
    std::vector<uint32_t> table;
    for (uint32_t c = 0; c < chunks; ++c) {
        chunk_buffers.push_back(vk::createBuffer(device, kChunk * sizeof(DrawRecord), usage,
                                                 vk::MemoryUse::upload, "test chunk", d));
        ASSERT_TRUE(chunk_buffers.back()) << errors(d);
        table.push_back(static_cast<uint32_t>(chunk_buffers.back().address));
        table.push_back(static_cast<uint32_t>(chunk_buffers.back().address >> 32));
    }
    for (size_t i = 0; i < records.size(); ++i) {
        const size_t t = kFirst + i;
        auto* chunk = static_cast<DrawRecord*>(chunk_buffers[t / kChunk].mapped);
        chunk[t % kChunk] = records[i];
    }
    vk::Buffer table_buffer = vk::createBuffer(device, table.size() * sizeof(uint32_t), usage,
                                               vk::MemoryUse::upload, "test chunk table", d);
    vk::Buffer count_buffer =
        vk::createBuffer(device, sizeof(uint32_t), usage, vk::MemoryUse::upload, "test count", d);
    ASSERT_TRUE(table_buffer && count_buffer) << errors(d);
    std::memcpy(table_buffer.mapped, table.data(), table.size() * sizeof(uint32_t));
    const auto live = static_cast<uint32_t>(records.size());
    std::memcpy(count_buffer.mapped, &live, sizeof(live));

    BillboardBatch batch{tiltedParamsFor(kBlendPremultiplied), kNoTexture, {}, {}};
    batch.device.records = table_buffer.address;
    batch.device.chunk_records = kChunk;
    batch.device.first_in_chunk = kFirst;
    batch.device.count = count_buffer.address;
    batch.device.max_records = live;
    expectSameImage({batch}, 4, 0.002);
}

// Texture levels of detail (billboard.h, sdBillboardTextureLod and sdBillboardMaxLod;
// render/texture_store.h builds the chain).

// A 1-texel black and white checker (opaque, one cell).
Image checker(uint32_t side) {
    Image image;
    image.width = side;
    image.height = side;
    image.rgba8.resize(size_t{side} * side * 4);
    for (uint32_t y = 0; y < side; ++y) {
        for (uint32_t x = 0; x < side; ++x) {
            uint8_t* p = &image.rgba8[(size_t{y} * side + x) * 4];
            const uint8_t v = ((x + y) & 1u) ? 255 : 0;
            p[0] = p[1] = p[2] = v;
            p[3] = 255;
        }
    }
    return image;
}

// The spread (largest minus smallest red code) of the pixels within `radius` of (x, y).
int spreadAround(const Image& image, int x, int y, int radius) {
    int low = 255;
    int high = 0;
    for (int j = y - radius; j <= y + radius; ++j) {
        for (int i = x - radius; i <= x + radius; ++i) {
            const int v = image.rgba8[(size_t(j) * image.width + size_t(i)) * 4];
            low = std::min(low, v);
            high = std::max(high, v);
        }
    }
    return high - low;
}

// A checker minified about 8 times (a 0.6 m particle 5 m away, ~7.5 pixels across a 64-texel
// image) is drawn from its mip chain: an even grey on both paths, where level 0 alone aliases
// into black and white pixels. The same texture close up (level 0) still shows the checker, so
// the test would see one that was blurred everywhere.
TEST_F(ComputeRasterTest, MinifiedTexturesAreDrawnFromTheirMipChainOnBothPaths) {
    view_.background = {0, 0, 0};
    view_.primitives = {};
    const TextureHandle texture_handle = texture(checker(64));
    const BillboardParams p = tiltedParamsFor(kBlendAlpha);
    auto particle = [](float size, float z) {
        return sdDrawRecord(vec3(0.0f, 0.0f, z), size, vec4(1.0f), vec3(0.0f), 0.0f, 0.5f, 0.0f, 0u,
                            1u);
    };
    const std::vector<DrawRecord> far = {particle(0.6f, 0.0f)};
    const std::vector<DrawBatch> far_batch = {BillboardBatch{p, texture_handle, far, {}}};
    const Image graphics = render(RasterPath::graphics, far_batch);
    const Image compute = render(RasterPath::compute, far_batch);
    const int cx = int(kWidth) / 2;
    const int cy = int(kHeight) / 2;
    for (const Image* image : {&graphics, &compute}) {
        const int centre = image->rgba8[(size_t(cy) * kWidth + size_t(cx)) * 4];
        EXPECT_GT(centre, 60); // the particle is there: mid-grey, not the black background
        EXPECT_LE(spreadAround(*image, cx, cy, 2), 12);
    }
    EXPECT_LE(difference(graphics, compute).largest, 4);

    // Close up: 40 texels across ~50 pixels of a 1.6 m particle 1.4 m from the eye (level 0).
    const std::vector<DrawRecord> near = {particle(1.6f, 3.6f)};
    const Image close = render(RasterPath::graphics, {BillboardBatch{p, texture_handle, near, {}}});
    EXPECT_GT(spreadAround(close, cx, cy, 2), 120);
}

// A 3 x 3 flipbook of solid cells, the centre cell (frame 4) green and every other red or blue,
// 96 texels a cell (a 288-texel atlas, not a power of two a cell: level 6 straddles cells). Tiny
// particles (~2.5 pixels, which would take level 5 to 6) showing frame 4 draw green only: the LOD
// clamp keeps them at level 4, where a cell is still 6 texels, and the inset keeps the sample
// inside it. Without the clamp their pixels pick up red and blue.
TEST_F(ComputeRasterTest, TheFlipbookLodClampKeepsDistantParticlesInTheirCell) {
    view_.background = {0, 0, 0};
    view_.primitives = {};
    constexpr uint32_t kCell = 96;
    Image atlas;
    atlas.width = 3 * kCell;
    atlas.height = 3 * kCell;
    atlas.rgba8.resize(size_t{atlas.width} * atlas.height * 4);
    for (uint32_t y = 0; y < atlas.height; ++y) {
        for (uint32_t x = 0; x < atlas.width; ++x) {
            const uint32_t cell = (y / kCell) * 3 + x / kCell;
            uint8_t* px = &atlas.rgba8[(size_t{y} * atlas.width + x) * 4];
            px[0] = cell != 4 && cell % 2 == 0 ? 255 : 0;
            px[1] = cell == 4 ? 255 : 0;
            px[2] = cell != 4 && cell % 2 == 1 ? 255 : 0;
            px[3] = 255;
        }
    }
    BillboardParams p = tiltedParamsFor(kBlendAlpha);
    p.flipbook_frames = 9;
    p.flipbook_columns = 3;
    p.flipbook_rows = 3;
    std::vector<DrawRecord> records;
    for (int j = 0; j < 7; ++j) {
        for (int i = 0; i < 9; ++i) {
            records.push_back(
                sdDrawRecord(vec3(-2.0f + 0.5f * float(i), -1.5f + 0.5f * float(j), 0), 0.2f,
                             vec4(1.0f), vec3(0.0f), 0.0f, 0.5f, 4.0f, 0u, uint(j * 9 + i)));
        }
    }
    const TextureHandle texture_handle = texture(atlas);
    const std::vector<DrawBatch> batches = {BillboardBatch{p, texture_handle, records, {}}};
    for (RasterPath path : {RasterPath::graphics, RasterPath::compute}) {
        const Image image = render(path, batches);
        int green = 0;
        int other = 0;
        for (size_t i = 0; i < image.rgba8.size(); i += 4) {
            green = std::max(green, int{image.rgba8[i + 1]});
            other = std::max({other, int{image.rgba8[i]}, int{image.rgba8[i + 2]}});
        }
        EXPECT_GT(green, 100) << "the particles are drawn";
        EXPECT_LE(other, 2) << "a neighbouring cell bled in";
    }
}

} // namespace
} // namespace spindrift::render
