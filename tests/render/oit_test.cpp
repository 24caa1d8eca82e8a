// Weighted-blended OIT in the renderer (lavapipe, validation on): one layer composites exactly as
// sorted alpha blending does, many layers give the same image whatever the draw order (which
// sorted alpha blending does not), additive batches keep their own blending, the opaque depth
// still hides particles, and extreme inputs never reach the frame as NaN or Inf.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/random.h"
#include "render/billboard_params.h"
#include "render/renderer.h"
#include "render_test_helpers.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::cameraFacingParams;
using test::channel;
using test::errors;
using test::kSide; // at 5 m with a 90-degree field, 9.6 px per metre
using test::particle;
using test::solidTexture;

// The largest difference over R, G and B at any pixel, in 8-bit codes.
int largestDifference(const Image& a, const Image& b) {
    int largest = 0;
    for (size_t i = 0; i < a.rgba8.size(); ++i) {
        if (i % 4 == 3) continue;
        largest = std::max(largest, std::abs(int{a.rgba8[i]} - int{b.rgba8[i]}));
    }
    return largest;
}

// The camera on +Z, 5 m from the origin, a grey background and a grey box behind the origin
// (the opaque depth the particles are tested against).
FrameView boxBehindView(Transparency transparency, std::vector<PrimitiveDesc>& primitives) {
    FrameView view;
    view.camera.eye = {0, 0, 5};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 1, 0};
    view.fov_deg = 90;
    view.background = {0.2f, 0.25f, 0.3f};
    view.ground.enabled = false;
    view.sun.direction = {0.3f, 0.5f, 1};
    view.ambient = {0.2f, 0.2f, 0.2f};
    primitives.assign(1, PrimitiveDesc{});
    primitives[0].type = PrimitiveKind::box;
    primitives[0].center = {1.5f, 0, -1};
    primitives[0].size = {2, 2, 1};
    primitives[0].color = {0.6f, 0.5f, 0.4f};
    view.primitives = primitives;
    view.transparency = transparency;
    return view;
}

// count soft discs in a 3 x 3 x 2 m box around the origin, colours and alphas varied, the same
// every run: many overlapping layers.
std::vector<DrawRecord> layeredCloud(size_t count) {
    std::vector<DrawRecord> records;
    for (size_t i = 0; i < count; ++i) {
        const uint key = sdParticleKey(7u, 0u, static_cast<uint>(i), 0u);
        const vec3 p(3.0f * sdRandom01(key, 0u) - 1.5f, 3.0f * sdRandom01(key, 1u) - 1.5f,
                     2.0f * sdRandom01(key, 2u) - 1.0f);
        const vec4 color(sdRandom01(key, 3u), sdRandom01(key, 4u), sdRandom01(key, 5u),
                         0.3f + 0.6f * sdRandom01(key, 6u));
        records.push_back(particle(p, 0.8f, color));
    }
    return records;
}

