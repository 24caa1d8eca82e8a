#include "kernels/random.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

// Pearson's chi-square statistic of bin counts against a uniform expectation.
double chiSquare(const std::vector<double>& counts) {
    double total = 0.0;
    for (double c : counts) total += c;
    double expected = total / double(counts.size());
    double chi = 0.0;
    for (double c : counts) chi += (c - expected) * (c - expected) / expected;
    return chi;
}

// Upper bound for a chi-square with `dof` degrees of freedom: mean + 6 standard deviations. The
// inputs are fixed, so the tests are deterministic; a sound generator lands near `dof`.
double chiSquareLimit(double dof) {
    return dof + 6.0 * std::sqrt(2.0 * dof);
}

constexpr uint32_t kSeed = 12345u;
constexpr int kSamples = 1 << 18;

uint32_t keyOf(uint32_t emitter, uint32_t ordinal) {
    return sdParticleKey(kSeed, emitter, ordinal, 0u);
}

TEST(Random, HashIsLowbias32) {
    // lowbias32 written out independently, in 64-bit arithmetic masked to 32 bits.
    auto reference = [](uint64_t x) {
        x ^= x >> 16;
        x = (x * 0x7feb352dull) & 0xffffffffull;
        x ^= x >> 15;
        x = (x * 0x846ca68bull) & 0xffffffffull;
        x ^= x >> 16;
        return static_cast<uint32_t>(x);
    };
    for (uint32_t x : {0u, 1u, 2u, 0xdeadbeefu, 0xffffffffu, 123456789u})
        EXPECT_EQ(sdHash(x), reference(x)) << x;
    EXPECT_EQ(sdHash(0u), 0u); // lowbias32 fixes 0: why keys start from a domain constant
}

TEST(Random, Random01IsIn0To1AndOnThe24BitGrid) {
    for (uint32_t i = 0; i < 100000; ++i) {
        float u = sdRandom01(keyOf(0, i), kDrawLifetime);
        ASSERT_GE(u, 0.0f);
        ASSERT_LT(u, 1.0f);
        float scaled = u * 16777216.0f;
        ASSERT_EQ(scaled, std::floor(scaled));
    }
}

TEST(Random, Random01IsUniformByChiSquare) {
    for (uint32_t draw : {kDrawLifetime, kDrawColor, kDrawShape3, kDrawFirstBackend + 5u}) {
        std::vector<double> bins(256, 0.0);
        for (int i = 0; i < kSamples; ++i)
            bins[size_t(sdRandom01(keyOf(3, uint32_t(i)), draw) * 256.0f)] += 1.0;
        EXPECT_LT(chiSquare(bins), chiSquareLimit(255.0)) << "draw " << draw;
    }
}

// Joint uniformity of two streams of numbers on a 16 x 16 grid, and their correlation.
void expectIndependent(const std::vector<float>& a, const std::vector<float>& b, const char* what) {
    std::vector<double> bins(256, 0.0);
    double sa = 0, sb = 0, sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        bins[size_t(a[i] * 16.0f) * 16 + size_t(b[i] * 16.0f)] += 1.0;
        sa += a[i];
        sb += b[i];
        sab += double(a[i]) * b[i];
        saa += double(a[i]) * a[i];
        sbb += double(b[i]) * b[i];
    }
    double n = double(a.size());
    double cov = sab / n - (sa / n) * (sb / n);
    double corr =
        cov / std::sqrt((saa / n - (sa / n) * (sa / n)) * (sbb / n - (sb / n) * (sb / n)));
    EXPECT_LT(chiSquare(bins), chiSquareLimit(255.0)) << what;
    EXPECT_LT(std::fabs(corr), 6.0 / std::sqrt(n)) << what;
}

TEST(Random, NeighbouringDrawsOfOneParticleAreIndependent) {
    for (uint32_t draw = 0; draw + 1 < kDrawCount; ++draw) {
        std::vector<float> a, b;
        for (int i = 0; i < kSamples / 4; ++i) {
            uint32_t key = keyOf(1, uint32_t(i));
            a.push_back(sdRandom01(key, draw));
            b.push_back(sdRandom01(key, draw + 1));
        }
        expectIndependent(a, b, "draw and draw + 1");
    }
}

TEST(Random, NeighbouringOrdinalsAreIndependent) {
    std::vector<float> a, b;
    for (int i = 0; i < kSamples; ++i) {
        a.push_back(sdRandom01(keyOf(0, uint32_t(i)), kDrawSpeed));
        b.push_back(sdRandom01(keyOf(0, uint32_t(i) + 1), kDrawSpeed));
    }
    expectIndependent(a, b, "ordinal and ordinal + 1");
}

TEST(Random, NeighbouringEmittersAreIndependent) {
    std::vector<float> a, b;
    for (int i = 0; i < kSamples; ++i) {
        a.push_back(sdRandom01(keyOf(4, uint32_t(i)), kDrawSize));
        b.push_back(sdRandom01(keyOf(5, uint32_t(i)), kDrawSize));
    }
    expectIndependent(a, b, "emitter and emitter + 1");
}

TEST(Random, NeighbouringSeedsAreIndependent) {
    std::vector<float> a, b;
    for (int i = 0; i < kSamples; ++i) {
        a.push_back(sdRandom01(sdParticleKey(7u, 0u, uint32_t(i), 0u), kDrawSize));
        b.push_back(sdRandom01(sdParticleKey(8u, 0u, uint32_t(i), 0u), kDrawSize));
    }
    expectIndependent(a, b, "seed and seed + 1");
}

