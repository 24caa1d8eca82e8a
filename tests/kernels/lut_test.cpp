#include "kernels/lut.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

// A row whose texel i holds (i, 2i, -i, 1): linear in t, so sampling must give i = 63 t exactly
// up to float rounding.
std::vector<vec4> linearRows(uint32_t rows) {
    std::vector<vec4> atlas;
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t i = 0; i < kLutWidth; ++i)
            atlas.push_back(vec4(float(i) + 100.0f * float(r), 2.0f * float(i), -float(i), 1.0f));
    return atlas;
}

vec4 sample(const std::vector<vec4>& atlas, uint32_t row, float t) {
    LutTap tap = sdLutAtlasTap(row, t);
    return sdLutMix(atlas[tap.index], atlas[tap.index + 1], tap.weight);
}

TEST(Lut, TapAtZeroReadsTheFirstTexelExactly) {
    LutTap tap = sdLutTap(0.0f);
    EXPECT_EQ(tap.index, 0u);
    EXPECT_EQ(tap.weight, 0.0f);
    auto atlas = linearRows(2);
    EXPECT_EQ(sample(atlas, 1, 0.0f), atlas[kLutWidth]);
}

TEST(Lut, TapAtOneReadsTheLastTexelExactly) {
    LutTap tap = sdLutTap(1.0f);
    EXPECT_EQ(tap.index, kLutWidth - 2u);
    EXPECT_EQ(tap.weight, 1.0f);
    auto atlas = linearRows(2);
    EXPECT_EQ(sample(atlas, 0, 1.0f), atlas[kLutWidth - 1]);
    EXPECT_EQ(sample(atlas, 1, 1.0f), atlas[2 * kLutWidth - 1]);
}

TEST(Lut, TexelTimesReadTheirTexel) {
    auto atlas = linearRows(1);
    for (uint32_t i = 0; i < kLutWidth; ++i) {
        float t = float(i) / float(kLutWidth - 1);
        EXPECT_NEAR(sample(atlas, 0, t).x, float(i), 1.0e-4f) << i;
    }
}

TEST(Lut, BetweenTexelsInterpolatesLinearly) {
    auto atlas = linearRows(3);
    for (float t = 0.0f; t <= 1.0f; t += 0.0371f) {
        vec4 v = sample(atlas, 2, t);
        float want = 63.0f * t;
        EXPECT_NEAR(v.x, want + 200.0f, 2.0e-4f) << t;
        EXPECT_NEAR(v.y, 2.0f * want, 2.0e-4f) << t;
        EXPECT_NEAR(v.z, -want, 2.0e-4f) << t;
        EXPECT_EQ(v.w, 1.0f);
    }
    // Halfway between texels 10 and 11 of a row with a step there.
    std::vector<vec4> row(kLutWidth, vec4(0.0f));
    for (uint32_t i = 11; i < kLutWidth; ++i) row[i] = vec4(1.0f);
    LutTap tap = sdLutTap(10.5f / 63.0f);
    EXPECT_EQ(tap.index, 10u);
    EXPECT_NEAR(sdLutMix(row[tap.index], row[tap.index + 1], tap.weight).x, 0.5f, 1.0e-5f);
}

TEST(Lut, OutOfRangeAndNaNAreClamped) {
    EXPECT_EQ(sdLutTap(-3.0f).index, 0u);
    EXPECT_EQ(sdLutTap(-3.0f).weight, 0.0f);
    EXPECT_EQ(sdLutTap(7.0f).index, kLutWidth - 2u);
    EXPECT_EQ(sdLutTap(7.0f).weight, 1.0f);
    EXPECT_EQ(sdLutTap(NAN).index, 0u);
    EXPECT_EQ(sdLutTap(NAN).weight, 0.0f);
    EXPECT_EQ(sdLutTap(INFINITY).index, kLutWidth - 2u);
}

TEST(Lut, MixIsTheBakersFormula) {
    vec4 a(1.0f, 2.0f, 3.0f, 4.0f), b(5.0f, -6.0f, 7.0f, 0.25f);
    for (float w : {0.0f, 0.1f, 0.5f, 0.9f, 1.0f}) {
        vec4 m = sdLutMix(a, b, w);
        EXPECT_EQ(m.x, a.x * (1.0f - w) + b.x * w);
        EXPECT_EQ(m.y, a.y * (1.0f - w) + b.y * w);
        EXPECT_EQ(sdLutMixScalar(a.z, b.z, w), m.z);
    }
}

TEST(Lut, SpeedParameterIsClampedNormalisedSpeed) {
    EXPECT_EQ(sdSpeedParameter(5.0f, 0.0f, 10.0f), 0.5f);
    EXPECT_EQ(sdSpeedParameter(-1.0f, 0.0f, 10.0f), 0.0f);
    EXPECT_EQ(sdSpeedParameter(20.0f, 0.0f, 10.0f), 1.0f);
    EXPECT_EQ(sdSpeedParameter(3.0f, 1.0f, 5.0f), 0.5f);
}

} // namespace
} // namespace spindrift
