#include "render/shader/billboard.h"

#include <cmath>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

constexpr float kEps = 1.0e-5f;

void expectVec3Near(vec3 actual, vec3 expected, float tolerance = kEps) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

DrawRecord record(vec3 position, float size, vec3 velocity = vec3(0), float rotation = 0) {
    return sdDrawRecord(position, size, vec4(1), velocity, rotation, 0.5f, 0.0f, 0u, 0u);
}

BillboardParams params(uint alignment, vec3 axis = vec3(0, 1, 0), float stretch = 0) {
    BillboardParams p{};
    p.axis_stretch = vec4(axis, stretch);
    p.alignment = alignment;
    p.flipbook_frames = p.flipbook_columns = p.flipbook_rows = 1;
    return p;
}

// A camera on +Z looking at the origin: right +X, up +Y.
const vec3 kEye(0, 0, 10);
const vec3 kRight(1, 0, 0);
const vec3 kUp(0, 1, 0);

TEST(Billboard, SixCornersMakeTwoTrianglesCoveringTheQuad) {
    const vec2 expected[6] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (uint i = 0; i < 6; ++i) {
        EXPECT_EQ(sdQuadCorner(i), expected[i]) << "corner " << i;
    }
    EXPECT_EQ(sdQuadUv(vec2(-1, 1)), vec2(0, 0)); // the image's top-left at the quad's top-left
    EXPECT_EQ(sdQuadUv(vec2(1, -1)), vec2(1, 1));
}

TEST(Billboard, CameraAlignedQuadLiesInTheViewPlaneWithEdgeSize) {
    BillboardQuad q =
        sdBillboardQuad(record(vec3(1, 2, 3), 0.5f), params(kAlignCamera), kEye, kRight, kUp);
    expectVec3Near(q.center, vec3(1, 2, 3));
    expectVec3Near(q.half_x, vec3(0.25f, 0, 0));
    expectVec3Near(q.half_y, vec3(0, 0.25f, 0));
    expectVec3Near(sdQuadPoint(q, vec2(1, 1)), vec3(1.25f, 2.25f, 3));
}

TEST(Billboard, RotationTurnsTheQuadCounterClockwiseAsSeen) {
    BillboardQuad q = sdBillboardQuad(record(vec3(0), 2.0f, vec3(0), kHalfPi), params(kAlignCamera),
                                      kEye, kRight, kUp);
    expectVec3Near(q.half_x, vec3(0, 1, 0));  // +x turned to +y
    expectVec3Near(q.half_y, vec3(-1, 0, 0)); // +y turned to -x
}

TEST(Billboard, VelocityStretchAlignsTheLongAxisWithVelocity) {
    // speed 4 m/s, stretch 0.5 s: length size + 2 = 3, width 1.
    BillboardQuad q =
        sdBillboardQuad(record(vec3(0), 1.0f, vec3(4, 0, 0), 1.0f),
                        params(kAlignVelocityStretch, vec3(0, 1, 0), 0.5f), kEye, kRight, kUp);
    expectVec3Near(q.half_y, vec3(1.5f, 0, 0)); // rotation ignored: the streak follows velocity
    EXPECT_NEAR(length(q.half_x), 0.5f, kEps);
    EXPECT_NEAR(dot(q.half_x, vec3(1, 0, 0)), 0.0f, kEps);
    EXPECT_NEAR(dot(q.half_x, kEye - q.center), 0.0f, kEps); // side axis faces the camera
}

TEST(Billboard, VelocityStretchFacesTheCameraWhenAtRest) {
    BillboardParams p = params(kAlignVelocityStretch, vec3(0, 1, 0), 0.5f);
    BillboardQuad q = sdBillboardQuad(record(vec3(0), 1.0f, vec3(0), 0.0f), p, kEye, kRight, kUp);
    expectVec3Near(q.half_x, vec3(0.5f, 0, 0));
    expectVec3Near(q.half_y, vec3(0, 0.5f, 0));
}

