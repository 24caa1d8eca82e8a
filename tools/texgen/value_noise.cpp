#include "texgen/value_noise.h"

#include <cmath>

namespace spindrift::texgen {
namespace {

float fade(float t) {
    return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

float lerp(float a, float b, float t) {
    return a + (b - a) * t;
}

float lattice(int32_t x, int32_t y, int32_t z, uint32_t seed) {
    // Distinct odd multipliers per axis keep (1, 0, 0) and (0, 1, 0) apart before hashing.
    const uint32_t key = static_cast<uint32_t>(x) * 0x8da6b343u ^
                         static_cast<uint32_t>(y) * 0xd8163841u ^
                         static_cast<uint32_t>(z) * 0xcb1ab31fu ^ seed * 0x9e3779b9u;
    // The top 24 bits convert to float exactly.
    return static_cast<float>(hash32(key) >> 8) * (1.0f / 16777216.0f);
}

} // namespace

uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

float valueNoise(float x, float y, float z, uint32_t seed) {
    const float fx = std::floor(x);
    const float fy = std::floor(y);
    const float fz = std::floor(z);
    const auto ix = static_cast<int32_t>(fx);
    const auto iy = static_cast<int32_t>(fy);
    const auto iz = static_cast<int32_t>(fz);
    const float sx = fade(x - fx);
    const float sy = fade(y - fy);
    const float sz = fade(z - fz);
    float layer[2];
    for (int32_t dz = 0; dz < 2; ++dz) {
        const float c00 = lattice(ix, iy, iz + dz, seed);
        const float c10 = lattice(ix + 1, iy, iz + dz, seed);
        const float c01 = lattice(ix, iy + 1, iz + dz, seed);
        const float c11 = lattice(ix + 1, iy + 1, iz + dz, seed);
        layer[dz] = lerp(lerp(c00, c10, sx), lerp(c01, c11, sx), sy);
    }
    return lerp(layer[0], layer[1], sz);
}

float fbm(float x, float y, float z, uint32_t seed, int octaves) {
    float sum = 0.0f;
    float amplitude = 1.0f;
    float total = 0.0f;
    for (int octave = 0; octave < octaves && octave < 8; ++octave) {
        // Each octave gets its own field so the lattices of successive octaves do not line up.
        sum += amplitude * valueNoise(x, y, z, seed + static_cast<uint32_t>(octave) * 101u);
        total += amplitude;
        amplitude *= 0.5f;
        // Doubling plus a rotation by the 3-4-5 angle keeps the lattices of successive octaves
        // from aligning, which would show as horizontal and vertical streaks.
        const float rotated_x = 0.8f * x - 0.6f * y;
        const float rotated_y = 0.6f * x + 0.8f * y;
        x = rotated_x * 2.0f;
        y = rotated_y * 2.0f;
        z *= 2.0f;
    }
    return total > 0.0f ? sum / total : 0.0f;
}

float loopingFbm(float x, float y, float phase, float scroll_x, float scroll_y, uint32_t seed,
                 int octaves) {
    // One period spans 2 lattice cells along z so consecutive frames differ but stay related.
    constexpr float kPeriodZ = 2.0f;
    const float now =
        fbm(x - phase * scroll_x, y - phase * scroll_y, phase * kPeriodZ, seed, octaves);
    const float earlier = fbm(x - (phase - 1.0f) * scroll_x, y - (phase - 1.0f) * scroll_y,
                              (phase - 1.0f) * kPeriodZ, seed, octaves);
    return now * (1.0f - phase) + earlier * phase;
}

float smoothstep(float edge0, float edge1, float x) {
    const float t = clamp01((x - edge0) / (edge1 - edge0));
    return t * t * (3.0f - 2.0f * t);
}

float clamp01(float x) {
    return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}

} // namespace spindrift::texgen
