// Weighted-blended order-independent transparency (McGuire & Bavoil, "Weighted Blended
// Order-Independent Transparency", JCGT 2(2), 2013), written once in the C++/GLSL subset so the
// particle shaders, the composite shader and the CPU-side tests run the same text
// (docs/rendering.md, "Transparency").
//
// Every alpha-blended or premultiplied fragment of the frame adds to two targets, in any order,
// both with one blend state (colour ONE, ONE; alpha ZERO, ONE_MINUS_SRC_ALPHA), so the device
// needs no independentBlend:
//   accumulation (RGBA16F, cleared (0, 0, 0, 1)): rgb = sum of C_i w_i, a = product of (1 - a_i)
//   weight       (R16F, cleared 0):               r = sum of a_i w_i
// with C_i the premultiplied colour, a_i the coverage and w_i = sdOitWeight(depth_i, a_i); the
// alpha channel (the revealage) is the paper's separate revealage target, moved so that one
// blend state serves both. A full-screen pass then blends the weighted average colour over the
// opaque frame:
//   result = (sum C_i w_i / sum a_i w_i) * (1 - revealage) + dst * revealage.
// One layer gives exactly "over" (C + dst (1 - a)); several layers give an approximation in which
// nearer, more opaque layers weigh more, whatever the order they were drawn in.
#ifndef SPINDRIFT_RENDER_SHADER_OIT_H
#define SPINDRIFT_RENDER_SHADER_OIT_H

#include "kernels/effect_records.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// The composite pass's one descriptor set: the two targets, read with texelFetch.
SD_CONST uint kSetOitComposite = 0u;
SD_CONST uint kBindingOitAccumulation = 0u; // RGBA16F: weighted colour sum, revealage
SD_CONST uint kBindingOitWeight = 1u;       // R16F: weighted coverage sum

// Bounds of the depth weight (the paper's eq. 9): a far layer keeps some weight, a very near one
// cannot swamp the half-float sums on its own.
SD_CONST float kOitWeightMin = 1.0e-2f;
SD_CONST float kOitWeightMax = 3.0e3f;
// The largest finite half float: what every value written to, or read from, the half-float
// targets is clamped to, so no Inf (and from it no NaN) reaches the targets or the
// frame.
SD_CONST float kOitHalfMax = 65504.0f;
// The composite divides by at least this total weighted coverage.
SD_CONST float kOitMinWeightedCoverage = 1.0e-5f;

// The depth part of the weight, the paper's eq. 9 with z the linear view depth in metres (our
// scenes' unit, the range the equation was tuned for: about 0.1 to 500):
//   d(z) = clamp(10 / (1e-5 + (z / 5)^2 + (z / 200)^6), 1e-2, 3e3)
// It is 3e3 up to about 0.3 m, 10 at 5 m, 0.4 at 25 m, and 1e-2 from about 160 m on. Finite for
// every finite z; an infinite z gives the minimum.
SD_FUNC float sdOitDepthWeight(float linear_depth_m) {
    float z = abs(linear_depth_m);
    float near_term = z / 5.0f;
    float far_term = z / 200.0f;
    float far_cubed = far_term * far_term * far_term;
    float d = 10.0f / (1.0e-5f + near_term * near_term + far_cubed * far_cubed);
    return clamp(d, kOitWeightMin, kOitWeightMax);
}

// The weight of a fragment of coverage alpha (in [0, 1]) at linear depth linear_depth_m: the
// paper's w(z, a) = a * d(z), so more opaque layers weigh more.
SD_FUNC float sdOitWeight(float linear_depth_m, float alpha) {
    return clamp(alpha, 0.0f, 1.0f) * sdOitDepthWeight(linear_depth_m);
}

// The coverage of a blend-mode output (sdBillboardOutput): its alpha, clamped to [0, 1].
SD_FUNC float sdOitCoverage(vec4 blend_output) {
    return clamp(blend_output.w, 0.0f, 1.0f);
}

// What an alpha-blended or premultiplied fragment writes to the accumulation target: its
// premultiplied colour times the weight (summed) and its coverage as alpha (the target's alpha is
// multiplied by 1 - coverage). blend_output is what the sorted path's fragment would write
// (sdBillboardOutput): straight colour for kBlendAlpha, premultiplied for kBlendPremultiplied.
// Colour clamped to [0, kOitHalfMax] per channel.
SD_FUNC vec4 sdOitAccumulation(vec4 blend_output, uint blend, float linear_depth_m) {
    float a = sdOitCoverage(blend_output);
    vec3 premultiplied = vec3(blend_output);
    if (blend == kBlendAlpha) premultiplied = premultiplied * a;
    float w = sdOitWeight(linear_depth_m, a);
    vec3 weighted = clamp(premultiplied * w, vec3(0.0f), vec3(kOitHalfMax));
    return vec4(weighted, a);
}

// What the fragment writes to the weight target (its red channel is summed): coverage times the
// weight, clamped to [0, kOitHalfMax].
SD_FUNC vec4 sdOitWeightOutput(vec4 blend_output, float linear_depth_m) {
    float a = sdOitCoverage(blend_output);
    float weighted = clamp(a * sdOitWeight(linear_depth_m, a), 0.0f, kOitHalfMax);
    return vec4(weighted, 0.0f, 0.0f, 0.0f);
}

// The composite's output for the premultiplied blend (ONE, ONE_MINUS_SRC_ALPHA) over the frame:
// the weighted average colour times the total coverage (1 - revealage), and that coverage as
// alpha, so the frame becomes average * (1 - revealage) + dst * revealage. accumulation and
// weight_sum are read from the two targets (a sum that overflowed the half float is +Inf,
// clamped here first, so the result is always finite).
SD_FUNC vec4 sdOitResolve(vec4 accumulation, float weight_sum) {
    vec3 color_sum = clamp(vec3(accumulation), vec3(0.0f), vec3(kOitHalfMax));
    float coverage = 1.0f - clamp(accumulation.w, 0.0f, 1.0f);
    float weights = clamp(weight_sum, kOitMinWeightedCoverage, kOitHalfMax);
    return vec4(color_sum / weights * coverage, coverage);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_RENDER_SHADER_OIT_H