TEST(Billboard, VelocityTowardTheEyeStillGivesAFiniteQuad) {
    BillboardQuad q =
        sdBillboardQuad(record(vec3(0), 1.0f, vec3(0, 0, 3)),
                        params(kAlignVelocityStretch, vec3(0, 1, 0), 0.1f), kEye, kRight, kUp);
    EXPECT_NEAR(length(q.half_x), 0.5f, kEps);
    EXPECT_NEAR(dot(q.half_x, q.half_y), 0.0f, kEps);
}

TEST(Billboard, AxisAlignmentKeepsTheAxisAndTurnsTowardTheCamera) {
    vec3 eye(5, 0, 5);
    BillboardQuad q =
        sdBillboardQuad(record(vec3(0), 2.0f), params(kAlignAxis, vec3(0, 1, 0)), eye, kRight, kUp);
    expectVec3Near(q.half_y, vec3(0, 1, 0));
    EXPECT_NEAR(length(q.half_x), 1.0f, kEps);
    EXPECT_NEAR(dot(q.half_x, eye), 0.0f, kEps); // the quad's plane contains the view direction
    EXPECT_NEAR(dot(q.half_x, vec3(0, 1, 0)), 0.0f, kEps);
}

TEST(Billboard, FixedAlignmentIsADecalWithTheAxisAsNormal) {
    BillboardQuad q = sdBillboardQuad(record(vec3(0), 2.0f), params(kAlignFixed, vec3(0, 1, 0)),
                                      kEye, kRight, kUp);
    expectVec3Near(q.half_x, vec3(1, 0, 0));
    expectVec3Near(q.half_y, vec3(0, 0, -1));
    expectVec3Near(normalize(cross(q.half_x, q.half_y)), vec3(0, 1, 0));

    // A wall decal facing +Z keeps its up along +Y; rotation turns it in its plane.
    q = sdBillboardQuad(record(vec3(0), 2.0f, vec3(0), kHalfPi), params(kAlignFixed, vec3(0, 0, 1)),
                        kEye, kRight, kUp);
    expectVec3Near(q.half_x, vec3(0, 1, 0));
    expectVec3Near(q.half_y, vec3(-1, 0, 0));
}

TEST(Billboard, FacingPointsToTheEyeFromEitherSide) {
    BillboardQuad q = sdBillboardQuad(record(vec3(0), 2.0f), params(kAlignFixed, vec3(0, 0, 1)),
                                      kEye, kRight, kUp);
    expectVec3Near(sdQuadFacing(q, vec3(0, 0, 10)), vec3(0, 0, 1));
    expectVec3Near(sdQuadFacing(q, vec3(0, 0, -10)), vec3(0, 0, -1));
}

TEST(Billboard, SphereNormalBulgesTowardTheViewer) {
    vec3 x(1, 0, 0), y(0, 1, 0), f(0, 0, 1);
    expectVec3Near(sdBillboardSphereNormal(vec2(0, 0), x, y, f), f);
    expectVec3Near(sdBillboardSphereNormal(vec2(1, 0), x, y, f), x);
    expectVec3Near(sdBillboardSphereNormal(vec2(0, -1), x, y, f), -y);
    vec3 n = sdBillboardSphereNormal(vec2(0.6f, 0), x, y, f);
    expectVec3Near(n, vec3(0.6f, 0, 0.8f));
    expectVec3Near(sdBillboardSphereNormal(vec2(3, 0), x, y, f), x); // outside: the rim
}

TEST(Billboard, SoftDiscFallsSmoothlyFromCentreToEdge) {
    EXPECT_EQ(sdSoftDisc(vec2(0, 0)), 1.0f);
    EXPECT_NEAR(sdSoftDisc(vec2(0.5f, 0)), 0.5625f, kEps);
    EXPECT_EQ(sdSoftDisc(vec2(1, 0)), 0.0f);
    EXPECT_EQ(sdSoftDisc(vec2(1, 1)), 0.0f);
    float previous = 2.0f;
    for (float r = 0.0f; r <= 1.0f; r += 0.05f) {
        float d = sdSoftDisc(vec2(r * 0.6f, r * 0.8f));
        EXPECT_LE(d, previous);
        previous = d;
    }
    EXPECT_EQ(sdSoftDiscTexel(vec2(0.5f, 0), kBlendAlpha), vec4(1, 1, 1, 0.5625f));
    EXPECT_EQ(sdSoftDiscTexel(vec2(0.5f, 0), kBlendPremultiplied), vec4(0.5625f));
}