TEST(Random, ParticleKeyChangesWithEveryInputWord) {
    // Each hash step is a bijection of its word, so changing exactly one word must change the key.
    for (uint32_t base = 0; base < 2000; ++base) {
        std::array<uint32_t, 4> w = {base * 7919u, base % 64u, base * 104729u, base / 3u};
        uint32_t key = sdParticleKey(w[0], w[1], w[2], w[3]);
        for (size_t i = 0; i < 4; ++i) {
            for (uint32_t delta : {1u, 2u, 0x80000000u, 0x12345u}) {
                std::array<uint32_t, 4> v = w;
                v[i] ^= delta;
                ASSERT_NE(sdParticleKey(v[0], v[1], v[2], v[3]), key) << "word " << i;
            }
        }
    }
}

TEST(Random, ParticleKeyAvalanchesOnASingleBitFlip) {
    // Flipping one input bit flips about half of the 32 key bits on average.
    for (size_t word = 0; word < 4; ++word) {
        double flipped = 0.0;
        int trials = 0;
        for (uint32_t base = 0; base < 4000; ++base) {
            std::array<uint32_t, 4> w = {base, base % 16u, base * 31u, 0u};
            uint32_t key = sdParticleKey(w[0], w[1], w[2], w[3]);
            std::array<uint32_t, 4> v = w;
            v[word] ^= 1u << (base % 32u);
            flipped += std::popcount(key ^ sdParticleKey(v[0], v[1], v[2], v[3]));
            ++trials;
        }
        EXPECT_NEAR(flipped / trials, 16.0, 0.5) << "word " << word;
    }
}

TEST(Random, BurstKeyChangesWithEveryInputWordAndDiffersFromParticleKeys) {
    for (uint32_t base = 0; base < 1000; ++base) {
        std::array<uint32_t, 5> w = {base, base % 8u, base % 16u, base * 3u, base / 5u};
        uint32_t key = sdBurstKey(w[0], w[1], w[2], w[3], w[4]);
        for (size_t i = 0; i < 5; ++i) {
            std::array<uint32_t, 5> v = w;
            v[i] += 1u;
            ASSERT_NE(sdBurstKey(v[0], v[1], v[2], v[3], v[4]), key) << "word " << i;
        }
        ASSERT_NE(key, sdParticleKey(w[0], w[1], w[2], w[3]));
    }
}

TEST(Random, RangeHitsItsEndsExactlyAndNeverOverflows) {
    for (uint32_t i = 0; i < 1000; ++i) {
        uint32_t key = keyOf(2, i);
        EXPECT_EQ(sdRandomRange(key, kDrawSize, 0.3f, 0.3f), 0.3f);
        EXPECT_EQ(sdRandomRange(key, kDrawSize, -7.25f, -7.25f), -7.25f);
        float v = sdRandomRange(key, kDrawSize, 2.0f, 5.0f);
        EXPECT_GE(v, 2.0f);
        EXPECT_LT(v, 5.0f);
        float u = sdRandom01(key, kDrawSize);
        EXPECT_EQ(v, 2.0f + (5.0f - 2.0f) * u); // the same bits as the plain formula
        float wide = sdRandomRange(key, kDrawSize, -3.0e38f, 3.0e38f);
        EXPECT_TRUE(std::isfinite(wide));
    }
}

TEST(Random, CountIsInclusiveAndUniform) {
    std::vector<double> bins(7, 0.0);
    for (int i = 0; i < kSamples; ++i) {
        uint32_t n = sdRandomCount(keyOf(0, uint32_t(i)), kBurstDrawCount, 20u, 26u);
        ASSERT_GE(n, 20u);
        ASSERT_LE(n, 26u);
        bins[n - 20u] += 1.0;
    }
    EXPECT_LT(chiSquare(bins), chiSquareLimit(6.0));
    EXPECT_EQ(sdRandomCount(keyOf(0, 1), kBurstDrawCount, 9u, 9u), 9u);
    EXPECT_LE(sdRandomCount(keyOf(0, 2), kBurstDrawCount, 0u, 1u << 20), 1u << 20);
}

TEST(Random, UnitVectorIsUnitAndUniformOnTheSphere) {
    // Archimedes: each coordinate of a uniform point on the sphere is uniform in [-1, 1].
    std::vector<double> bx(32, 0.0), by(32, 0.0), bz(32, 0.0);
    for (int i = 0; i < kSamples; ++i) {
        vec3 v = sdRandomUnitVector(keyOf(0, uint32_t(i)), kDrawDirection0);
        ASSERT_NEAR(glm::length(v), 1.0f, 1.0e-6f);
        bx[std::min(size_t((v.x + 1.0f) * 16.0f), size_t(31))] += 1.0;
        by[std::min(size_t((v.y + 1.0f) * 16.0f), size_t(31))] += 1.0;
        bz[std::min(size_t((v.z + 1.0f) * 16.0f), size_t(31))] += 1.0;
    }
    EXPECT_LT(chiSquare(bx), chiSquareLimit(31.0));
    EXPECT_LT(chiSquare(by), chiSquareLimit(31.0));
    EXPECT_LT(chiSquare(bz), chiSquareLimit(31.0));
}

} // namespace
} // namespace spindrift
