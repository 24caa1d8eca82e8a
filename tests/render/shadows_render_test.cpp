// Sun shadows on lavapipe, validation on (docs/rendering.md, "Shadows"), measured on the pixels: a
// box's cascaded shadow darkens the ground behind it and turning shadows off removes that; blended
// billboards darken the ground below them through the opacity map and shade the billboards behind
// them (smoke shadows itself); the compute rasteriser's lit billboards receive the same shadow as
// the graphics path's; cutout billboards cast into the depth map where they are at least half
// covered; ribbons cast as billboards do (blended ones through the opacity map, cutouts into the
// depth map, additive ones nothing) and lit ribbons receive the sun's shadow; a spot light with
// shadows shadows the ground behind a box (gone with its shadows off) and lights lit billboards
// alike on both raster paths; smoke (blended billboards) darkens the ground behind it from a
// shadowed spot by its transmittance, and from a shadowed point light on its side only, through
// the local opacity atlas (additive ones, or a light without shadows: nothing); bad settings are
// refused with their name.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/renderer.h"
#include "render/shader/local_shadow.h"
#include "render/strip_params.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::errors;
using test::kGrey; // the ground's colour
using test::kHeight_m;
using test::kSide;
using test::puff;
using test::red;

// The pixel column (or row) of ground coordinate x (or z) in sunlitGroundView: 4.8 px a metre, +x
// right, +z down the image.
uint32_t pixelOf(float metres) {
    return static_cast<uint32_t>(
        std::floor(metres * float(kSide) / (2.0f * kHeight_m) + 0.5f * float(kSide)));
}

// Straight down on a grey ground from 10 m with a 90-degree field; the sun 45 degrees up in +x,
// so a caster's shadow falls toward -x, as far from it as the caster is high.
FrameView sunlitGroundView() {
    FrameView view = test::topDownView(kHeight_m);
    view.ground.enabled = true;
    view.ground.color = {kGrey, kGrey, kGrey};
    view.sun.direction = {0.70710678f, 0.70710678f, 0};
    view.sun.color = {1, 1, 1};
    view.sun.intensity = 1;
    view.ambient = {0.1f, 0.1f, 0.1f};
    view.shadows.enabled = true;
    view.shadows.resolution = 512;
    return view;
}

BillboardParams puffParams(bool lit) {
    return test::cameraFacingParams(kBlendAlpha, lit ? kRenderFlagLit : 0u);
}

// What the renderer draws a ribbon emitter with (stripParams): `blend`, these kRenderFlag* flags.
StripParams ribbonParams(uint32_t blend, uint32_t render_flags = 0) {
    EmitterRecord e{};
    e.blend = blend;
    e.render_type = kRenderRibbon;
    e.render_flags = render_flags;
    e.emission = vec4(1, 0, 0, 0);
    return stripParams(e);
}

// A sheet of ribbons 2 m up over x, z in [-1, 1]: five bands width_m wide along x at z = -1,
// -0.5, .., 1, of three points each, of alpha `alpha` (the soft band's coverage, (1 - a^2)^2
// across, makes them overlap into a sheet). Its sun shadow falls on x in about [-3, -1].
struct RibbonSheet {
    std::vector<StripPoint> points;
    std::vector<uint32_t> segments;

    explicit RibbonSheet(float alpha, float width_m = 0.6f, float height_m = 2, float x0 = -1,
                         float x1 = 1, int bands = 5) {
        for (int k = 0; k < bands; ++k) {
            const float z = bands == 1 ? 0.5f : -1.0f + 0.5f * float(k);
            for (int i = 0; i < 3; ++i) {
                StripPoint p;
                p.position_width = vec4(x0 + 0.5f * (x1 - x0) * float(i), height_m, z, width_m);
                p.color = vec4(1, 1, 1, alpha);
                p.tangent_u = vec4(1, 0, 0, 0.5f * float(i));
                if (i < 2) segments.push_back(uint32_t(points.size()));
                points.push_back(p);
            }
        }
    }

    StripBatch batch(const StripParams& params) const {
        StripBatch b;
        b.params = params;
        b.points = points;
        b.segments = segments;
        return b;
    }
};

using ShadowsRenderTest = test::SquareFrameTest;

