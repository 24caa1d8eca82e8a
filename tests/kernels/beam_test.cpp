// The beam polyline: it starts and ends where authored, hangs by sag in the middle, jitters
// sideways within jitter (never at the ends), and is the same for the same particle and cycle.
#include "kernels/beam.h"

#include <cstring>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

constexpr float kBeamEps = 1.0e-5f;

void expectBeamVec3Near(vec3 actual, vec3 expected, float tolerance = kBeamEps) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

BeamCurve curve(vec3 start, vec3 end, vec3 start_tangent, vec3 end_tangent, uint segments,
                float width, float sag, float jitter, float frequency) {
    BeamCurve c{};
    c.start_width = vec4(start, width);
    c.control1_sag = vec4(start + start_tangent, sag);
    c.control2_jitter = vec4(end + end_tangent, jitter);
    c.end_frequency = vec4(end, frequency);
    c.segments = segments;
    return c;
}

// A bent, sagging, jittering beam.
const BeamCurve kBolt = curve(vec3(0, 6, 0), vec3(0.8f, 0, 0.4f), vec3(0.3f, -2, 0),
                              vec3(-0.3f, 2, 0), 48, 0.06f, 0.5f, 0.3f, 30);

bool samePoint(const StripPoint& a, const StripPoint& b) {
    return std::memcmp(&a, &b, sizeof(StripPoint)) == 0;
}

TEST(Beam, BezierRunsThroughItsEndsAndFollowsItsControlPoints) {
    const vec3 p0(0, 0, 0), p1(1, 2, 0), p2(3, 2, 0), p3(4, 0, 0);
    EXPECT_EQ(sdBezier(p0, p1, p2, p3, 0.0f), p0);
    EXPECT_EQ(sdBezier(p0, p1, p2, p3, 1.0f), p3);
    expectBeamVec3Near(sdBezier(p0, p1, p2, p3, 0.5f),
                       vec3(2, 1.5f, 0)); // (p0 + 3p1 + 3p2 + p3) / 8
    expectBeamVec3Near(sdBezierDerivative(p0, p1, p2, p3, 0.0f), 3.0f * (p1 - p0));
    expectBeamVec3Near(sdBezierDerivative(p0, p1, p2, p3, 1.0f), 3.0f * (p3 - p2));
}

TEST(Beam, StartsAndEndsExactlyWhereAuthoredWhateverTheJitter) {
    for (uint key : {1u, 77u, 0xdeadbeefu}) {
        for (uint cycle : {0u, 5u, 1000u}) {
            EXPECT_EQ(sdBeamPosition(kBolt, key, cycle, 0), vec3(kBolt.start_width));
            EXPECT_EQ(sdBeamPosition(kBolt, key, cycle, kBolt.segments), vec3(kBolt.end_frequency));
        }
    }
}

TEST(Beam, SagLowersTheMiddleByTheSag) {
    // A straight line (no tangents) between two points at the same height, no jitter.
    const BeamCurve c =
        curve(vec3(-2, 3, 1), vec3(2, 3, 1), vec3(0), vec3(0), 16, 0.1f, 0.75f, 0.0f, 10.0f);
    expectBeamVec3Near(sdBeamPosition(c, 9u, 0u, 8u), vec3(0, 3 - 0.75f, 1));
    // A parabola 4 sag t (1 - t): a quarter of the way along it hangs 3/4 of the sag.
    EXPECT_NEAR(sdBeamPosition(c, 9u, 0u, 4u).y, 3 - 0.75f * 0.75f, kBeamEps);
    // Without sag the line is straight.
    BeamCurve flat = c;
    flat.control1_sag.w = 0;
    for (uint i = 0; i <= 16; ++i) EXPECT_NEAR(sdBeamPosition(flat, 9u, 0u, i).y, 3.0f, kBeamEps);
}

TEST(Beam, JitterIsSidewaysBoundedAndZeroAtTheEnds) {
    const float jitter = kBolt.control2_jitter.w;
    float largest = 0;
    for (uint key = 0; key < 20; ++key) {
        for (uint i = 0; i <= kBolt.segments; ++i) {
            const float t = float(i) / float(kBolt.segments);
            const vec3 offset = sdBeamPosition(kBolt, key, 3u, i) - sdBeamCentre(kBolt, t);
            const float distance = length(offset);
            EXPECT_LE(distance, jitter * sdBeamJitterEnvelope(t) + kBeamEps) << key << " " << i;
            EXPECT_NEAR(dot(offset, normalize(sdBeamCentreDerivative(kBolt, t))), 0.0f, 1e-4f)
                << "sideways: perpendicular to the curve";
            largest = std::max(largest, distance);
        }
    }
    EXPECT_GT(largest, 0.8f * jitter) << "the jitter reaches close to its radius";
    EXPECT_EQ(sdBeamJitterEnvelope(0.0f), 0.0f);
    EXPECT_EQ(sdBeamJitterEnvelope(1.0f), 0.0f);
    EXPECT_EQ(sdBeamJitterEnvelope(0.5f), 1.0f);
}

