// Lighting per particle on lavapipe, validation on (render.lighting per_particle;
// docs/rendering.md, "Lighting per particle"): a lit billboard's lights gathered once at its centre
// as wrapped lobes (src/render/shader/lighting.h, ParticleLight) and evaluated per pixel with the
// sphere normal, as the shared text says; the sun's shadow taken at the centre, in the vertex stage
// (the shadow maps bound there); the compute rasteriser gathering the same light.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/frame_lights.h"
#include "render/readback.h"
#include "render/renderer.h"
#include "render/shader/lighting.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::kHeight_m;
using test::kSide;
using test::pointLight;
using test::puff;
using test::red;

// Straight down from 10 m with a 90-degree field on a black background: the image spans x and z
// in [-10, 10] m, 4.8 px a metre, +x to the right and -z up. No ground, sun or ambient.
FrameView blackView() {
    return test::topDownView(kHeight_m);
}

BillboardParams litPuffParams(bool per_particle) {
    return test::cameraFacingParams(
        kBlendAlpha, kRenderFlagLit | (per_particle ? kRenderFlagLitPerParticle : 0u));
}

// The corner (in [-1, 1]^2 over the quad) under the centre of pixel (px, py), for a camera-facing
// quad of half size `half_m` centred at `centre`, seen from blackView (right +x, up -z).
vec2 cornerAt(uint32_t px, uint32_t py, vec3 centre, float half_m) {
    const float per_px = 2.0f * (kHeight_m - centre.y) / float(kSide);
    const float x = (float(px) + 0.5f - 0.5f * kSide) * per_px - centre.x;
    const float z = (float(py) + 0.5f - 0.5f * kSide) * per_px - centre.z;
    return vec2(x / half_m, -z / half_m);
}

using ParticleLightingTest = test::SquareFrameTest;

TEST(ParticleLightMaths, AWrappedLobeIsFullFacingTheLightHalfSideOnAndZeroAway) {
    ParticleLight light = sdParticleLightAmbient(vec3(0.0f));
    sdParticleLightAdd(light, vec3(2, 4, 6), vec3(1, 0, 0));
    EXPECT_FLOAT_EQ(sdParticleLightAt(light, vec3(1, 0, 0)).y, 4.0f);
    EXPECT_FLOAT_EQ(sdParticleLightAt(light, vec3(0, 1, 0)).y, 2.0f);
    EXPECT_FLOAT_EQ(sdParticleLightAt(light, vec3(0, 0, -1)).z, 3.0f);
    EXPECT_FLOAT_EQ(sdParticleLightAt(light, vec3(-1, 0, 0)).x, 0.0f);
    // Ambient adds everywhere; a second light adds its own lobe (the sum is linear in n).
    light.base += vec3(0.5f);
    sdParticleLightAdd(light, vec3(1, 1, 1), normalize(vec3(0, 1, 1)));
    const vec3 n = normalize(vec3(0.3f, 0.8f, -0.2f));
    const float expected =
        0.5f + 2.0f * (1.0f + n.x) * 0.5f + (1.0f + dot(n, normalize(vec3(0, 1, 1)))) * 0.5f;
    EXPECT_NEAR(sdParticleLightAt(light, n).x, expected, 1.0e-5f);
}

TEST(ParticleLightMaths, APointLightSendsWhatItGivesAFacingSurface) {
    LightDesc desc = pointLight({0, 2, 0}, 8, 6);
    const FrameLight light = frameLight(desc);
    vec3 l;
    const vec3 radiance = sdLocalLightRadiance(vec3(0), light, vec3(1, 0, 0), l);
    EXPECT_NEAR(l.y, 1.0f, 1.0e-6f);
    EXPECT_NEAR(radiance.x, sdLocalLight(vec3(0, 1, 0), vec3(0), light).x, 1.0e-6f);
    EXPECT_GT(radiance.x, 0.0f);
    // At the light's own position the direction is the fallback.
    sdLocalLightRadiance(vec3(0, 2, 0), light, vec3(1, 0, 0), l);
    EXPECT_EQ(l.x, 1.0f);
}

TEST_F(ParticleLightingTest, EachPixelShowsTheLightGatheredAtTheCentreAsTheSharedTextSays) {
    FrameView view = blackView();
    const std::vector<LightDesc> lights = {pointLight({3, 1, 0}, 6, 10)};
    view.lights = lights;
    // One opaque 4 m disc at the origin, a light 3 m to its +x side, 1 m above it.
    const std::vector<DrawRecord> records = {puff(vec3(0), 4.0f, 1.0f)};
    const Image image =
        render(view, {BillboardBatch{litPuffParams(true), kNoTexture, records, {}}});

    // What the vertex stage gathers (no sun, no ambient, no sky) and each pixel evaluates.
    ParticleLight gathered = sdParticleLightAmbient(vec3(0.0f));
    const vec3 facing(0, 1, 0);
    vec3 l;
    const vec3 radiance = sdLocalLightRadiance(vec3(0), frameLight(lights[0]), facing, l);
    sdParticleLightAdd(gathered, radiance, l);
    const vec3 right(1, 0, 0);
    const vec3 up(0, 0, -1);
    for (uint32_t px : {38u, 43u, 48u, 53u, 58u}) {
        for (uint32_t py : {43u, 48u, 53u}) {
            const vec2 c = cornerAt(px, py, vec3(0), 2.0f);
            const vec3 n = sdBillboardSphereNormal(c, right, up, facing);
            const float coverage = sdSoftDisc(c);
            const int expected = encodeSrgb8(sdParticleLightAt(gathered, n).x * coverage);
            EXPECT_NEAR(red(image, px, py), expected, 2) << "pixel (" << px << ", " << py << ")";
        }
    }
    // The puff's side facing the light is brighter; its far side still gets the wrapped light.
    EXPECT_GT(red(image, 53, 48), red(image, 43, 48) + 20);
    EXPECT_GT(red(image, 43, 48), 0);
}

