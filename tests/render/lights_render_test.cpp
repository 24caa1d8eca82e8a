// Point and spot lights on lavapipe, validation on (docs/rendering.md, "Lights"): a light
// brightens the ground near it by the shared falloff (src/render/shader/lighting.h) and leaves it
// dark past its range; a spot lights its cone only; lit billboards take the lights; the frame's
// bound drops the lights past kMaxFrameLights and counts them; a bad light is an error.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/frame_lights.h"
#include "render/readback.h"
#include "render/renderer.h"
#include "render/shader/opaque_geometry.h"
#include "render/strip_params.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::errors;
using test::kGrey; // the ground's colour
using test::kHeight_m;
using test::kSide;
using test::pointLight;
using test::red;

// Straight down on a grey ground from 10 m with a 90-degree field: the image spans x and z in
// [-10, 10] m, 4.8 px a metre, +x to the right and -z up. No sun, no ambient: only the lights.
FrameView greyGroundView() {
    FrameView view = test::topDownView(kHeight_m);
    view.ground.enabled = true;
    view.ground.color = {kGrey, kGrey, kGrey};
    return view;
}

// The ground point at the centre of pixel (px, py) of greyGroundView.
vec3 groundPoint(uint32_t px, uint32_t py) {
    const float per_px = 2.0f * kHeight_m / float(kSide);
    return vec3((float(px) + 0.5f - 0.5f * kSide) * per_px, 0.0f,
                (float(py) + 0.5f - 0.5f * kSide) * per_px);
}

class LightsRenderTest : public test::SquareFrameTest {
protected:
    // The ground at the pixel is lit as the shared text says: grey x sdLocalLight, on a light or
    // a dark checker cell (the checker is the opaque pass's, not the light's).
    void expectLitAsTheSharedTextSays(const Image& image, const LightDesc& light, uint32_t px,
                                      uint32_t py) {
        const float l = sdLocalLight(vec3(0, 1, 0), groundPoint(px, py), frameLight(light)).x;
        const int light_cell = encodeSrgb8(kGrey * l);
        const int dark_cell = encodeSrgb8(kGrey * kGroundCheckerDark * l);
        const int got = red(image, px, py);
        EXPECT_TRUE(std::abs(got - light_cell) <= 2 || std::abs(got - dark_cell) <= 2)
            << "pixel (" << px << ", " << py << "): " << got << ", expected " << light_cell
            << " or " << dark_cell;
    }
};

TEST_F(LightsRenderTest, APointLightBrightensTheGroundNearItAndNotPastItsRange) {
    FrameView view = greyGroundView();
    EXPECT_EQ(red(render(view), kSide / 2, kSide / 2), 0); // no light: black
    const std::vector<LightDesc> lights = {pointLight({0, 1, 0}, 1.5f, 5)};
    view.lights = lights;
    const Image image = render(view);
    EXPECT_EQ(stats_.lights_drawn, 1u);
    EXPECT_EQ(stats_.lights_dropped, 0u);
    // Under the light, 1 m and 2 m off, as the shared falloff says.
    for (uint32_t px : {48u, 53u, 58u, 62u}) expectLitAsTheSharedTextSays(image, lights[0], px, 48);
    EXPECT_GT(red(image, 48, 48), 150);
    EXPECT_GT(red(image, 48, 48), red(image, 58, 48));
    // Past the 5 m range (6 m and 9 m off): untouched.
    EXPECT_EQ(red(image, 48 + 29, 48), 0);
    EXPECT_EQ(red(image, 48, 48 + 43), 0);
}

TEST_F(LightsRenderTest, ASpotLightLightsItsConeOnly) {
    FrameView view = greyGroundView();
    LightDesc spot = pointLight({0, 4, 0}, 16, 20);
    spot.type = LightKind::spot;
    spot.direction = {0, -1, 0};
    spot.inner_deg = 20; // 4 tan 20 = 1.46 m
    spot.outer_deg = 30; // 4 tan 30 = 2.31 m
    const std::vector<LightDesc> lights = {spot};
    view.lights = lights;
    const Image image = render(view);
    for (uint32_t px : {48u, 52u, 55u, 57u, 58u, 60u}) {
        expectLitAsTheSharedTextSays(image, spot, px, 48);
    }
    EXPECT_GT(red(image, 52, 48), 150);    // 0.9 m off: inside the inner cone
    EXPECT_EQ(red(image, 48 + 12, 48), 0); // 2.6 m off: outside the outer cone
    EXPECT_EQ(red(image, 48, 48 - 15), 0); // 3.1 m off
    // A point light of the same power lights there.
    const std::vector<LightDesc> point = {pointLight({0, 4, 0}, 16, 20)};
    view.lights = point;
    EXPECT_GT(red(render(view), 48 + 12, 48), 100);
}