TEST_F(ShadowsRenderTest, ABoxShadowsTheGroundBehindItAndTurningShadowsOffRemovesIt) {
    FrameView view = sunlitGroundView();
    // A 2 m box on the ground at the origin: its shadow covers x in [-3, -1], z in [-1, 1].
    const std::vector<PrimitiveDesc> primitives = {
        PrimitiveDesc{PrimitiveKind::box, {0, 1, 0}, {2, 2, 2}, 1, {0.5f, 0.5f, 0.5f}}};
    view.primitives = primitives;
    // Ground cells of the same checker parity: in the shadow (x -2, z 0.5), in the sun across
    // the box (x 2.2), and in the sun beside the shadow (x -2, z 2.2).
    const uint32_t row = pixelOf(0.5f);
    const uint32_t shadowed = pixelOf(-2.0f);
    const uint32_t lit = pixelOf(2.2f);
    const Image on = render(view);
    EXPECT_EQ(stats_.shadow_cascades, 2u);
    EXPECT_EQ(stats_.shadow_opacity_batches, 0u);
    const int in_shadow = red(on, shadowed, row);
    const int in_sun = red(on, lit, row);
    EXPECT_GT(in_sun, 120);
    EXPECT_LT(in_shadow * 2, in_sun) << "shadowed " << in_shadow << ", sunlit " << in_sun;
    EXPECT_NEAR(red(on, shadowed, pixelOf(2.2f)), in_sun, 3) << "beside the shadow: sunlit";

    view.shadows.enabled = false;
    const Image off = render(view);
    EXPECT_EQ(stats_.shadow_cascades, 0u);
    EXPECT_NEAR(red(off, shadowed, row), red(off, lit, row), 3) << "no shadows: all sunlit";
    EXPECT_NEAR(red(off, lit, row), in_sun, 1) << "shadows change only the shadowed ground";
}

TEST_F(ShadowsRenderTest, BlendedBillboardsShadowTheGroundThroughTheOpacityMap) {
    FrameView view = sunlitGroundView();
    // A sheet of half-transparent puffs 2 m up over x, z in [-1, 1]: their shadow falls on
    // x in about [-3, -1].
    std::vector<DrawRecord> records;
    for (int i = -2; i <= 2; ++i) {
        for (int k = -2; k <= 2; ++k) {
            records.push_back(puff(vec3(0.5f * float(i), 2, 0.5f * float(k)), 1, 0.6f));
        }
    }
    const std::vector<DrawBatch> batches = {
        BillboardBatch{puffParams(false), kNoTexture, records, {}}};
    const uint32_t row = pixelOf(0.5f);
    const Image on = render(view, batches);
    EXPECT_EQ(stats_.shadow_opacity_batches, 1u);
    EXPECT_EQ(stats_.shadow_opacity_device, 0u);
    const int under = red(on, pixelOf(-2.0f), row);
    const int beside = red(on, pixelOf(2.2f), row);
    EXPECT_LT(float(under), 0.8f * float(beside)) << "under " << under << ", beside " << beside;
    view.shadows.enabled = false;
    const Image off = render(view, batches);
    EXPECT_NEAR(red(off, pixelOf(-2.0f), row), red(off, pixelOf(2.2f), row), 3);
}

TEST_F(ShadowsRenderTest, CutoutBillboardsCastIntoTheDepthMapNotTheOpacityMap) {
    FrameView view = sunlitGroundView();
    // The same sheet as above, its records half transparent, but cast as cutouts: where a soft
    // disc's coverage reaches one half (its core, at record alpha 1) the ground gets a shadow as
    // dark as a box's; at record alpha 0.4 no texel reaches one half and nothing is cast.
    std::vector<DrawRecord> solid;
    std::vector<DrawRecord> faint;
    for (int i = -2; i <= 2; ++i) {
        for (int k = -2; k <= 2; ++k) {
            const vec3 p(0.5f * float(i), 2, 0.5f * float(k));
            solid.push_back(puff(p, 1, 1.0f));
            faint.push_back(puff(p, 1, 0.4f));
        }
    }
    BillboardParams cutout = puffParams(false);
    cutout.render_flags |= kRenderFlagShadowCutout;
    const uint32_t row = pixelOf(0.5f);
    const Image on = render(view, {BillboardBatch{cutout, kNoTexture, solid, {}}});
    EXPECT_EQ(stats_.shadow_cutout_batches, 1u);
    EXPECT_EQ(stats_.shadow_opacity_batches, 0u);
    const int under = red(on, pixelOf(-2.0f), row);
    const int beside = red(on, pixelOf(2.2f), row);
    EXPECT_LT(under * 2, beside) << "under " << under << ", beside " << beside;
    const Image none = render(view, {BillboardBatch{cutout, kNoTexture, faint, {}}});
    EXPECT_NEAR(red(none, pixelOf(-2.0f), row), red(none, pixelOf(2.2f), row), 3);
}

