// The renderer on lavapipe, validation on: each test reads pixels back and checks what a viewer
// would see (where things land, how big, how they blend), and fails on any validation message.
#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/mesh_params.h"
#include "render/readback.h"
#include "render/shader/opaque_geometry.h"
#include "render_test_helpers.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::errors;
using test::kSide; // square frames: at 5 m with a 90-degree field, 9.6 px per metre
using test::meshParamsFor;
using test::particle;
using test::solidTexture;
using test::stripParamsFor;

struct Rgb {
    int r, g, b;
};

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const std::string& l : lines) s += l + "\n";
    return s;
}

Rgb pixel(const Image& image, uint32_t x, uint32_t y) {
    size_t i = (size_t{y} * image.width + x) * 4;
    return {image.rgba8[i], image.rgba8[i + 1], image.rgba8[i + 2]};
}

// sRGB 8-bit of linear values: what the readback writes (tested in readback_test.cpp).
Rgb encoded(float r, float g, float b) {
    return {encodeSrgb8(r), encodeSrgb8(g), encodeSrgb8(b)};
}

// Linear value of an 8-bit sRGB code (the texture's decode).
float decodeSrgb8(int code) {
    double c = code / 255.0;
    return static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
}

::testing::AssertionResult near(Rgb actual, Rgb expected, int tolerance) {
    if (std::abs(actual.r - expected.r) <= tolerance &&
        std::abs(actual.g - expected.g) <= tolerance &&
        std::abs(actual.b - expected.b) <= tolerance) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "pixel (" << actual.r << ", " << actual.g << ", " << actual.b << ") expected ("
           << expected.r << ", " << expected.g << ", " << expected.b << ") +-" << tolerance;
}

// The camera on +Z, 5 m from the origin, looking at it; nothing else in the scene.
FrameView frontView() {
    FrameView view;
    view.camera.eye = {0, 0, 5};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 1, 0};
    view.fov_deg = 90;
    view.background = {0, 0, 0};
    view.ground.enabled = false;
    view.sun.direction = {0, 0, 1};
    view.sun.color = {1, 1, 1};
    view.sun.intensity = 1;
    view.ambient = {0, 0, 0};
    return view;
}

BillboardParams paramsFor(uint32_t blend, uint32_t alignment = kAlignCamera) {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.axis = vec4(0, 1, 0, 0);
    e.blend = blend;
    e.alignment = alignment;
    e.emission = vec4(1, 0, 0, 0); // emissive 1: the colour as given
    return billboardParams(e, Rows3x4{});
}

// Pixels that differ from the background: their bounding box.
struct Box {
    int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
    int width() const { return x1 - x0 + 1; }
    int height() const { return y1 - y0 + 1; }
};
Box coverage(const Image& image, Rgb background) {
    Box box;
    for (uint32_t y = 0; y < image.height; ++y) {
        for (uint32_t x = 0; x < image.width; ++x) {
            Rgb p = pixel(image, x, y);
            if (p.r != background.r || p.g != background.g || p.b != background.b) {
                box.x0 = std::min(box.x0, int(x));
                box.y0 = std::min(box.y0, int(y));
                box.x1 = std::max(box.x1, int(x));
                box.y1 = std::max(box.y1, int(y));
            }
        }
    }
    return box;
}

class RendererTest : public ::testing::Test {
protected:
    void create(uint32_t width = kSide, uint32_t height = kSide) {
        RendererConfig config;
        config.width = width;
        config.height = height;
        config.validation = true;
        std::vector<Diagnostic> d;
        renderer_ = createRenderer(config, d);
        ASSERT_NE(renderer_, nullptr) << errors(d);
        ASSERT_TRUE(d.empty()) << errors(d);
    }

    void TearDown() override {
        if (renderer_) {
            EXPECT_TRUE(validationMessages(*renderer_).empty())
                << joined(validationMessages(*renderer_));
        }
    }

    TextureHandle texture(const Image& image) {
        std::vector<Diagnostic> d;
        TextureHandle handle = addTexture(*renderer_, image, "test texture", d);
        EXPECT_NE(handle, kNoTexture) << errors(d);
        return handle;
    }

    Image render(const FrameView& view, const std::vector<BillboardBatch>& billboards = {}) {
        return renderBatches(view, std::vector<DrawBatch>(billboards.begin(), billboards.end()));
    }

    Image renderBatches(const FrameView& view, const std::vector<DrawBatch>& batches) {
        Image image;
        std::vector<Diagnostic> d;
        FrameStats stats;
        EXPECT_TRUE(renderFrame(*renderer_, view, batches, image, stats, d)) << errors(d);
        EXPECT_EQ(image.width, renderer_ ? kSide : 0u);
        return image;
    }

    RendererPtr renderer_;
};

TEST_F(RendererTest, ClearColourIsWrittenAsDocumentedSrgb) {
    ASSERT_NO_FATAL_FAILURE(create());
    FrameView view = frontView();
    view.background = {0.5f, 0.25f, 0.001f};
    Image image = render(view);
    ASSERT_EQ(image.rgba8.size(), size_t{kSide} * kSide * 4);
    EXPECT_TRUE(near(pixel(image, 0, 0), {188, 137, 3}, 0));
    EXPECT_TRUE(near(pixel(image, kSide - 1, kSide - 1), {188, 137, 3}, 0));
    EXPECT_EQ(image.rgba8[3], 255);

    view.background = {2.0f, 1.0f, 0.0f}; // HDR clips, no tone mapping
    image = render(view);
    EXPECT_TRUE(near(pixel(image, 10, 10), {255, 255, 0}, 0));
}

TEST_F(RendererTest, GroundIsWhereTheCameraSaysItIs) {
    ASSERT_NO_FATAL_FAILURE(create());
    FrameView view = frontView();
    view.camera.eye = {0, 1, 0}; // 1 m above the ground, looking level toward -Z
    view.camera.target = {0, 1, -1};
    view.background = {0, 0, 0.2f};
    view.ground.enabled = true;
    view.ground.height = 0;
    view.ground.size = 40;
    view.ground.color = {0.5f, 0.5f, 0.5f};
    view.sun.direction = {0, 1, 0};
    Image image = render(view);
    Rgb sky = encoded(0, 0, 0.2f);
    // The checker's light and dark cells, and near the horizon their blend (it fades to its mean
    // where a pixel covers cells): between the two.
    const Rgb light = encoded(0.5f, 0.5f, 0.5f);
    const Rgb dark =
        encoded(0.5f * kGroundCheckerDark, 0.5f * kGroundCheckerDark, 0.5f * kGroundCheckerDark);
    auto isGround = [&](Rgb p) {
        return p.r >= dark.r - 1 && p.r <= light.r + 1 && p.g == p.r && p.b == p.r;
    };
    // The far edge (z = -20) is 1/20 below the horizon: row (1 + 0.05) / 2 * 96 = 50.4.
    for (uint32_t y = 0; y < kSide; ++y) {
        Rgb p = pixel(image, kSide / 2, y);
        if (y <= 49) {
            EXPECT_TRUE(near(p, sky, 0)) << "row " << y;
        } else if (y >= 52) {
            EXPECT_TRUE(isGround(p)) << "row " << y;
        }
    }
}

