// Curl noise (R. Bridson, J. Hourihan, M. Nordenstam, "Curl-Noise for Procedural Fluid Flow",
// SIGGRAPH 2007): the velocity-like field curl(psi) of a vector potential psi = (N1, N2, N3) made
// of three gradient-noise fields (K. Perlin, "Improving Noise", 2002: quintic fade, random
// gradients on the integer lattice) with analytic derivatives (I. Quilez, "gradient noise
// derivatives"). psi is C2, so div(curl psi) = 0 exactly in real arithmetic: the field swirls
// particles without bunching them. No finite differences, no sin/cos, no tables: lattice
// gradients come from a hash of the cell corner computed arithmetically, so it vectorises.
//
// Octaves: octave o samples the field at 2^o p with its own hash seed and weight 0.5^o; each
// octave is divergence-free on its own, so the sum is too. sdCurlNoise adds octaves 1..5 under
// `if (octaves > o)` (kCurlMaxOctaves of them at most). Cost note for the CPU backend: a loop over
// particles calling sdCurlNoise with a run-time octave count keeps those branches and does not
// vectorise; call it with a compile-time constant count (switch on the op's octave count once,
// outside the particle loop), or loop over octaves outside and particles inside with
// sdCurlNoiseOctave. Measured: both forms vectorise with GCC 12 -O3 -fno-trapping-math
// -fno-math-errno (tests/kernels/kernel_loops.cpp).
#ifndef SPINDRIFT_KERNELS_CURL_NOISE_H
#define SPINDRIFT_KERNELS_CURL_NOISE_H

#include "random.h"
#include "sd_math.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// The most octaves sdCurlNoise evaluates; equal to kMaxCurlOctaves of effect_desc.h (a test
// checks it; the kernels cannot include that C++-only header).
SD_CONST uint kCurlMaxOctaves = 6u;
// Scales one octave so the field's RMS magnitude is about 1 (measured over many cells in
// tests/kernels/curl_noise_test.cpp), making `strength` roughly the RMS acceleration.
SD_CONST float kCurlNoiseGain = 0.82f;
// Hash seeds of the octaves: octave o uses o * kCurlOctaveSeed.
SD_CONST uint kCurlOctaveSeed = 0x68E31DA4u;

// A hash of the lattice corner (ix, iy, iz) under seed (multiplies by large odd constants spread
// the coordinates before lowbias32 mixes them).
SD_FUNC uint sdLatticeHash(int ix, int iy, int iz, uint seed) {
    return sdHash((uint(ix) * 0x8DA6B343u) ^ (uint(iy) * 0xD8163841u) ^ (uint(iz) * 0xCB1AB31Fu) ^
                  seed);
}

// A cheap second mix of a hash, to draw more than 32 bits of gradient from one corner hash.
SD_FUNC uint sdRemix(uint h) {
    h = (h ^ (h >> 13u)) * 0x5BD1E995u;
    return h ^ (h >> 15u);
}

// A gradient with components in [-1, 1] from three 10-bit fields of h.
SD_FUNC vec3 sdLatticeGradient(uint h) {
    vec3 g =
        vec3(float(int(h & 1023u)), float(int((h >> 10u) & 1023u)), float(int((h >> 20u) & 1023u)));
    return g * (2.0f / 1023.0f) - vec3(1.0f);
}