TEST_F(ShadowsRenderTest, BlendedRibbonsShadowTheGroundThroughTheOpacityMapAdditiveOnesDoNot) {
    FrameView view = sunlitGroundView();
    const RibbonSheet sheet(0.6f);
    const uint32_t row = pixelOf(0.5f);
    const Image on = render(view, {sheet.batch(ribbonParams(kBlendAlpha))});
    EXPECT_EQ(stats_.shadow_opacity_batches, 1u);
    EXPECT_EQ(stats_.shadow_opacity_device, 0u);
    EXPECT_EQ(stats_.shadow_cutout_batches, 0u);
    const int under = red(on, pixelOf(-2.0f), row);
    const int beside = red(on, pixelOf(2.2f), row);
    EXPECT_LT(float(under), 0.8f * float(beside)) << "under " << under << ", beside " << beside;

    // Premultiplied ribbons cast the same way; additive ones are light and cast nothing.
    render(view, {sheet.batch(ribbonParams(kBlendPremultiplied))});
    EXPECT_EQ(stats_.shadow_opacity_batches, 1u);
    const Image additive = render(view, {sheet.batch(ribbonParams(kBlendAdditive))});
    EXPECT_EQ(stats_.shadow_opacity_batches, 0u);
    EXPECT_EQ(stats_.shadow_cutout_batches, 0u);
    EXPECT_NEAR(red(additive, pixelOf(-2.0f), row), red(additive, pixelOf(2.2f), row), 3);
    EXPECT_NEAR(red(additive, pixelOf(-2.0f), row), beside, 3) << "the ground there is sunlit";
}

TEST_F(ShadowsRenderTest, CutoutRibbonsCastIntoTheDepthMapWhereHalfCovered) {
    FrameView view = sunlitGroundView();
    StripParams cutout = ribbonParams(kBlendAlpha, kRenderFlagShadowCutout);
    const uint32_t row = pixelOf(0.5f);
    // At alpha 1 the soft band's middle (coverage at least one half: 54 % of its width, so the
    // 1.2 m bands 0.5 m apart close up) casts a shadow as dark as a box's; at alpha 0.4 no texel
    // reaches one half and nothing is cast.
    const RibbonSheet solid(1.0f, 1.2f);
    const Image on = render(view, {solid.batch(cutout)});
    EXPECT_EQ(stats_.shadow_cutout_batches, 1u);
    EXPECT_EQ(stats_.shadow_opacity_batches, 0u);
    const int under = red(on, pixelOf(-2.0f), row);
    const int beside = red(on, pixelOf(2.2f), row);
    EXPECT_LT(under * 2, beside) << "under " << under << ", beside " << beside;
    const RibbonSheet faint(0.4f, 1.2f);
    const Image none = render(view, {faint.batch(cutout)});
    EXPECT_NEAR(red(none, pixelOf(-2.0f), row), red(none, pixelOf(2.2f), row), 3);
}