TEST_F(RendererTest, PrimitivesAreDrawnLitWhereProjected) {
    ASSERT_NO_FATAL_FAILURE(create());
    FrameView view = frontView();
    std::vector<PrimitiveDesc> primitives(2);
    primitives[0].type = PrimitiveKind::box;
    primitives[0].center = {-2, 0, 0};
    primitives[0].size = {1, 1, 1};
    primitives[0].color = {1, 0, 0};
    primitives[1].type = PrimitiveKind::sphere;
    primitives[1].center = {2, 0, 0};
    primitives[1].radius = 0.5f;
    primitives[1].color = {0, 1, 0};
    view.primitives = primitives;
    Image image = render(view);
    // Box front face at z = 0.5: x = -2 / 4.5 in NDC -> pixel 26.7; sphere centre 2 / 5 -> 67.2.
    EXPECT_TRUE(near(pixel(image, 26, 48), {255, 0, 0}, 0)); // faces the sun: full colour
    EXPECT_TRUE(near(pixel(image, 67, 47), {0, 255, 0}, 8)); // faceted: normals within ~5 deg
    EXPECT_TRUE(near(pixel(image, 48, 48), {0, 0, 0}, 0));
    Rgb dark_side = pixel(image, 67, 44); // the sphere's upper part turns from the sun
    EXPECT_LT(dark_side.g, 255);
    EXPECT_GT(dark_side.g, 100);
}

TEST_F(RendererTest, BillboardLandsAtItsProjectedPixelWithItsSize) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    std::vector<DrawRecord> records = {particle(vec3(1, 0.5f, 0), 2.0f, vec4(1))};
    BillboardBatch batch{paramsFor(kBlendAlpha), white, records, {}};
    Image image = render(frontView(), {batch});
    // Centre (1, 0.5) at 5 m: pixel (57.6, 43.2); half edge 1 m = 9.6 px.
    Box box = coverage(image, {0, 0, 0});
    EXPECT_NEAR(box.x0, 48, 1);
    EXPECT_NEAR(box.x1, 66, 1);
    EXPECT_NEAR(box.y0, 34, 1);
    EXPECT_NEAR(box.y1, 52, 1);
    EXPECT_TRUE(near(pixel(image, 57, 43), {255, 255, 255}, 0));
}

TEST_F(RendererTest, BlendModesGiveTheirArithmeticOnAKnownBackground) {
    ASSERT_NO_FATAL_FAILURE(create());
    // Texel: sRGB 128 colour, alpha 128 (premultiplied for additive and premultiplied).
    TextureHandle half = texture(solidTexture(128, 128, 128, 128));
    float t = decodeSrgb8(128);
    float a_tex = 128.0f / 255.0f;
    vec4 tint(1.0f, 0.5f, 0.25f, 0.8f);
    float bg = 0.2f;
    FrameView view = frontView();
    view.background = {bg, bg, bg};
    std::vector<DrawRecord> records = {particle(vec3(0), 2.0f, tint)};

    float a = a_tex * tint.w;
    struct Case {
        uint32_t blend;
        vec3 expected;
    } cases[] = {
        {kBlendAdditive, vec3(bg) + t * vec3(tint) * tint.w},
        {kBlendAlpha, t * vec3(tint) * a + vec3(bg) * (1 - a)},
        {kBlendPremultiplied, t * vec3(tint) * tint.w + vec3(bg) * (1 - a)},
    };
    for (const Case& c : cases) {
        Image image = render(view, {BillboardBatch{paramsFor(c.blend), half, records, {}}});
        EXPECT_TRUE(
            near(pixel(image, 48, 48), encoded(c.expected.x, c.expected.y, c.expected.z), 2))
            << "blend " << c.blend;
    }
}

TEST_F(RendererTest, UntexturedParticleIsASoftDisc) {
    ASSERT_NO_FATAL_FAILURE(create());
    std::vector<DrawRecord> records = {particle(vec3(0), 4.0f, vec4(1))};
    Image image =
        render(frontView(), {BillboardBatch{paramsFor(kBlendAdditive), kNoTexture, records, {}}});
    // Edge 4 m = 38.4 px: centre 1, half-way (r = 0.5) (1 - 0.25)^2, corner 0.
    EXPECT_TRUE(near(pixel(image, 48, 48), {255, 255, 255}, 1));
    Rgb mid = pixel(image, 57, 48); // 9.5 px = 0.495 of the half edge: (1 - 0.245)^2
    EXPECT_TRUE(near(mid, encoded(0.570f, 0.570f, 0.570f), 3));
    EXPECT_TRUE(near(pixel(image, 48 - 18, 48 - 18), {0, 0, 0}, 0));
}

TEST_F(RendererTest, BatchesAreDrawnInTheOrderGiven) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    std::vector<DrawRecord> red = {particle(vec3(0), 2.0f, vec4(1, 0, 0, 1))};
    std::vector<DrawRecord> blue = {particle(vec3(0), 2.0f, vec4(0, 0, 1, 1))};
    BillboardParams alpha = paramsFor(kBlendAlpha);
    Image image = render(frontView(), {{alpha, white, red, {}}, {alpha, white, blue, {}}});
    EXPECT_TRUE(near(pixel(image, 48, 48), {0, 0, 255}, 0));
    image = render(frontView(), {{alpha, white, blue, {}}, {alpha, white, red, {}}});
    EXPECT_TRUE(near(pixel(image, 48, 48), {255, 0, 0}, 0));
}

TEST_F(RendererTest, DepthTestHidesAParticleBehindABox) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    FrameView view = frontView();
    std::vector<PrimitiveDesc> box(1);
    box[0].type = PrimitiveKind::box;
    box[0].color = {1, 0, 0};
    view.primitives = box;
    std::vector<DrawRecord> behind = {particle(vec3(0, 0, -2), 0.5f, vec4(0, 1, 0, 1))};
    std::vector<DrawRecord> in_front = {particle(vec3(0, 0, 2), 0.5f, vec4(0, 1, 0, 1))};
    BillboardParams additive = paramsFor(kBlendAdditive);
    Image image = render(view, {{additive, white, behind, {}}});
    EXPECT_TRUE(near(pixel(image, 48, 48), {255, 0, 0}, 0));
    image = render(view, {{additive, white, in_front, {}}});
    EXPECT_TRUE(near(pixel(image, 48, 48), {255, 255, 0}, 0));
}

TEST_F(RendererTest, SoftFadeDimsAParticleNearTheGround) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    // Looking straight down from 3 m: the ground is at linear depth 3 everywhere, and a
    // camera-facing quad h metres above it fades to h / soft_fade_distance.
    FrameView view = frontView();
    view.camera.eye = {0, 3, 0};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 0, -1};
    view.ground.enabled = true;
    view.ground.color = {0.2f, 0.2f, 0.2f};
    view.sun.direction = {0, 1, 0};
    BillboardParams hard = paramsFor(kBlendAdditive);
    BillboardParams soft = hard;
    soft.soft_fade_distance = 1.0f;
    std::vector<DrawRecord> low = {particle(vec3(0, 0.05f, 0), 0.5f, vec4(1))};
    std::vector<DrawRecord> high = {particle(vec3(0, 1.5f, 0), 0.5f, vec4(1))};

    // The centre pixel sees checker cell (0, 0), the light one: ground 0.2.
    EXPECT_TRUE(near(pixel(render(view), 48, 48), encoded(0.2f, 0.2f, 0.2f), 0));
    EXPECT_TRUE(near(pixel(render(view, {{hard, white, low, {}}}), 48, 48), {255, 255, 255}, 0));
    EXPECT_TRUE(near(pixel(render(view, {{soft, white, low, {}}}), 48, 48),
                     encoded(0.25f, 0.25f, 0.25f), 2)); // 0.2 + 0.05
    // 1.5 m above the ground the same fade distance changes nothing.
    EXPECT_TRUE(near(pixel(render(view, {{soft, white, high, {}}}), 48, 48), {255, 255, 255}, 0));
}

