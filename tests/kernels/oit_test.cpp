// The weighted-blended OIT kernels (render/shader/oit.h): the depth weight (the paper's eq. 9,
// bounded and finite), what a fragment writes to each target, and the composite. The blend units
// are simulated here in float: the targets sum colour and weight and multiply the revealage.
#include "render/shader/oit.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "render/shader/billboard.h"

namespace spindrift {
namespace {

// The two targets after a list of fragments, blended as the pipeline does (render/shader/oit.h).
struct Targets {
    vec4 accumulation = vec4(0, 0, 0, 1);
    float weight_sum = 0;
};

struct Fragment {
    vec4 blend_output; // sdBillboardOutput
    uint blend;
    float depth_m;
};

Targets accumulate(const std::vector<Fragment>& fragments) {
    Targets t;
    for (const Fragment& f : fragments) {
        const vec4 a = sdOitAccumulation(f.blend_output, f.blend, f.depth_m);
        t.accumulation = vec4(vec3(t.accumulation) + vec3(a), t.accumulation.w * (1.0f - a.w));
        t.weight_sum += sdOitWeightOutput(f.blend_output, f.depth_m).x;
    }
    return t;
}

// The frame after the composite (premultiplied blend) over dst.
vec3 composite(const Targets& t, vec3 dst) {
    const vec4 src = sdOitResolve(t.accumulation, t.weight_sum);
    return vec3(src) + dst * (1.0f - src.w);
}

TEST(OitKernels, DepthWeightIsThePapersEquationNineWithinItsBounds) {
    // 10 / (1e-5 + (z/5)^2 + (z/200)^6) at a few depths.
    EXPECT_NEAR(sdOitDepthWeight(5.0f), 10.0f / (1.0f + 1.0e-5f + std::pow(5.0f / 200, 6.0f)),
                1e-4f);
    EXPECT_NEAR(sdOitDepthWeight(25.0f), 10.0f / (25.0f + std::pow(25.0f / 200, 6.0f)), 1e-4f);
    EXPECT_FLOAT_EQ(sdOitDepthWeight(0.0f), kOitWeightMax);
    EXPECT_FLOAT_EQ(sdOitDepthWeight(0.1f), kOitWeightMax);
    EXPECT_FLOAT_EQ(sdOitDepthWeight(1000.0f), kOitWeightMin);
    EXPECT_FLOAT_EQ(sdOitDepthWeight(std::numeric_limits<float>::infinity()), kOitWeightMin);
    EXPECT_FLOAT_EQ(sdOitDepthWeight(1.0e30f), kOitWeightMin);
    // Never increasing with depth: nearer layers weigh at least as much.
    float previous = sdOitDepthWeight(0.0f);
    for (float z = 0.05f; z < 600.0f; z *= 1.1f) {
        const float w = sdOitDepthWeight(z);
        EXPECT_LE(w, previous) << z;
        EXPECT_TRUE(std::isfinite(w)) << z;
        previous = w;
    }
    EXPECT_FLOAT_EQ(sdOitWeight(5.0f, 0.5f), 0.5f * sdOitDepthWeight(5.0f));
    EXPECT_FLOAT_EQ(sdOitWeight(5.0f, 2.0f), sdOitDepthWeight(5.0f)); // alpha clamped to 1
}

// One layer: the weighted average of one fragment is that fragment and the revealage 1 - a, so
// the composite is "over" exactly, for straight-alpha and premultiplied outputs alike.
TEST(OitKernels, OneLayerCompositesAsOver) {
    const vec3 dst(0.2f, 0.3f, 0.4f);
    const vec4 straight(0.9f, 0.5f, 0.1f, 0.6f);
    for (float depth : {0.2f, 5.0f, 300.0f}) {
        const vec3 over = vec3(straight) * straight.w + dst * (1.0f - straight.w);
        const vec3 alpha = composite(accumulate({{straight, kBlendAlpha, depth}}), dst);
        const vec4 premultiplied(vec3(straight) * straight.w, straight.w);
        const vec3 pre = composite(accumulate({{premultiplied, kBlendPremultiplied, depth}}), dst);
        for (int c = 0; c < 3; ++c) {
            EXPECT_NEAR(alpha[c], over[c], 1e-5f) << depth;
            EXPECT_NEAR(pre[c], over[c], 1e-5f) << depth;
        }
    }
}

// Several layers: the result does not depend on their order, coverage is 1 - product(1 - a),
// and of two layers of equal alpha the nearer weighs more.
TEST(OitKernels, LayersCompositeIndependentlyOfOrderNearerWeighingMore) {
    const vec3 dst(0.0f);
    const Fragment red{vec4(1, 0, 0, 0.5f), kBlendAlpha, 2.0f};
    const Fragment blue{vec4(0, 0, 1, 0.5f), kBlendAlpha, 20.0f};
    const vec3 a = composite(accumulate({red, blue}), dst);
    const vec3 b = composite(accumulate({blue, red}), dst);
    for (int c = 0; c < 3; ++c) EXPECT_FLOAT_EQ(a[c], b[c]);
    EXPECT_NEAR(a.x + a.z, 1.0f - 0.5f * 0.5f, 1e-5f);
    EXPECT_GT(a.x, a.z); // red is nearer
}

// Nothing non-finite reaches the targets or the frame: HDR colours far past the half-float
// range are clamped when written, and sums that overflowed to +Inf are clamped when read.
TEST(OitKernels, ExtremeInputsStayFinite) {
    const float inf = std::numeric_limits<float>::infinity();
    const vec4 hot = sdOitAccumulation(vec4(1e30f, 1e30f, 1e30f, 1.0f), kBlendAlpha, 0.0f);
    for (int c = 0; c < 3; ++c) EXPECT_LE(hot[c], kOitHalfMax);
    EXPECT_LE(sdOitWeightOutput(vec4(1, 1, 1, 1), 0.0f).x, kOitHalfMax);
    const vec4 resolved = sdOitResolve(vec4(inf, inf, inf, 0.0f), inf);
    for (int c = 0; c < 4; ++c) EXPECT_TRUE(std::isfinite(resolved[c])) << c;
    EXPECT_FLOAT_EQ(resolved.w, 1.0f);
    // Untouched pixel: revealage 1, coverage 0, nothing added (the shader discards it anyway).
    const vec4 empty = sdOitResolve(vec4(0, 0, 0, 1), 0.0f);
    EXPECT_EQ(empty, vec4(0.0f));
    // A negative alpha (never written by the backends) counts as no coverage.
    EXPECT_EQ(sdOitCoverage(vec4(1, 1, 1, -3)), 0.0f);
}

} // namespace
} // namespace spindrift