TEST_F(ShadowsRenderTest, LitRibbonsReceiveTheSunsShadow) {
    FrameView view = sunlitGroundView();
    view.ground.enabled = false;
    // A 2 m box at the origin shadows x in [-3, -1] at its foot; a lit additive ribbon (it casts
    // nothing, so only the box shadows it) 0.1 m over the ground from x = -4 to 4 at z = 0.5.
    const std::vector<PrimitiveDesc> primitives = {
        PrimitiveDesc{PrimitiveKind::box, {0, 1, 0}, {2, 2, 2}, 1, {0.5f, 0.5f, 0.5f}}};
    view.primitives = primitives;
    const RibbonSheet band(1.0f, 0.6f, 0.1f, -4.0f, 4.0f, 1);
    const std::vector<DrawBatch> batches = {
        band.batch(ribbonParams(kBlendAdditive, kRenderFlagLit))};
    const uint32_t row = pixelOf(0.5f);
    const Image on = render(view, batches);
    view.shadows.enabled = false;
    const Image off = render(view, batches);
    const int shadowed = red(on, pixelOf(-2.0f), row);
    const int sunlit = red(on, pixelOf(2.5f), row);
    EXPECT_GT(sunlit, 60);
    EXPECT_LT(shadowed * 2, sunlit) << "shadowed " << shadowed << ", sunlit " << sunlit;
    EXPECT_NEAR(red(off, pixelOf(-2.0f), row), red(off, pixelOf(2.5f), row), 3);
}

TEST_F(ShadowsRenderTest, SmokeShadowsItselfAwayFromTheSunOnBothRasterPaths) {
    FrameView view = sunlitGroundView();
    view.ground.enabled = false;
    // Lit puffs along one ray of the sun: the nearest to the sun is 2 m up the ray from the
    // farthest; seen from above they do not overlap.
    const vec3 toward_sun = normalize(vec3(1, 1, 0));
    const vec3 far_puff(-1.5f, 1, 0);
    std::vector<DrawRecord> records = {puff(far_puff + 3.5f * toward_sun, 1.2f, 0.9f),
                                       puff(far_puff, 1.2f, 0.9f)};
    const std::vector<DrawBatch> batches = {
        BillboardBatch{puffParams(true), kNoTexture, records, {}}};
    const uint32_t near_x = pixelOf(far_puff.x + 3.5f * toward_sun.x);
    const uint32_t far_x = pixelOf(far_puff.x);
    const uint32_t row = pixelOf(0.1f);
    const Image on = render(view, batches);
    view.shadows.enabled = false;
    const Image off = render(view, batches);
    const float near_ratio = float(red(on, near_x, row)) / float(red(off, near_x, row));
    const float far_ratio = float(red(on, far_x, row)) / float(red(off, far_x, row));
    EXPECT_LT(far_ratio, 0.75f) << "the far puff is in the near one's shadow";
    EXPECT_GT(near_ratio, far_ratio + 0.15f) << "near " << near_ratio << ", far " << far_ratio;

    view.shadows.enabled = true;
    view.raster = RasterPath::compute;
    const Image computed = render(view, batches);
    EXPECT_EQ(stats_.raster_batches, 1u);
    ASSERT_TRUE(test::redWithin(computed, on, 2));
}

// A spot light 4 m up at x = 4, shining at the origin (45 degrees down toward -x), with a wide
// cone, in a frame without sun: a 2 m box at the origin shadows the ground from x = -1 to about
// x = -6 around z = 0.
LightDesc shadowedSpot(bool shadows) {
    LightDesc l;
    l.type = LightKind::spot;
    l.position = {4, 4, 0};
    l.direction = {-1, -1, 0};
    l.inner_deg = 40;
    l.outer_deg = 60;
    l.range = 20;
    l.intensity = 60;
    l.shadows = shadows;
    return l;
}

FrameView spotView(std::span<const LightDesc> lights) {
    FrameView view = sunlitGroundView();
    view.sun.intensity = 0;
    view.ambient = {0.02f, 0.02f, 0.02f};
    view.lights = lights;
    return view;
}