TEST_F(RendererTest, VelocityStretchedQuadIsLongerAlongTheVelocity) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    BillboardParams stretch = paramsFor(kBlendAlpha, kAlignVelocityStretch);
    stretch.axis_stretch.w = 1.0f; // 1 s: a 3 m/s particle is 3 m longer
    std::vector<DrawRecord> sideways = {particle(vec3(0), 0.5f, vec4(1), vec3(3, 0, 0))};
    Box box = coverage(render(frontView(), {{stretch, white, sideways, {}}}), {0, 0, 0});
    EXPECT_NEAR(box.width(), 34, 2); // 3.5 m
    EXPECT_NEAR(box.height(), 5, 1); // 0.5 m
    std::vector<DrawRecord> upward = {particle(vec3(0), 0.5f, vec4(1), vec3(0, 3, 0))};
    box = coverage(render(frontView(), {{stretch, white, upward, {}}}), {0, 0, 0});
    EXPECT_NEAR(box.width(), 5, 1);
    EXPECT_NEAR(box.height(), 34, 2);
}

TEST_F(RendererTest, AxisAndFixedAlignmentsOrientTheQuad) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    std::vector<DrawRecord> records = {particle(vec3(0), 2.0f, vec4(1))};
    // Axis: the long axis along (1, 0, -1) is foreshortened (its ends at x = +-0.707, z = -+0.707
    // project 13.9 px apart); the side axis turns to face the camera and keeps the full edge,
    // 19.2 px at 5 m, 22.4 px at the near end (4.29 m).
    BillboardParams axis = paramsFor(kBlendAlpha, kAlignAxis);
    axis.axis_stretch = vec4(normalize(vec3(1, 0, -1)), 0);
    Box box = coverage(render(frontView(), {{axis, white, records, {}}}), {0, 0, 0});
    EXPECT_NEAR(box.width(), 14, 1);
    EXPECT_NEAR(box.height(), 22, 1);
    // Fixed: a decal facing the camera is the full square; one lying flat is seen edge-on.
    BillboardParams fixed = paramsFor(kBlendAlpha, kAlignFixed);
    fixed.axis_stretch = vec4(0, 0, 1, 0);
    box = coverage(render(frontView(), {{fixed, white, records, {}}}), {0, 0, 0});
    EXPECT_NEAR(box.width(), 19, 1);
    EXPECT_NEAR(box.height(), 19, 1);
    fixed.axis_stretch = vec4(0, 1, 0, 0);
    box = coverage(render(frontView(), {{fixed, white, records, {}}}), {0, 0, 0});
    EXPECT_LE(box.height(), 1);
}

TEST_F(RendererTest, LitParticleIsBrighterOnTheSunSide) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    FrameView view = frontView();
    view.sun.direction = {1, 0, 0};
    view.ambient = {0.1f, 0.1f, 0.1f};
    BillboardParams lit = paramsFor(kBlendAlpha);
    lit.render_flags = kRenderFlagLit;
    std::vector<DrawRecord> records = {particle(vec3(0), 2.0f, vec4(1))};
    Image image = render(view, {{lit, white, records, {}}});
    Rgb shade = pixel(image, 43, 48); // half-way to the left edge: ambient only
    Rgb sun = pixel(image, 52, 48);   // half-way to the right: n.x ~ 0.47
    EXPECT_TRUE(near(shade, encoded(0.1f, 0.1f, 0.1f), 1));
    EXPECT_TRUE(near(sun, encoded(0.57f, 0.57f, 0.57f), 8));
    EXPECT_GT(sun.r, shade.r + 80);
}

TEST_F(RendererTest, FlipbookPicksTheCellAndBlendsFrames) {
    ASSERT_NO_FATAL_FAILURE(create());
    // 2x2 atlas, one texel a cell: red, green / blue, white.
    Image atlas;
    atlas.width = atlas.height = 2;
    atlas.rgba8 = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    TextureHandle handle = texture(atlas);
    BillboardParams p = paramsFor(kBlendAlpha);
    p.flipbook_frames = 4;
    p.flipbook_columns = 2;
    p.flipbook_rows = 2;
    p.render_flags = kRenderFlagFrameBlend;
    auto at_frame = [&](float frame, const BillboardParams& params) {
        std::vector<DrawRecord> records = {particle(vec3(0), 2.0f, vec4(1))};
        records[0].flipbook_frame = frame;
        return pixel(render(frontView(), {{params, handle, records, {}}}), 48, 48);
    };
    EXPECT_TRUE(near(at_frame(2.0f, p), {0, 0, 255}, 0));
    EXPECT_TRUE(near(at_frame(1.0f, p), {0, 255, 0}, 0));
    EXPECT_TRUE(near(at_frame(0.5f, p), encoded(0.5f, 0.5f, 0), 1)); // red and green
    EXPECT_TRUE(near(at_frame(3.5f, p), encoded(1, 0.5f, 0.5f), 1)); // white wraps to red
    BillboardParams no_blend = p;
    no_blend.render_flags = 0;
    EXPECT_TRUE(near(at_frame(0.5f, no_blend), {255, 0, 0}, 0));
}

TEST_F(RendererTest, ReportsWhatItDrew) {
    ASSERT_NO_FATAL_FAILURE(create());
    std::vector<DrawRecord> a(3, particle(vec3(0), 0.1f, vec4(1)));
    std::vector<DrawRecord> b(5000, particle(vec3(0.5f), 0.1f, vec4(1)));
    BillboardParams p = paramsFor(kBlendAdditive);
    std::vector<DrawBatch> batches = {BillboardBatch{p, kNoTexture, a, {}},
                                      BillboardBatch{p, kNoTexture, b, {}},
                                      BillboardBatch{p, kNoTexture, {}, {}}};
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(renderFrame(*renderer_, frontView(), batches, image, stats, d)) << errors(d);
    EXPECT_EQ(stats.particles_drawn, 5003u);
    EXPECT_EQ(stats.batches, 3u);
    EXPECT_GE(stats.gpu_ms, 0.0);
    // A second frame of the same size reuses the draw buffer and draws the same.
    Image again;
    ASSERT_TRUE(renderFrame(*renderer_, frontView(), batches, again, stats, d)) << errors(d);
    EXPECT_EQ(image.rgba8, again.rgba8);
}

TEST_F(RendererTest, UnknownTextureHandleIsAnError) {
    ASSERT_NO_FATAL_FAILURE(create());
    std::vector<DrawRecord> records = {particle(vec3(0), 1.0f, vec4(1))};
    std::vector<DrawBatch> batches = {
        BillboardBatch{paramsFor(kBlendAlpha), TextureHandle{7, 1}, records, {}}};
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(formatDiagnostic(d[0]).find("batch 0: unknown texture handle 7"), std::string::npos)
        << formatDiagnostic(d[0]);
}

TEST_F(RendererTest, MalformedTextureIsAnErrorNamingIt) {
    ASSERT_NO_FATAL_FAILURE(create());
    Image bad = solidTexture(1, 2, 3, 4);
    bad.rgba8.pop_back();
    std::vector<Diagnostic> d;
    EXPECT_EQ(addTexture(*renderer_, bad, "textures/spark.png", d), kNoTexture);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].file, "textures/spark.png");
    EXPECT_NE(d[0].message.find("expected width * height * 4 = 16"), std::string::npos)
        << d[0].message;
    d.clear();
    EXPECT_EQ(addTexture(*renderer_, Image{}, "empty.png", d), kNoTexture);
    EXPECT_EQ(d.size(), 1u);
}

