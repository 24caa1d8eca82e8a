// The same bits from one scalar call per element and from loops GCC vectorises (SSE2, AVX2,
// AVX-512 where the CPU has them): the kernels use IEEE basic operations only and the build
// disables contraction, so vector width cannot change a result.
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/curl_noise.h"
#include "kernels/forces.h"
#include "kernels/kernel_loops.h"
#include "kernels/random.h"
#include "kernels/sd_math.h"

namespace spindrift {
namespace {

using test::VectorIsa;

// One element at a time, kept out of line so the reference is never vectorised.
__attribute__((noinline)) float scalarSin(float x) {
    return sdSin(x);
}
__attribute__((noinline)) float scalarCos(float x) {
    return sdCos(x);
}
__attribute__((noinline)) float scalarExp(float x) {
    return sdExp(x);
}
__attribute__((noinline)) float scalarLog(float x) {
    return sdLog(x);
}
__attribute__((noinline)) float scalarRandom(uint32_t key, uint32_t draw) {
    return sdRandom01(key, draw);
}
__attribute__((noinline)) vec3 scalarCurl(vec3 p) {
    return sdCurlNoise(p, 2u);
}
__attribute__((noinline)) vec3 scalarVelocity(vec3 p, vec3 v) {
    // The same stack as velocityLoop in kernel_loops.cpp.
    const float dt = 1.0f / 60.0f;
    ForceFieldRecord f{};
    f.shape = kForceFieldPoint;
    f.strength = 3.0f;
    f.radius = 4.0f;
    f.falloff = 1.5f;
    f.position = vec4(0.5f, 1.0f, -0.5f, 0.0f);
    f.axis = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    v = sdAcceleration(v, vec3(0.0f, -9.81f, 0.0f), dt);
    v = sdDrag(v, sdDragFactor(0.8f, dt));
    v = sdSpeedLimit(v, 4.0f, sdDragFactor(5.0f, dt));
    return sdForceField(f, p, v, dt);
}

uint32_t bits(float x) {
    uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
}

// Inputs over wide ranges, including odd counts so vector loops run their epilogues.
std::vector<float> inputs(float lo, float hi, size_t n) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = lo + (hi - lo) * sdRandom01(uint32_t(i) * 2654435761u, 0u);
    return v;
}

constexpr size_t kCount = 10007;

std::vector<VectorIsa> supportedIsas() {
    std::vector<VectorIsa> isas;
    for (VectorIsa isa : {VectorIsa::kBaseline, VectorIsa::kAvx2, VectorIsa::kAvx512}) {
        if (test::cpuSupports(isa)) isas.push_back(isa);
    }
    return isas;
}

class KernelDeterminism : public ::testing::TestWithParam<VectorIsa> {
protected:
    void SetUp() override {
        ASSERT_TRUE(test::cpuSupports(GetParam())) << "instantiated only for ISAs this CPU has";
    }
};

using UnaryLoop = void (*)(VectorIsa, const float*, float*, size_t);

void expectSameBits(VectorIsa isa, UnaryLoop loop, float (*scalar)(float), float lo, float hi) {
    std::vector<float> in = inputs(lo, hi, kCount), out(kCount);
    loop(isa, in.data(), out.data(), kCount);
    for (size_t i = 0; i < kCount; ++i)
        ASSERT_EQ(bits(out[i]), bits(scalar(in[i]))) << "input " << in[i];
}

TEST_P(KernelDeterminism, SinCosExpLogMatchScalarBits) {
    expectSameBits(GetParam(), test::sinLoop, scalarSin, -1.0e5f, 1.0e5f);
    expectSameBits(GetParam(), test::cosLoop, scalarCos, -1.0e5f, 1.0e5f);
    expectSameBits(GetParam(), test::sinLoop, scalarSin, -4.0f, 4.0f);
    expectSameBits(GetParam(), test::expLoop, scalarExp, -90.0f, 90.0f);
    expectSameBits(GetParam(), test::logLoop, scalarLog, 0.0f, 1.0e6f);
}

TEST_P(KernelDeterminism, Random01MatchesScalarBits) {
    std::vector<uint32_t> keys(kCount);
    for (size_t i = 0; i < kCount; ++i) keys[i] = sdParticleKey(3u, 1u, uint32_t(i), 0u);
    std::vector<float> out(kCount);
    test::random01Loop(GetParam(), keys.data(), kDrawSpeed, out.data(), kCount);
    for (size_t i = 0; i < kCount; ++i)
        ASSERT_EQ(bits(out[i]), bits(scalarRandom(keys[i], kDrawSpeed)));
}

TEST_P(KernelDeterminism, CurlNoiseMatchesScalarBits) {
    std::vector<float> x = inputs(-50.0f, 50.0f, kCount), y = inputs(-3.0f, 7.0f, kCount),
                       z = inputs(-20.0f, 1.0f, kCount);
    std::vector<float> ox = x, oy = y, oz = z;
    test::curlLoop(GetParam(), ox.data(), oy.data(), oz.data(), kCount);
    for (size_t i = 0; i < kCount; ++i) {
        vec3 want = scalarCurl(vec3(x[i], y[i], z[i]));
        ASSERT_EQ(bits(ox[i]), bits(want.x)) << i;
        ASSERT_EQ(bits(oy[i]), bits(want.y)) << i;
        ASSERT_EQ(bits(oz[i]), bits(want.z)) << i;
    }
}

TEST_P(KernelDeterminism, VelocityStackMatchesScalarBits) {
    std::vector<float> px = inputs(-4.0f, 5.0f, kCount), py = inputs(-3.0f, 5.0f, kCount),
                       pz = inputs(-5.0f, 4.0f, kCount);
    std::vector<float> vx = inputs(-9.0f, 9.0f, kCount), vy = inputs(-9.0f, 9.0f, kCount),
                       vz = inputs(-2.0f, 2.0f, kCount);
    std::vector<float> ox = vx, oy = vy, oz = vz;
    test::velocityLoop(GetParam(), px.data(), py.data(), pz.data(), ox.data(), oy.data(), oz.data(),
                       kCount);
    for (size_t i = 0; i < kCount; ++i) {
        vec3 want = scalarVelocity(vec3(px[i], py[i], pz[i]), vec3(vx[i], vy[i], vz[i]));
        ASSERT_EQ(bits(ox[i]), bits(want.x)) << i;
        ASSERT_EQ(bits(oy[i]), bits(want.y)) << i;
        ASSERT_EQ(bits(oz[i]), bits(want.z)) << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Isa, KernelDeterminism,
                         // Only the ISAs this CPU runs: the AVX-512 variant is checked on
                         // machines that have it (the H200 host does), never skipped.
                         ::testing::ValuesIn(supportedIsas()),
                         [](const ::testing::TestParamInfo<VectorIsa>& param_info) {
                             switch (param_info.param) {
                             case VectorIsa::kAvx2:
                                 return std::string("Avx2");
                             case VectorIsa::kAvx512:
                                 return std::string("Avx512");
                             default:
                                 return std::string("Baseline");
                             }
                         });

} // namespace
} // namespace spindrift
