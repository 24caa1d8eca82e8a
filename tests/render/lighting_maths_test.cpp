// The light model's shared text (src/render/shader/lighting.h) run on the CPU: the numbers the
// shaders compute for point and spot lights, and how a scene light becomes a FrameLight
// (render/frame_lights.h). The renderer tests (lights_render_test.cpp) check the GPU agrees.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "render/frame_lights.h"
#include "render/shader/lighting.h"

namespace spindrift::render {
namespace {

TEST(LightFalloff, IsInverseSquareWellInsideTheRange) {
    // At a tenth of the range, window = (1 - 1e-4)^2 = 0.99980001: 1 / d^2 within 0.02 %.
    const float window = 0.99980001f;
    EXPECT_NEAR(sdLightFalloff(1.0f, 10.0f), window, 1.0e-6f);
    EXPECT_NEAR(sdLightFalloff(2.0f, 20.0f) * 4.0f, window, 1.0e-6f);
    EXPECT_NEAR(sdLightFalloff(0.5f, 5.0f) * 0.25f, window, 1.0e-6f);
}

TEST(LightFalloff, WindowIsTheDocumentedSmoothCurveToZeroAtRange) {
    // d = range / 2: window = (1 - 1/16)^2 = 0.87890625, over d^2 = 4.
    EXPECT_NEAR(sdLightFalloff(2.0f, 4.0f), 0.87890625f / 4.0f, 1.0e-6f);
    EXPECT_EQ(sdLightFalloff(4.0f, 4.0f), 0.0f);
    EXPECT_EQ(sdLightFalloff(5.0f, 4.0f), 0.0f);
    EXPECT_GT(sdLightFalloff(3.99f, 4.0f), 0.0f);
    // Falls monotonically from the light to its range.
    float last = sdLightFalloff(0.0f, 4.0f);
    for (int i = 1; i <= 40; ++i) {
        float f = sdLightFalloff(0.1f * float(i), 4.0f);
        EXPECT_LE(f, last) << "d " << 0.1f * float(i);
        last = f;
    }
}

TEST(LightFalloff, IsBoundedNearTheLight) {
    // Below kMinLightDistance_m the distance counts as that: 1 / 0.01 = 100, never infinite.
    EXPECT_NEAR(sdLightFalloff(0.0f, 10.0f), 100.0f, 1.0e-3f);
    EXPECT_NEAR(sdLightFalloff(0.05f, 10.0f), 100.0f, 1.0e-3f);
    EXPECT_TRUE(std::isfinite(sdLightFalloff(0.0f, 1.0e-3f)));
}

TEST(SpotCone, IsOneInsideZeroOutsideAndSmoothBetween) {
    const float cos_inner = std::cos(20.0f * 3.14159265f / 180.0f);
    const float cos_outer = std::cos(30.0f * 3.14159265f / 180.0f);
    EXPECT_EQ(sdSpotCone(1.0f, cos_outer, cos_inner), 1.0f);
    EXPECT_EQ(sdSpotCone(cos_inner, cos_outer, cos_inner), 1.0f);
    EXPECT_EQ(sdSpotCone(cos_outer, cos_outer, cos_inner), 0.0f);
    EXPECT_EQ(sdSpotCone(0.0f, cos_outer, cos_inner), 0.0f);
    EXPECT_NEAR(sdSpotCone(0.5f * (cos_inner + cos_outer), cos_outer, cos_inner), 0.5f, 1.0e-5f);
    // A point light's terms make the cone 1 in every direction.
    for (float c : {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f}) {
        EXPECT_EQ(sdSpotCone(c, kPointLightCosOuter, kPointLightCosInner), 1.0f) << c;
    }
}

LightDesc point(Float3 position, float intensity, float range) {
    LightDesc l;
    l.type = LightKind::point;
    l.position = position;
    l.color = {1, 0.5f, 0.25f};
    l.intensity = intensity;
    l.range = range;
    return l;
}

TEST(LocalLight, PointLightOnAFloorIsColourTimesCosineOverDistanceSquared) {
    const FrameLight light = frameLight(point({0, 2, 0}, 8.0f, 100.0f));
    const vec3 up(0, 1, 0);
    // Straight below at 2 m: 8 / 4 = 2 per unit colour (window (1 - 0.02^4)^2 ~ 1).
    vec3 below = sdLocalLight(up, vec3(0, 0, 0), light);
    EXPECT_NEAR(below.x, 2.0f, 1.0e-4f);
    EXPECT_NEAR(below.y, 1.0f, 1.0e-4f);
    EXPECT_NEAR(below.z, 0.5f, 1.0e-4f);
    // 2 m to the side: d^2 = 8, cos = 2 / sqrt(8): 8 * 0.7071 / 8.
    vec3 side = sdLocalLight(up, vec3(2, 0, 0), light);
    EXPECT_NEAR(side.x, 0.70710678f, 1.0e-4f);
    // A surface facing away gets nothing.
    EXPECT_EQ(sdLocalLight(-up, vec3(0, 0, 0), light).x, 0.0f);
    // Past the range, nothing.
    EXPECT_EQ(sdLocalLight(up, vec3(0, 0, 0), frameLight(point({0, 2, 0}, 8.0f, 2.0f))).x, 0.0f);
}

TEST(LocalLight, SpotLightsItsConeOnly) {
    LightDesc spot = point({0, 4, 0}, 16.0f, 100.0f);
    spot.type = LightKind::spot;
    spot.direction = {0, -2, 0}; // normalised by frameLight
    spot.inner_deg = 10;
    spot.outer_deg = 20;
    const FrameLight light = frameLight(spot);
    EXPECT_NEAR(light.direction_cos_outer.y, -1.0f, 1.0e-6f);
    const vec3 up(0, 1, 0);
    EXPECT_NEAR(sdLocalLight(up, vec3(0, 0, 0), light).x, 1.0f, 1.0e-4f); // 16 / 16
    // 4 tan(10 deg) = 0.705 m: still full; 4 tan(20 deg) = 1.456 m: none.
    const float at_inner = sdLocalLight(up, vec3(0.6f, 0, 0), light).x;
    EXPECT_NEAR(at_inner, 16.0f * (4.0f / std::sqrt(16.36f)) / 16.36f, 1.0e-4f);
    EXPECT_EQ(sdLocalLight(up, vec3(1.5f, 0, 0), light).x, 0.0f);
    const float between = sdLocalLight(up, vec3(1.05f, 0, 0), light).x;
    EXPECT_GT(between, 0.0f);
    EXPECT_LT(between, at_inner);
}

TEST(FrameLights, TheFirstSixtyFourAreDrawnAndTheRestCounted) {
    std::vector<LightDesc> lights(70, point({0, 1, 0}, 1, 10));
    LightCounts c = frameLightCounts(lights);
    EXPECT_EQ(c.drawn, kMaxFrameLights);
    EXPECT_EQ(c.dropped, 6u);
    c = frameLightCounts(std::span<const LightDesc>(lights.data(), 3));
    EXPECT_EQ(c.drawn, 3u);
    EXPECT_EQ(c.dropped, 0u);
}

TEST(FrameLights, InvalidLightsAreNamed) {
    EXPECT_EQ(lightProblem(point({0, 1, 0}, 1, 10)), "");
    EXPECT_NE(lightProblem(point({0, NAN, 0}, 1, 10)), "");
    EXPECT_NE(lightProblem(point({0, 1, 0}, -1, 10)), "");
    EXPECT_NE(lightProblem(point({0, 1, 0}, 1, 0)), "");
    EXPECT_NE(lightProblem(point({0, 1, 0}, 1, INFINITY)), "");
    LightDesc spot = point({0, 1, 0}, 1, 10);
    spot.type = LightKind::spot;
    EXPECT_EQ(lightProblem(spot), "");
    spot.inner_deg = spot.outer_deg;
    EXPECT_NE(lightProblem(spot), "");
    spot.inner_deg = 10;
    spot.direction = {0, 0, 0};
    EXPECT_NE(lightProblem(spot), "");
    spot.direction = {0, -1, 0};
    spot.shadows = true;
    EXPECT_EQ(lightProblem(spot), "");
    LightDesc shadowed_point = point({0, 1, 0}, 1, 10);
    shadowed_point.shadows = true;
    EXPECT_EQ(lightProblem(shadowed_point), "");
    LightDesc unknown = point({0, 1, 0}, 1, 10);
    unknown.type = static_cast<LightKind>(7);
    EXPECT_NE(lightProblem(unknown), "");
}

} // namespace
} // namespace spindrift::render