TEST_F(ParticleLightingTest, TheSunsShadowAtTheCentreDarkensTheWholePuffOnBothRasterPaths) {
    FrameView view = blackView();
    view.sun.direction = {0.70710678f, 0.70710678f, 0};
    view.sun.color = {1, 1, 1};
    view.sun.intensity = 1;
    view.ambient = {0.1f, 0.1f, 0.1f};
    view.shadows.enabled = true;
    view.shadows.resolution = 512;
    // A 2 m box 4 m up at x = 2: its shadow falls toward -x onto the puff at (-2, 0.5, 0).
    const std::vector<PrimitiveDesc> primitives = {
        PrimitiveDesc{PrimitiveKind::box, {2, 4, 0}, {2, 2, 2}, 1, {0.5f, 0.5f, 0.5f}}};
    const std::vector<DrawRecord> records = {puff(vec3(-2, 0.5f, 0), 1.2f, 1.0f),
                                             puff(vec3(-2, 0.5f, 4), 1.2f, 1.0f)};
    const std::vector<DrawBatch> batches = {
        BillboardBatch{litPuffParams(true), kNoTexture, records, {}}};
    const uint32_t column = 38; // x = -2 m
    const uint32_t shaded_row = 48;
    const uint32_t sunlit_row = 67; // z = 4 m
    const Image open = render(view, batches);
    view.primitives = primitives;
    const Image shaded = render(view, batches);
    EXPECT_EQ(stats_.shadow_cascades, 2u);
    EXPECT_NEAR(red(shaded, column, sunlit_row), red(open, column, sunlit_row), 2);
    EXPECT_LT(red(shaded, column, shaded_row) * 2, red(open, column, shaded_row))
        << "in the box's shadow " << red(shaded, column, shaded_row) << ", in the open "
        << red(open, column, shaded_row);
    // The shadow is taken once, at the centre, for the whole puff: every pixel of it has the
    // ambient light alone (0.1 here), times the disc's coverage.
    for (uint32_t d : {0u, 1u, 2u}) {
        const vec2 c = cornerAt(column + d, shaded_row + d, vec3(-2, 0.5f, 0), 0.6f);
        EXPECT_NEAR(red(shaded, column + d, shaded_row + d), encodeSrgb8(0.1f * sdSoftDisc(c)), 2)
            << "corner (" << c.x << ", " << c.y << ")";
    }

    view.raster = RasterPath::compute;
    const Image computed = render(view, batches);
    EXPECT_EQ(stats_.raster_batches, 1u);
    ASSERT_TRUE(test::redWithin(computed, shaded, 2));
}

TEST_F(ParticleLightingTest, TheComputeRasteriserGathersTheSameLights) {
    FrameView view = blackView();
    view.ambient = {0.05f, 0.05f, 0.05f};
    std::vector<LightDesc> lights;
    for (int i = 0; i < 8; ++i) {
        const float a = 0.785398f * float(i);
        lights.push_back(pointLight({4 * std::cos(a), 1, 4 * std::sin(a)}, 2.0f + float(i), 6));
    }
    view.lights = lights;
    std::vector<DrawRecord> records;
    for (int i = 0; i < 25; ++i) {
        records.push_back(
            puff(vec3(float(i % 5) * 1.5f - 3, 0.2f * float(i % 3), float(i / 5) * 1.5f - 3), 1.6f,
                 0.7f));
    }
    const std::vector<DrawBatch> batches = {
        BillboardBatch{litPuffParams(true), kNoTexture, records, {}}};
    const Image graphics = render(view, batches);
    view.raster = RasterPath::compute;
    const Image computed = render(view, batches);
    EXPECT_EQ(stats_.raster_batches, 1u);
    ASSERT_TRUE(test::redWithin(computed, graphics, 2));
    int lit_pixels = 0;
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            if (red(graphics, x, y) > 30) ++lit_pixels;
        }
    }
    EXPECT_GT(lit_pixels, 500);
}

// A light at the largest intensity a frame takes (kMaxLightIntensity) just below a puff (seen
// from above) gives radiance far past the largest half float. The particle's light, carried as
// half floats on both raster paths (particle_light_pack.glsl), saturates instead of becoming
// infinite: base +inf and y -inf would make each pixel's base + y n.y a NaN (drawn black), where
// the clamped values give the rim, whose normals lean away from the light less, a saturated white.
TEST_F(ParticleLightingTest, AnExtremeLightSaturatesThePuffOnBothRasterPaths) {
    FrameView view = blackView();
    const std::vector<LightDesc> lights = {pointLight({0, 0.1f, 0}, kMaxLightIntensity, 50)};
    view.lights = lights;
    const std::vector<DrawRecord> records = {puff(vec3(0, 0.2f, 0), 4, 1)};
    const std::vector<DrawBatch> batches = {
        BillboardBatch{litPuffParams(true), kNoTexture, records, {}}};
    for (RasterPath raster : {RasterPath::graphics, RasterPath::compute}) {
        view.raster = raster;
        const Image image = render(view, batches);
        // Half way out from the centre (the quad's half size is 2 m, 4.8 px a metre): n.y ~0.87.
        const uint32_t x = kSide / 2 + 5;
        const uint32_t y = kSide / 2;
        EXPECT_EQ(red(image, x, y), 255) << int(raster);
        EXPECT_EQ(image.rgba8[(size_t{y} * kSide + x) * 4 + 1], 255) << int(raster);
    }
}

} // namespace
} // namespace spindrift::render