TEST(Billboard, FlipbookFramesBlendTowardTheNextAndWrap) {
    FlipbookSample s = sdFlipbookSample(2.0f, 4u, true);
    EXPECT_EQ(s.frame0, 2u);
    EXPECT_EQ(s.frame1, 3u);
    EXPECT_EQ(s.blend, 0.0f);
    s = sdFlipbookSample(0.5f, 4u, true);
    EXPECT_EQ(s.frame0, 0u);
    EXPECT_EQ(s.frame1, 1u);
    EXPECT_FLOAT_EQ(s.blend, 0.5f);
    s = sdFlipbookSample(3.25f, 4u, true); // the last frame blends into frame 0
    EXPECT_EQ(s.frame0, 3u);
    EXPECT_EQ(s.frame1, 0u);
    EXPECT_FLOAT_EQ(s.blend, 0.25f);
    s = sdFlipbookSample(0.5f, 4u, false); // no blending: the whole frame
    EXPECT_EQ(s.frame0, 0u);
    EXPECT_EQ(s.blend, 0.0f);
    s = sdFlipbookSample(-3.0f, 4u, true); // out of range is clamped
    EXPECT_EQ(s.frame0, 0u);
    EXPECT_EQ(s.blend, 0.0f);
    s = sdFlipbookSample(1.0e9f, 4u, false);
    EXPECT_EQ(s.frame0, 3u);
    s = sdFlipbookSample(0.7f, 1u, true); // one frame blends with itself
    EXPECT_EQ(s.frame0, 0u);
    EXPECT_EQ(s.frame1, 0u);
}

TEST(Billboard, FlipbookCellsRunLeftToRightThenTopToBottom) {
    vec2 size(1024, 1024); // big cells: the half-texel inset is negligible here
    vec2 uv = sdFlipbookCellUv(vec2(0.5f), 0u, 4u, 2u, size);
    EXPECT_NEAR(uv.x, 0.125f, kEps);
    EXPECT_NEAR(uv.y, 0.25f, kEps);
    uv = sdFlipbookCellUv(vec2(0.5f), 5u, 4u, 2u, size); // column 1, row 1
    EXPECT_NEAR(uv.x, 0.375f, kEps);
    EXPECT_NEAR(uv.y, 0.75f, kEps);
    uv = sdFlipbookCellUv(vec2(0.0f), 3u, 4u, 2u, size);
    EXPECT_NEAR(uv.x, 0.75f + 0.5f / 1024.0f, kEps); // kept half a texel inside the cell
    EXPECT_NEAR(uv.y, 0.5f / 1024.0f, kEps);
    uv = sdFlipbookCellUv(vec2(0.0f), 99u, 4u, 2u, size); // past the last cell: the last cell
    EXPECT_NEAR(uv.x, 0.75f + 0.5f / 1024.0f, kEps);
    EXPECT_NEAR(uv.y, 0.5f + 0.5f / 1024.0f, kEps);
}

TEST(Billboard, FlipbookOneTexelCellsSampleTheTexelCentre) {
    // A 2x2 atlas of 1-texel cells: any uv in a cell lands on that texel's centre.
    vec2 uv = sdFlipbookCellUv(vec2(0.1f, 0.9f), 1u, 2u, 2u, vec2(2, 2));
    EXPECT_NEAR(uv.x, 0.75f, kEps);
    EXPECT_NEAR(uv.y, 0.25f, kEps);
}

TEST(Billboard, SoftFadeRampsOverTheDistance) {
    EXPECT_EQ(sdSoftFade(10.0f, 10.0f, 0.5f), 0.0f);
    EXPECT_FLOAT_EQ(sdSoftFade(10.0f, 9.75f, 0.5f), 0.5f);
    EXPECT_EQ(sdSoftFade(10.0f, 5.0f, 0.5f), 1.0f);
    EXPECT_EQ(sdSoftFade(10.0f, 11.0f, 0.5f), 0.0f); // behind the surface
    EXPECT_EQ(sdSoftFade(10.0f, 10.0f, 0.0f), 1.0f); // off
}

