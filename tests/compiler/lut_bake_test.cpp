#include "compiler/lut_bake.h"

#include <gtest/gtest.h>

#include "compiler/sample_effects.h"

namespace spindrift {
namespace {

using test::curve;
using test::gradient;

TEST(LutBake, TexelTimesSpanZeroToOne) {
    EXPECT_EQ(lutTexelTime(0), 0.0f);
    EXPECT_EQ(lutTexelTime(kLutWidth - 1), 1.0f);
    EXPECT_FLOAT_EQ(lutTexelTime(21), 21.0f / 63.0f);
}

TEST(LutBake, LinearCurveInterpolatesBetweenKeys) {
    const Curve c = curve(Interpolation::linear, {{0, 0}, {0.5f, 1}, {1, 3}});
    EXPECT_FLOAT_EQ(evaluateCurve(c, 0.25f), 0.5f);
    EXPECT_FLOAT_EQ(evaluateCurve(c, 0.75f), 2.0f);
    EXPECT_FLOAT_EQ(evaluateCurve(c, 0.5f), 1.0f);
    const LutRow row = bakeCurve(c, 1.0f);
    EXPECT_FLOAT_EQ(row[0].x, 0.0f);
    EXPECT_FLOAT_EQ(row[63].x, 3.0f);
    // Texel 16 is t = 16/63 < 0.5: value 2 * t.
    EXPECT_FLOAT_EQ(row[16].x, 2.0f * 16.0f / 63.0f);
    EXPECT_EQ(row[16].y, 0.0f);
    EXPECT_EQ(row[16].w, 0.0f);
}

TEST(LutBake, SmoothCurveIsSmoothstepBetweenKeys) {
    const Curve c = curve(Interpolation::smooth, {{0, 0}, {1, 1}});
    EXPECT_FLOAT_EQ(evaluateCurve(c, 0.5f), 0.5f);
    EXPECT_FLOAT_EQ(evaluateCurve(c, 0.25f), 0.25f * 0.25f * (3 - 0.5f)); // 0.15625
    EXPECT_LT(evaluateCurve(c, 0.1f), 0.1f);                              // flat tangent at the key
}

TEST(LutBake, StepCurveHoldsTheLeftKey) {
    const Curve c = curve(Interpolation::step, {{0, 1}, {0.5f, 2}});
    EXPECT_EQ(evaluateCurve(c, 0.49f), 1.0f);
    EXPECT_EQ(evaluateCurve(c, 0.5f), 2.0f);
    const LutRow row = bakeCurve(c, 1.0f);
    EXPECT_EQ(row[31].x, 1.0f); // 31/63 < 0.5
    EXPECT_EQ(row[32].x, 2.0f); // 32/63 > 0.5
}

TEST(LutBake, CurveHoldsEndValuesOutsideItsKeys) {
    const Curve c = curve(Interpolation::linear, {{0.25f, 2}, {0.75f, 4}});
    EXPECT_EQ(evaluateCurve(c, 0.0f), 2.0f);
    EXPECT_EQ(evaluateCurve(c, 1.0f), 4.0f);
    EXPECT_EQ(evaluateCurve(curve(Interpolation::linear, {{0.5f, 7}}), 0.9f), 7.0f);
}

TEST(LutBake, CurveScaleMultipliesEveryTexel) {
    const LutRow row = bakeCurve(curve(Interpolation::linear, {{0, 180}}), 0.5f);
    for (const vec4& texel : row) EXPECT_EQ(texel.x, 90.0f);
}

TEST(LutBake, GradientInterpolatesColourAndAlphaIndependently) {
    const Gradient g = gradient({{0, {1, 0, 0}}, {1, {0, 0, 1}}}, {{0, 1}, {0.5f, 0}});
    const vec4 mid = evaluateGradient(g, 0.5f);
    EXPECT_FLOAT_EQ(mid.x, 0.5f);
    EXPECT_FLOAT_EQ(mid.z, 0.5f);
    EXPECT_FLOAT_EQ(mid.w, 0.0f);
    const vec4 quarter = evaluateGradient(g, 0.25f);
    EXPECT_FLOAT_EQ(quarter.x, 0.75f);
    EXPECT_FLOAT_EQ(quarter.w, 0.5f);
    EXPECT_FLOAT_EQ(evaluateGradient(g, 1.0f).w, 0.0f);
}

TEST(LutBake, IdenticalRowsAreStoredOnce) {
    std::vector<vec4> atlas;
    const LutRow a = bakeCurve(curve(Interpolation::linear, {{0, 0}, {1, 1}}), 1.0f);
    const LutRow b = bakeCurve(curve(Interpolation::linear, {{0, 1}, {1, 0}}), 1.0f);
    EXPECT_EQ(addLutRow(atlas, a), 0u);
    EXPECT_EQ(addLutRow(atlas, b), 1u);
    EXPECT_EQ(addLutRow(atlas, a), 0u);
    EXPECT_EQ(atlas.size(), 2 * kLutWidth);
}

} // namespace
} // namespace spindrift
