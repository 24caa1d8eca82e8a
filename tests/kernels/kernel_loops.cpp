#include "kernels/kernel_loops.h"

#include "kernels/curl_noise.h"
#include "kernels/forces.h"
#include "kernels/random.h"
#include "kernels/sd_math.h"

namespace spindrift::test {
namespace {

// The fixed parameters of velocityLoop.
ForceFieldRecord testField() {
    ForceFieldRecord f{};
    f.shape = kForceFieldPoint;
    f.strength = 3.0f;
    f.radius = 4.0f;
    f.falloff = 1.5f;
    f.position = vec4(0.5f, 1.0f, -0.5f, 0.0f);
    f.axis = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    return f;
}

// Each body is written once and instantiated per ISA below. The column pointers are __restrict:
// without it GCC needs a run-time alias check per pair of arrays and gives up past ten pairs
// (--param vect-max-version-for-alias-checks), as the CPU backend's pool loops would.
__attribute__((always_inline)) inline void sinBody(const float* in, float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = sdSin(in[i]);
}
__attribute__((always_inline)) inline void cosBody(const float* in, float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = sdCos(in[i]);
}
__attribute__((always_inline)) inline void expBody(const float* in, float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = sdExp(in[i]);
}
__attribute__((always_inline)) inline void logBody(const float* in, float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = sdLog(in[i]);
}
__attribute__((always_inline)) inline void randomBody(const uint32_t* keys, uint32_t draw,
                                                      float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = sdRandom01(keys[i], draw);
}
__attribute__((always_inline)) inline void curlBody(float* __restrict x, float* __restrict y,
                                                    float* __restrict z, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        vec3 c = sdCurlNoise(vec3(x[i], y[i], z[i]), 2u);
        x[i] = c.x;
        y[i] = c.y;
        z[i] = c.z;
    }
}
__attribute__((always_inline)) inline void
velocityBody(const float* __restrict px, const float* __restrict py, const float* __restrict pz,
             float* __restrict vx, float* __restrict vy, float* __restrict vz, size_t n) {
    const float dt = 1.0f / 60.0f;
    const float drag = sdDragFactor(0.8f, dt);
    const float limit = sdDragFactor(5.0f, dt);
    const ForceFieldRecord field = testField();
    for (size_t i = 0; i < n; ++i) {
        vec3 p(px[i], py[i], pz[i]);
        vec3 v(vx[i], vy[i], vz[i]);
        v = sdAcceleration(v, vec3(0.0f, -9.81f, 0.0f), dt);
        v = sdDrag(v, drag);
        v = sdSpeedLimit(v, 4.0f, limit);
        v = sdForceField(field, p, v, dt);
        vx[i] = v.x;
        vy[i] = v.y;
        vz[i] = v.z;
    }
}

#define SPINDRIFT_ISA_VARIANTS(suffix, attr)                                                       \
    attr void sin##suffix(const float* in, float* out, size_t n) {                                 \
        sinBody(in, out, n);                                                                       \
    }                                                                                              \
    attr void cos##suffix(const float* in, float* out, size_t n) {                                 \
        cosBody(in, out, n);                                                                       \
    }                                                                                              \
    attr void exp##suffix(const float* in, float* out, size_t n) {                                 \
        expBody(in, out, n);                                                                       \
    }                                                                                              \
    attr void log##suffix(const float* in, float* out, size_t n) {                                 \
        logBody(in, out, n);                                                                       \
    }                                                                                              \
    attr void random##suffix(const uint32_t* k, uint32_t d, float* out, size_t n) {                \
        randomBody(k, d, out, n);                                                                  \
    }                                                                                              \
    attr void curl##suffix(float* x, float* y, float* z, size_t n) {                               \
        curlBody(x, y, z, n);                                                                      \
    }                                                                                              \
    attr void velocity##suffix(const float* px, const float* py, const float* pz, float* vx,       \
                               float* vy, float* vz, size_t n) {                                   \
        velocityBody(px, py, pz, vx, vy, vz, n);                                                   \
    }

SPINDRIFT_ISA_VARIANTS(Baseline, )
#if defined(__x86_64__)
SPINDRIFT_ISA_VARIANTS(Avx2, __attribute__((target("avx2"))))
SPINDRIFT_ISA_VARIANTS(Avx512, __attribute__((target("avx512f,avx512dq,avx512vl,avx2"))))
#define SPINDRIFT_PICK(name, isa, ...)                                                             \
    ((isa) == VectorIsa::kAvx2     ? name##Avx2(__VA_ARGS__)                                       \
     : (isa) == VectorIsa::kAvx512 ? name##Avx512(__VA_ARGS__)                                     \
                                   : name##Baseline(__VA_ARGS__))
#else
#define SPINDRIFT_PICK(name, isa, ...) name##Baseline(__VA_ARGS__)
#endif

} // namespace

bool cpuSupports(VectorIsa isa) {
#if defined(__x86_64__)
    if (isa == VectorIsa::kAvx2) return __builtin_cpu_supports("avx2");
    if (isa == VectorIsa::kAvx512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl");
    return true;
#else
    return isa == VectorIsa::kBaseline;
#endif
}

void sinLoop(VectorIsa isa, const float* in, float* out, size_t n) {
    SPINDRIFT_PICK(sin, isa, in, out, n);
}
void cosLoop(VectorIsa isa, const float* in, float* out, size_t n) {
    SPINDRIFT_PICK(cos, isa, in, out, n);
}
void expLoop(VectorIsa isa, const float* in, float* out, size_t n) {
    SPINDRIFT_PICK(exp, isa, in, out, n);
}
void logLoop(VectorIsa isa, const float* in, float* out, size_t n) {
    SPINDRIFT_PICK(log, isa, in, out, n);
}
void random01Loop(VectorIsa isa, const uint32_t* keys, uint32_t draw, float* out, size_t n) {
    SPINDRIFT_PICK(random, isa, keys, draw, out, n);
}
void curlLoop(VectorIsa isa, float* x, float* y, float* z, size_t n) {
    SPINDRIFT_PICK(curl, isa, x, y, z, n);
}
void velocityLoop(VectorIsa isa, const float* px, const float* py, const float* pz, float* vx,
                  float* vy, float* vz, size_t n) {
    SPINDRIFT_PICK(velocity, isa, px, py, pz, vx, vy, vz, n);
}

} // namespace spindrift::test
