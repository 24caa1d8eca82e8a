// The colour of a black body at a temperature, for fire that follows its temperature over its
// life (seed 003: "Hot particles use the Tanner Helland blackbody approximation"). One text for
// the CPU backend and the compute shaders: the blackbody op (kOpBlackbody) of sdParticleAppearance
// calls it on both (docs/kernels.md).
//
// The fit is Tanner Helland's, "How to Convert Temperature (K) to RGB: Algorithm and Sample
// Code" (tannerhelland.com, 2012): curves fitted to Mitchell Charity's blackbody table ("What
// color is a blackbody?", vendian.org, CIE 1931 2-degree observer, sRGB primaries, D65 white),
// valid from 1000 K to 40000 K. It gives sRGB-encoded display values; we decode them to linear
// RGB (IEC 61966-2-1) and scale so the largest channel is 1: a normalised chromaticity whose
// brightness is left to the effect's intensity (what an artist keys), not to T^4.
//
// Powers and logarithms go through sdPow/sdLog (sd_math.h) so both backends give the same bits;
// every branch is a select of values computed on both sides, as in sd_math.h.
#ifndef SPINDRIFT_KERNELS_BLACKBODY_H
#define SPINDRIFT_KERNELS_BLACKBODY_H

#include "sd_math.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// The fitted range, kelvin; temperatures outside it are clamped into it. Equal to the authoring
// limits kMinBlackbodyKelvin / kMaxBlackbodyKelvin (include/spindrift/effect_desc.h).
SD_CONST float kBlackbodyMinKelvin = 1000.0f;
SD_CONST float kBlackbodyMaxKelvin = 40000.0f;

// IEC 61966-2-1 decoding of one sRGB-encoded channel in [0, 1] to linear.
SD_FUNC float sdSrgbToLinear(float c) {
    float low = c / 12.92f;
    float high = sdPow((c + 0.055f) / 1.055f, 2.4f);
    return c <= 0.04045f ? low : high;
}

// Helland's fit in its own units: t = kelvin / 100, channels 0..255, sRGB-encoded, clamped.
SD_FUNC vec3 sdBlackbodySrgb255(float t) {
    // Both sides of each split are evaluated at arguments kept in range, then selected.
    float hot = max(t - 60.0f, 1.0f);
    float red_hot = 329.698727446f * sdPow(hot, -0.1332047592f);
    float green_cool = 99.4708025861f * sdLog(t) - 161.1195681661f;
    float green_hot = 288.1221695283f * sdPow(hot, -0.0755148492f);
    float blue_mid = 138.5177312231f * sdLog(max(t - 10.0f, 1.0f)) - 305.0447927307f;
    float r = t <= 66.0f ? 255.0f : red_hot;
    float g = t <= 66.0f ? green_cool : green_hot;
    float b = t >= 66.0f ? 255.0f : (t <= 19.0f ? 0.0f : blue_mid);
    return clamp(vec3(r, g, b), vec3(0.0f), vec3(255.0f));
}

// The linear RGB colour of a black body at kelvin (clamped to [kBlackbodyMinKelvin,
// kBlackbodyMaxKelvin]; NaN reads as the minimum), its largest channel 1: 1000 K is a deep
// red-orange, about 6500 K near white (D65), 40000 K a pale blue.
SD_FUNC vec3 sdBlackbodyColor(float kelvin) {
    float k = kelvin > kBlackbodyMinKelvin ? kelvin : kBlackbodyMinKelvin;
    k = k < kBlackbodyMaxKelvin ? k : kBlackbodyMaxKelvin;
    vec3 encoded = sdBlackbodySrgb255(k / 100.0f) / 255.0f;
    vec3 linear =
        vec3(sdSrgbToLinear(encoded.x), sdSrgbToLinear(encoded.y), sdSrgbToLinear(encoded.z));
    // The fit holds red at 255 up to 6600 K and blue from there, so the peak is 1 up to the
    // rounding of the decode; dividing makes it exactly the largest channel.
    float peak = max(linear.x, max(linear.y, linear.z));
    return linear / max(peak, 1.0e-6f);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_BLACKBODY_H