// The value (x) and gradient (yzw) of one gradient-noise field in a cell, from the fractional
// position f, the quintic fade u and its derivative du, and the gradients at the eight corners
// a=(0,0,0) b=(1,0,0) c=(0,1,0) d=(1,1,0) e=(0,0,1) f=(1,0,1) g=(0,1,1) h=(1,1,1).
SD_FUNC vec4 sdNoiseInCell(vec3 f, vec3 u, vec3 du, vec3 ga, vec3 gb, vec3 gc, vec3 gd, vec3 ge,
                           vec3 gf, vec3 gg, vec3 gh) {
    float va = dot(ga, f);
    float vb = dot(gb, f - vec3(1.0f, 0.0f, 0.0f));
    float vc = dot(gc, f - vec3(0.0f, 1.0f, 0.0f));
    float vd = dot(gd, f - vec3(1.0f, 1.0f, 0.0f));
    float ve = dot(ge, f - vec3(0.0f, 0.0f, 1.0f));
    float vf = dot(gf, f - vec3(1.0f, 0.0f, 1.0f));
    float vg = dot(gg, f - vec3(0.0f, 1.0f, 1.0f));
    float vh = dot(gh, f - vec3(1.0f, 1.0f, 1.0f));
    // n = k0 + k1 ux + k2 uy + k3 uz + k4 ux uy + k5 uy uz + k6 uz ux + k7 ux uy uz
    float k1 = vb - va;
    float k2 = vc - va;
    float k3 = ve - va;
    float k4 = va - vb - vc + vd;
    float k5 = va - vc - ve + vg;
    float k6 = va - vb - ve + vf;
    float k7 = -va + vb + vc - vd + ve - vf - vg + vh;
    float value = va + k1 * u.x + k2 * u.y + k3 * u.z + k4 * u.x * u.y + k5 * u.y * u.z +
                  k6 * u.z * u.x + k7 * u.x * u.y * u.z;
    // d/dp of each corner's dot(g, f - corner) is g: the gradients blend like the values ...
    vec3 grad = ga + (gb - ga) * u.x + (gc - ga) * u.y + (ge - ga) * u.z +
                (ga - gb - gc + gd) * (u.x * u.y) + (ga - gc - ge + gg) * (u.y * u.z) +
                (ga - gb - ge + gf) * (u.z * u.x) +
                (-ga + gb + gc - gd + ge - gf - gg + gh) * (u.x * u.y * u.z);
    // ... plus the derivative of the fade weights.
    grad += du * vec3(k1 + k4 * u.y + k6 * u.z + k7 * u.y * u.z,
                      k2 + k4 * u.x + k5 * u.z + k7 * u.z * u.x,
                      k3 + k6 * u.x + k5 * u.y + k7 * u.x * u.y);
    return vec4(value, grad.x, grad.y, grad.z);
}

// Lattice cell and fade of p, shared by the three potential fields.
struct NoiseCell {
    int ix;
    int iy;
    int iz;
    vec3 f;
    vec3 u;
    vec3 du;
};

SD_FUNC NoiseCell sdNoiseCell(vec3 p) {
    NoiseCell c;
    c.ix = sdFloorToInt(p.x);
    c.iy = sdFloorToInt(p.y);
    c.iz = sdFloorToInt(p.z);
    c.f = p - vec3(float(c.ix), float(c.iy), float(c.iz));
    vec3 f = c.f;
    c.u = f * f * f * (f * (f * 6.0f - vec3(15.0f)) + vec3(10.0f));
    c.du = f * f * (f * (f - vec3(2.0f)) + vec3(1.0f)) * 30.0f;
    return c;
}

// One gradient-noise field (value, gradient) at p; field selects which of the three potential
// components (0, 1, 2). For tests and tools; sdCurlOctave computes all three in one pass.
SD_FUNC uint sdFieldHash(uint h, uint field) {
    uint h2 = sdRemix(h);
    uint h3 = sdRemix(h2);
    return field == 0u ? h : (field == 1u ? h2 : h3);
}
SD_FUNC vec4 sdGradientNoise(vec3 p, uint seed, uint field) {
    NoiseCell c = sdNoiseCell(p);
    return sdNoiseInCell(
        c.f, c.u, c.du,
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix, c.iy, c.iz, seed), field)),
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix + 1, c.iy, c.iz, seed), field)),
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix, c.iy + 1, c.iz, seed), field)),
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix + 1, c.iy + 1, c.iz, seed), field)),
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix, c.iy, c.iz + 1, seed), field)),
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix + 1, c.iy, c.iz + 1, seed), field)),
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix, c.iy + 1, c.iz + 1, seed), field)),
        sdLatticeGradient(sdFieldHash(sdLatticeHash(c.ix + 1, c.iy + 1, c.iz + 1, seed), field)));
}

