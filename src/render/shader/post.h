// The HDR post maths (docs/rendering.md, "Colour pipeline"), written once in the C++/GLSL subset:
// the post compute shaders (shaders/post_*.comp) run it on the frame, the CPU-side tests run the
// same text as the reference.
//
// Order, per pixel: sanitise (NaN to 0, clamp to the largest half float), bloom mix, exposure,
// tone map, and the 8-bit sRGB encode of the readback (render/readback.h).
// - Bloom (Jimenez, "Next Generation Post Processing in Call of Duty: Advanced Warfare",
//   SIGGRAPH 2014): a chain of half-size levels, each made by the 13-tap downsample (sdBloomDown;
//   on the first level each of its five 4-tap boxes is weighted by 1 / (1 + luma), Karis's
//   average, so one firefly cannot flood a level), then summed back up with a 3x3 tent
//   (sdBloomTent): up[i] = down[i] + tent(up[i + 1]). The sum of L levels over L is a blur of the
//   frame with the frame's own energy, mixed in with no threshold: mix(frame, blur, strength).
// - Exposure: manual 2^ev, or automatic from a log-luminance histogram (sdHistogramBin, the
//   percentile average sdHistogramAccumulate, adapted over time by sdAdaptLog2).
// - Tone map (kTonemap*): none, ACES (Narkowicz's fit), AgX (Wrensch's fit), Reinhard.
#ifndef SPINDRIFT_RENDER_SHADER_POST_H
#define SPINDRIFT_RENDER_SHADER_POST_H

#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

#ifdef __cplusplus
using glm::exp2;
using glm::log2;
using glm::pow;
#endif

// Tone-mapping curves: the values of the scene's Tonemap enum (scene_desc.h). Frozen.
SD_CONST uint kTonemapNone = 0u;
SD_CONST uint kTonemapAces = 1u;
SD_CONST uint kTonemapAgx = 2u;
SD_CONST uint kTonemapReinhard = 3u;
SD_CONST uint kTonemapCount = 4u;

// The largest finite half float: every colour the post reads or writes is clamped to it.
SD_CONST float kPostHalfMax = 65504.0f;
// The luminance automatic exposure maps the frame's average to (middle grey).
SD_CONST float kExposureKey = 0.18f;

// The one descriptor set of every post pass: a sampled source, a storage destination (RGBA16F)
// and a second sampled source (the upsample's level below, the composite's bloom).
SD_CONST uint kSetPost = 0u;
SD_CONST uint kBindingPostSource = 0u;
SD_CONST uint kBindingPostTarget = 1u;
SD_CONST uint kBindingPostSecond = 2u;
// Workgroups: 8 x 8 pixels for the image passes, 16 x 16 for the histogram (one bin a thread).
SD_CONST uint kPostGroupSize = 8u;
SD_CONST uint kHistogramGroupSize = 16u;

// The luminance histogram: bin 0 counts pixels darker than 2^kHistogramMinLog2 (black; left out
// of the average), bins 1..255 split log2 luminance in [kHistogramMinLog2, kHistogramMaxLog2]
// evenly (brighter pixels land in bin 255). The exposure state follows the bins in one buffer.
SD_CONST uint kHistogramBins = 256u;
SD_CONST float kHistogramMinLog2 = -12.0f;
SD_CONST float kHistogramMaxLog2 = 12.0f;
SD_CONST uint kPostStateOffsetBytes = 1024u; // kHistogramBins uints, then the state
SD_CONST uint kPostBufferBytes = 1040u;      // + 4 floats: PostState

// The exposure state the GPU keeps between frames (and the host reads back for statistics).
struct PostState {
    float adapted_log2; // log2 of the adapted average luminance
    float scale;        // the exposure multiplier the frame used
    float target_log2;  // log2 of this frame's measured average (clamped)
    float pad0;
};

// Push constants of every post pass (one block; each pass reads what it needs).
struct PostPush {
    vec4 texel;  // xy: 1 / the sampled source's size, zw: 1 / the destination's size
    uvec4 mode;  // x: 1 for the first downsample (Karis), y: kTonemap*, z: 1 automatic exposure,
                 // w: bloom levels summed (0: no bloom)
    vec4 values; // x: manual exposure multiplier (or the auto compensation 2^ev), y: bloom
                 // strength, z: seconds since the last frame (< 0: converge at once), w: speed
    vec4 range;  // automatic: x min_ev, y max_ev, z low fraction, w high fraction of the pixels
    uvec4 state; // xy: device address of the histogram + PostState buffer; zw: 0
};

// Rec. 709 luminance of linear RGB.
SD_FUNC float sdLuminance(vec3 c) {
    return dot(c, vec3(0.2126f, 0.7152f, 0.0722f));
}

// NaN (and negative) to 0, +Inf and overflow to kPostHalfMax, per channel: nothing a half-float
// target could not hold, nor any NaN, leaves a post pass. The comparisons are false for NaN.
SD_FUNC float sdPostSanitize1(float v) {
    return v > 0.0f ? min(v, kPostHalfMax) : 0.0f;
}
SD_FUNC vec3 sdPostSanitize(vec3 c) {
    return vec3(sdPostSanitize1(c.x), sdPostSanitize1(c.y), sdPostSanitize1(c.z));
}