TEST(Beam, JitterIsAFunctionOfKeyCycleAndPoint) {
    const uint middle = kBolt.segments / 2;
    EXPECT_EQ(sdBeamPosition(kBolt, 5u, 2u, middle), sdBeamPosition(kBolt, 5u, 2u, middle));
    EXPECT_NE(sdBeamPosition(kBolt, 5u, 2u, middle), sdBeamPosition(kBolt, 6u, 2u, middle))
        << "another particle draws another arc";
    EXPECT_NE(sdBeamPosition(kBolt, 5u, 2u, middle), sdBeamPosition(kBolt, 5u, 3u, middle))
        << "the next cycle draws anew";
    EXPECT_NE(sdBeamJitterKey(5u, 2u, 10u), sdBeamJitterKey(5u, 2u, 11u));
}

TEST(Beam, JitterCycleCountsWholePeriods) {
    EXPECT_EQ(sdBeamJitterCycle(0.0f, 30.0f), 0u);
    EXPECT_EQ(sdBeamJitterCycle(0.5f, 10.0f), 5u);
    EXPECT_EQ(sdBeamJitterCycle(0.59f, 10.0f), 5u);
    EXPECT_EQ(sdBeamJitterCycle(100.0f, 0.0f), 0u) << "a frequency of 0 never changes";
    EXPECT_EQ(sdBeamJitterCycle(-1.0f, 10.0f), 0u);
}

TEST(Beam, PointsCarryWidthColourUnitTangentAndU) {
    const vec4 color(2, 2.4f, 4, 0.5f);
    const uint n = kBolt.segments;
    for (uint i = 0; i <= n; ++i) {
        const StripPoint p = sdBeamPoint(kBolt, 11u, 4u, i, color);
        EXPECT_EQ(vec3(p.position_width), sdBeamPosition(kBolt, 11u, 4u, i));
        EXPECT_EQ(p.position_width.w, kBolt.start_width.w);
        EXPECT_EQ(p.color, color);
        EXPECT_NEAR(length(vec3(p.tangent_u)), 1.0f, kBeamEps);
        EXPECT_FLOAT_EQ(p.tangent_u.w, float(i) / float(n));
        if (i > 0 && i < n) {
            // The average of the neighbouring segments' unit directions.
            const vec3 before =
                normalize(vec3(p.position_width) - sdBeamPosition(kBolt, 11u, 4u, i - 1));
            const vec3 after =
                normalize(sdBeamPosition(kBolt, 11u, 4u, i + 1) - vec3(p.position_width));
            expectBeamVec3Near(vec3(p.tangent_u), normalize(before + after));
        }
    }
    // The ends take their one segment's direction.
    const vec3 first = normalize(sdBeamPosition(kBolt, 11u, 4u, 1) - vec3(kBolt.start_width));
    expectBeamVec3Near(vec3(sdBeamPoint(kBolt, 11u, 4u, 0, color).tangent_u), first);
    EXPECT_TRUE(
        samePoint(sdBeamPoint(kBolt, 11u, 4u, 7, color), sdBeamPoint(kBolt, 11u, 4u, 7, color)));
}

TEST(Beam, DegenerateBeamStaysFinite) {
    // Start = end, no tangents, one segment: every point is the start, tangents stay finite.
    const BeamCurve c =
        curve(vec3(1, 1, 1), vec3(1, 1, 1), vec3(0), vec3(0), 1, 0.1f, 0.0f, 0.5f, 1.0f);
    for (uint i = 0; i <= 1; ++i) {
        const StripPoint p = sdBeamPoint(c, 3u, 0u, i, vec4(1));
        EXPECT_EQ(vec3(p.position_width), vec3(1, 1, 1));
        EXPECT_NEAR(length(vec3(p.tangent_u)), 1.0f, kBeamEps);
    }
    BeamCurve zero_segments = c;
    zero_segments.segments = 0; // treated as 1
    EXPECT_EQ(sdBeamPosition(zero_segments, 3u, 0u, 1), vec3(1, 1, 1));
}

} // namespace
} // namespace spindrift
