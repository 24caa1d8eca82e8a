// sdBlackbodyColor (src/kernels/blackbody.h): the colour of a black body, Tanner Helland's fit of
// Mitchell Charity's blackbody table, decoded to linear RGB with the largest channel 1.
#include "kernels/blackbody.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

// The IEC 61966-2-1 encoding, in double precision, to compare with display values.
double encode(double c) {
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

struct Reference {
    float kelvin;
    int r, g, b; // sRGB 0..255
};

// Mitchell Charity's blackbody colours ("What color is a blackbody?", vendian.org: CIE 1931
// 2-degree observer, sRGB primaries, D65 white, each colour scaled so its largest channel is
// 255), the table Helland's curves were fitted to. The fit stays within 13 of it in every
// channel over these temperatures (its largest miss is green at 1000 K).
constexpr Reference kCharity[] = {
    {1000, 255, 56, 0},    {2000, 255, 137, 18},  {3000, 255, 180, 107},  {4000, 255, 209, 163},
    {5000, 255, 228, 206}, {6500, 255, 249, 253}, {10000, 201, 218, 255}, {40000, 155, 188, 255},
};

TEST(Blackbody, MatchesCharitysTableWithinTheFitsError) {
    for (const Reference& ref : kCharity) {
        const vec3 c = sdBlackbodyColor(ref.kelvin);
        EXPECT_NEAR(255.0 * encode(c.x), ref.r, 13.0) << ref.kelvin << " K";
        EXPECT_NEAR(255.0 * encode(c.y), ref.g, 13.0) << ref.kelvin << " K";
        EXPECT_NEAR(255.0 * encode(c.z), ref.b, 13.0) << ref.kelvin << " K";
    }
}

TEST(Blackbody, SixThousandFiveHundredKelvinIsNearlyWhite) {
    const vec3 c = sdBlackbodyColor(6500.0f);
    EXPECT_FLOAT_EQ(std::max(c.x, std::max(c.y, c.z)), 1.0f);
    EXPECT_GT(std::min(c.x, std::min(c.y, c.z)), 0.95f);
}

TEST(Blackbody, AThousandKelvinIsDeepRedOrange) {
    const vec3 c = sdBlackbodyColor(1000.0f);
    EXPECT_FLOAT_EQ(c.x, 1.0f);
    EXPECT_GT(c.y, 0.03f);
    EXPECT_LT(c.y, 0.1f);
    EXPECT_EQ(c.z, 0.0f);
}

TEST(Blackbody, BlueGainsOnRedAsTheBodyHeatsUp) {
    float previous = -1.0f;
    for (float kelvin = 1000.0f; kelvin <= 40000.0f; kelvin += 500.0f) {
        const vec3 c = sdBlackbodyColor(kelvin);
        const float blue_minus_red = c.z - c.x;
        EXPECT_GE(blue_minus_red, previous) << kelvin << " K";
        previous = blue_minus_red;
        EXPECT_NEAR(std::max(c.x, std::max(c.y, c.z)), 1.0f, 1e-6f) << kelvin << " K";
        EXPECT_GE(std::min(c.x, std::min(c.y, c.z)), 0.0f) << kelvin << " K";
    }
}

TEST(Blackbody, ClampsTemperaturesOutsideTheFittedRange) {
    const vec3 cold = sdBlackbodyColor(1000.0f);
    const vec3 hot = sdBlackbodyColor(40000.0f);
    for (float kelvin : {0.0f, -5.0f, 999.0f, std::numeric_limits<float>::quiet_NaN()}) {
        const vec3 c = sdBlackbodyColor(kelvin);
        EXPECT_EQ(c.x, cold.x) << kelvin;
        EXPECT_EQ(c.y, cold.y) << kelvin;
        EXPECT_EQ(c.z, cold.z) << kelvin;
    }
    const vec3 c = sdBlackbodyColor(1.0e9f);
    EXPECT_EQ(c.x, hot.x);
    EXPECT_EQ(c.y, hot.y);
    EXPECT_EQ(c.z, hot.z);
}

TEST(Blackbody, SrgbDecodeIsTheStandardCurve) {
    EXPECT_FLOAT_EQ(sdSrgbToLinear(0.0f), 0.0f);
    EXPECT_NEAR(sdSrgbToLinear(0.04045f), 0.04045f / 12.92f, 1e-7f);
    EXPECT_NEAR(sdSrgbToLinear(0.5f), 0.21404f, 1e-5f);
    EXPECT_NEAR(sdSrgbToLinear(1.0f), 1.0f, 1e-6f);
}

} // namespace
} // namespace spindrift