// ---- Bloom -----------------------------------------------------------------------------------

// Karis's weight of a box average: 1 / (1 + luma).
SD_FUNC float sdKarisWeight(vec3 c) {
    return 1.0f / (1.0f + sdLuminance(c));
}

// The 13-tap downsample of Jimenez (2014), its taps bilinear samples of the source at these
// offsets in source texels around the destination texel's centre:
//   a(-2, 2) b(0, 2) c(2, 2)   j(-1, 1) k(1, 1)
//   d(-2, 0) e(0, 0) f(2, 0)
//   g(-2,-2) h(0,-2) i(2,-2)   l(-1,-1) m(1,-1)
// Five overlapping 2x2-texel boxes: the centre one (j k l m) weighs 0.5, the four corner ones
// (a b d e, b c e f, d e g h, e f h i) 0.125 each, so a constant image stays constant. With
// karis, each box is weighted by sdKarisWeight of its average instead, normalised.
SD_FUNC vec3 sdBloomDown(vec3 a, vec3 b, vec3 c, vec3 d, vec3 e, vec3 f, vec3 g, vec3 h, vec3 i,
                         vec3 j, vec3 k, vec3 l, vec3 m, bool karis) {
    vec3 center = (j + k + l + m) * 0.25f;
    vec3 top_left = (a + b + d + e) * 0.25f;
    vec3 top_right = (b + c + e + f) * 0.25f;
    vec3 bottom_left = (d + e + g + h) * 0.25f;
    vec3 bottom_right = (e + f + h + i) * 0.25f;
    float wc = 0.5f;
    float w0 = 0.125f;
    float w1 = 0.125f;
    float w2 = 0.125f;
    float w3 = 0.125f;
    if (karis) {
        wc *= sdKarisWeight(center);
        w0 *= sdKarisWeight(top_left);
        w1 *= sdKarisWeight(top_right);
        w2 *= sdKarisWeight(bottom_left);
        w3 *= sdKarisWeight(bottom_right);
    }
    vec3 sum = center * wc + top_left * w0 + top_right * w1 + bottom_left * w2 + bottom_right * w3;
    return sdPostSanitize(sum / (wc + w0 + w1 + w2 + w3));
}

// The 3x3 tent (1 2 1 / 2 4 2 / 1 2 1, over 16) of the upsample, its taps bilinear samples of
// the smaller level one of its texels apart, row by row from the top left.
SD_FUNC vec3 sdBloomTent(vec3 a, vec3 b, vec3 c, vec3 d, vec3 e, vec3 f, vec3 g, vec3 h, vec3 i) {
    vec3 sum = (a + c + g + i) + (b + d + f + h) * 2.0f + e * 4.0f;
    return sum * (1.0f / 16.0f);
}

// A level of the upward chain: its own downsampled level plus the blurred level below.
SD_FUNC vec3 sdBloomUp(vec3 down, vec3 tent_of_below) {
    return sdPostSanitize(down + tent_of_below);
}

// The frame with bloom: levels_sum (the top of the upward chain, blurred once more) holds
// `levels` levels, so levels_sum / levels has the frame's energy; strength in [0, 1].
SD_FUNC vec3 sdBloomMix(vec3 frame, vec3 levels_sum, uint levels, float strength) {
    if (levels == 0u) return frame;
    vec3 blur = levels_sum / float(levels);
    return sdPostSanitize(mix(frame, blur, strength));
}

// ---- Exposure --------------------------------------------------------------------------------

// The histogram bin of a pixel of luminance `luminance` (see kHistogramBins).
SD_FUNC uint sdHistogramBin(float luminance) {
    if (!(luminance >= exp2(kHistogramMinLog2))) return 0u; // also NaN
    float t = (log2(min(luminance, kPostHalfMax)) - kHistogramMinLog2) /
              (kHistogramMaxLog2 - kHistogramMinLog2);
    float bin = min(max(t, 0.0f) * float(kHistogramBins - 1u), float(kHistogramBins - 2u));
    return 1u + uint(bin);
}

// The log2 luminance at the centre of bin (1..255).
SD_FUNC float sdHistogramBinLog2(uint bin) {
    float t = (float(bin) - 0.5f) / float(kHistogramBins - 1u);
    return kHistogramMinLog2 + t * (kHistogramMaxLog2 - kHistogramMinLog2);
}

// One step of the percentile average, called for bins 1..255 in order: of the `count` pixels of
// `bin`, the share that lies between the low and high pixel ranks (low = lit pixels x low
// fraction, high = lit pixels x high fraction) adds its bin's log2 luminance to sum and its
// count to weight. before counts the pixels of the bins already seen.
SD_FUNC void sdHistogramAccumulate(uint bin, float count, float low, float high,
                                   SD_INOUT(float) before, SD_INOUT(float) sum,
                                   SD_INOUT(float) weight) {
    float inside = max(0.0f, min(before + count, high) - max(before, low));
    sum += inside * sdHistogramBinLog2(bin);
    weight += inside;
    before += count;
}