// --- strips (ribbons and beams) ----------------------------------------------------------------

// A polyline through positions, each point's tangent the average of its segments' directions
// (as the backends write them), u the fraction of the points.
std::vector<StripPoint> polyline(const std::vector<vec3>& positions, float width, vec4 color) {
    std::vector<StripPoint> points;
    const size_t n = positions.size();
    for (size_t i = 0; i < n; ++i) {
        vec3 before = i > 0 ? normalize(positions[i] - positions[i - 1]) : vec3(0);
        vec3 after = i + 1 < n ? normalize(positions[i + 1] - positions[i]) : vec3(0);
        StripPoint p;
        p.position_width = vec4(positions[i], width);
        p.color = color;
        p.tangent_u = vec4(normalize(before + after), float(i) / float(n - 1));
        points.push_back(p);
    }
    return points;
}

std::vector<uint32_t> segmentsOf(size_t points) {
    std::vector<uint32_t> segments;
    for (uint32_t i = 0; i + 1 < points; ++i) segments.push_back(i);
    return segments;
}

TEST_F(RendererTest, StraightStripLandsWhereProjectedWithItsWidth) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    // From x = -1 to x = 2 at y = 0.5, 1 m wide: at 9.6 px per metre, columns 38.4 to 67.2,
    // rows 43.2 -+ 4.8.
    const std::vector<StripPoint> points =
        polyline({vec3(-1, 0.5f, 0), vec3(0.5f, 0.5f, 0), vec3(2, 0.5f, 0)}, 1.0f, vec4(1));
    const std::vector<uint32_t> segments = segmentsOf(points.size());
    Image image = renderBatches(
        frontView(), {StripBatch{stripParamsFor(kBlendAlpha), white, points, segments, {}}});
    Box box = coverage(image, {0, 0, 0});
    EXPECT_NEAR(box.x0, 38, 1);
    EXPECT_NEAR(box.x1, 67, 1);
    EXPECT_NEAR(box.y0, 38, 1);
    EXPECT_NEAR(box.y1, 47, 1);
    EXPECT_TRUE(near(pixel(image, 52, 43), {255, 255, 255}, 0));
}

TEST_F(RendererTest, StripSegmentsJoinWithoutAGapAtABend) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    // A peak at (0, 0.5): quads cut square to each segment would open a wedge above the apex;
    // with the shared tangent the band's edge there is one vertex, 0.3 m above the apex.
    const std::vector<StripPoint> points =
        polyline({vec3(-2, -1, 0), vec3(0, 0.5f, 0), vec3(2, -1, 0)}, 0.6f, vec4(1));
    const std::vector<uint32_t> segments = segmentsOf(points.size());
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> d;
    const std::vector<DrawBatch> batches = {
        StripBatch{stripParamsFor(kBlendAlpha), white, points, segments, {}}};
    ASSERT_TRUE(renderFrame(*renderer_, frontView(), batches, image, stats, d)) << errors(d);
    EXPECT_EQ(stats.strip_segments, 2u);
    // The apex projects to (48, 43.2); the band covers rows 40.3 .. 46.1 of its column.
    for (uint32_t y = 41; y <= 45; ++y) {
        EXPECT_TRUE(near(pixel(image, 48, y), {255, 255, 255}, 0)) << "row " << y;
    }
    for (uint32_t x = 46; x <= 50; ++x) {
        EXPECT_TRUE(near(pixel(image, x, 42), {255, 255, 255}, 0)) << "column " << x;
    }
}

TEST_F(RendererTest, StripBlendModesGiveTheirArithmetic) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle half = texture(solidTexture(128, 128, 128, 128));
    float t = decodeSrgb8(128);
    float a_tex = 128.0f / 255.0f;
    vec4 tint(1.0f, 0.5f, 0.25f, 0.8f);
    float bg = 0.2f;
    FrameView view = frontView();
    view.background = {bg, bg, bg};
    const std::vector<StripPoint> points = polyline({vec3(-2, 0, 0), vec3(2, 0, 0)}, 2.0f, tint);
    const std::vector<uint32_t> segments = segmentsOf(points.size());
    float a = a_tex * tint.w;
    struct Case {
        uint32_t blend;
        vec3 expected;
    } cases[] = {
        {kBlendAdditive, vec3(bg) + t * vec3(tint) * tint.w},
        {kBlendAlpha, t * vec3(tint) * a + vec3(bg) * (1 - a)},
        {kBlendPremultiplied, t * vec3(tint) * tint.w + vec3(bg) * (1 - a)},
    };
    for (const Case& c : cases) {
        Image image =
            renderBatches(view, {StripBatch{stripParamsFor(c.blend), half, points, segments, {}}});
        EXPECT_TRUE(
            near(pixel(image, 48, 48), encoded(c.expected.x, c.expected.y, c.expected.z), 2))
            << "blend " << c.blend;
    }
}

TEST_F(RendererTest, UntexturedStripIsASoftBandAndTexturesRunAlongIt) {
    ASSERT_NO_FATAL_FAILURE(create());
    // 4 m wide: 19.2 px either side of row 48. Across a = 0.5 (9.6 px off the line): (1 - 0.25)^2.
    const std::vector<StripPoint> wide = polyline({vec3(-3, 0, 0), vec3(3, 0, 0)}, 4.0f, vec4(1));
    const std::vector<uint32_t> one = segmentsOf(2);
    Image image = renderBatches(
        frontView(), {StripBatch{stripParamsFor(kBlendAdditive), kNoTexture, wide, one, {}}});
    EXPECT_TRUE(near(pixel(image, 48, 48), {255, 255, 255}, 1));
    EXPECT_TRUE(near(pixel(image, 48, 38), encoded(0.5625f, 0.5625f, 0.5625f), 6));
    EXPECT_TRUE(near(pixel(image, 48, 26), {0, 0, 0}, 0));

    // A texture red on the left, blue on the right: u runs 0 at the first point to 1 at the last.
    Image halves;
    halves.width = halves.height = 2;
    halves.rgba8 = {255, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0, 255, 0, 0, 255, 255};
    TextureHandle texture_handle = texture(halves);
    image = renderBatches(frontView(),
                          {StripBatch{stripParamsFor(kBlendAlpha), texture_handle, wide, one, {}}});
    EXPECT_TRUE(near(pixel(image, 25, 48), {255, 0, 0}, 0));
    EXPECT_TRUE(near(pixel(image, 71, 48), {0, 0, 255}, 0));
}

TEST_F(RendererTest, LitStripIsBrighterOnTheSunSide) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    FrameView view = frontView();
    view.sun.direction = {0, 1, 0};
    view.ambient = {0.1f, 0.1f, 0.1f};
    StripParams lit = stripParamsFor(kBlendAlpha);
    lit.render_flags = kRenderFlagLit;
    const std::vector<StripPoint> points = polyline({vec3(-3, 0, 0), vec3(3, 0, 0)}, 2.0f, vec4(1));
    const std::vector<uint32_t> segments = segmentsOf(points.size());
    Image image = renderBatches(view, {StripBatch{lit, white, points, segments, {}}});
    // The tube's upper half faces the sun (n.y = across), its lower half only the ambient.
    Rgb top = pixel(image, 48, 43);    // across ~ 0.5
    Rgb bottom = pixel(image, 48, 53); // across ~ -0.5
    EXPECT_TRUE(near(bottom, encoded(0.1f, 0.1f, 0.1f), 1));
    EXPECT_GT(top.r, bottom.r + 80);
}

