#include "kernels/sd_math.h"

#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

// Dense sweep: every input spaced `step` apart plus the float neighbours of multiples of pi/2,
// where range reduction is hardest.
double maxSinCosError(double lo, double hi, double step) {
    double worst = 0.0;
    for (double xd = lo; xd <= hi; xd += step) {
        float x = static_cast<float>(xd);
        worst = std::max(worst, std::fabs(double(sdSin(x)) - std::sin(double(x))));
        worst = std::max(worst, std::fabs(double(sdCos(x)) - std::cos(double(x))));
    }
    return worst;
}

TEST(SdMath, SinCosMaxErrorNearZeroIsBelow1e6) {
    EXPECT_LT(maxSinCosError(-10.0, 10.0, 1.0e-5), 1.0e-6);
}

TEST(SdMath, SinCosMaxErrorUpTo1e5IsBelow1e6) {
    EXPECT_LT(maxSinCosError(-1.0e5, 1.0e5, 0.0137), 1.0e-6);
}

TEST(SdMath, SinCosAtMultiplesOfHalfPiAndTheirNeighbours) {
    double worst = 0.0;
    for (int k = -63000; k <= 63000; k += 7) {
        float x = static_cast<float>(k * 1.5707963267948966);
        for (int step = -2; step <= 2; ++step) {
            float y = std::nextafter(x, step < 0 ? -1.0e9f : 1.0e9f);
            if (step == 0) y = x;
            worst = std::max(worst, std::fabs(double(sdSin(y)) - std::sin(double(y))));
            worst = std::max(worst, std::fabs(double(sdCos(y)) - std::cos(double(y))));
        }
    }
    EXPECT_LT(worst, 1.0e-6);
}

TEST(SdMath, SinCosMatchesSeparateCalls) {
    for (float x = -100.0f; x < 100.0f; x += 0.37f) {
        float s;
        float c;
        sdSinCos(x, s, c);
        EXPECT_EQ(s, sdSin(x));
        EXPECT_EQ(c, sdCos(x));
    }
}

TEST(SdMath, SinIsExactAtZeroAndOddSymmetric) {
    EXPECT_EQ(sdSin(0.0f), 0.0f);
    EXPECT_EQ(sdCos(0.0f), 1.0f);
    for (float x = 0.01f; x < 50.0f; x += 0.731f) {
        EXPECT_EQ(sdSin(-x), -sdSin(x)) << x;
        EXPECT_EQ(sdCos(-x), sdCos(x)) << x;
    }
}

TEST(SdMath, NonFiniteInputsDoNotTrapOrCrash) {
    EXPECT_TRUE(std::isnan(sdSin(NAN)));
    for (float x : {1.0e6f, -3.0e7f, 1.0e30f, -3.0e38f}) {
        EXPECT_LE(std::fabs(sdSin(x)), 1.0f) << x;
        EXPECT_LE(std::fabs(sdCos(x)), 1.0f) << x;
    }
    EXPECT_FALSE(std::isinf(sdCos(-INFINITY)));
    EXPECT_TRUE(std::isfinite(sdExp(NAN)));
    EXPECT_TRUE(std::isfinite(sdLog(NAN)));
}

TEST(SdMath, ExpRelativeErrorBelow2e7OnMinus80To80) {
    double worst = 0.0;
    for (double xd = -80.0; xd <= 80.0; xd += 1.0e-4) {
        float x = static_cast<float>(xd);
        double want = std::exp(double(x));
        worst = std::max(worst, std::fabs(double(sdExp(x)) - want) / want);
    }
    EXPECT_LT(worst, 2.0e-7);
}

TEST(SdMath, ExpIsExactAtZeroZeroBelowAndClampedAbove) {
    EXPECT_EQ(sdExp(0.0f), 1.0f);
    EXPECT_EQ(sdExp(-0.0f), 1.0f);
    EXPECT_EQ(sdExp(-88.0f), 0.0f);
    EXPECT_GT(sdExp(-87.0f), 0.0f);
    EXPECT_NEAR(double(sdExp(-87.0f)) / std::exp(-87.0), 1.0, 1.0e-6);
    EXPECT_EQ(sdExp(-1.0e30f), 0.0f);
    EXPECT_EQ(sdExp(-INFINITY), 0.0f);
    float top = sdExp(kExpMaxInput);
    EXPECT_TRUE(std::isfinite(top));
    EXPECT_NEAR(double(top) / std::exp(88.0), 1.0, 2.0e-7);
    EXPECT_EQ(sdExp(100.0f), top);
    EXPECT_EQ(sdExp(INFINITY), top);
}

