// Value noise and fractal sums of it, for the procedural sample textures. Written with +, -, *, /
// and floor only (no libm transcendental functions), so the same inputs give the same bits on
// every IEEE-754 machine and the committed textures can be checked byte for byte.
#pragma once

#include <cstdint>

namespace spindrift::texgen {

// A 32-bit integer hash with good avalanche (lowbias32, Chris Wellons' hash prospector).
uint32_t hash32(uint32_t x);

// Smooth 3D value noise in [0, 1]: random values at integer lattice points, blended with the
// quintic fade 6t^5 - 15t^4 + 10t^3 so the result has continuous first and second derivatives.
// seed picks an independent noise field.
float valueNoise(float x, float y, float z, uint32_t seed);

// Fractal Brownian motion: octaves (1..8) of valueNoise, each at twice the frequency and half the
// amplitude of the one before and turned by about 37 degrees, normalised back to [0, 1].
float fbm(float x, float y, float z, uint32_t seed, int octaves);

// fbm animated over one loop: phase in [0, 1) moves through the field along z and scrolls it by
// (scroll_x, scroll_y); phase 0 and phase 1 give the same value, so a flipbook made from evenly
// spaced phases loops without a pop. It cross-fades two samples one period apart (the standard
// looping-noise blend).
float loopingFbm(float x, float y, float phase, float scroll_x, float scroll_y, uint32_t seed,
                 int octaves);

// Hermite smoothstep: 0 at or below edge0, 1 at or above edge1 (edge0 > edge1 reverses it).
float smoothstep(float edge0, float edge1, float x);

float clamp01(float x);

} // namespace spindrift::texgen