TEST_F(RendererTest, StripsAndBillboardsAreDrawnInOneOrder) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    const std::vector<DrawRecord> red = {particle(vec3(0), 2.0f, vec4(1, 0, 0, 1))};
    const std::vector<StripPoint> blue =
        polyline({vec3(-2, 0, 0), vec3(2, 0, 0)}, 1.0f, vec4(0, 0, 1, 1));
    const std::vector<uint32_t> one = segmentsOf(2);
    const DrawBatch billboard = BillboardBatch{paramsFor(kBlendAlpha), white, red, {}};
    const DrawBatch strip = StripBatch{stripParamsFor(kBlendAlpha), white, blue, one, {}};
    Image image = renderBatches(frontView(), {billboard, strip});
    EXPECT_TRUE(near(pixel(image, 48, 48), {0, 0, 255}, 0));
    image = renderBatches(frontView(), {strip, billboard, strip, billboard});
    EXPECT_TRUE(near(pixel(image, 48, 48), {255, 0, 0}, 0));
    EXPECT_TRUE(near(pixel(image, 30, 48), {0, 0, 255}, 0)) << "the strip outside the billboard";
}

// A batch's overrides (the instance tint and size scale a device-resident batch carries) are
// multiplied into each record or strip point as the shaders read it: the same frame as records
// with the multiply done beforehand, as the draw list does for host batches. The image is read
// back, so it tests the shaders' application, which device records also go through.
TEST_F(RendererTest, BatchOverridesTintAndScaleEachRecordAndStripPointAsDrawn) {
    ASSERT_NO_FATAL_FAILURE(create());
    TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    const vec4 tint(0.2f, 1.0f, 0.5f, 0.8f);
    const float scale = 1.5f;
    const DrawOverrides overrides{tint, scale, 0u, 0u, 0u};
    const std::vector<DrawRecord> plain = {particle(vec3(0), 1.5f, vec4(1, 0.6f, 1, 1))};
    std::vector<DrawRecord> premultiplied = plain;
    premultiplied[0] = sdOverriddenRecord(premultiplied[0], overrides);
    BillboardBatch with = {paramsFor(kBlendAlpha), white, plain, {}};
    with.overrides = overrides;
    const Image drawn = renderBatches(frontView(), {with});
    const Image expected = renderBatches(
        frontView(), {BillboardBatch{paramsFor(kBlendAlpha), white, premultiplied, {}}});
    const Image untouched =
        renderBatches(frontView(), {BillboardBatch{paramsFor(kBlendAlpha), white, plain, {}}});
    EXPECT_EQ(drawn.rgba8, expected.rgba8);
    EXPECT_NE(drawn.rgba8, untouched.rgba8);
    EXPECT_GT(coverage(drawn, {0, 0, 0}).width(), coverage(untouched, {0, 0, 0}).width())
        << "size scaled";

    const std::vector<StripPoint> points =
        polyline({vec3(-2, 0, 0), vec3(2, 0, 0)}, 1.0f, vec4(1, 1, 1, 1));
    std::vector<StripPoint> scaled = points;
    for (StripPoint& p : scaled) p = sdOverriddenPoint(p, overrides);
    const std::vector<uint32_t> one = segmentsOf(2);
    StripBatch strip = {stripParamsFor(kBlendAlpha), white, points, one, {}};
    strip.overrides = overrides;
    EXPECT_EQ(renderBatches(frontView(), {strip}).rgba8,
              renderBatches(frontView(),
                            {StripBatch{stripParamsFor(kBlendAlpha), white, scaled, one, {}}})
                  .rgba8);
}

TEST_F(RendererTest, BatchOverridesThatAreNotFiniteAndPositiveAreAnError) {
    ASSERT_NO_FATAL_FAILURE(create());
    const std::vector<DrawRecord> one = {particle(vec3(0), 1.0f, vec4(1))};
    BillboardBatch bad = {paramsFor(kBlendAlpha), kNoTexture, one, {}};
    bad.overrides.tint.y = std::numeric_limits<float>::quiet_NaN();
    StripBatch negative = {stripParamsFor(kBlendAlpha), kNoTexture, {}, {}, {}};
    negative.overrides.size_scale = -1.0f;
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> d;
    const std::vector<DrawBatch> batches = {bad, negative};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 2u) << errors(d);
    EXPECT_NE(formatDiagnostic(d[0]).find("batch 0: tint and size_scale must be finite and >= 0"),
              std::string::npos)
        << formatDiagnostic(d[0]);
    EXPECT_NE(formatDiagnostic(d[1]).find("batch 1: tint and size_scale"), std::string::npos)
        << formatDiagnostic(d[1]);
}

TEST_F(RendererTest, MalformedStripBatchIsAnErrorNotACrash) {
    ASSERT_NO_FATAL_FAILURE(create());
    const std::vector<StripPoint> points = polyline({vec3(-1, 0, 0), vec3(1, 0, 0)}, 1.0f, vec4(1));
    const std::vector<uint32_t> past_the_end = {0, 1};
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> d;
    std::vector<DrawBatch> batches = {
        BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, {}, {}},
        StripBatch{stripParamsFor(kBlendAlpha), kNoTexture, points, past_the_end, {}}};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(formatDiagnostic(d[0]).find("batch 1: segment 1 starts at point 1, but the batch "
                                          "has 2 points"),
              std::string::npos)
        << formatDiagnostic(d[0]);

    d.clear();
    const std::vector<uint32_t> fine = {0};
    batches = {StripBatch{stripParamsFor(7), TextureHandle{9, 1}, points, fine, {}}};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 2u);
    EXPECT_NE(d[0].message.find("unknown texture handle 9"), std::string::npos) << d[0].message;
    EXPECT_NE(d[1].message.find("blend 7 is unknown"), std::string::npos) << d[1].message;

    // Too many segments in a frame is reported, not drawn (kMaxStripSegments; the points limit
    // is checked the same way). Two batches share one 8 MB list of segment indices.
    d.clear();
    const std::vector<uint32_t> many(kMaxStripSegments / 2 + 1, 0u);
    batches = {StripBatch{stripParamsFor(kBlendAlpha), kNoTexture, points, many, {}},
               StripBatch{stripParamsFor(kBlendAlpha), kNoTexture, points, many, {}}};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("kMaxStripSegments"), std::string::npos) << d[0].message;
}

// A square of side 2 in the z = 0 plane, centred on its origin, counter-clockwise seen from +Z
// (its front); reversed: the same square facing -Z.
std::vector<MeshVertex> squareMesh(bool reversed = false) {
    const vec3 c[4] = {vec3(-1, -1, 0), vec3(1, -1, 0), vec3(1, 1, 0), vec3(-1, 1, 0)};
    const int order[6] = {0, 1, 2, 0, 2, 3};
    std::vector<MeshVertex> v;
    for (int k = 0; k < 6; ++k) {
        const vec3 p = c[order[reversed ? 5 - k : k]];
        v.push_back({vec4(p, 1), vec4(0, 0, reversed ? -1.0f : 1.0f, 0)});
    }
    return v;
}

class MeshRendererTest : public RendererTest {
protected:
    MeshHandle mesh(const std::vector<MeshVertex>& vertices) {
        std::vector<Diagnostic> d;
        const MeshHandle handle = addMesh(*renderer_, vertices, "test mesh", d);
        EXPECT_NE(handle, kNoMesh) << errors(d);
        return handle;
    }
};

