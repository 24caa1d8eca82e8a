// Sampling the baked LUT atlas (docs/compiled-records.md, "LUT atlas"): every curve and gradient
// is one row of kLutWidth vec4 texels at t_i = i / (kLutWidth - 1). Kernels never index arrays,
// so sampling is split: sdLutTap says which two texels and the weight, the caller fetches them
// (a buffer on the CPU, a storage buffer or texture on the GPU) and blends with sdLutMix.
#ifndef SPINDRIFT_KERNELS_LUT_H
#define SPINDRIFT_KERNELS_LUT_H

#include "effect_records.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// The LUT atlas as kernels read it: texels[row * kLutWidth + i] (SD_READONLY_REF).
SD_READONLY_REF(LutRef, vec4, texels, 16);

// Texel `index` and `index + 1` of a row, blended by `weight` in [0, 1].
struct LutTap {
    uint index;
    float weight;
};

// The tap for t (clamped to [0, 1]; NaN reads as 0): index within the row, 0..kLutWidth - 2.
// t = 0 gives (0, 0) and t = 1 gives (kLutWidth - 2, 1), so both ends read their texel exactly.
SD_FUNC LutTap sdLutTap(float t) {
    float c = t > 0.0f ? t : 0.0f;
    c = c < 1.0f ? c : 1.0f;
    float u = c * float(kLutWidth - 1u);
    uint i = min(uint(int(u)), kLutWidth - 2u); // u >= 0: truncation is floor
    LutTap tap;
    tap.index = i;
    tap.weight = u - float(int(i));
    return tap;
}

// The same tap with `index` into the whole atlas: row * kLutWidth + the index in the row.
SD_FUNC LutTap sdLutAtlasTap(uint row, float t) {
    LutTap tap = sdLutTap(t);
    tap.index += row * kLutWidth;
    return tap;
}

// The blend the compiler bakes with: a * (1 - w) + b * w (glm and GLSL mix compute the same).
SD_FUNC vec4 sdLutMix(vec4 a, vec4 b, float weight) {
    return a * (1.0f - weight) + b * weight;
}
SD_FUNC float sdLutMixScalar(float a, float b, float weight) {
    return a * (1.0f - weight) + b * weight;
}

// Row `row` of the atlas sampled at t with the baker's blend, as a vec4 and as its x alone.
SD_FUNC vec4 sdLutSample(LutRef lut, uint row, float t) {
    LutTap tap = sdLutAtlasTap(row, t);
    return sdLutMix(lut.texels[tap.index], lut.texels[tap.index + 1u], tap.weight);
}
SD_FUNC float sdLutSampleScalar(LutRef lut, uint row, float t) {
    LutTap tap = sdLutAtlasTap(row, t);
    return sdLutMixScalar(lut.texels[tap.index].x, lut.texels[tap.index + 1u].x, tap.weight);
}

// Normalised speed for the by-speed ops: clamp((speed - lo) / (hi - lo), 0, 1); hi > lo is
// validated. NaN reads as 0.
SD_FUNC float sdSpeedParameter(float speed, float lo, float hi) {
    float t = (speed - lo) / (hi - lo);
    t = t > 0.0f ? t : 0.0f;
    return t < 1.0f ? t : 1.0f;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_LUT_H
