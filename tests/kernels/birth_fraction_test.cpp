// sdBirthFraction: the sub-step fraction of planned birth i of n, one rule for both backends
// (docs/kernels.md, "Births").
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "kernels/birth.h"

namespace spindrift {
namespace {

// (2i + 1) / 2n rounded to the nearest float, ties to even, from 64-bit integers: the definition.
float exactFraction(uint32_t i, uint32_t n) {
    const uint64_t a = 2 * uint64_t{i} + 1;
    const uint64_t d = 2 * uint64_t{n};
    int s = 0; // a * 2^s in [d, 2d)
    while ((a << s) < d) ++s;
    const uint64_t scaled = a << (s + 23); // < 2d * 2^23 <= 2^52
    uint64_t m = scaled / d;
    const uint64_t r = scaled % d;
    if (2 * r > d || (2 * r == d && (m & 1) == 1)) ++m;
    const float u = std::ldexp(static_cast<float>(m), -(23 + s));
    return std::min(u, kBirthFractionBelowOne);
}

// The rule the CPU backend used before (driver/driver.h): the double quotient rounded to float.
float doubleRule(uint32_t i, uint32_t n) {
    const auto u = static_cast<float>((static_cast<double>(i) + 0.5) / static_cast<double>(n));
    return std::min(u, kBirthFractionBelowOne);
}

// The rule the GPU backend used before (gpu_spawn.comp): float operands, float division.
float floatRule(uint32_t i, uint32_t n) {
    const float u = (static_cast<float>(i) + 0.5f) / static_cast<float>(n);
    return std::min(u, kBirthFractionBelowOne);
}

// (i, n) pairs: every pair up to n = 1024, then edges and random pairs up to the largest count.
template <typename Check> void forPairs(Check&& check) {
    for (uint32_t n = 1; n <= 1024; ++n) {
        for (uint32_t i = 0; i < n; ++i) check(i, n);
    }
    const uint32_t edges[] = {(1u << 23) - 1,        1u << 23,   (1u << 23) + 1,
                              (1u << 24) - 1,        1u << 24,   (1u << 24) + 1,
                              (1u << 24) + 3,        100000000u, kBirthFractionMaxCount - 1,
                              kBirthFractionMaxCount};
    for (uint32_t n : edges) {
        for (uint32_t i : {0u, 1u, 2u, n / 3, n / 2, n - 3, n - 2, n - 1}) {
            if (i < n) check(i, n);
        }
        for (uint32_t i = (1u << 23) - 2; i < (1u << 23) + 2 && i < n; ++i) check(i, n);
    }
    std::mt19937 rng(14);
    for (int t = 0; t < 200000; ++t) {
        const uint32_t n = 1 + rng() % kBirthFractionMaxCount;
        check(static_cast<uint32_t>(rng() % n), n);
    }
}

TEST(BirthFraction, SpreadsBirthsOverTheStep) {
    EXPECT_FLOAT_EQ(sdBirthFraction(0, 1), 0.5f);
    EXPECT_FLOAT_EQ(sdBirthFraction(0, 4), 0.125f);
    EXPECT_FLOAT_EQ(sdBirthFraction(3, 4), 0.875f);
    const uint32_t big = 100000000; // past float's exact integers: still strictly inside (0, 1)
    EXPECT_GT(sdBirthFraction(0, big), 0.0f);
    EXPECT_LT(sdBirthFraction(big - 1, big), 1.0f);
}

TEST(BirthFraction, IsTheQuotientRoundedToNearestEven) {
    forPairs([](uint32_t i, uint32_t n) {
        ASSERT_EQ(std::bit_cast<uint32_t>(sdBirthFraction(i, n)),
                  std::bit_cast<uint32_t>(exactFraction(i, n)))
            << "i " << i << " n " << n;
    });
}

// No CPU result changed: up to the largest count the rounded double quotient is already exact.
TEST(BirthFraction, IsTheCpusFormerDoubleRule) {
    forPairs([](uint32_t i, uint32_t n) {
        ASSERT_EQ(std::bit_cast<uint32_t>(sdBirthFraction(i, n)),
                  std::bit_cast<uint32_t>(doubleRule(i, n)))
            << "i " << i << " n " << n;
    });
}

// Where the GPU's former float rule was off (i + 0.5 and n are not floats past 2^23 and 2^24),
// the one rule gives the exact quotient: these pairs were born one ulp apart on the two backends.
TEST(BirthFraction, IsExactWhereFloatDivisionWasNot) {
    struct Case {
        uint32_t i, n;
        float exact;
    };
    const Case cases[] = {{116066801u, 130517846u, 0x1.c74f9ap-1f},
                          {16858662u, 119289310u, 0x1.216f72p-3f},
                          {68718277u, 83273387u, 0x1.a68250p-1f},
                          {15860965u, 17059885u, 0x1.dc04a4p-1f}};
    for (const Case& c : cases) {
        EXPECT_EQ(sdBirthFraction(c.i, c.n), c.exact);
        EXPECT_EQ(sdBirthFraction(c.i, c.n), doubleRule(c.i, c.n));
        EXPECT_NE(floatRule(c.i, c.n), c.exact);
    }
    // Below 2^23 births (i + 0.5 and n exact floats) the float division was already exact.
    for (uint32_t n = 1; n <= 1024; ++n) {
        for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sdBirthFraction(i, n), floatRule(i, n));
    }
}

// However the device divides, an estimate within 7 ulp of the quotient (Vulkan's division may be
// 2.5 ulp off; with the operands' rounding the estimate is within 4.5) gives the same bits.
TEST(BirthFraction, ToleratesAnInexactDivision) {
    std::mt19937 rng(7);
    for (int t = 0; t < 20000; ++t) {
        const uint32_t n = 1 + rng() % kBirthFractionMaxCount;
        const uint32_t i =
            t < 100 ? n - 1 - static_cast<uint32_t>(t) % n : static_cast<uint32_t>(rng() % n);
        const float expected = exactFraction(i, n);
        const double quotient = (2.0 * i + 1.0) / (2.0 * n);
        int exponent = 0;
        std::frexp(quotient, &exponent); // quotient in [2^(exponent - 1), 2^exponent)
        const double ulp = std::ldexp(1.0, exponent - 24);
        for (int k = -7; k <= 7; ++k) {
            const double target = static_cast<double>(expected) + k * ulp;
            const auto estimate = static_cast<float>(target);
            if (static_cast<double>(estimate) != target) continue; // the binade above: coarser
            if (std::abs(target - quotient) > 7 * ulp) continue;
            ASSERT_EQ(sdBirthFractionFromEstimate(i, n, estimate), expected)
                << "i " << i << " n " << n << " " << k << " ulp";
        }
    }
}

// The births of a step are in order and strictly inside it, and the fractions of n births sum to
// n / 2 within the rounding (each is the quotient within half an ulp): the step is covered
// evenly, with no birth at either end.
TEST(BirthFraction, BirthsOfAStepAreOrderedAndInsideIt) {
    for (uint32_t n : {1u, 2u, 3u, 7u, 60u, 1000u, 4097u, 100003u, (1u << 24) + 1}) {
        float previous = 0.0f;
        double sum = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const float u = sdBirthFraction(i, n);
            ASSERT_GT(u, 0.0f);
            ASSERT_LT(u, 1.0f);
            ASSERT_GE(u, previous) << i << " of " << n;
            if (n < (1u << 24)) {
                ASSERT_GT(u, previous) << i << " of " << n;
            }
            previous = u;
            sum += u;
        }
        EXPECT_NEAR(sum, n / 2.0, n * 0x1p-24) << n;
    }
}

} // namespace
} // namespace spindrift
