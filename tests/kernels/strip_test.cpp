// The strip kernels: where a segment's corners go (each end on its own point's edge, full width,
// facing the camera), what the fragment stage derives (texture coordinates, the soft band, the
// tube normal).
#include "render/shader/strip_draw.h"

#include <cstring>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

constexpr float kStripEps = 1.0e-5f;

void expectStripVec3Near(vec3 actual, vec3 expected, float tolerance = kStripEps) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

// A camera on +Z looking at the origin: right +X, up +Y.
const vec3 kStripEye(0, 0, 10);
const vec3 kStripRight(1, 0, 0);
const vec3 kStripUp(0, 1, 0);
const vec3 kForward(0, 0, -1);

StripPoint point(vec3 position, float width, vec3 tangent, float u = 0, vec4 color = vec4(1)) {
    StripPoint p;
    p.position_width = vec4(position, width);
    p.color = color;
    p.tangent_u = vec4(tangent, u);
    return p;
}

bool sameBits(vec3 a, vec3 b) {
    return std::memcmp(&a, &b, sizeof(vec3)) == 0;
}

TEST(Strip, SideIsPerpendicularToTheTangentAndTheEye) {
    const vec3 position(1, 2, 0);
    const vec3 tangent = normalize(vec3(1, 0.5f, -0.3f));
    const vec3 side = sdStripSide(position, tangent, kStripEye, kStripRight, kStripUp);
    EXPECT_NEAR(length(side), 1.0f, kStripEps);
    EXPECT_NEAR(dot(side, tangent), 0.0f, kStripEps);
    EXPECT_NEAR(dot(side, kStripEye - position), 0.0f, kStripEps);
    // A horizontal strip seen from the front: its side is vertical.
    expectStripVec3Near(abs(sdStripSide(vec3(0), kStripRight, kStripEye, kStripRight, kStripUp)),
                        vec3(0, 1, 0));
}

TEST(Strip, SideFallsBackWhenTheTangentPointsAtTheEyeOrIsZero) {
    // Tangent straight at the eye: built from the camera's up instead, still across the tangent.
    const vec3 at_eye = sdStripSide(vec3(0), vec3(0, 0, 1), kStripEye, kStripRight, kStripUp);
    EXPECT_NEAR(length(at_eye), 1.0f, kStripEps);
    EXPECT_NEAR(dot(at_eye, vec3(0, 0, 1)), 0.0f, kStripEps);
    EXPECT_NEAR(dot(at_eye, kStripUp), 0.0f, kStripEps);
    // Coincident points (no tangent): the camera's right.
    EXPECT_EQ(sdStripSide(vec3(0), vec3(0), kStripEye, kStripRight, kStripUp), kStripRight);
}

TEST(Strip, CornersSitOnTheEdgesOfTheirOwnEnd) {
    const StripPoint a = point(vec3(-1, 0, 0), 0.4f, kStripRight, 0.0f, vec4(1, 0, 0, 1));
    const StripPoint b = point(vec3(1, 0, 0), 0.2f, kStripRight, 0.5f, vec4(0, 0, 1, 1));
    for (uint corner = 0; corner < kStripVerticesPerSegment; ++corner) {
        const vec2 c = sdQuadCorner(corner);
        const StripVertex v =
            sdStripVertex(a, b, corner, kStripEye, kStripRight, kStripUp, kForward, 0.0f);
        const StripPoint& end = c.x > 0 ? b : a;
        // The side of a +X strip seen from +Z is +-Y; the vertex is half the width off the line.
        EXPECT_NEAR(v.position.x, end.position_width.x, kStripEps) << corner;
        EXPECT_NEAR(std::abs(v.position.y), 0.5f * end.position_width.w, kStripEps) << corner;
        EXPECT_EQ(v.across, c.y) << corner;
        EXPECT_EQ(v.u, end.tangent_u.w) << corner;
        EXPECT_EQ(v.color, end.color) << corner;
        expectStripVec3Near(v.position, vec3(end.position_width) +
                                            v.side * (0.5f * end.position_width.w * c.y));
        expectStripVec3Near(v.facing, vec3(0, 0, 1));
    }
    // The two edges are on opposite sides of the line.
    const StripVertex lower =
        sdStripVertex(a, b, 0, kStripEye, kStripRight, kStripUp, kForward, 0.0f);
    const StripVertex upper =
        sdStripVertex(a, b, 5, kStripEye, kStripRight, kStripUp, kForward, 0.0f);
    EXPECT_NEAR(length(upper.position - lower.position), 0.4f, kStripEps) << "the full width";
}