// curl(psi) at q for one seed, without gain or octave weight.
SD_FUNC vec3 sdCurlOctave(vec3 q, uint seed) {
    NoiseCell c = sdNoiseCell(q);
    uint ha = sdLatticeHash(c.ix, c.iy, c.iz, seed);
    uint hb = sdLatticeHash(c.ix + 1, c.iy, c.iz, seed);
    uint hc = sdLatticeHash(c.ix, c.iy + 1, c.iz, seed);
    uint hd = sdLatticeHash(c.ix + 1, c.iy + 1, c.iz, seed);
    uint he = sdLatticeHash(c.ix, c.iy, c.iz + 1, seed);
    uint hf = sdLatticeHash(c.ix + 1, c.iy, c.iz + 1, seed);
    uint hg = sdLatticeHash(c.ix, c.iy + 1, c.iz + 1, seed);
    uint hh = sdLatticeHash(c.ix + 1, c.iy + 1, c.iz + 1, seed);
    vec4 n1 = sdNoiseInCell(c.f, c.u, c.du, sdLatticeGradient(ha), sdLatticeGradient(hb),
                            sdLatticeGradient(hc), sdLatticeGradient(hd), sdLatticeGradient(he),
                            sdLatticeGradient(hf), sdLatticeGradient(hg), sdLatticeGradient(hh));
    ha = sdRemix(ha);
    hb = sdRemix(hb);
    hc = sdRemix(hc);
    hd = sdRemix(hd);
    he = sdRemix(he);
    hf = sdRemix(hf);
    hg = sdRemix(hg);
    hh = sdRemix(hh);
    vec4 n2 = sdNoiseInCell(c.f, c.u, c.du, sdLatticeGradient(ha), sdLatticeGradient(hb),
                            sdLatticeGradient(hc), sdLatticeGradient(hd), sdLatticeGradient(he),
                            sdLatticeGradient(hf), sdLatticeGradient(hg), sdLatticeGradient(hh));
    ha = sdRemix(ha);
    hb = sdRemix(hb);
    hc = sdRemix(hc);
    hd = sdRemix(hd);
    he = sdRemix(he);
    hf = sdRemix(hf);
    hg = sdRemix(hg);
    hh = sdRemix(hh);
    vec4 n3 = sdNoiseInCell(c.f, c.u, c.du, sdLatticeGradient(ha), sdLatticeGradient(hb),
                            sdLatticeGradient(hc), sdLatticeGradient(hd), sdLatticeGradient(he),
                            sdLatticeGradient(hf), sdLatticeGradient(hg), sdLatticeGradient(hh));
    // curl (N1, N2, N3) = (dN3/dy - dN2/dz, dN1/dz - dN3/dx, dN2/dx - dN1/dy)
    return vec3(n3.z - n2.w, n1.w - n3.y, n2.y - n1.z);
}

// Octave o of the field at p: 0.5^o * gain * curl at 2^o p with seed o * kCurlOctaveSeed.
// Divergence-free in p on its own. o < kCurlMaxOctaves.
SD_FUNC vec3 sdCurlNoiseOctave(vec3 p, uint octave) {
    float scale = float(int(1u << octave));
    return sdCurlOctave(p * scale, octave * kCurlOctaveSeed) * (kCurlNoiseGain / scale);
}

// The curl-noise field at p (in noise units: the caller scales by frequency), summing the first
// `octaves` octaves (at most kCurlMaxOctaves; 0 gives octave 0 alone, as the compiler never
// emits 0). Written out rather than as a loop: with a compile-time octave count the unused
// octaves fold away and GCC vectorises the caller's loop, which it does not do for a loop over
// octaves (too large to unroll completely).
SD_FUNC vec3 sdCurlNoise(vec3 p, uint octaves) {
    vec3 sum = sdCurlNoiseOctave(p, 0u);
    if (octaves > 1u) sum += sdCurlNoiseOctave(p, 1u);
    if (octaves > 2u) sum += sdCurlNoiseOctave(p, 2u);
    if (octaves > 3u) sum += sdCurlNoiseOctave(p, 3u);
    if (octaves > 4u) sum += sdCurlNoiseOctave(p, 4u);
    if (octaves > 5u) sum += sdCurlNoiseOctave(p, 5u);
    return sum;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_CURL_NOISE_H