class OitTest : public ::testing::Test {
protected:
    void SetUp() override {
        RendererConfig config;
        config.width = kSide;
        config.height = kSide;
        config.validation = true;
        std::vector<Diagnostic> d;
        renderer_ = createRenderer(config, d);
        ASSERT_NE(renderer_, nullptr) << errors(d);
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

    Image render(const FrameView& view, const std::vector<DrawBatch>& batches) {
        Image image;
        std::vector<Diagnostic> d;
        EXPECT_TRUE(renderFrame(*renderer_, view, batches, image, stats_, d)) << errors(d);
        return image;
    }

    RendererPtr renderer_;
    FrameStats stats_;
};

TEST(Transparency, OnlyAlphaAndPremultipliedDrawThroughOitInOitMode) {
    EXPECT_TRUE(drawsThroughOit(Transparency::weighted_oit, kBlendAlpha));
    EXPECT_TRUE(drawsThroughOit(Transparency::weighted_oit, kBlendPremultiplied));
    EXPECT_FALSE(drawsThroughOit(Transparency::weighted_oit, kBlendAdditive));
    EXPECT_FALSE(drawsThroughOit(Transparency::weighted_oit, kBlendOpaque));
    for (uint32_t blend = 0; blend < kBlendCount; ++blend) {
        EXPECT_FALSE(drawsThroughOit(Transparency::sorted, blend)) << blend;
    }
}

// One layer of non-overlapping particles: OIT's weighted average of one fragment is that
// fragment, and the revealage is 1 - alpha, so the result is "over", as sorted blending gives.
// Textured, untextured, lit, soft-faded (against the box) and strip batches, alpha and
// premultiplied, all take the same fragment maths in both modes.
TEST_F(OitTest, OneLayerMatchesSortedAlphaBlending) {
    const TextureHandle smoke = texture(solidTexture(200, 180, 160, 230));
    std::vector<DrawRecord> row;
    for (int i = 0; i < 4; ++i) {
        row.push_back(particle(vec3(-3.0f + 1.2f * float(i), 1.5f, 0), 1.0f,
                               vec4(0.9f, 0.6f, 0.3f, 0.95f - 0.2f * float(i))));
    }
    std::vector<DrawRecord> lit_row = row;
    std::vector<DrawRecord> soft_row;
    for (DrawRecord& r : lit_row) r.position_size.y = 0.0f;
    // Just in front of the box (its front face at z = -0.5): the soft fade dims them.
    for (int i = 0; i < 2; ++i) {
        soft_row.push_back(particle(vec3(1.0f + 1.0f * float(i), -1.5f, -0.3f), 1.0f,
                                    vec4(0.3f, 0.8f, 1.0f, 0.9f)));
    }
    BillboardParams alpha = cameraFacingParams(kBlendAlpha);
    BillboardParams lit = alpha;
    lit.render_flags |= kRenderFlagLit;
    BillboardParams soft = cameraFacingParams(kBlendPremultiplied);
    soft.soft_fade_distance = 0.5f;
    StripParams strip_params{};
    strip_params.blend = kBlendAlpha;
    strip_params.emissive = 1;
    std::vector<StripPoint> points(2);
    points[0].position_width = vec4(-3.0f, -1.5f, 0.5f, 0.4f);
    points[1].position_width = vec4(-0.5f, -1.5f, 0.5f, 0.4f);
    for (StripPoint& p : points) {
        p.color = vec4(0.2f, 1.0f, 0.4f, 0.7f);
        p.tangent_u = vec4(1, 0, 0, 0);
    }
    points[1].tangent_u.w = 1.0f;
    const std::vector<uint32_t> segments = {0};

    const std::vector<DrawBatch> batches = {
        BillboardBatch{alpha, smoke, row, {}}, BillboardBatch{lit, kNoTexture, lit_row, {}},
        BillboardBatch{soft, kNoTexture, soft_row, {}},
        StripBatch{strip_params, kNoTexture, points, segments, {}}};
    std::vector<PrimitiveDesc> primitives;
    const Image sorted = render(boxBehindView(Transparency::sorted, primitives), batches);
    EXPECT_EQ(stats_.oit_records, 0u);
    const Image oit = render(boxBehindView(Transparency::weighted_oit, primitives), batches);
    EXPECT_EQ(stats_.oit_records, 10u);
    EXPECT_EQ(stats_.oit_segments, 1u);
    // Half-float targets and the division: a code or two of rounding, no more.
    EXPECT_LE(largestDifference(sorted, oit), 2);
    // And the particles are there: the frame is not just the background in both.
    std::vector<PrimitiveDesc> none;
    const Image empty = render(boxBehindView(Transparency::sorted, none), {});
    EXPECT_GT(largestDifference(sorted, empty), 100);
}

// One layer with an emissive share: OIT accumulates only the alpha share and the renderer adds
// the emissive share after the composite, so the frame is what one premultiplied draw with the
// share gives in sorted mode (docs/rendering.md, "Emissive"). Drawing the whole particle through
// OIT instead would cover the box behind it by a, not a (1 - s): tens of codes apart.
TEST_F(OitTest, OneLayerWithAnEmissiveShareMatchesSorted) {
    std::vector<DrawRecord> row;
    for (int i = 0; i < 4; ++i) {
        row.push_back(
            particle(vec3(-1.5f + 1.2f * float(i), 0.0f, 0), 1.1f, vec4(0.8f, 0.4f, 0.15f, 0.95f)));
    }
    BillboardParams glowing = cameraFacingParams(kBlendPremultiplied);
    glowing.emissive = 1.5f;
    glowing.emissive_share = 0.6f;
    StripParams strip_params{};
    strip_params.blend = kBlendPremultiplied;
    strip_params.emissive = 1.5f;
    strip_params.emissive_share = 0.6f;
    std::vector<StripPoint> points(2);
    points[0].position_width = vec4(-3.0f, -1.5f, 0.5f, 0.4f);
    points[1].position_width = vec4(2.5f, -1.5f, 0.5f, 0.4f);
    for (StripPoint& p : points) {
        p.color = vec4(0.2f, 0.6f, 1.0f, 0.9f);
        p.tangent_u = vec4(1, 0, 0, 0);
    }
    points[1].tangent_u.w = 1.0f;
    const std::vector<uint32_t> segments = {0};
    const std::vector<DrawBatch> batches = {
        BillboardBatch{glowing, kNoTexture, row, {}},
        StripBatch{strip_params, kNoTexture, points, segments, {}}};

    std::vector<PrimitiveDesc> primitives;
    const Image sorted = render(boxBehindView(Transparency::sorted, primitives), batches);
    const Image oit = render(boxBehindView(Transparency::weighted_oit, primitives), batches);
    EXPECT_EQ(stats_.oit_records, 4u);
    EXPECT_EQ(stats_.oit_segments, 1u);
    EXPECT_LE(largestDifference(sorted, oit), 2);

    // The share changes the image: without it the particles cover the box and background fully.
    std::vector<DrawBatch> no_share = batches;
    std::get<BillboardBatch>(no_share[0]).params.emissive_share = 0.0f;
    std::get<StripBatch>(no_share[1]).params.emissive_share = 0.0f;
    const Image covering = render(boxBehindView(Transparency::sorted, primitives), no_share);
    EXPECT_GT(largestDifference(sorted, covering), 20);
}

// Many overlapping layers drawn in two orders (records reversed, and the cloud split into two
// batches given in either order): the OIT image is the same within rounding, while sorted alpha
// blending without a sort changes visibly.
TEST_F(OitTest, ManyLayersDoNotDependOnDrawOrderWhileUnsortedAlphaDoes) {
    const std::vector<DrawRecord> forward = layeredCloud(300);
    std::vector<DrawRecord> reversed(forward.rbegin(), forward.rend());
    const std::span<const DrawRecord> first_half(forward.data(), 150);
    const std::span<const DrawRecord> second_half(forward.data() + 150, 150);
    const BillboardParams alpha = cameraFacingParams(kBlendAlpha);
    const std::vector<DrawBatch> in_order = {BillboardBatch{alpha, kNoTexture, forward, {}}};
    const std::vector<DrawBatch> in_reverse = {BillboardBatch{alpha, kNoTexture, reversed, {}}};
    const std::vector<DrawBatch> halves_swapped = {
        BillboardBatch{alpha, kNoTexture, second_half, {}},
        BillboardBatch{alpha, kNoTexture, first_half, {}}};

    std::vector<PrimitiveDesc> primitives;
    const FrameView oit_view = boxBehindView(Transparency::weighted_oit, primitives);
    const Image oit_a = render(oit_view, in_order);
    const Image oit_b = render(oit_view, in_reverse);
    const Image oit_c = render(oit_view, halves_swapped);
    EXPECT_LE(largestDifference(oit_a, oit_b), 2);
    EXPECT_LE(largestDifference(oit_a, oit_c), 2);

    const FrameView sorted_view = boxBehindView(Transparency::sorted, primitives);
    const Image sorted_a = render(sorted_view, in_order);
    const Image sorted_b = render(sorted_view, in_reverse);
    EXPECT_GT(largestDifference(sorted_a, sorted_b), 40);
    // OIT is an approximation of the sorted result, not a different picture.
    std::vector<PrimitiveDesc> none;
    const Image empty = render(boxBehindView(Transparency::sorted, none), {});
    EXPECT_GT(largestDifference(oit_a, empty), 40);
}

// Additive batches are drawn with their own blending in both modes (and not counted as OIT).
TEST_F(OitTest, AdditiveBatchesKeepTheirBlending) {
    const std::vector<DrawRecord> records = layeredCloud(50);
    const std::vector<DrawBatch> batches = {
        BillboardBatch{cameraFacingParams(kBlendAdditive), kNoTexture, records, {}}};
    std::vector<PrimitiveDesc> primitives;
    const Image sorted = render(boxBehindView(Transparency::sorted, primitives), batches);
    const Image oit = render(boxBehindView(Transparency::weighted_oit, primitives), batches);
    EXPECT_EQ(stats_.oit_records, 0u);
    EXPECT_EQ(largestDifference(sorted, oit), 0);
}

// The accumulation is depth-tested against the opaque depth: a particle behind the box does not
// show through it, one in front does.
TEST_F(OitTest, OpaqueDepthHidesParticlesBehindIt) {
    std::vector<PrimitiveDesc> primitives;
    const FrameView view = boxBehindView(Transparency::weighted_oit, primitives);
    const BillboardParams alpha = cameraFacingParams(kBlendAlpha);
    // Pixel (61, 48) sees the box's front face (z = -0.5, 5.5 m away) at x = 1.5; both
    // particles sit on that pixel's ray, 7 m and 4 m from the eye.
    const std::vector<DrawRecord> behind = {
        particle(vec3(1.5f * 7.0f / 5.5f, 0, -2), 1.0f, vec4(0, 1, 0, 1))};
    const std::vector<DrawRecord> in_front = {
        particle(vec3(1.5f * 4.0f / 5.5f, 0, 1), 1.0f, vec4(0, 1, 0, 1))};
    const Image bare = render(view, {});
    const Image hidden = render(view, {BillboardBatch{alpha, kNoTexture, behind, {}}});
    const Image shown = render(view, {BillboardBatch{alpha, kNoTexture, in_front, {}}});
    for (int c = 0; c < 3; ++c) EXPECT_EQ(channel(hidden, 61, 48, c), channel(bare, 61, 48, c));
    EXPECT_GT(channel(shown, 61, 48, 1), channel(bare, 61, 48, 1) + 50);
    EXPECT_LT(channel(shown, 61, 48, 0), channel(bare, 61, 48, 0) - 50);
}

// HDR colours far past the half-float range, hundreds of layers right at the camera (the largest
// weight): the sums saturate but the composite stays finite, so the pixel is bright, never the
// black a NaN reads back as.
TEST_F(OitTest, SaturatedSumsStayFinite) {
    std::vector<DrawRecord> records(400,
                                    particle(vec3(0, 0, 4.8f), 0.5f, vec4(1e6f, 1e6f, 1e6f, 1)));
    std::vector<PrimitiveDesc> primitives;
    const Image image =
        render(boxBehindView(Transparency::weighted_oit, primitives),
               {BillboardBatch{cameraFacingParams(kBlendAlpha), kNoTexture, records, {}}});
    for (int c = 0; c < 3; ++c) EXPECT_EQ(channel(image, 48, 48, c), 255) << c;
}

TEST_F(OitTest, UnknownTransparencyIsAnError) {
    std::vector<PrimitiveDesc> primitives;
    FrameView view = boxBehindView(Transparency::sorted, primitives);
    view.transparency = static_cast<Transparency>(7);
    Image image;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, stats_, d));
    ASSERT_FALSE(d.empty());
    EXPECT_NE(formatDiagnostic(d.back()).find("transparency 7 is unknown"), std::string::npos)
        << errors(d);
}

} // namespace
} // namespace spindrift::render