TEST(Strip, NeighbouringSegmentsShareTheEdgeAtTheirCommonPoint) {
    // A bend: a -> b -> c, b's tangent the average of the two directions.
    const StripPoint a = point(vec3(-2, -1, 0), 0.3f, normalize(vec3(1, 1, 0)));
    const StripPoint b = point(vec3(0, 0, 0.5f), 0.3f, normalize(vec3(1, 0.5f, -0.1f)));
    const StripPoint c = point(vec3(2, 0, 0), 0.3f, kStripRight);
    for (float edge : {-1.0f, 1.0f}) {
        // End +1 of segment (a, b) and end -1 of segment (b, c) at the same edge.
        uint end_of_first = edge > 0 ? 2u : 1u;    // corners (1, 1) and (1, -1)
        uint start_of_second = edge > 0 ? 5u : 0u; // corners (-1, 1) and (-1, -1)
        const StripVertex v1 =
            sdStripVertex(a, b, end_of_first, kStripEye, kStripRight, kStripUp, kForward, 0.0f);
        const StripVertex v2 =
            sdStripVertex(b, c, start_of_second, kStripEye, kStripRight, kStripUp, kForward, 0.0f);
        EXPECT_TRUE(sameBits(v1.position, v2.position)) << "edge " << edge;
    }
}

TEST(Strip, BandsThinnerThanAPixelAreWidenedWithTheirAlphaScaled) {
    EXPECT_EQ(sdStripDrawnWidth(0.5f, 10.0f), vec2(0.5f, 1.0f)) << "5 px: as authored";
    EXPECT_EQ(sdStripDrawnWidth(0.05f, 10.0f), vec2(0.1f, 0.5f))
        << "half a pixel: 1 px, half alpha";
    EXPECT_EQ(sdStripDrawnWidth(0.0f, 10.0f), vec2(0.1f, 0.0f));
    EXPECT_EQ(sdStripDrawnWidth(0.05f, 0.0f), vec2(0.05f, 1.0f)) << "no scale: no minimum";
    // At 10 m in front of the eye with 100 px per metre at 1 m: 10 px per metre there, so a
    // 2 cm band is drawn 10 cm wide at a fifth of its alpha.
    const StripPoint a = point(vec3(-1, 0, 0), 0.02f, kStripRight, 0.0f, vec4(1, 1, 1, 0.5f));
    const StripPoint b = point(vec3(1, 0, 0), 0.02f, kStripRight);
    const StripVertex lower =
        sdStripVertex(a, b, 0, kStripEye, kStripRight, kStripUp, kForward, 100.0f);
    const StripVertex upper =
        sdStripVertex(a, b, 5, kStripEye, kStripRight, kStripUp, kForward, 100.0f);
    EXPECT_NEAR(length(upper.position - lower.position), 0.1f, kStripEps);
    EXPECT_NEAR(lower.color.w, 0.1f, kStripEps);
    EXPECT_EQ(vec3(lower.color), vec3(1));
}

TEST(Strip, TextureCoordinatesRunAlongAndAcross) {
    EXPECT_EQ(sdStripUv(0.25f, 1.0f), vec2(0.25f, 0.0f)); // the image's top row on the +1 edge
    EXPECT_EQ(sdStripUv(0.25f, -1.0f), vec2(0.25f, 1.0f));
    EXPECT_EQ(sdStripUv(2.75f, 0.0f), vec2(0.75f, 0.5f)); // u repeats
}

TEST(Strip, UntexturedBandIsBrightOnItsLineAndFadesToTheEdges) {
    EXPECT_EQ(sdSoftBandTexel(0.0f, kBlendAdditive), vec4(1, 1, 1, 1));
    EXPECT_EQ(sdSoftBandTexel(1.0f, kBlendAdditive), vec4(0, 0, 0, 0));
    EXPECT_EQ(sdSoftBandTexel(-1.0f, kBlendAlpha), vec4(1, 1, 1, 0));
    const vec4 half = sdSoftBandTexel(0.5f, kBlendAlpha);
    EXPECT_NEAR(half.w, 0.5625f, kStripEps); // (1 - 0.25)^2
    EXPECT_EQ(half.x, 1.0f) << "straight alpha for alpha blending";
}

TEST(Strip, LitNormalIsATubeAroundTheLine) {
    const vec3 side(0, 1, 0);
    const vec3 facing(0, 0, 1);
    expectStripVec3Near(sdStripNormal(0.0f, side, facing), facing);
    expectStripVec3Near(sdStripNormal(1.0f, side, facing), side);
    expectStripVec3Near(sdStripNormal(-1.0f, side, facing), -side);
    expectStripVec3Near(sdStripNormal(0.6f, side, facing), vec3(0, 0.6f, 0.8f));
    // Facing has no component along the tangent and points to the eye's side.
    const vec3 f = sdStripFacing(vec3(0), normalize(vec3(1, 0, -1)), kStripEye);
    EXPECT_NEAR(dot(f, normalize(vec3(1, 0, -1))), 0.0f, kStripEps);
    EXPECT_GT(dot(f, kStripEye), 0.0f);
}

} // namespace
} // namespace spindrift
