// The HDR post maths of render/shader/post.h, on the CPU (the same text the post shaders run):
// the tone-map curves, bloom's filters, the histogram's percentile average and the adaptation.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "render/post_pass.h"
#include "render/shader/post.h"

namespace spindrift::render {
namespace {

constexpr uint kCurves[] = {kTonemapAces, kTonemapAgx, kTonemapReinhard};

TEST(PostMaths, AcesFollowsNarkowiczsFit) {
    // x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14) at 1: 2.54 / 3.16.
    EXPECT_NEAR(sdTonemapAces(vec3(1.0f)).x, 2.54f / 3.16f, 1e-6f);
    EXPECT_EQ(sdTonemapAces(vec3(0.0f)).x, 0.0f);
    EXPECT_EQ(sdTonemapAces(vec3(1000.0f)).x, 1.0f); // clamped at white
    EXPECT_NEAR(sdTonemapReinhard(vec3(1.0f)).y, 0.5f, 1e-7f);
}

TEST(PostMaths, EveryCurveIsMonotonicAndBoundedOnGrey) {
    for (uint curve : kCurves) {
        float previous = -1.0f;
        for (float x = 0.0f; x < 1000.0f; x = x * 1.25f + 0.001f) {
            const float y = sdTonemap(vec3(x), curve).y;
            EXPECT_GE(y, previous - 1e-6f) << "curve " << curve << " at " << x;
            EXPECT_GE(y, 0.0f);
            EXPECT_LE(y, 1.0f);
            previous = y;
        }
        // Dark stays dark, very bright nears white.
        EXPECT_LT(sdTonemap(vec3(0.001f), curve).x, 0.01f) << curve;
        EXPECT_GT(sdTonemap(vec3(1000.0f), curve).x, 0.95f) << curve;
    }
}

TEST(PostMaths, AgxKeepsGreyNeutralAndMiddleGreyInTheMiddle) {
    const vec3 grey = sdTonemapAgx(vec3(0.18f));
    EXPECT_NEAR(grey.x, grey.y, 1e-3f);
    EXPECT_NEAR(grey.y, grey.z, 1e-3f);
    EXPECT_GT(grey.x, 0.1f);
    EXPECT_LT(grey.x, 0.4f);
}

TEST(PostMaths, NoNanOrInfLeavesThePost) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const vec3 inputs[] = {vec3(inf),      vec3(nan), vec3(-inf), vec3(1e30f, nan, -5.0f),
                           vec3(65504.0f), vec3(0.0f)};
    for (uint curve = 0; curve < kTonemapCount; ++curve) {
        for (const vec3& in : inputs) {
            const vec3 out = sdPostPixel(in, vec3(inf, nan, 1.0f), 6u, 0.5f, 1e6f, curve);
            for (int c = 0; c < 3; ++c) {
                EXPECT_TRUE(std::isfinite(out[c])) << "curve " << curve;
                EXPECT_GE(out[c], 0.0f);
                EXPECT_LE(out[c], kPostHalfMax);
            }
        }
    }
    EXPECT_EQ(sdPostSanitize1(nan), 0.0f);
    EXPECT_EQ(sdPostSanitize1(inf), kPostHalfMax);
}

TEST(PostMaths, BloomFiltersKeepAConstantImageConstant) {
    const vec3 c(3.0f, 0.5f, 0.25f);
    for (bool karis : {false, true}) {
        const vec3 down = sdBloomDown(c, c, c, c, c, c, c, c, c, c, c, c, c, karis);
        EXPECT_NEAR(down.x, c.x, 1e-5f);
        EXPECT_NEAR(down.z, c.z, 1e-6f);
    }
    const vec3 tent = sdBloomTent(c, c, c, c, c, c, c, c, c);
    EXPECT_NEAR(tent.x, c.x, 1e-6f);
    // Mixing a frame with a blur of itself over L levels changes nothing.
    const vec3 mixed = sdBloomMix(c, c * 6.0f, 6u, 0.7f);
    EXPECT_NEAR(mixed.x, c.x, 1e-5f);
}

TEST(PostMaths, KarisAverageTamesAFirefly) {
    const vec3 dim(0.1f);
    const vec3 firefly(10000.0f);
    const vec3 plain =
        sdBloomDown(dim, dim, dim, dim, dim, dim, dim, dim, dim, firefly, dim, dim, dim, false);
    const vec3 karis =
        sdBloomDown(dim, dim, dim, dim, dim, dim, dim, dim, dim, firefly, dim, dim, dim, true);
    EXPECT_GT(plain.x, 1000.0f);         // a quarter of the centre box's half weight
    EXPECT_LT(karis.x, plain.x / 20.0f); // weighted down by 1 / (1 + luma)
    EXPECT_GT(karis.x, dim.x);           // but still brighter than its surroundings
}

// The histogram of a frame of n pixels of luminance y (and `black` black ones).
std::vector<float> histogramOf(float y, float n, float black = 0) {
    std::vector<float> bins(kHistogramBins, 0.0f);
    bins[sdHistogramBin(y)] += n;
    bins[0] += black;
    return bins;
}

float targetOf(const std::vector<float>& bins, float low_fraction, float high_fraction,
               float min_ev = -10, float max_ev = 10) {
    float lit = 0;
    for (uint b = 1; b < kHistogramBins; ++b) lit += bins[b];
    float before = 0, sum = 0, weight = 0;
    for (uint b = 1; b < kHistogramBins; ++b) {
        sdHistogramAccumulate(b, bins[b], lit * low_fraction, lit * high_fraction, before, sum,
                              weight);
    }
    return sdHistogramTargetLog2(sum, weight, min_ev, max_ev);
}

TEST(PostMaths, HistogramAverageFindsTheFramesLuminance) {
    const float bin_width = (kHistogramMaxLog2 - kHistogramMinLog2) / float(kHistogramBins - 1);
    for (float y : {0.01f, 0.18f, 1.0f, 40.0f}) {
        EXPECT_NEAR(targetOf(histogramOf(y, 1000, 5000), 0.5f, 0.95f), std::log2(y),
                    bin_width * 0.5f + 1e-4f)
            << y;
    }
    EXPECT_EQ(sdHistogramBin(0.0f), 0u);
    EXPECT_EQ(sdHistogramBin(std::numeric_limits<float>::quiet_NaN()), 0u);
    EXPECT_EQ(sdHistogramBin(1e9f), kHistogramBins - 1u);
    // Clamped to [min_ev, max_ev]; an all-black frame exposes at 1.
    EXPECT_EQ(targetOf(histogramOf(1000.0f, 10), 0.0f, 1.0f, -4, 4), 4.0f);
    EXPECT_NEAR(targetOf(histogramOf(0, 0, 100), 0.5f, 0.95f), std::log2(kExposureKey), 1e-6f);
}

TEST(PostMaths, PercentilesLeaveOutTheDarkestAndBrightestPixels) {
    std::vector<float> bins = histogramOf(0.01f, 600); // 60 %: dark
    bins[sdHistogramBin(1.0f)] += 380;                 // 38 %: the effect
    bins[sdHistogramBin(5000.0f)] += 20;               // 2 %: fireflies
    // Between the 60th and 98th percentiles: only the effect.
    EXPECT_NEAR(targetOf(bins, 0.6f, 0.98f), 0.0f, 0.1f);
    // All of it: pulled toward the dark.
    EXPECT_LT(targetOf(bins, 0.0f, 1.0f), -1.0f);
}

TEST(PostMaths, AdaptationDependsOnlyOnElapsedTime) {
    EXPECT_EQ(sdAdaptLog2(5.0f, -1.0f, -1.0f, 2.0f), -1.0f); // converge at once
    EXPECT_EQ(sdAdaptLog2(std::numeric_limits<float>::quiet_NaN(), 2.0f, 0.1f, 2.0f), 2.0f);
    // Ten frames of 0.1 s land where one step of 1 s does: e^(-speed t).
    float stepped = 4.0f;
    for (int i = 0; i < 10; ++i) stepped = sdAdaptLog2(stepped, 0.0f, 0.1f, 2.0f);
    const float once = sdAdaptLog2(4.0f, 0.0f, 1.0f, 2.0f);
    EXPECT_NEAR(stepped, once, 1e-5f);
    EXPECT_NEAR(once, 4.0f * std::exp(-2.0f), 1e-5f);
    EXPECT_EQ(sdAdaptLog2(4.0f, 0.0f, 0.5f, 0.0f), 4.0f); // speed 0 never adapts
    EXPECT_NEAR(sdAutoExposureScale(std::log2(0.18f), 1.0f), 1.0f, 1e-6f);
    EXPECT_NEAR(sdAutoExposureScale(0.0f, 2.0f), 0.36f, 1e-6f);
}

TEST(PostMaths, AdaptationStepsOnlyForwardAndNotTooFar) {
    EXPECT_EQ(adaptationStep(false, 0.0f, 1.0f), -1.0f);
    EXPECT_NEAR(adaptationStep(true, 1.0f, 1.04f), 0.04f, 1e-6f);
    EXPECT_EQ(adaptationStep(true, 1.0f, 1.0f), -1.0f);  // the same frame again
    EXPECT_EQ(adaptationStep(true, 2.0f, 1.0f), -1.0f);  // a seek back
    EXPECT_EQ(adaptationStep(true, 0.0f, 30.0f), -1.0f); // a jump
}

TEST(PostMaths, ViewsOutsideTheFormatsRangesAreRefused) {
    FrameView view;
    EXPECT_EQ(postProblem(view), "");
    EXPECT_FALSE(wantsPost(view));
    view.tonemap = Tonemap::agx;
    EXPECT_TRUE(wantsPost(view));
    view.tonemap = static_cast<Tonemap>(9);
    EXPECT_NE(postProblem(view), "");
    view = FrameView{};
    view.exposure.ev = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(postProblem(view), "");
    view = FrameView{};
    view.exposure.min_ev = 3;
    view.exposure.max_ev = 3;
    EXPECT_NE(postProblem(view), "");
    view = FrameView{};
    view.bloom.strength = 1.5f;
    EXPECT_NE(postProblem(view), "");
    view = FrameView{};
    view.bloom.levels = 0;
    EXPECT_NE(postProblem(view), "");
    view = FrameView{};
    view.exposure.low_percent = 90;
    view.exposure.high_percent = 80;
    EXPECT_NE(postProblem(view), "");
}

} // namespace
} // namespace spindrift::render
