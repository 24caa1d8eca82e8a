// Sun shadow maths on the CPU (docs/rendering.md, "Shadows"): the shared text the receivers run
// (src/render/shader/shadow.h) and the cascade fitting (src/render/sun_shadows.h): the cascade
// splits, texel snapping that keeps a still point on the same texels as the camera moves, a
// radius that does not change as the camera turns, the opacity slices' optical depth and
// transmittance, the opacity map's fit to the blended billboards, and the settings' ranges.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/shader/shadow.h"
#include "render/sun_shadows.h"

namespace spindrift::render {
namespace {

FrameView shadowView() {
    FrameView view;
    view.camera.eye = {0, 3, 8};
    view.camera.target = {0, 0.5f, 0};
    view.camera.up = {0, 1, 0};
    view.sun.direction = {0.436f, 0.873f, 0.218f};
    view.shadows.enabled = true;
    view.shadows.cascades = 3;
    view.shadows.resolution = 1024;
    view.shadows.max_distance = 40;
    return view;
}

vec3 coordOf(const SunShadowFit& fit, uint32_t c, vec3 p) {
    const FrameShadows& s = fit.shadows;
    return sdShadowCoord(s.cascade_c[4 * c], s.cascade_c[4 * c + 1], s.cascade_c[4 * c + 2],
                         s.cascade_c[4 * c + 3], p);
}

TEST(ShadowMaths, CascadeSplitsIncreaseAndEndAtTheShadowDistance) {
    for (uint32_t count = 1; count <= kShadowCascadeCapacity; ++count) {
        const auto splits = cascadeSplits(0.1f, 40.0f, count);
        EXPECT_FLOAT_EQ(splits[count - 1], 40.0f);
        for (uint32_t i = 1; i < count; ++i) EXPECT_GT(splits[i], splits[i - 1]);
        for (uint32_t i = count; i < kShadowCascadeCapacity; ++i) EXPECT_FLOAT_EQ(splits[i], 40);
    }
    // Closer to logarithmic than uniform: the first of four ends well before a quarter.
    EXPECT_LT(cascadeSplits(0.1f, 40.0f, 4)[0], 5.0f);
}

TEST(ShadowMaths, CascadeSelectionFollowsTheViewDepth) {
    const vec4 far(2, 8, 20, 40);
    EXPECT_EQ(sdShadowCascade(1, far, 4), 0u);
    EXPECT_EQ(sdShadowCascade(5, far, 4), 1u);
    EXPECT_EQ(sdShadowCascade(30, far, 4), 3u);
    EXPECT_EQ(sdShadowCascade(41, far, 4), 4u); // past them all: no sun shadow there
    EXPECT_EQ(sdShadowCascade(30, far, 2), 2u); // only two in use
}

TEST(ShadowMaths, AStillPointStaysOnTheSameTexelsAsTheCameraMoves) {
    FrameView view = shadowView();
    const SunShadowFit a = fitSunShadows(view, 320, 180, {});
    ASSERT_EQ(a.cascades, 3u);
    view.camera.eye.x += 0.137f;
    view.camera.target.x += 0.137f;
    view.camera.eye.z -= 0.051f;
    view.camera.target.z -= 0.051f;
    const SunShadowFit b = fitSunShadows(view, 320, 180, {});
    const vec3 p(0.3f, 0.0f, -0.7f);
    for (uint32_t c = 0; c < 3; ++c) {
        const float texels = float(view.shadows.resolution);
        const vec3 ua = coordOf(a, c, p) * texels;
        const vec3 ub = coordOf(b, c, p) * texels;
        // The map moved by whole texels: the point's offset within its texel is unchanged.
        const float fx = (ua.x - std::floor(ua.x)) - (ub.x - std::floor(ub.x));
        const float fy = (ua.y - std::floor(ua.y)) - (ub.y - std::floor(ub.y));
        EXPECT_LT(std::min(std::abs(fx), 1.0f - std::abs(fx)), 2e-3f) << "cascade " << c;
        EXPECT_LT(std::min(std::abs(fy), 1.0f - std::abs(fy)), 2e-3f) << "cascade " << c;
        EXPECT_FLOAT_EQ(a.shadows.cascade_texel_m[int(c)], b.shadows.cascade_texel_m[int(c)]);
    }
}

TEST(ShadowMaths, TurningTheCameraKeepsEachCascadesSize) {
    FrameView view = shadowView();
    const SunShadowFit a = fitSunShadows(view, 320, 180, {});
    view.camera.target = {3, 1.5f, 2};
    const SunShadowFit b = fitSunShadows(view, 320, 180, {});
    for (uint32_t c = 0; c < 3; ++c) {
        EXPECT_FLOAT_EQ(a.cascade_views[c].half_width_m, b.cascade_views[c].half_width_m);
        EXPECT_GT(a.cascade_views[c].half_width_m, 0.0f);
        if (c > 0) {
            EXPECT_GT(a.cascade_views[c].half_width_m, a.cascade_views[c - 1].half_width_m);
        }
    }
}

TEST(ShadowMaths, APointInFrontOfTheCameraLiesInsideItsCascade) {
    const FrameView view = shadowView();
    const SunShadowFit fit = fitSunShadows(view, 320, 180, {});
    const FrameShadows& s = fit.shadows;
    for (const vec3 p : {vec3(0, 0, 6), vec3(1, 0, 0), vec3(-4, 0, -10), vec3(8, 2, -25)}) {
        const float depth = dot(p - vec3(0, 3, 8), normalize(vec3(0, -2.5f, -8)));
        const uint32_t c = sdShadowCascade(depth, s.cascade_far, s.config.x);
        ASSERT_LT(c, 3u);
        const vec3 uv = coordOf(fit, c, p);
        EXPECT_GT(uv.x, 0.0f);
        EXPECT_LT(uv.x, 1.0f);
        EXPECT_GT(uv.y, 0.0f);
        EXPECT_LT(uv.y, 1.0f);
        EXPECT_GT(uv.z, 0.0f);
        EXPECT_LT(uv.z, 1.0f);
    }
}

TEST(ShadowMaths, ACasterCloserToTheSunHasTheSmallerDepth) {
    const FrameView view = shadowView();
    const SunShadowFit fit = fitSunShadows(view, 320, 180, {});
    const vec3 ground(0, 0, 0);
    const vec3 above = ground + 2.0f * normalize(vec3(0.436f, 0.873f, 0.218f));
    const vec3 g = coordOf(fit, 0, ground);
    const vec3 a = coordOf(fit, 0, above);
    EXPECT_NEAR(g.x, a.x, 1e-4f); // on one ray of the sun
    EXPECT_NEAR(g.y, a.y, 1e-4f);
    EXPECT_LT(a.z, g.z);
}

TEST(ShadowMaths, OpacitySlicesHoldTheOpticalDepthInFrontOfEachBoundary) {
    const vec4 t = sdOpacitySliceOutput(0.3f, 0.5f);
    const float ln2 = std::log(2.0f);
    EXPECT_FLOAT_EQ(t.x, 0.0f);
    EXPECT_NEAR(t.y, ln2, 1e-5f);
    EXPECT_NEAR(t.z, ln2, 1e-5f);
    EXPECT_NEAR(t.w, ln2, 1e-5f);
    // An opaque texel is bounded (kOpacityMaxAlpha), never infinite.
    const vec4 opaque = sdOpacitySliceOutput(0.0f, 1.0f);
    EXPECT_TRUE(std::isfinite(opaque.x));
    EXPECT_NEAR(opaque.x, -std::log(1.0f - kOpacityMaxAlpha), 1e-3f);
}

TEST(ShadowMaths, TransmittanceInterpolatesTheOpticalDepthBetweenBoundaries) {
    const vec4 tau(1, 2, 3, 4);
    EXPECT_NEAR(sdOpacityTransmittance(tau, 0.0f), 1.0f, 1e-6f);
    EXPECT_NEAR(sdOpacityTransmittance(tau, 0.125f), std::exp(-0.5f), 1e-5f);
    EXPECT_NEAR(sdOpacityTransmittance(tau, 0.25f), std::exp(-1.0f), 1e-5f);
    EXPECT_NEAR(sdOpacityTransmittance(tau, 0.625f), std::exp(-2.5f), 1e-5f);
    EXPECT_NEAR(sdOpacityTransmittance(tau, 1.0f), std::exp(-4.0f), 1e-5f);
    EXPECT_NEAR(sdOpacityTransmittance(tau, 3.0f), std::exp(-4.0f), 1e-5f); // behind the map
    EXPECT_NEAR(sdOpacityTransmittance(tau, -1.0f), 1.0f, 1e-6f);           // in front of it
}

TEST(ShadowMaths, TheOpacityMapFitsTheBlendedBillboards) {
    const FrameView view = shadowView();
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.blend = kBlendAlpha;
    e.alignment = kAlignCamera;
    e.emission = vec4(1, 0, 0, 0);
    const BillboardParams params = billboardParams(e, Rows3x4{});
    const std::vector<DrawRecord> records = {
        sdDrawRecord(vec3(0, 1, 0), 1.0f, vec4(1), vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u),
        sdDrawRecord(vec3(1, 2, -1), 1.0f, vec4(1), vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u)};
    BillboardParams additive = params;
    additive.blend = kBlendAdditive;
    const std::vector<DrawBatch> batches = {BillboardBatch{params, kNoTexture, records, {}},
                                            BillboardBatch{additive, kNoTexture, records, {}}};
    const SunShadowFit fit = fitSunShadows(view, 320, 180, batches);
    EXPECT_TRUE(fit.opacity);
    EXPECT_EQ(fit.opacity_batches, 1u); // additive particles are light: they cast nothing
    EXPECT_FALSE(fit.opacity_device);
    EXPECT_EQ(fit.shadows.config.y, 1u);
    const FrameShadows& s = fit.shadows;
    for (const DrawRecord& r : records) {
        const vec3 o = sdShadowCoord(s.opacity_c[0], s.opacity_c[1], s.opacity_c[2], s.opacity_c[3],
                                     vec3(r.position_size));
        for (float v : {o.x, o.y, o.z}) {
            EXPECT_GT(v, 0.0f);
            EXPECT_LT(v, 1.0f);
        }
    }
    // Without blended billboards there is no opacity map.
    const std::vector<DrawBatch> only_additive = {batches[1]};
    EXPECT_FALSE(fitSunShadows(view, 320, 180, only_additive).opacity);
}

TEST(ShadowMaths, TheOpacityMapFitsTheBlendedStripsAndCountsCutouts) {
    const FrameView view = shadowView();
    // A ribbon of two 0.5 m wide points; its ends' half-width spheres lie inside the map.
    std::vector<StripPoint> points(2);
    points[0].position_width = vec4(-1, 1, 0, 0.5f);
    points[1].position_width = vec4(2, 3, 1, 0.5f);
    for (StripPoint& p : points) p.color = vec4(1);
    const std::vector<uint32_t> segments = {0};
    StripBatch alpha;
    alpha.params.blend = kBlendAlpha;
    alpha.points = points;
    alpha.segments = segments;
    StripBatch additive = alpha;
    additive.params.blend = kBlendAdditive;
    StripBatch cutout = alpha;
    cutout.params.render_flags = kRenderFlagShadowCutout;
    const std::vector<DrawBatch> batches = {alpha, additive, cutout};
    const SunShadowFit fit = fitSunShadows(view, 320, 180, batches);
    EXPECT_TRUE(fit.opacity);
    EXPECT_EQ(fit.opacity_batches, 1u);
    EXPECT_EQ(fit.cutout_batches, 1u);
    EXPECT_FALSE(fit.opacity_device);
    const FrameShadows& s = fit.shadows;
    for (const StripPoint& p : points) {
        const vec3 o = sdShadowCoord(s.opacity_c[0], s.opacity_c[1], s.opacity_c[2], s.opacity_c[3],
                                     vec3(p.position_width));
        for (float v : {o.x, o.y, o.z}) {
            EXPECT_GT(v, 0.0f);
            EXPECT_LT(v, 1.0f);
        }
    }
    // Device strips cannot be bounded: the map covers the last cascade and says so.
    StripBatch device;
    device.params.blend = kBlendPremultiplied;
    device.device = {0x1000, 0x2000, 0x3000, 9, 4};
    const std::vector<DrawBatch> on_device = {device};
    const SunShadowFit wide = fitSunShadows(view, 320, 180, on_device);
    EXPECT_TRUE(wide.opacity);
    EXPECT_TRUE(wide.opacity_device);
    EXPECT_EQ(wide.opacity_batches, 1u);
}

TEST(ShadowMaths, NoShadowsWhenDisabledOrWithoutSun) {
    FrameView view = shadowView();
    view.shadows.enabled = false;
    EXPECT_EQ(fitSunShadows(view, 320, 180, {}).shadows.config.x, 0u);
    view.shadows.enabled = true;
    view.sun.intensity = 0;
    EXPECT_EQ(fitSunShadows(view, 320, 180, {}).cascades, 0u);
}

TEST(ShadowMaths, SettingsOutsideTheirRangesAreNamed) {
    EXPECT_EQ(shadowProblem(ShadowDesc{}), "");
    ShadowDesc s;
    s.cascades = 5;
    EXPECT_NE(shadowProblem(s).find("cascades"), std::string::npos);
    s = ShadowDesc{};
    s.resolution = 32;
    EXPECT_NE(shadowProblem(s).find("resolution"), std::string::npos);
    s = ShadowDesc{};
    s.max_distance = std::nanf("");
    EXPECT_NE(shadowProblem(s).find("max_distance"), std::string::npos);
    s = ShadowDesc{};
    s.bias = 2;
    EXPECT_NE(shadowProblem(s).find("bias"), std::string::npos);
}

} // namespace
} // namespace spindrift::render
