// Loops over arrays that call the kernels, compiled in kernel_loops.cpp with -O3
// -fno-trapping-math so GCC vectorises them (SSE2 by default, and again for AVX2 and AVX-512
// through target attributes). determinism_test.cpp compares their results bit for bit with one
// scalar call per element. Arrays are structure-of-arrays, as in the CPU backend's pools.
#ifndef SPINDRIFT_TESTS_KERNELS_KERNEL_LOOPS_H
#define SPINDRIFT_TESTS_KERNELS_KERNEL_LOOPS_H

#include <cstddef>
#include <cstdint>

namespace spindrift::test {

enum class VectorIsa { kBaseline, kAvx2, kAvx512 };

// Whether this CPU can run the loops built for `isa`.
bool cpuSupports(VectorIsa isa);

// out[i] = f(in[i]) for sdSin, sdCos, sdExp, sdLog.
void sinLoop(VectorIsa isa, const float* in, float* out, size_t n);
void cosLoop(VectorIsa isa, const float* in, float* out, size_t n);
void expLoop(VectorIsa isa, const float* in, float* out, size_t n);
void logLoop(VectorIsa isa, const float* in, float* out, size_t n);
// out[i] = sdRandom01(keys[i], draw)
void random01Loop(VectorIsa isa, const uint32_t* keys, uint32_t draw, float* out, size_t n);
// (x, y, z)[i] = sdCurlNoise(p[i], 2) in place, and one basic-stack velocity update
// (gravity, drag, speed limit, one point force field of falloff 1.5) in place.
void curlLoop(VectorIsa isa, float* x, float* y, float* z, size_t n);
void velocityLoop(VectorIsa isa, const float* px, const float* py, const float* pz, float* vx,
                  float* vy, float* vz, size_t n);

} // namespace spindrift::test

#endif // SPINDRIFT_TESTS_KERNELS_KERNEL_LOOPS_H