TEST_F(ShadowsRenderTest, ASpotLightWithShadowsShadowsTheGroundBehindABox) {
    const std::vector<PrimitiveDesc> primitives = {
        PrimitiveDesc{PrimitiveKind::box, {0, 1, 0}, {2, 2, 2}, 1, {0.5f, 0.5f, 0.5f}}};
    // Ground cells of the same checker parity: behind the box (x -3.5, z 0.5) and beside its
    // shadow (x -3.5, z 3.5), about as far from the light and as lit without shadows.
    const uint32_t behind_x = pixelOf(-3.5f);
    const uint32_t row = pixelOf(0.5f);
    const uint32_t beside_row = pixelOf(3.5f);
    const std::vector<LightDesc> on_lights = {shadowedSpot(true)};
    FrameView view = spotView(on_lights);
    view.primitives = primitives;
    const Image on = render(view);
    EXPECT_EQ(stats_.local_shadows, 1u);
    EXPECT_EQ(stats_.local_shadows_dropped, 0u);
    EXPECT_EQ(stats_.shadow_cascades, 0u) << "no sun: no cascades";
    const int behind = red(on, behind_x, row);
    const int beside = red(on, behind_x, beside_row);
    EXPECT_GT(beside, 60);
    EXPECT_LT(behind * 2, beside) << "behind " << behind << ", beside " << beside;

    // The light's shadows off, or the scene's: the ground behind the box is lit as beside it.
    const std::vector<LightDesc> off_lights = {shadowedSpot(false)};
    view.lights = off_lights;
    const Image off = render(view);
    EXPECT_EQ(stats_.local_shadows, 0u);
    EXPECT_GT(float(red(off, behind_x, row)), 0.85f * float(red(off, behind_x, beside_row)));
    EXPECT_NEAR(red(off, behind_x, beside_row), beside, 2) << "only the shadow changes";
    view.lights = on_lights;
    view.shadows.enabled = false;
    const Image disabled = render(view);
    EXPECT_EQ(stats_.local_shadows, 0u);
    EXPECT_NEAR(red(disabled, behind_x, row), red(off, behind_x, row), 1);
}

TEST_F(ShadowsRenderTest, APointLightWithShadowsShadowsTheGroundBehindABox) {
    const std::vector<PrimitiveDesc> primitives = {
        PrimitiveDesc{PrimitiveKind::box, {0, 1, 0}, {2, 2, 2}, 1, {0.5f, 0.5f, 0.5f}}};
    // The spot's place, as a point light: its cube's -x and -y faces see the box and the ground
    // behind it (x -3.5, z 0.5) and beside its shadow (x -3.5, z 3.5).
    LightDesc light = shadowedSpot(true);
    light.type = LightKind::point;
    const uint32_t behind_x = pixelOf(-3.5f);
    const std::vector<LightDesc> on_lights = {light};
    FrameView view = spotView(on_lights);
    view.primitives = primitives;
    const Image on = render(view);
    EXPECT_EQ(stats_.local_shadows, 1u);
    const int behind = red(on, behind_x, pixelOf(0.5f));
    const int beside = red(on, behind_x, pixelOf(3.5f));
    EXPECT_GT(beside, 60);
    EXPECT_LT(behind * 2, beside) << "behind " << behind << ", beside " << beside;
    // Under the light, in front of the box (x 2.5, z 0.5; the +x side, another face): lit.
    light.shadows = false;
    const std::vector<LightDesc> off_lights = {light};
    view.lights = off_lights;
    const Image off = render(view);
    EXPECT_EQ(stats_.local_shadows, 0u);
    EXPECT_GT(float(red(off, behind_x, pixelOf(0.5f))), 0.85f * float(beside));
    EXPECT_NEAR(red(on, pixelOf(2.5f), pixelOf(0.5f)), red(off, pixelOf(2.5f), pixelOf(0.5f)), 2);
}

TEST_F(ShadowsRenderTest, ShadowedSpotsPastTheBoundAreCountedAndShadeUnshadowed) {
    std::vector<LightDesc> lights(kLocalShadowTiles + 2, shadowedSpot(true));
    for (LightDesc& l : lights) l.intensity = 10;
    render(spotView(lights));
    EXPECT_EQ(stats_.local_shadows, kLocalShadowTiles);
    EXPECT_EQ(stats_.local_shadows_dropped, 2u);
}