// The square at record (1, 0.5, 0), size 2 x scale 0.5: a 2 m square, where the billboard of the
// same record and size lands (BillboardLandsAtItsProjectedPixelWithItsSize), in the record's
// colour; counted as a mesh particle.
TEST_F(MeshRendererTest, MeshLandsWhereItsRecordPlacesItScaledBySizeTimesScale) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    const std::vector<DrawRecord> records = {particle(vec3(1, 0.5f, 0), 2.0f, vec4(1, 0.5f, 0, 1))};
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> d;
    const std::vector<DrawBatch> batches = {
        MeshBatch{meshParamsFor(kBlendAlpha, 0.5f), square, records, {}}};
    ASSERT_TRUE(renderFrame(*renderer_, frontView(), batches, image, stats, d)) << errors(d);
    const Box box = coverage(image, {0, 0, 0});
    EXPECT_NEAR(box.x0, 48, 1);
    EXPECT_NEAR(box.x1, 66, 1);
    EXPECT_NEAR(box.y0, 34, 1);
    EXPECT_NEAR(box.y1, 52, 1);
    EXPECT_TRUE(near(pixel(image, 57, 43), encoded(1, 0.5f, 0), 0));
    EXPECT_EQ(stats.mesh_particles, 1u);
    EXPECT_EQ(stats.particles_drawn, 0u);
}

// A premultiplied mesh with emissive 1.5 and an emissive share of 0.5 over a grey-blue
// background: C = rgb x 1.5 x a added whole, the background kept by 1 - a (1 - s)
// (docs/rendering.md, "Emissive"), in sorted mode and through weighted OIT alike (the OIT
// targets take the alpha share, a second draw adds the emissive share after the composite).
TEST_F(MeshRendererTest, EmissiveShareOfAMeshAddsLightAndCoversLess) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    const std::vector<DrawRecord> records = {
        particle(vec3(1, 0.5f, 0), 2.0f, vec4(0.6f, 0.3f, 0.1f, 0.8f))};
    MeshParams params = meshParamsFor(kBlendPremultiplied, 0.5f);
    params.emissive = 1.5f;
    params.emissive_share = 0.5f;
    const vec3 background(0.2f, 0.3f, 0.4f);
    const float a = 0.8f, s = 0.5f;
    const vec3 expected = vec3(0.6f, 0.3f, 0.1f) * 1.5f * a + background * (1.0f - a * (1.0f - s));
    for (const Transparency mode : {Transparency::sorted, Transparency::weighted_oit}) {
        SCOPED_TRACE(static_cast<int>(mode));
        FrameView view = frontView();
        view.background = {background.x, background.y, background.z};
        view.transparency = mode;
        Image image;
        FrameStats stats;
        std::vector<Diagnostic> d;
        const std::vector<DrawBatch> batches = {MeshBatch{params, square, records, {}}};
        ASSERT_TRUE(renderFrame(*renderer_, view, batches, image, stats, d)) << errors(d);
        EXPECT_TRUE(near(pixel(image, 57, 43), encoded(expected.x, expected.y, expected.z), 2));
        EXPECT_TRUE(near(pixel(image, 5, 5), encoded(background.x, background.y, background.z), 0));
    }
}

// A lit mesh takes the frame's point lights per pixel (mesh.frag, lighting.h): with no sun and no
// ambient, the 2 m square is bright at its edge next to a light 0.5 m in front of it and dim at
// its far edge, and black without the light.
TEST_F(MeshRendererTest, LitMeshIsLitByPointLightsPerPixel) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    const std::vector<DrawRecord> records = {particle(vec3(1, 0.5f, 0), 2.0f, vec4(1, 1, 1, 1))};
    const std::vector<DrawBatch> batches = {
        MeshBatch{meshParamsFor(kBlendOpaque, 0.5f, true), square, records, {}}};
    FrameView view = frontView();
    view.sun.intensity = 0;
    Image image = renderBatches(view, batches);
    EXPECT_EQ(pixel(image, 64, 43).r, 0);
    LightDesc light;
    light.position = {2, 0.5f, 0.5f};
    light.intensity = 1;
    light.range = 5;
    const std::vector<LightDesc> lights = {light};
    view.lights = lights;
    image = renderBatches(view, batches);
    const int near_edge = pixel(image, 64, 43).r; // x = 1.8 m: 0.54 m from the light
    const int far_edge = pixel(image, 50, 43).r;  // x = 0.2 m: 1.87 m from it, at a grazing angle
    EXPECT_GT(near_edge, 200);
    EXPECT_GT(far_edge, 20);
    EXPECT_GT(near_edge, far_edge + 100);
}

TEST_F(MeshRendererTest, BackFacesAreCulled) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle back = mesh(squareMesh(true));
    const std::vector<DrawRecord> records = {particle(vec3(0), 2.0f, vec4(1))};
    const Image image = renderBatches(
        frontView(), {MeshBatch{meshParamsFor(kBlendAlpha, 1.0f), back, records, {}}});
    EXPECT_EQ(coverage(image, {0, 0, 0}).x1, -1) << "the square faces away: nothing drawn";
}

// Lit: Lambert from the sun plus ambient with the mesh's normal turned by its placement. The
// square faces +Z: a sun on +Z lights it fully, a sun on +X not at all (ambient only).
TEST_F(MeshRendererTest, LitMeshIsShadedByTheSunAlongItsNormal) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    const std::vector<DrawRecord> records = {particle(vec3(0), 2.0f, vec4(0.8f, 0.8f, 0.8f, 1))};
    FrameView view = frontView();
    view.ambient = {0.1f, 0.1f, 0.1f};
    const std::vector<DrawBatch> batches = {
        MeshBatch{meshParamsFor(kBlendAlpha, 1.0f, true), square, records, {}}};
    const Image facing = renderBatches(view, batches);
    view.sun.direction = {1, 0, 0};
    const Image side = renderBatches(view, batches);
    EXPECT_TRUE(near(pixel(facing, 48, 48), encoded(0.88f, 0.88f, 0.88f), 1));
    EXPECT_TRUE(near(pixel(side, 48, 48), encoded(0.08f, 0.08f, 0.08f), 1));
}

// The record's rotation turns the mesh about the particle's tumble axis (sdTumbleAxis of its
// key): a half turn shows the square's back (culled) when the axis is nearer its plane than its
// normal, its front otherwise.
TEST_F(MeshRendererTest, RotationTurnsTheMeshAboutItsTumbleAxis) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    std::vector<DrawRecord> records;
    for (uint32_t key = 0; key < 64; ++key) {
        DrawRecord r = particle(vec3(0), 1.0f, vec4(1));
        r.key = key;
        r.velocity_rotation.w = 3.14159265f;
        records.push_back(r);
    }
    // One record at a time: those whose tumble axis is near +-Z still face the camera.
    uint32_t shown = 0;
    for (const DrawRecord& r : records) {
        const std::vector<DrawRecord> one = {r};
        const Image image = renderBatches(
            frontView(), {MeshBatch{meshParamsFor(kBlendAlpha, 1.0f), square, one, {}}});
        const bool drawn = coverage(image, {0, 0, 0}).x1 != -1;
        // R(axis, pi) turns the normal +Z to 2 (axis.z) axis - Z: it faces the eye when
        // 2 axis.z^2 - 1 > 0 (within a few degrees of the edge-on case the rasteriser decides).
        const vec3 axis = sdTumbleAxis(r.key);
        const float facing = 2.0f * axis.z * axis.z - 1.0f;
        if (std::abs(facing) > 0.1f) {
            EXPECT_EQ(drawn, facing > 0.0f) << "key " << r.key;
        }
        shown += drawn ? 1 : 0;
    }
    EXPECT_GT(shown, 0u);
    EXPECT_LT(shown, 64u);
}