TEST(SdMath, ExpIsMonotonicOverASweep) {
    float prev = 0.0f;
    for (float x = -87.0f; x < 88.0f; x += 0.001f) {
        float y = sdExp(x);
        ASSERT_GE(y, prev) << x;
        prev = y;
    }
}

TEST(SdMath, LogRelativeErrorIsSmallOverManyDecades) {
    double worst = 0.0;
    for (double xd = 1.0e-30; xd < 1.0e30; xd *= 1.0001) {
        float x = static_cast<float>(xd);
        double want = std::log(double(x));
        double err = std::fabs(double(sdLog(x)) - want) / std::max(std::fabs(want), 1.0);
        worst = std::max(worst, err);
    }
    EXPECT_LT(worst, 3.0e-7);
    EXPECT_EQ(sdLog(1.0f), 0.0f);
}

TEST(SdMath, LogOfZeroOrNegativeIsFiniteClampedValue) {
    float floor_log = sdLog(kMinNormalFloat);
    EXPECT_NEAR(floor_log, std::log(double(kMinNormalFloat)), 1.0e-4);
    EXPECT_EQ(sdLog(0.0f), floor_log);
    EXPECT_EQ(sdLog(-5.0f), floor_log);
    EXPECT_EQ(sdLog(1.0e-45f), floor_log);
}

TEST(SdMath, PowMatchesStdPowAndHasExactEndpoints) {
    EXPECT_EQ(sdPow(0.37f, 0.0f), 1.0f);
    EXPECT_EQ(sdPow(1.0f, 3.7f), 1.0f);
    EXPECT_EQ(sdPow(0.0f, 2.0f), 0.0f);
    for (float b = 0.01f; b <= 1.0f; b += 0.0137f) {
        for (float e = 0.0f; e <= 8.0f; e += 0.25f) {
            double want = std::pow(double(b), double(e));
            EXPECT_NEAR(sdPow(b, e), want, 2.0e-6 * want + 1.0e-30) << b << "^" << e;
        }
    }
}

TEST(SdMath, FloorAndRoundToInt) {
    EXPECT_EQ(sdFloorToInt(2.5f), 2);
    EXPECT_EQ(sdFloorToInt(-2.5f), -3);
    EXPECT_EQ(sdFloorToInt(-3.0f), -3);
    EXPECT_EQ(sdFloorToInt(0.0f), 0);
    EXPECT_EQ(sdFloorToInt(-0.0f), 0);
    EXPECT_EQ(sdFloorToInt(-1.0e-8f), -1);
    EXPECT_EQ(sdFloorToInt(1.0e20f), 4194304);
    EXPECT_EQ(sdFloorToInt(-1.0e20f), -4194304);
    EXPECT_EQ(sdFloorToInt(4194303.5f), 4194303);
    EXPECT_EQ(sdFloorToInt(-4194303.5f), -4194304);
    EXPECT_EQ(sdRoundToInt(2.5f), 2); // halves go to even
    EXPECT_EQ(sdRoundToInt(3.5f), 4);
    EXPECT_EQ(sdRoundToInt(-2.5f), -2);
    EXPECT_EQ(sdRoundToInt(2.51f), 3);
    EXPECT_EQ(sdRoundToInt(-0.49f), 0);
    EXPECT_EQ(sdRoundToInt(NAN), 4194304);
    for (float x = -1000.0f; x < 1000.0f; x += 0.173f) {
        ASSERT_EQ(sdFloorToInt(x), int(std::floor(x))) << x;
        ASSERT_EQ(sdRoundToInt(x), int(std::nearbyint(x))) << x;
    }
}

} // namespace
} // namespace spindrift