TEST(Billboard, OutputsGiveEachBlendModesArithmetic) {
    vec4 texel(0.5f, 0.5f, 0.5f, 0.5f);
    vec4 tint(1.0f, 0.5f, 0.25f, 0.8f);
    // additive: ONE, ONE on the premultiplied texel times the tint, its alpha and the fade
    vec4 add = sdBillboardOutput(texel, tint, kBlendAdditive, 0.5f);
    EXPECT_FLOAT_EQ(add.w, 0.2f);
    EXPECT_FLOAT_EQ(add.x, 0.5f * 0.4f);
    EXPECT_FLOAT_EQ(add.y, 0.25f * 0.4f);
    // alpha: straight colour, SRC_ALPHA does the multiply
    vec4 alpha = sdBillboardOutput(texel, tint, kBlendAlpha, 0.5f);
    EXPECT_EQ(alpha, vec4(0.5f, 0.25f, 0.125f, 0.2f));
    // premultiplied: the texel's colour is already times its alpha; tint and fade scale all four
    vec4 pre = sdBillboardOutput(texel, tint, kBlendPremultiplied, 0.5f);
    EXPECT_FLOAT_EQ(pre.x, 0.5f * 0.4f);
    EXPECT_FLOAT_EQ(pre.y, 0.25f * 0.4f);
    EXPECT_FLOAT_EQ(pre.w, 0.2f);
}

TEST(Billboard, TextureLodIsLog2OfTexelsPerPixel) {
    // 100 pixels per metre at 1 m: a 1 m quad 1 m away covers 100 pixels.
    EXPECT_NEAR(sdBillboardTextureLod(vec2(100.0f), vec2(1.0f), 1.0f, 100.0f), 0.0f, 1e-4f);
    EXPECT_NEAR(sdBillboardTextureLod(vec2(100.0f), vec2(1.0f), 4.0f, 100.0f), 2.0f, 1e-4f);
    EXPECT_NEAR(sdBillboardTextureLod(vec2(400.0f), vec2(1.0f), 2.0f, 100.0f), 3.0f, 1e-4f);
    // Magnified: level 0, never below.
    EXPECT_EQ(sdBillboardTextureLod(vec2(16.0f), vec2(1.0f), 1.0f, 100.0f), 0.0f);
    // A zero-size quad or depth gives a finite level, not NaN.
    EXPECT_TRUE(std::isfinite(sdBillboardTextureLod(vec2(64.0f), vec2(0.0f), 0.0f, 100.0f)));
}

// A stretched quad follows its less minified axis, until the other is more than
// kBillboardMaxAnisotropy times more minified.
TEST(Billboard, TextureLodCapsTheAnisotropy) {
    // x: 100 texels over 100 pixels, y 4x more minified: the level of x (0).
    EXPECT_NEAR(sdBillboardTextureLod(vec2(100.0f), vec2(1.0f, 0.25f), 1.0f, 100.0f), 0.0f, 1e-4f);
    // y 32x more minified: the level of y / 8 (log2(32 / 8) = 2).
    EXPECT_NEAR(sdBillboardTextureLod(vec2(100.0f), vec2(1.0f, 1.0f / 32.0f), 1.0f, 100.0f), 2.0f,
                1e-4f);
}

// A cell keeps 4 texels along its shorter side at the coarsest level.
TEST(Billboard, TheLodClampKeepsFourTexelsACell) {
    EXPECT_EQ(sdBillboardMaxLod(vec2(64.0f)), 4.0f);
    EXPECT_EQ(sdBillboardMaxLod(vec2(96.0f, 128.0f)), 4.0f); // floor(log2(96)) = 6
    EXPECT_EQ(sdBillboardMaxLod(vec2(8.0f)), 1.0f);
    EXPECT_EQ(sdBillboardMaxLod(vec2(4.0f)), 0.0f);
    EXPECT_EQ(sdBillboardMaxLod(vec2(1.0f)), 0.0f);
}

} // namespace
} // namespace spindrift