// A square whose texture coordinates span the texture `tiles` times: (0, 0) at its top-left
// corner.
std::vector<MeshVertex> texturedSquareMesh(float tiles) {
    std::vector<MeshVertex> v = squareMesh();
    for (MeshVertex& x : v) {
        x.position_u.w = tiles * (x.position_u.x + 1.0f) / 2.0f;
        x.normal_v.w = tiles * (1.0f - x.position_u.y) / 2.0f;
    }
    return v;
}

// A textured mesh shows its texture, as mapped by its vertices' (u, v) and repeated past 1, times
// its colour, in every blend mode; an unknown texture handle is an error.
TEST_F(MeshRendererTest, TexturedMeshShowsItsTextureWhereItsCoordinatesPlaceIt) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(texturedSquareMesh(2.0f));
    Image red_green; // two red texels, then two green
    red_green.width = 4;
    red_green.height = 1;
    red_green.rgba8 = {255, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255};
    const TextureHandle texture_handle = texture(red_green);
    const std::vector<DrawRecord> records = {particle(vec3(0), 1.0f, vec4(1, 1, 0.5f, 1))};
    for (const uint32_t blend : {kBlendAlpha, kBlendOpaque}) {
        MeshBatch batch{meshParamsFor(blend, 1.0f), square, records, {}};
        batch.texture = texture_handle;
        const Image image = renderBatches(frontView(), {batch});
        // The square spans pixels 38.4 .. 57.6, u from 0 to 2 across it. Pixels 40, 45, 50, 55
        // sample u ~ 0.25, 0.74, 1.26, 1.78: between two texels of one colour each time (linear
        // filter), the third only because the texture repeats (clamped, it would be green).
        EXPECT_TRUE(near(pixel(image, 40, 48), encoded(1, 0, 0), 0)) << "blend " << blend;
        EXPECT_TRUE(near(pixel(image, 45, 48), encoded(0, 1, 0), 0)) << "blend " << blend;
        EXPECT_TRUE(near(pixel(image, 50, 48), encoded(1, 0, 0), 0)) << "blend " << blend;
        EXPECT_TRUE(near(pixel(image, 55, 48), encoded(0, 1, 0), 0)) << "blend " << blend;
        // Untextured: the colour alone.
        batch.texture = kNoTexture;
        const Image plain = renderBatches(frontView(), {batch});
        EXPECT_TRUE(near(pixel(plain, 41, 48), encoded(1, 1, 0.5f), 1)) << "blend " << blend;
    }
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> d;
    MeshBatch unknown{meshParamsFor(kBlendAlpha, 1.0f), square, records, {}};
    unknown.texture = TextureHandle{42, 1};
    const std::vector<DrawBatch> batches = {unknown};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("unknown texture handle 42"), std::string::npos) << d[0].message;
}

// Opaque meshes write depth and replace the frame's colour (their alpha is ignored): the nearer
// of two overlapping squares shows, in whichever order the batches come.
TEST_F(MeshRendererTest, OpaqueMeshesWriteDepthSoTheNearerShowsInEitherOrder) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    const std::vector<DrawRecord> near_red = {particle(vec3(0, 0, 1), 1.0f, vec4(1, 0, 0, 0.3f))};
    const std::vector<DrawRecord> far_green = {particle(vec3(0, 0, -1), 2.0f, vec4(0, 1, 0, 0.3f))};
    const MeshBatch near_batch{meshParamsFor(kBlendOpaque, 1.0f), square, near_red, {}};
    const MeshBatch far_batch{meshParamsFor(kBlendOpaque, 1.0f), square, far_green, {}};
    for (const bool near_first : {true, false}) {
        const Image image =
            renderBatches(frontView(), near_first ? std::vector<DrawBatch>{near_batch, far_batch}
                                                  : std::vector<DrawBatch>{far_batch, near_batch});
        // Centre: the near square (a 2 m side at 4 m: 12 px each way); 14 px out: only the far
        // one (a 4 m side at 6 m: 16 px each way).
        EXPECT_TRUE(near(pixel(image, 48, 48), encoded(1, 0, 0), 0)) << "near first " << near_first;
        EXPECT_TRUE(near(pixel(image, 48 + 14, 48), encoded(0, 1, 0), 0))
            << "near first " << near_first;
    }
}

// Opaque meshes draw before every blended batch, whatever the batch order: a half-transparent
// billboard in front, listed first, still blends over the mesh behind it; one behind, listed
// after, is hidden by the mesh's depth.
TEST_F(MeshRendererTest, OpaqueMeshesDrawFirstAndHideWhatIsBehindThem) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    const TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    const std::vector<DrawRecord> blue = {particle(vec3(0), 2.0f, vec4(0, 0, 1, 1))};
    const std::vector<DrawRecord> veil = {particle(vec3(0, 0, 1), 1.0f, vec4(1, 1, 1, 0.5f))};
    const std::vector<DrawRecord> behind = {particle(vec3(0, 0, -1), 1.0f, vec4(1, 0, 0, 1))};
    const MeshBatch mesh_batch{meshParamsFor(kBlendOpaque, 1.0f), square, blue, {}};
    const Image in_front = renderBatches(
        frontView(), {BillboardBatch{paramsFor(kBlendAlpha), white, veil, {}}, mesh_batch});
    EXPECT_TRUE(near(pixel(in_front, 48, 48), encoded(0.5f, 0.5f, 1.0f), 1));
    const Image hidden = renderBatches(
        frontView(), {mesh_batch, BillboardBatch{paramsFor(kBlendAlpha), white, behind, {}}});
    EXPECT_TRUE(near(pixel(hidden, 48, 48), encoded(0, 0, 1), 0));
}

// Soft particles fade against opaque meshes as against the ground: opaque meshes write the linear
// depth the soft fade reads. A white additive billboard 5 cm in front of a blue opaque square
// adds 5 % of its colour with a fade distance of 1 m, all of it without; 5 cm in front of a
// translucent (alpha) square, which writes no depth, it is not faded.
TEST_F(MeshRendererTest, SoftParticlesFadeAgainstOpaqueMeshes) {
    ASSERT_NO_FATAL_FAILURE(create());
    const MeshHandle square = mesh(squareMesh());
    const TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    const std::vector<DrawRecord> blue = {particle(vec3(0), 2.0f, vec4(0, 0, 1, 1))};
    const std::vector<DrawRecord> spark = {particle(vec3(0, 0, 0.05f), 0.5f, vec4(1))};
    BillboardParams hard = paramsFor(kBlendAdditive);
    BillboardParams soft = hard;
    soft.soft_fade_distance = 1.0f;
    const MeshBatch opaque{meshParamsFor(kBlendOpaque, 1.0f), square, blue, {}};
    EXPECT_TRUE(near(
        pixel(renderBatches(frontView(), {opaque, BillboardBatch{hard, white, spark, {}}}), 48, 48),
        encoded(1, 1, 1), 0));
    for (const bool spark_first : {false, true}) {
        const BillboardBatch faded{soft, white, spark, {}};
        const Image image =
            renderBatches(frontView(), spark_first ? std::vector<DrawBatch>{faded, opaque}
                                                   : std::vector<DrawBatch>{opaque, faded});
        EXPECT_TRUE(near(pixel(image, 48, 48), encoded(0.05f, 0.05f, 1.0f), 2))
            << "spark first " << spark_first;
    }
    const MeshBatch translucent{meshParamsFor(kBlendAlpha, 1.0f), square, blue, {}};
    EXPECT_TRUE(near(
        pixel(renderBatches(frontView(), {translucent, BillboardBatch{soft, white, spark, {}}}), 48,
              48),
        encoded(1, 1, 1), 0));
}