// The frame's measured log2 luminance: the average, clamped to [min_ev, max_ev]; with no lit
// pixel in the window, log2 of kExposureKey (an exposure of 1).
SD_FUNC float sdHistogramTargetLog2(float sum, float weight, float min_ev, float max_ev) {
    float average = weight > 0.0f ? sum / weight : log2(kExposureKey);
    return clamp(average, min_ev, max_ev);
}

// Adaptation: the adapted value moves toward the target by 1 - e^(-dt x speed) of the way each
// frame, so the result depends on the frame times and nothing else. dt_s < 0: at the target
// at once (a still, the first frame of a sequence, a seek).
SD_FUNC float sdAdaptLog2(float previous, float target, float dt_s, float speed_per_s) {
    if (dt_s < 0.0f || !(previous == previous)) return target;
    float keep = exp2(-dt_s * speed_per_s * 1.4426950408889634f); // e^(-dt speed)
    return target + (previous - target) * keep;
}

// The automatic exposure multiplier: compensation (2^ev) x kExposureKey / 2^adapted_log2.
SD_FUNC float sdAutoExposureScale(float adapted_log2, float compensation) {
    return compensation * kExposureKey * exp2(-adapted_log2);
}

// ---- Tone mapping ----------------------------------------------------------------------------

// Narkowicz, "ACES Filmic Tone Mapping Curve" (2015): a fit of the ACES RRT + sRGB ODT, per
// channel: x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14), clamped to [0, 1]. 0.18 maps to
// about 0.27, 1 to 0.80, and the curve reaches 1 near 10.
SD_FUNC vec3 sdTonemapAces(vec3 x) {
    vec3 n = x * (x * 2.51f + 0.03f);
    vec3 d = x * (x * 2.43f + 0.59f) + 0.14f;
    return clamp(n / d, vec3(0.0f), vec3(1.0f));
}

// Reinhard, per channel: x / (1 + x).
SD_FUNC vec3 sdTonemapReinhard(vec3 x) {
    return x / (x + 1.0f);
}

// AgX (Sobotka), in the minimal form of Wrensch ("Minimal AgX Implementation", 2023): the colour
// is moved into the AgX working space (the inset matrix, columns written out), log2-encoded over
// [-12.47393, 4.026069] EV, put through the sixth-order fit of the default contrast sigmoid, moved
// back (the outset matrix) and decoded from the display's 2.2 gamma to linear, so the readback's
// sRGB encode is the only one.
SD_FUNC vec3 sdAgxContrast(vec3 x) {
    vec3 x2 = x * x;
    vec3 x4 = x2 * x2;
    return x4 * x2 * 15.5f - x4 * x * 40.14f + x4 * 31.96f - x2 * x * 6.868f + x2 * 0.4298f +
           x * 0.1191f - 0.00232f;
}

SD_FUNC vec3 sdTonemapAgx(vec3 c) {
    vec3 inset = vec3(0.842479062253094f, 0.0423282422610123f, 0.0423756549057051f) * c.x +
                 vec3(0.0784335999999992f, 0.878468636469772f, 0.0784336f) * c.y +
                 vec3(0.0792237451477643f, 0.0791661274605434f, 0.879142973793104f) * c.z;
    float min_ev = -12.47393f;
    float max_ev = 4.026069f;
    vec3 encoded = clamp(log2(max(inset, vec3(1.0e-10f))), vec3(min_ev), vec3(max_ev));
    encoded = (encoded - min_ev) / (max_ev - min_ev);
    vec3 curve = sdAgxContrast(encoded);
    vec3 outset = vec3(1.19687900512017f, -0.0528968517574562f, -0.0529716355144438f) * curve.x +
                  vec3(-0.0980208811401368f, 1.15190312990417f, -0.0980434501171241f) * curve.y +
                  vec3(-0.0990297440797205f, -0.0989611768448433f, 1.15107367264116f) * curve.z;
    return pow(clamp(outset, vec3(0.0f), vec3(1.0f)), vec3(2.2f));
}

// The curve kTonemap* applied to exposed linear colour; none returns it unchanged (the readback
// clamps it to [0, 1]).
SD_FUNC vec3 sdTonemap(vec3 c, uint tonemap) {
    if (tonemap == kTonemapAces) return sdTonemapAces(c);
    if (tonemap == kTonemapAgx) return sdTonemapAgx(c);
    if (tonemap == kTonemapReinhard) return sdTonemapReinhard(c);
    return c;
}

// One pixel of the final pass: sanitised frame colour, bloom mixed in, exposed, tone mapped.
SD_FUNC vec3 sdPostPixel(vec3 frame, vec3 levels_sum, uint levels, float strength, float exposure,
                         uint tonemap) {
    vec3 c = sdBloomMix(sdPostSanitize(frame), levels_sum, levels, strength);
    return sdTonemap(sdPostSanitize(c * exposure), tonemap);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_RENDER_SHADER_POST_H
