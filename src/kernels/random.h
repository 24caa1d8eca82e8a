// Counter-based randomness (DESIGN rule 2). A particle's random numbers are a pure function of
// stable identities: key = sdParticleKey(effect seed, emitter index, spawn ordinal), and its n-th
// number is sdRandom01(key, n) for the frozen draw indices below. Nothing depends on a frame
// counter, a pool slot, a thread or the order in which particles are processed, so the same
// particle is born the same on the CPU and the GPU and at any frame pacing.
//
// FROZEN: the hash, the key derivation and the draw indices decide what every effect looks like.
// Changing any of them changes every cooked effect's output; append new draw indices only.
// The table is documented in docs/kernels.md.
#ifndef SPINDRIFT_KERNELS_RANDOM_H
#define SPINDRIFT_KERNELS_RANDOM_H

#include "sd_math.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// Draw indices of a particle's key (sdRandom01(key, kDraw...)). Frozen.
SD_CONST uint kDrawLifetime = 0u;
SD_CONST uint kDrawSize = 1u;
SD_CONST uint kDrawRotation = 2u;
SD_CONST uint kDrawAngularVelocity = 3u;
SD_CONST uint kDrawSpeed = 4u;
SD_CONST uint kDrawVelocityX = 5u;
SD_CONST uint kDrawVelocityY = 6u;
SD_CONST uint kDrawVelocityZ = 7u;
SD_CONST uint kDrawColor = 8u; // random_between blend, or the gradient position
SD_CONST uint kDrawMass = 9u;
SD_CONST uint kDrawShape0 = 10u; // shape sampling: up to four numbers, per shape (docs/kernels.md)
SD_CONST uint kDrawShape1 = 11u;
SD_CONST uint kDrawShape2 = 12u;
SD_CONST uint kDrawShape3 = 13u;
SD_CONST uint kDrawDirection0 = 14u; // the random unit vector (point shape, randomize_direction)
SD_CONST uint kDrawDirection1 = 15u;
SD_CONST uint kDrawFlipbook = 16u;    // random start frame
SD_CONST uint kDrawTumbleAxis0 = 17u; // mesh render: the tumble axis (a unit vector)
SD_CONST uint kDrawTumbleAxis1 = 18u;
SD_CONST uint kDrawCount = 19u;
// Draw indices from kDrawFirstBackend on are left to the backends (sub-emitter decisions and the
// like); indices below it are only ever used as listed above.
SD_CONST uint kDrawFirstBackend = 32u;

// Draw indices of a burst cycle's key (sdBurstKey). Frozen.
SD_CONST uint kBurstDrawProbability = 0u; // the cycle fires when sdRandom01 < probability
SD_CONST uint kBurstDrawCount = 1u;       // sdRandomCount(key, kBurstDrawCount, min, max)

// Domain constants keep particle keys, burst keys and draw words apart. Frozen.
SD_CONST uint kParticleKeyDomain = 0x9E3779B9u;
SD_CONST uint kBurstKeyDomain = 0x85EBCA6Bu;
SD_CONST uint kDrawDomain = 0xC2B2AE35u;

// lowbias32 (C. Wellons, "Hash Prospector", 2020): a bijection of 32-bit words with very low
// avalanche bias. Multiplications wrap modulo 2^32 in C++ (uint) and GLSL alike.
SD_FUNC uint sdHash(uint x) {
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

// The key of one particle. ordinal_lo/hi are the low and high 32 bits of the emitter's 64-bit
// spawn ordinal. Each word goes through its own hash step h = sdHash(h ^ word); every step is a
// bijection of both h and word, so keys that differ in exactly one input word always differ.
SD_FUNC uint sdParticleKey(uint seed, uint emitter_index, uint ordinal_lo, uint ordinal_hi) {
    uint h = sdHash(seed ^ kParticleKeyDomain);
    h = sdHash(h ^ emitter_index);
    h = sdHash(h ^ ordinal_lo);
    return sdHash(h ^ ordinal_hi);
}

// The key of one burst cycle: which cycle fires and how many it spawns (kBurstDraw*). loop_index
// is the effect's loop count (0 in the first pass), so a looping effect draws anew each loop.
SD_FUNC uint sdBurstKey(uint seed, uint emitter_index, uint burst_index, uint cycle_index,
                        uint loop_index) {
    uint h = sdHash(seed ^ kBurstKeyDomain);
    h = sdHash(h ^ emitter_index);
    h = sdHash(h ^ burst_index);
    h = sdHash(h ^ cycle_index);
    return sdHash(h ^ loop_index);
}

// The raw 32-bit draw. The draw word is hashed on its own first: with a constant draw index that
// hash folds at compile time, so a draw costs one sdHash.
SD_FUNC uint sdRandomBits(uint key, uint draw) {
    return sdHash(key ^ sdHash(draw ^ kDrawDomain));
}

// A uniform number in [0, 1): the top 24 bits of the draw, so every value is exact in float and
// 1 is never returned.
SD_FUNC float sdRandom01(uint key, uint draw) {
    return float(int(sdRandomBits(key, draw) >> 8u)) * 5.9604644775390625e-8f; // 2^-24
}

// a + (b - a) * u without overflow for any finite a, b: computed at half scale, where every
// intermediate is at most FLT_MAX, then doubled. Scaling by a power of two commutes with rounding
// (outside subnormals), so the result has the bits of a + (b - a) * u wherever that formula does
// not overflow, and a == b gives exactly a.
SD_FUNC float sdLerpRange(float a, float b, float u) {
    return 2.0f * (a * 0.5f + (b * 0.5f - a * 0.5f) * u);
}

// Uniform in [a, b) (a when a == b); a > b is allowed and mirrors the range.
SD_FUNC float sdRandomRange(uint key, uint draw, float a, float b) {
    return sdLerpRange(a, b, sdRandom01(key, draw));
}

// Uniform integer in [lo, hi] inclusive, hi >= lo, hi - lo < 2^24 (burst and sub-emitter counts
// are at most 2^20). Bias is below (hi - lo + 1) / 2^24.
SD_FUNC uint sdRandomCount(uint key, uint draw, uint lo, uint hi) {
    float span = float(int(hi - lo)) + 1.0f;
    uint pick = uint(int(sdRandom01(key, draw) * span));
    return lo + min(pick, hi - lo);
}

// A uniformly distributed unit vector from draws draw0 and draw0 + 1 (Archimedes: z uniform in
// (-1, 1], azimuth uniform). Length is 1 within 2 ulp.
SD_FUNC vec3 sdRandomUnitVector(uint key, uint draw0) {
    float z = 1.0f - 2.0f * sdRandom01(key, draw0);
    float phi = kTwoPi * sdRandom01(key, draw0 + 1u);
    float r = sqrt(max(1.0f - z * z, 0.0f));
    float s;
    float c;
    sdSinCos(phi, s, c);
    return vec3(r * c, r * s, z);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_RANDOM_H