// Texture and mesh handles are checked by the stores that gave them: the handles addTexture and
// addMesh return draw, kNoTexture draws untextured, and a stale handle (another generation of its
// slot), one past the store's slots or kNoMesh in a mesh batch is refused with an error naming
// it, before anything is drawn.
TEST_F(MeshRendererTest, StaleUnknownAndMissingHandlesAreRefusedNamingThem) {
    ASSERT_NO_FATAL_FAILURE(create());
    const TextureHandle white = texture(solidTexture(255, 255, 255, 255));
    const MeshHandle square = mesh(squareMesh());
    const std::vector<DrawRecord> records = {particle(vec3(0), 2.0f, vec4(1))};
    // The quad spans pixels 38.4 .. 57.6: near its corner the white texture is white, the soft
    // disc of an untextured billboard is not.
    const Image textured =
        renderBatches(frontView(), {BillboardBatch{paramsFor(kBlendAlpha), white, records, {}}});
    EXPECT_TRUE(near(pixel(textured, 40, 40), encoded(1, 1, 1), 0));
    const Image untextured = renderBatches(
        frontView(), {BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, records, {}}});
    EXPECT_TRUE(near(pixel(untextured, 40, 40), encoded(0, 0, 0), 0));
    EXPECT_TRUE(near(pixel(untextured, 48, 48), encoded(1, 1, 1), 2));
    const Image drawn = renderBatches(
        frontView(), {MeshBatch{meshParamsFor(kBlendAlpha, 0.5f), square, records, {}, white}});
    EXPECT_TRUE(near(pixel(drawn, 48, 48), encoded(1, 1, 1), 0));

    const TextureHandle stale_texture{white.index, white.generation + 1};
    const MeshHandle stale_mesh{square.index, square.generation + 1};
    const std::vector<uint32_t> segment = {0};
    const std::vector<StripPoint> points(2);
    struct Case {
        DrawBatch batch;
        std::string message;
    };
    const std::vector<Case> cases = {
        {BillboardBatch{paramsFor(kBlendAlpha), stale_texture, records, {}},
         "batch 0: stale texture handle 0 (generation 2; the slot is at generation 1)"},
        {BillboardBatch{paramsFor(kBlendAlpha), TextureHandle{1, 1}, records, {}},
         "batch 0: unknown texture handle 1 (1 textures loaded)"},
        {StripBatch{stripParamsFor(kBlendAlpha), stale_texture, points, segment, {}},
         "batch 0: stale texture handle 0 (generation 2; the slot is at generation 1)"},
        {MeshBatch{meshParamsFor(kBlendAlpha, 1.0f), square, records, {}, stale_texture},
         "batch 0: stale texture handle 0 (generation 2; the slot is at generation 1)"},
        {MeshBatch{meshParamsFor(kBlendAlpha, 1.0f), stale_mesh, records, {}},
         "batch 0: stale mesh handle 0 (generation 2; the slot is at generation 1)"},
        {MeshBatch{meshParamsFor(kBlendAlpha, 1.0f), MeshHandle{1, 1}, records, {}},
         "batch 0: unknown mesh handle 1 (1 meshes loaded)"},
        {MeshBatch{meshParamsFor(kBlendAlpha, 1.0f), kNoMesh, records, {}},
         "batch 0: no mesh (kNoMesh)"}};
    for (const Case& c : cases) {
        Image image;
        FrameStats stats;
        std::vector<Diagnostic> d;
        EXPECT_FALSE(renderFrame(*renderer_, frontView(), {&c.batch, 1}, image, stats, d))
            << c.message;
        ASSERT_EQ(d.size(), 1u) << errors(d);
        EXPECT_NE(formatDiagnostic(d[0]).find(c.message), std::string::npos)
            << formatDiagnostic(d[0]);
    }
}

TEST_F(MeshRendererTest, MalformedMeshesAndBatchesAreErrors) {
    ASSERT_NO_FATAL_FAILURE(create());
    std::vector<Diagnostic> d;
    std::vector<MeshVertex> two(2);
    EXPECT_EQ(addMesh(*renderer_, two, "bad.obj", d), kNoMesh);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("bad.obj: 2 vertices"), std::string::npos) << d[0].message;
    EXPECT_EQ(addMesh(*renderer_, {}, "empty.obj", d), kNoMesh);

    d.clear();
    const std::vector<DrawRecord> records = {particle(vec3(0), 1.0f, vec4(1))};
    Image image;
    FrameStats stats;
    std::vector<DrawBatch> batches = {
        MeshBatch{meshParamsFor(kBlendAlpha, 1.0f), MeshHandle{5, 1}, records, {}}};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(formatDiagnostic(d[0]).find("batch 0: unknown mesh handle 5 (0 meshes loaded)"),
              std::string::npos)
        << formatDiagnostic(d[0]);

    d.clear();
    const MeshHandle square = mesh(squareMesh());
    batches = {MeshBatch{meshParamsFor(9, 1.0f), square, records, {}}};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("blend 9 is unknown"), std::string::npos) << d[0].message;

    // Only meshes can be opaque: a billboard or strip has no depth of its own to write.
    d.clear();
    const std::vector<StripPoint> points(2);
    const std::vector<uint32_t> segment = {0};
    batches = {BillboardBatch{paramsFor(kBlendOpaque), kNoTexture, records, {}},
               StripBatch{stripParamsFor(kBlendOpaque), kNoTexture, points, segment, {}}};
    EXPECT_FALSE(renderFrame(*renderer_, frontView(), batches, image, stats, d));
    ASSERT_EQ(d.size(), 2u);
    EXPECT_NE(formatDiagnostic(d[0]).find("batch 0: blend opaque is only for mesh batches"),
              std::string::npos)
        << formatDiagnostic(d[0]);
    EXPECT_NE(formatDiagnostic(d[1]).find("batch 1: blend opaque is only for mesh batches"),
              std::string::npos)
        << formatDiagnostic(d[1]);
}

TEST(RendererSetup, SelectsTheDeviceByIndexAndByName) {
    for (const char* request : {"0", "LLVMPIPE"}) {
        RendererConfig config;
        config.width = config.height = 32;
        config.device = request;
        config.validation = true;
        std::vector<Diagnostic> d;
        RendererPtr r = createRenderer(config, d);
        ASSERT_NE(r, nullptr) << errors(d);
        EXPECT_NE(rendererDevice(*r).name.find("llvmpipe"), std::string::npos);
        EXPECT_EQ(rendererDevice(*r).index, 0u);
        EXPECT_TRUE(validationMessages(*r).empty()) << joined(validationMessages(*r));
    }
}

TEST(RendererSetup, UnknownDeviceIsAClearError) {
    RendererConfig config;
    config.width = config.height = 32;
    config.device = "no-such-gpu";
    std::vector<Diagnostic> d;
    EXPECT_EQ(createRenderer(config, d), nullptr);
    ASSERT_EQ(d.size(), 1u);
    std::string text = formatDiagnostic(d[0]);
    EXPECT_NE(text.find("no Vulkan device name contains 'no-such-gpu'; devices: 0: llvmpipe"),
              std::string::npos)
        << text;
}

TEST(RendererSetup, ResolutionOutOfRangeIsAnError) {
    RendererConfig config;
    config.width = 8;
    config.height = 64;
    std::vector<Diagnostic> d;
    EXPECT_EQ(createRenderer(config, d), nullptr);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("8x64 is out of range"), std::string::npos) << d[0].message;
}

} // namespace
} // namespace spindrift::render