TEST_F(ShadowsRenderTest, ASpotsShadowLightsLitBillboardsAlikeOnBothRasterPaths) {
    const std::vector<PrimitiveDesc> primitives = {
        PrimitiveDesc{PrimitiveKind::box, {0, 1, 0}, {2, 2, 2}, 1, {0.5f, 0.5f, 0.5f}}};
    const std::vector<LightDesc> lights = {shadowedSpot(true)};
    FrameView view = spotView(lights);
    view.ground.enabled = false;
    view.primitives = primitives;
    // Lit puffs 0.3 m up: one in the box's shadow (x -3.5), one beside it (z 3.5).
    const std::vector<DrawRecord> records = {puff(vec3(-3.5f, 0.3f, 0), 1.0f, 0.9f),
                                             puff(vec3(-3.5f, 0.3f, 3.5f), 1.0f, 0.9f)};
    const std::vector<DrawBatch> batches = {
        BillboardBatch{puffParams(true), kNoTexture, records, {}}};
    const Image graphics = render(view, batches);
    const int shadowed = red(graphics, pixelOf(-3.5f), pixelOf(0.0f));
    const int lit = red(graphics, pixelOf(-3.5f), pixelOf(3.5f));
    EXPECT_LT(shadowed * 2, lit) << "shadowed " << shadowed << ", lit " << lit;
    view.raster = RasterPath::compute;
    const Image computed = render(view, batches);
    EXPECT_EQ(stats_.raster_batches, 1u);
    EXPECT_EQ(stats_.local_shadows, 1u);
    ASSERT_TRUE(test::redWithin(computed, graphics, 2));
}

// Unlit puffs of smoke (`records`, which the batch views), blended `blend`.
std::vector<DrawBatch> smoke(std::span<const DrawRecord> records, uint32_t blend = kBlendAlpha) {
    return {BillboardBatch{test::cameraFacingParams(blend), kNoTexture, records, {}}};
}

TEST_F(ShadowsRenderTest, SmokeDarkensTheGroundBehindItFromAShadowedSpotByItsTransmittance) {
    // The spot at (4, 4, 0) aims at the origin; a half-transparent puff 3 m wide, 2 m up on that
    // line (its image from above lies right of x 0.6) shadows the ground around the origin;
    // (x -0.5, z 0) sees the light through the puff's core.
    const std::vector<LightDesc> lights = {shadowedSpot(true)};
    const FrameView view = spotView(lights);
    const uint32_t x = pixelOf(-0.5f);
    const uint32_t row = pixelOf(0.0f);
    const Image clear = render(view);
    EXPECT_EQ(stats_.local_shadow_opacity_batches, 0u);
    // Alpha 0.5: the soft disc's core is (nearly) fully covered.
    const std::vector<DrawRecord> puffs = {puff(vec3(2, 2, 0), 3, 0.5f)};
    const Image smoky = render(view, smoke(puffs));
    EXPECT_EQ(stats_.local_shadows, 1u);
    EXPECT_EQ(stats_.local_shadow_opacity_batches, 1u);
    EXPECT_EQ(stats_.shadow_opacity_batches, 0u) << "no sun: no sun opacity map";
    const int lit = red(clear, x, row);
    const int shadowed = red(smoky, x, row);
    EXPECT_GT(lit, 60);
    // About what the light at half its intensity gives: transmittance 0.5 through the puff's
    // core (the soft disc a little under full coverage there: a little more light).
    std::vector<LightDesc> half = lights;
    half[0].intensity *= 0.5f;
    const Image dimmed = render(spotView(half));
    const int expected = red(dimmed, x, row);
    EXPECT_LT(shadowed, lit - 20) << "smoky " << shadowed << ", clear " << lit;
    EXPECT_NEAR(shadowed, expected, 8) << "smoky " << shadowed << ", half the light " << expected;
    // Beside the shadow (x -0.5, z 4.5): as without smoke.
    EXPECT_NEAR(red(smoky, x, pixelOf(4.5f)), red(clear, x, pixelOf(4.5f)), 2);

    // Additive smoke casts nothing; nor does any smoke into a light without shadows.
    const Image additive = render(view, smoke(puffs, kBlendAdditive));
    EXPECT_EQ(stats_.local_shadow_opacity_batches, 0u);
    EXPECT_NEAR(red(additive, x, row), lit, 1);
    const std::vector<LightDesc> unshadowed = {shadowedSpot(false)};
    const Image off = render(spotView(unshadowed), smoke(puffs));
    EXPECT_EQ(stats_.local_shadows, 0u);
    EXPECT_EQ(stats_.local_shadow_opacity_batches, 0u);
    EXPECT_NEAR(red(off, x, row), lit, 2);
}

