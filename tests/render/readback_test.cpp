#include "render/readback.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace spindrift::render {
namespace {

TEST(Readback, SrgbEncodingFollowsTheDocumentedCurve) {
    EXPECT_EQ(encodeSrgb8(0.0f), 0);
    EXPECT_EQ(encodeSrgb8(1.0f), 255);
    EXPECT_EQ(encodeSrgb8(0.5f), 188);
    EXPECT_EQ(encodeSrgb8(0.001f), 3);       // linear segment: 12.92 * 0.001 * 255 = 3.3
    EXPECT_EQ(encodeSrgb8(0.2158605f), 128); // sRGB 128 decoded, encoded back
    EXPECT_EQ(encodeSrgb8(7.5f), 255);       // HDR clips
    EXPECT_EQ(encodeSrgb8(-1.0f), 0);
    EXPECT_EQ(encodeSrgb8(NAN), 0);
    EXPECT_EQ(encodeSrgb8(INFINITY), 255);
}

TEST(Readback, HalfFloatsDecodeExactly) {
    EXPECT_EQ(halfToFloat(0x0000), 0.0f);
    EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
    EXPECT_EQ(halfToFloat(0x3800), 0.5f);
    EXPECT_EQ(halfToFloat(0xc000), -2.0f);
    EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
    EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
    EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
    EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
    EXPECT_TRUE(std::signbit(halfToFloat(0x8000)));
}

// Every one of the 65536 halves against the definition (sign, 2^(e-15) x 1.m, subnormals
// 2^-14 x 0.m) computed with ldexp: the same bits (NaNs: a NaN of the same sign).
TEST(Readback, HalfFloatsDecodeAsDefinedForEveryHalf) {
    for (uint32_t h = 0; h < 65536; ++h) {
        const uint32_t exponent = (h >> 10) & 0x1fu;
        const uint32_t mantissa = h & 0x3ffu;
        float expected;
        if (exponent == 0) {
            expected = std::ldexp(static_cast<float>(mantissa), -24);
        } else if (exponent == 31) {
            expected = mantissa == 0 ? INFINITY : NAN;
        } else {
            expected = std::ldexp(static_cast<float>(mantissa | 0x400u), int(exponent) - 25);
        }
        if ((h & 0x8000u) != 0) expected = -expected;
        const float got = halfToFloat(static_cast<uint16_t>(h));
        ASSERT_EQ(std::signbit(got), std::signbit(expected)) << h;
        if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(got)) << h;
        } else {
            ASSERT_EQ(got, expected) << h;
        }
    }
}

TEST(Readback, TableAgreesWithTheDirectEncodingForEveryHalf) {
    for (uint32_t h = 0; h < 65536; ++h) {
        ASSERT_EQ(encodeSrgb8FromHalf(static_cast<uint16_t>(h)),
                  encodeSrgb8(halfToFloat(static_cast<uint16_t>(h))))
            << h;
    }
}

TEST(Readback, ConvertsRowsAndSetsOpaqueAlpha) {
    // 2x1 pixels: (1, 0.5, 0, 0) and (0, 0, 2, 1).
    std::vector<uint16_t> half = {0x3c00, 0x3800, 0x0000, 0x0000, 0x0000, 0x0000, 0x4000, 0x3c00};
    Image out;
    convertHalfRgbaToSrgb8(half, 2, 1, out);
    EXPECT_EQ(out.width, 2u);
    EXPECT_EQ(out.height, 1u);
    std::vector<uint8_t> expected = {255, 188, 0, 255, 0, 0, 255, 255};
    EXPECT_EQ(out.rgba8, expected);
}

TEST(Readback, ALargeFrameConvertsOnSeveralThreadsToTheSameBytes) {
    // Big enough for the most threads, with a width that does not divide into the slices, and
    // every half value somewhere in it.
    const uint32_t width = 1031;
    const uint32_t height = 2051;
    const size_t pixels = size_t{width} * height;
    // Several threads wherever the machine has several cores.
    EXPECT_EQ(conversionThreads(pixels),
              std::min(std::max(1u, std::thread::hardware_concurrency()), kMaxConversionThreads));
    std::vector<uint16_t> half(pixels * 4);
    uint32_t x = 12345;
    for (size_t i = 0; i < half.size(); ++i) {
        x = x * 1664525u + 1013904223u;
        half[i] = static_cast<uint16_t>(i < 65536 ? i : x >> 16);
    }
    Image out;
    convertHalfRgbaToSrgb8(half, width, height, out);
    ASSERT_EQ(out.rgba8.size(), pixels * 4);
    for (size_t i = 0; i < pixels; ++i) {
        for (size_t c = 0; c < 3; ++c) {
            ASSERT_EQ(out.rgba8[i * 4 + c], encodeSrgb8FromHalf(half[i * 4 + c]))
                << "pixel " << i << " channel " << c;
        }
        ASSERT_EQ(out.rgba8[i * 4 + 3], 255) << "pixel " << i;
    }
}

TEST(Readback, ConversionThreadsGrowWithTheFrameWithinTheLimits) {
    EXPECT_EQ(conversionThreads(0), 1u);
    EXPECT_EQ(conversionThreads(kPixelsPerConversionThread - 1), 1u);
    EXPECT_LE(conversionThreads(size_t{8192} * 8192), kMaxConversionThreads);
    EXPECT_LE(conversionThreads(size_t{8192} * 8192),
              std::max(1u, std::thread::hardware_concurrency()));
    EXPECT_LE(conversionThreads(1920 * 1080), conversionThreads(size_t{8192} * 8192));
}

} // namespace
} // namespace spindrift::render