TEST_F(LightsRenderTest, LitBillboardsTakeTheLightsOnTheirSideFacingThem) {
    FrameView view = greyGroundView();
    view.ground.enabled = false;
    const BillboardParams params = test::cameraFacingParams(kBlendAlpha, kRenderFlagLit);
    // One opaque 4 m disc at the origin, a light 3 m to its +x side just above it.
    const std::vector<DrawRecord> records = {
        sdDrawRecord(vec3(0), 4.0f, vec4(1, 1, 1, 1), vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u)};
    const std::vector<DrawBatch> batches = {BillboardBatch{params, kNoTexture, records, {}}};
    const std::vector<LightDesc> lights = {pointLight({3, 1, 0}, 6, 10)};
    view.lights = lights;
    const Image image = render(view, batches);
    // 1 m toward the light against 1 m away from it (both inside the disc's opaque core).
    const int toward = red(image, 48 + 5, 48);
    const int away = red(image, 48 - 5, 48);
    EXPECT_GT(toward, 60);
    EXPECT_GT(toward, away + 40);
}

TEST_F(LightsRenderTest, LitStripsTakeTheLightsWhereTheyPass) {
    FrameView view = greyGroundView();
    view.ground.enabled = false;
    EmitterRecord e{};
    e.blend = kBlendAlpha;
    e.render_type = kRenderRibbon;
    e.render_flags = kRenderFlagLit;
    e.emission = vec4(1, 0, 0, 0);
    const StripParams params = stripParams(e);
    // One opaque band 2 m wide along x from -6 to 6 m, 0.5 m up; a light 1 m above x = 3.
    std::vector<StripPoint> points(2);
    for (int i = 0; i < 2; ++i) {
        points[i].position_width = vec4(i == 0 ? -6.0f : 6.0f, 0.5f, 0, 2);
        points[i].color = vec4(1, 1, 1, 1);
        points[i].tangent_u = vec4(1, 0, 0, float(i));
    }
    const std::vector<uint32_t> segments = {0};
    StripBatch strip;
    strip.params = params;
    strip.points = points;
    strip.segments = segments;
    const std::vector<DrawBatch> batches = {strip};
    EXPECT_EQ(red(render(view, batches), 48 + 14, 48), 0) << "no sun, no ambient, no light: dark";
    const std::vector<LightDesc> lights = {pointLight({3, 1.5f, 0}, 6, 4)};
    view.lights = lights;
    const Image image = render(view, batches);
    // Under the light (x = 3 m) against the far end (x = -3 m, past the light's 4 m range).
    const int under = red(image, 48 + 14, 48);
    const int far = red(image, 48 - 14, 48);
    EXPECT_GT(under, 80);
    EXPECT_EQ(far, 0);
}

TEST_F(LightsRenderTest, LightsPastTheFrameBoundAreDroppedInOrderAndCounted) {
    FrameView view = greyGroundView();
    // 64 lights far off to one side, then 6 bright ones over the centre: the bound keeps the
    // first 64, so the centre stays black, and the 6 are counted.
    std::vector<LightDesc> lights(kMaxFrameLights, pointLight({-9, 0.5f, -9}, 0.01f, 1));
    for (int i = 0; i < 6; ++i) lights.push_back(pointLight({0, 1, 0}, 2, 5));
    view.lights = lights;
    Image image = render(view);
    EXPECT_EQ(stats_.lights_drawn, kMaxFrameLights);
    EXPECT_EQ(stats_.lights_dropped, 6u);
    EXPECT_EQ(red(image, 48, 48), 0);
    // With one of the far ones fewer, the first bright one is in the frame and 5 are dropped.
    view.lights = std::span<const LightDesc>(lights).subspan(1);
    image = render(view);
    EXPECT_EQ(stats_.lights_dropped, 5u);
    EXPECT_GT(red(image, 48, 48), 150);
}

TEST_F(LightsRenderTest, AnInvalidLightIsAnErrorNamingIt) {
    FrameView view = greyGroundView();
    const std::vector<LightDesc> lights = {pointLight({0, 1, 0}, 1, 5),
                                           pointLight({0, 1, 0}, 1, 0)};
    view.lights = lights;
    Image image;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, stats_, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("light 1: range must be in (0, 1000] m"), std::string::npos)
        << d[0].message;
}

} // namespace
} // namespace spindrift::render
