// Local-light shadow maths on the CPU (docs/rendering.md, "Shadows of local lights"): the shared
// text the receivers run (src/render/shader/local_shadow.h) and the fitting
// (src/render/local_shadows.h): the perspective tile puts the spot's axis at its centre and its
// cone inside it, depth grows with distance from the near plane to the range, the receiver's
// offsets, the frustum's widest angle, a point light's cube faces, and which lights get tiles (the
// bound, counted); the opacity slices run along linear depth from the light (a spot's and each
// cube face's alike) and end where the blended casters do.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/local_shadows.h"
#include "render/shader/local_shadow.h"

namespace spindrift::render {
namespace {

LightDesc spot(Float3 position, Float3 direction, float outer_deg = 30, bool shadows = true) {
    LightDesc l;
    l.type = LightKind::spot;
    l.position = position;
    l.direction = direction;
    l.inner_deg = outer_deg * 0.5f;
    l.outer_deg = outer_deg;
    l.range = 10;
    l.intensity = 5;
    l.shadows = shadows;
    return l;
}

LightDesc shadowedPoint(Float3 position) {
    LightDesc l;
    l.type = LightKind::point;
    l.position = position;
    l.range = 10;
    l.shadows = true;
    return l;
}

FrameView viewWith(std::span<const LightDesc> lights) {
    FrameView view;
    view.shadows.enabled = true;
    view.shadows.resolution = 512;
    view.lights = lights;
    return view;
}

vec4 tileCoordOf(const LocalShadowFit& fit, uint32_t t, vec3 p) {
    const FrameLocalShadows& s = fit.shadows;
    return sdLocalShadowCoord(s.tile_c[4 * t], s.tile_c[4 * t + 1], s.tile_c[4 * t + 2],
                              s.tile_c[4 * t + 3], p);
}

TEST(LocalShadowMaths, TheSpotsAxisIsTheTilesCentreAndDepthGrowsToItsRange) {
    const std::vector<LightDesc> lights = {spot({1, 4, -2}, {0, -1, 0})};
    const LocalShadowFit fit = fitLocalShadows(viewWith(lights));
    ASSERT_EQ(fit.count, 1u);
    EXPECT_EQ(fit.shadows.config.x, 1u);
    EXPECT_EQ(fit.shadows.config.y, 512u);
    EXPECT_EQ(fit.shadows.lights[0].x, 0u);
    const vec4 centre = tileCoordOf(fit, 0, vec3(1, 2, -2));
    EXPECT_NEAR(centre.x, 0.5f, 1e-5f);
    EXPECT_NEAR(centre.y, 0.5f, 1e-5f);
    EXPECT_EQ(centre.w, 1.0f);
    // Depth: 0 at the near plane (range / 1000), 1 at the range, increasing between.
    EXPECT_NEAR(tileCoordOf(fit, 0, vec3(1, 4 - 0.01f, -2)).z, 0.0f, 1e-4f);
    EXPECT_NEAR(tileCoordOf(fit, 0, vec3(1, 4 - 10.0f + 1e-4f, -2)).z, 1.0f, 1e-4f);
    float last = 0;
    for (float d = 0.5f; d < 10.0f; d += 0.5f) {
        const float z = tileCoordOf(fit, 0, vec3(1, 4 - d, -2)).z;
        EXPECT_GT(z, last) << d;
        last = z;
    }
    // Behind the light and past the range: outside every tile.
    EXPECT_EQ(tileCoordOf(fit, 0, vec3(1, 5, -2)).w, 0.0f);
    EXPECT_EQ(tileCoordOf(fit, 0, vec3(1, 4 - 10.5f, -2)).w, 0.0f);
}

TEST(LocalShadowMaths, TheConeLiesInsideTheTileWithAMargin) {
    for (float outer : {5.0f, 30.0f, 60.0f, 79.0f}) {
        const std::vector<LightDesc> lights = {spot({0, 0, 0}, {1, 1, 0}, outer)};
        const LocalShadowFit fit = fitLocalShadows(viewWith(lights));
        ASSERT_EQ(fit.count, 1u);
        // A point on the outer cone, in several directions around the axis.
        const vec3 axis = normalize(vec3(1, 1, 0));
        const vec3 a = normalize(cross(axis, vec3(0, 0, 1)));
        const vec3 b = cross(axis, a);
        const float angle = outer * 3.14159265f / 180.0f;
        for (int k = 0; k < 8; ++k) {
            const float phi = float(k) * 0.785398f;
            const vec3 dir =
                std::cos(angle) * axis + std::sin(angle) * (std::cos(phi) * a + std::sin(phi) * b);
            const vec4 c = tileCoordOf(fit, 0, 4.0f * dir);
            EXPECT_EQ(c.w, 1.0f) << outer << " " << k;
            // Inside by at least 1.5 texels: the filter's taps stay in the tile.
            const float margin = 1.5f / 512.0f;
            EXPECT_GT(std::min(c.x, c.y), margin) << outer << " " << k;
            EXPECT_LT(std::max(c.x, c.y), 1.0f - margin) << outer << " " << k;
        }
    }
}

TEST(LocalShadowMaths, TheFrustumStopsAtEightyDegrees) {
    const float most = std::tan(80.0f * 3.14159265f / 180.0f);
    EXPECT_NEAR(sdLocalShadowTanHalfFov(std::cos(90.0f * 3.14159265f / 180.0f)), most, 1e-3f);
    EXPECT_NEAR(sdLocalShadowTanHalfFov(std::cos(85.0f * 3.14159265f / 180.0f)), most, 1e-3f);
    EXPECT_NEAR(sdLocalShadowTanHalfFov(std::cos(30.0f * 3.14159265f / 180.0f)),
                std::tan(30.0f * 3.14159265f / 180.0f) * kLocalShadowFovMargin, 1e-5f);
}

TEST(LocalShadowMaths, TheReceiverMovesAlongItsNormalByTexelsAtItsDistanceAndTowardTheLight) {
    const vec4 params(0.03f, 0.002f, 1.0f / 512.0f, 0.0f);
    const vec3 p(0, 0, 0);
    const vec3 q = sdLocalShadowReceiver(p, vec3(0, 1, 0), vec3(1, 0, 0), 5.0f, params);
    EXPECT_NEAR(q.y, 0.002f * 5.0f * kShadowNormalOffsetTexels, 1e-7f);
    EXPECT_NEAR(q.x, 0.03f, 1e-7f);
}

TEST(LocalShadowMaths, TheFirstEightShadowedSpotsGetTilesAndTheRestAreCounted) {
    std::vector<LightDesc> lights;
    LightDesc point;
    point.type = LightKind::point;
    lights.push_back(point);                                  // 0: a point light, no shadows
    lights.push_back(spot({0, 3, 0}, {0, -1, 0}, 30, false)); // 1: no shadows asked
    for (int i = 0; i < 10; ++i) lights.push_back(spot({float(i), 3, 0}, {0, -1, 0}));
    LightDesc dark = spot({0, 3, 0}, {0, -1, 0});
    dark.intensity = 0;
    lights.insert(lights.begin() + 2, dark); // 2: no light, no shadow
    const LocalShadowFit fit = fitLocalShadows(viewWith(lights));
    EXPECT_EQ(fit.count, kLocalShadowTiles);
    EXPECT_EQ(fit.lights, kLocalShadowTiles);
    EXPECT_EQ(fit.dropped, 2u);
    EXPECT_EQ(fit.shadows.lights[0], uvec4(3, 4, 5, 6));
    EXPECT_EQ(fit.shadows.lights[1], uvec4(7, 8, 9, 10));

    FrameView off = viewWith(lights);
    off.shadows.enabled = false;
    const LocalShadowFit none = fitLocalShadows(off);
    EXPECT_EQ(none.count, 0u);
    EXPECT_EQ(none.dropped, 0u);
    EXPECT_EQ(none.shadows.config.x, 0u);
}

TEST(LocalShadowMaths, CubeFacesFollowTheLargestComponent) {
    EXPECT_EQ(sdCubeFace(vec3(2, 1, -1)), 0u);
    EXPECT_EQ(sdCubeFace(vec3(-2, 1, -1)), 1u);
    EXPECT_EQ(sdCubeFace(vec3(0.1f, 3, 1)), 2u);
    EXPECT_EQ(sdCubeFace(vec3(0.1f, -3, 1)), 3u);
    EXPECT_EQ(sdCubeFace(vec3(0.1f, 0.2f, 0.3f)), 4u);
    EXPECT_EQ(sdCubeFace(vec3(0.1f, 0.2f, -0.3f)), 5u);
    for (uint32_t f = 0; f < kPointShadowFaces; ++f) EXPECT_EQ(sdCubeFace(sdCubeFaceForward(f)), f);
}

TEST(LocalShadowMaths, APointLightsSixFacesHoldEveryDirectionInsideTheirTiles) {
    const LightDesc point = shadowedPoint({1, 2, 3});
    const std::vector<LightDesc> lights = {point};
    const LocalShadowFit fit = fitLocalShadows(viewWith(lights));
    ASSERT_EQ(fit.count, kPointShadowFaces);
    EXPECT_EQ(fit.lights, 1u);
    EXPECT_EQ(fit.shadows.lights[0], uvec4(0));
    EXPECT_EQ(fit.shadows.lights[1].x, 0u);
    EXPECT_EQ(fit.shadows.lights[1].y, 0u);
    const vec3 p0(1, 2, 3);
    const float margin = 1.5f / 512.0f;
    for (int i = 0; i < 200; ++i) {
        // Directions spread over the sphere, including the cube's edges and corners.
        const float z = 1.0f - 2.0f * (float(i) + 0.5f) / 200.0f;
        const float r = std::sqrt(1.0f - z * z);
        const float phi = 2.39996323f * float(i);
        const vec3 d(r * std::cos(phi), r * std::sin(phi), z);
        const uint32_t face = sdCubeFace(d);
        const vec4 c = tileCoordOf(fit, face, p0 + 5.0f * d);
        EXPECT_EQ(c.w, 1.0f) << i;
        EXPECT_GT(std::min(c.x, c.y), margin) << i;
        EXPECT_LT(std::max(c.x, c.y), 1.0f - margin) << i;
    }
}

TEST(LocalShadowMaths, APointLightTakesSixTilesOfTheEight) {
    const LightDesc point = shadowedPoint({0, 1, 0});
    // A point light, two spots (8 tiles), then a third spot and a second point light: dropped.
    const std::vector<LightDesc> lights = {point, spot({0, 3, 0}, {0, -1, 0}),
                                           spot({1, 3, 0}, {0, -1, 0}), spot({2, 3, 0}, {0, -1, 0}),
                                           point};
    const LocalShadowFit fit = fitLocalShadows(viewWith(lights));
    EXPECT_EQ(fit.count, kLocalShadowTiles);
    EXPECT_EQ(fit.lights, 3u);
    EXPECT_EQ(fit.dropped, 2u);
    EXPECT_EQ(fit.shadows.lights[1], uvec4(0, 0, 1, 2));
}

TEST(LocalShadowMaths, TilesLieInTheirOwnPartOfTheAtlas) {
    const float texel = 1.0f / 64.0f;
    for (uint32_t t = 0; t < kLocalShadowTiles; ++t) {
        const float x0 = float(t % kLocalShadowColumns) / float(kLocalShadowColumns);
        const float y0 = float(t / kLocalShadowColumns) / float(kLocalShadowRows);
        const vec2 lo = sdLocalShadowAtlasUv(vec2(-1.0f), t, texel);
        const vec2 hi = sdLocalShadowAtlasUv(vec2(2.0f), t, texel);
        EXPECT_GT(lo.x, x0);
        EXPECT_GT(lo.y, y0);
        EXPECT_LT(hi.x, x0 + 1.0f / float(kLocalShadowColumns));
        EXPECT_LT(hi.y, y0 + 1.0f / float(kLocalShadowRows));
    }
}

// A blended (or, with `additive`, additive) camera-facing billboard batch of `records` (which it
// views: they must outlive it).
BillboardBatch blendedBatch(std::span<const DrawRecord> records, bool additive = false) {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.blend = additive ? kBlendAdditive : kBlendAlpha;
    e.alignment = kAlignCamera;
    e.emission = vec4(1, 0, 0, 0);
    return BillboardBatch{billboardParams(e, Rows3x4{}), kNoTexture, records, {}};
}

TEST(LocalShadowMaths, OpacitySlicesRunAlongLinearDepthFromTheNearPlaneToTheirEnd) {
    const std::vector<LightDesc> lights = {spot({1, 4, -2}, {0, -1, 0})};
    const LocalShadowFit fit = fitLocalShadows(viewWith(lights));
    const float range = 10.0f;
    const float near_m = range * kLocalShadowNearFraction;
    auto slice = [&](float d, float end_m) {
        return sdLocalOpacityDepth(tileCoordOf(fit, 0, vec3(1, 4 - d, -2)).z, range, end_m);
    };
    EXPECT_NEAR(slice(near_m, range), 0.0f, 1e-4f);
    EXPECT_NEAR(slice(range - 1e-4f, range), 1.0f, 1e-4f);
    float last = -1;
    for (float d = 0.25f; d < range; d += 0.25f) {
        // Linear in the distance along the light's direction (perspective depth is not: it is
        // above 0.99 from a tenth of the range on).
        const float f = slice(d, range);
        EXPECT_NEAR(f, (d - near_m) / (range - near_m), 2e-4f) << d;
        EXPECT_GT(f, last) << d;
        last = f;
        // Slices ending at 4 m: the same, stretched, and 1 from there on.
        EXPECT_NEAR(slice(d, 4.0f), std::min((d - near_m) / (4.0f - near_m), 1.0f), 2e-4f) << d;
    }
    EXPECT_NEAR(sdLocalShadowLinearDepth(0.0f, range), near_m, 1e-6f);
    EXPECT_NEAR(sdLocalShadowLinearDepth(1.0f, range), range, 1e-3f);
}

TEST(LocalShadowMaths, EachCubeFaceSlicesAlongItsOwnDirection) {
    const LightDesc point = shadowedPoint({1, 2, 3});
    const std::vector<LightDesc> lights = {point};
    const LocalShadowFit fit = fitLocalShadows(viewWith(lights));
    ASSERT_EQ(fit.count, kPointShadowFaces);
    const vec3 p0(1, 2, 3);
    const float near_m = 10.0f * kLocalShadowNearFraction;
    for (uint32_t face = 0; face < kPointShadowFaces; ++face) {
        const vec3 forward = sdCubeFaceForward(face);
        // A direction off the face's axis, still inside it.
        const vec3 across = face < 2 ? vec3(0, 0.4f, -0.3f) : vec3(0.3f, 0, 0.4f);
        const vec3 side = face >= 4 ? vec3(0.4f, -0.3f, 0) : across;
        float last = -1;
        for (float d = 0.5f; d < 10.0f; d += 0.5f) {
            const vec3 p = p0 + (forward + side) * d;
            ASSERT_EQ(sdCubeFace(p - p0), face);
            const vec4 c = tileCoordOf(fit, face, p);
            ASSERT_EQ(c.w, 1.0f) << face << " " << d;
            const float f = sdLocalOpacityDepth(c.z, 10.0f, 10.0f);
            EXPECT_NEAR(f, (d - near_m) / (10.0f - near_m), 2e-4f) << face << " " << d;
            EXPECT_GT(f, last);
            last = f;
        }
    }
}

TEST(LocalShadowMaths, BlendedCastersTurnOnTheOpacityAtlasAndEndEachTilesSlices) {
    // A spot 4 m up looking down, a point light beside it; a blended puff 1.5 m below the spot
    // (size 0.5: it reaches 2 m down).
    const LightDesc point = shadowedPoint({5, 4, 0});
    const std::vector<LightDesc> lights = {spot({0, 4, 0}, {0, -1, 0}), point};
    FrameView view = viewWith(lights);
    view.shadows.opacity_resolution = 4096;
    const std::vector<DrawRecord> records = {
        sdDrawRecord(vec3(0, 2.5f, 0), 0.5f, vec4(1), vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u)};
    const std::vector<DrawBatch> batches = {blendedBatch(records), blendedBatch(records, true)};
    const LocalShadowFit fit = fitLocalShadows(view, batches);
    ASSERT_EQ(fit.count, 1u + kPointShadowFaces);
    EXPECT_EQ(fit.opacity_batches, 1u) << "additive particles are light: they cast nothing";
    EXPECT_EQ(fit.shadows.config.z, kMaxLocalOpacityResolution);
    EXPECT_NEAR(fit.shadows.params[0].w, 2.0f, 1e-4f) << "the puff's far side from the spot";
    // The point light's -x face sees the puff 5 m away (+ its size); faces that look away from
    // it end their slices at their near end (nothing to slice).
    EXPECT_NEAR(fit.shadows.params[1 + 1].w, 5.5f, 1e-4f);
    EXPECT_NEAR(fit.shadows.params[1 + 0].w, 2.0f * 10.0f * kLocalShadowNearFraction, 1e-6f);

    // No blended casters, or no shadowed light: no opacity atlas.
    const std::vector<DrawBatch> additive = {blendedBatch(records, true)};
    const LocalShadowFit none = fitLocalShadows(view, additive);
    EXPECT_EQ(none.opacity_batches, 0u);
    EXPECT_EQ(none.shadows.config.z, 0u);
    EXPECT_EQ(none.shadows.params[0].w, 0.0f);
    view.shadows.enabled = false;
    EXPECT_EQ(fitLocalShadows(view, batches).opacity_batches, 0u);

    // Records on the device: the slices reach the range.
    view.shadows.enabled = true;
    view.shadows.opacity_resolution = 256;
    BillboardBatch device = blendedBatch({});
    device.device.records = 0x1000;
    device.device.count = 4;
    const std::vector<DrawBatch> on_device = {device};
    const LocalShadowFit reach = fitLocalShadows(view, on_device);
    EXPECT_EQ(reach.opacity_batches, 1u);
    EXPECT_EQ(reach.shadows.config.z, 256u);
    EXPECT_EQ(reach.shadows.params[0].w, 10.0f);
}

} // namespace
} // namespace spindrift::render
