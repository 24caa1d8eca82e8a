#include "kernels/curl_noise.h"
#include "kernels/forces.h"

#include <cmath>

#include <gtest/gtest.h>

#include "spindrift/effect_desc.h"

namespace spindrift {
namespace {

// Deterministic sample points spread over many lattice cells, both signs.
vec3 samplePoint(int i) {
    uint32_t key = sdParticleKey(1u, 0u, uint32_t(i), 0u);
    return vec3(sdRandom01(key, 0u), sdRandom01(key, 1u), sdRandom01(key, 2u)) * 40.0f -
           vec3(20.0f);
}

// Jacobian of the field by central differences (in double from float evaluations).
struct Jacobian {
    double m[3][3];
    double divergence() const { return m[0][0] + m[1][1] + m[2][2]; }
    double norm() const {
        double s = 0.0;
        for (auto& row : m)
            for (double v : row) s += v * v;
        return std::sqrt(s);
    }
};

Jacobian jacobian(vec3 p, uint32_t octaves, float h) {
    Jacobian j{};
    for (int axis = 0; axis < 3; ++axis) {
        vec3 d(0.0f);
        d[axis] = h;
        vec3 plus = sdCurlNoise(p + d, octaves);
        vec3 minus = sdCurlNoise(p - d, octaves);
        double step = double((p + d)[axis]) - double((p - d)[axis]); // the real float spacing
        for (int i = 0; i < 3; ++i) j.m[i][axis] = (double(plus[i]) - double(minus[i])) / step;
    }
    return j;
}

TEST(CurlNoise, OctaveLimitMatchesTheFormat) {
    EXPECT_EQ(kCurlMaxOctaves, kMaxCurlOctaves);
}

TEST(CurlNoise, GradientNoiseDerivativeMatchesFiniteDifferences) {
    const float h = 1.0e-3f;
    for (int i = 0; i < 500; ++i) {
        vec3 p = samplePoint(i) * 0.25f;
        for (uint32_t field = 0; field < 3; ++field) {
            vec4 n = sdGradientNoise(p, 77u, field);
            for (int axis = 0; axis < 3; ++axis) {
                vec3 d(0.0f);
                d[axis] = h;
                double step = double((p + d)[axis]) - double((p - d)[axis]);
                double fd = (double(sdGradientNoise(p + d, 77u, field).x) -
                             double(sdGradientNoise(p - d, 77u, field).x)) /
                            step;
                ASSERT_NEAR(n[axis + 1], fd, 2.0e-3) << "point " << i << " axis " << axis;
            }
        }
    }
}

TEST(CurlNoise, DivergenceIsZeroRelativeToTheDerivatives) {
    // div curl = 0 exactly; what remains is finite-difference truncation (O(h^2)) and float
    // rounding of the samples (~6e-8 / h), both far below 1e-3 of the Jacobian's size.
    for (uint32_t octaves : {1u, 3u}) {
        double worst = 0.0;
        for (int i = 0; i < 2000; ++i) {
            Jacobian j = jacobian(samplePoint(i), octaves, 1.0e-3f);
            worst = std::max(worst, std::fabs(j.divergence()) / std::max(j.norm(), 1.0e-3));
        }
        EXPECT_LT(worst, 1.0e-3) << octaves << " octaves";
    }
}

TEST(CurlNoise, FieldHasUnitScaleRmsMagnitude) {
    double sum2 = 0.0, largest = 0.0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        double m = glm::length(sdCurlNoise(samplePoint(i), 1u));
        sum2 += m * m;
        largest = std::max(largest, m);
    }
    double rms = std::sqrt(sum2 / n);
    EXPECT_GT(rms, 0.9);
    EXPECT_LT(rms, 1.1);
    EXPECT_LT(largest, 6.0);
}

TEST(CurlNoise, EachOctaveAddsItsOwnLayer) {
    for (int i = 0; i < 200; ++i) {
        vec3 p = samplePoint(i);
        vec3 one = sdCurlNoise(p, 1u);
        vec3 two = sdCurlNoise(p, 2u);
        EXPECT_EQ(one, sdCurlNoiseOctave(p, 0u));
        EXPECT_EQ(two, one + sdCurlNoiseOctave(p, 1u));
        EXPECT_GT(glm::length(two - one), 0.0f);
        EXPECT_EQ(sdCurlNoise(p, 6u), sdCurlNoise(p, 99u)); // clamped to kCurlMaxOctaves
    }
    // Octave o is weighted 0.5^o: its RMS magnitude is about half the previous one's.
    double rms[2] = {0.0, 0.0};
    for (int i = 0; i < 5000; ++i) {
        for (uint32_t o = 0; o < 2; ++o) {
            double m = glm::length(sdCurlNoiseOctave(samplePoint(i), o));
            rms[o] += m * m;
        }
    }
    EXPECT_NEAR(std::sqrt(rms[1] / rms[0]), 0.5, 0.05);
}

TEST(CurlNoise, FieldIsContinuousAcrossCellFaces) {
    for (int i = 0; i < 200; ++i) {
        vec3 p = samplePoint(i);
        p.x = std::floor(p.x);
        vec3 below = sdCurlNoise(vec3(std::nextafter(p.x, -100.0f), p.y, p.z), 1u);
        vec3 above = sdCurlNoise(p, 1u);
        EXPECT_LT(glm::length(below - above), 1.0e-4f);
    }
}

TEST(CurlNoiseForce, ScrollMovesTheFieldAndStrengthScalesIt) {
    vec3 p(0.3f, 1.7f, -2.2f), scroll(0.0f, 0.5f, 0.0f);
    vec3 at_zero = sdCurlNoise(p * 2.0f, 2u) * 3.0f;
    EXPECT_EQ(sdCurlNoiseAcceleration(p, 0.0f, 3.0f, 2.0f, scroll, 2u), at_zero);
    // After 2 s the field that was at p - (0, 1, 0) has drifted to p.
    vec3 drifted = sdCurlNoiseAcceleration(p, 2.0f, 3.0f, 2.0f, scroll, 2u);
    EXPECT_EQ(drifted, sdCurlNoise((p - vec3(0.0f, 1.0f, 0.0f)) * 2.0f, 2u) * 3.0f);
}

} // namespace
} // namespace spindrift