TEST_F(ShadowsRenderTest, SmokeOnOneSideOfAShadowedPointLightDarkensThatSideOnly) {
    // A point light 4 m over the origin; a puff 1.5 m wide 2 m up at x 2.5 (its image from above
    // over x in about [2.2, 4.1]) in the cube's +x face shadows the ground around x 5; the ground
    // at x -5 (the -x face) mirrors x 5 without smoke.
    LightDesc light = shadowedSpot(true);
    light.type = LightKind::point;
    light.position = {0, 4, 0};
    const std::vector<LightDesc> lights = {light};
    const FrameView view = spotView(lights);
    const uint32_t row = pixelOf(0.0f);
    const uint32_t plus = pixelOf(5.0f);
    const uint32_t minus = pixelOf(-5.0f);
    const Image clear = render(view);
    const std::vector<DrawRecord> puffs = {puff(vec3(2.5f, 2, 0), 1.5f, 0.6f)};
    const Image smoky = render(view, smoke(puffs));
    EXPECT_EQ(stats_.local_shadows, 1u);
    EXPECT_EQ(stats_.local_shadow_opacity_batches, 1u);
    EXPECT_GT(red(clear, plus, row), 40);
    EXPECT_LT(red(smoky, plus, row), red(clear, plus, row) - 15)
        << "smoky " << red(smoky, plus, row) << ", clear " << red(clear, plus, row);
    EXPECT_GT(red(smoky, plus, row), 10) << "half-transparent smoke: not black";
    EXPECT_NEAR(red(smoky, minus, row), red(clear, minus, row), 1) << "the other side";
    EXPECT_NEAR(red(smoky, pixelOf(0.5f), pixelOf(5.5f)), red(clear, pixelOf(0.5f), pixelOf(5.5f)),
                1)
        << "the +z face";
}

TEST_F(ShadowsRenderTest, LitBillboardsBehindSmokeTakeTheSpotsOpacityShadowOnBothRasterPaths) {
    // Lit puffs 0.3 m up at x -0.5, no ground: one behind the spot's smoke puff, one beside it
    // (z 4.5); the smoke puff is not lit (a separate, earlier batch).
    const std::vector<LightDesc> lights = {shadowedSpot(true)};
    FrameView view = spotView(lights);
    view.ground.enabled = false;
    const std::vector<DrawRecord> lit_records = {puff(vec3(-0.5f, 0.3f, 0), 1.0f, 0.9f),
                                                 puff(vec3(-0.5f, 0.3f, 4.5f), 1.0f, 0.9f)};
    const std::vector<DrawRecord> smoke_records = {puff(vec3(2, 2, 0), 3, 0.5f)};
    const std::vector<DrawBatch> clear = {
        BillboardBatch{puffParams(true), kNoTexture, lit_records, {}}};
    const std::vector<DrawBatch> smoky = {
        BillboardBatch{puffParams(false), kNoTexture, smoke_records, {}},
        BillboardBatch{puffParams(true), kNoTexture, lit_records, {}}};
    const uint32_t x = pixelOf(-0.5f);
    const Image before = render(view, clear);
    const Image graphics = render(view, smoky);
    EXPECT_EQ(stats_.local_shadow_opacity_batches, 2u) << "the lit puffs are blended too";
    const int behind = red(graphics, x, pixelOf(0.0f));
    EXPECT_LT(behind, red(before, x, pixelOf(0.0f)) - 15)
        << "behind " << behind << ", without smoke " << red(before, x, pixelOf(0.0f));
    EXPECT_NEAR(red(graphics, x, pixelOf(4.5f)), red(before, x, pixelOf(4.5f)), 2);
    view.raster = RasterPath::compute;
    const Image computed = render(view, smoky);
    EXPECT_EQ(stats_.raster_batches, 2u);
    ASSERT_TRUE(test::redWithin(computed, graphics, 2));
}

TEST_F(ShadowsRenderTest, SettingsOutsideTheirRangesAreRefused) {
    FrameView view = sunlitGroundView();
    view.shadows.cascades = 0;
    Image image;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, stats_, d));
    ASSERT_FALSE(d.empty());
    EXPECT_NE(formatDiagnostic(d.back()).find("cascades"), std::string::npos);
}

} // namespace
} // namespace spindrift::render
