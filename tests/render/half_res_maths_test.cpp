// The half-resolution particles' maths (render/shader/half_res.h) on the CPU, the same text the
// downsample and upsample shaders run: the nearest depth of a block, the texel mapping, and the
// upsample's weights (bilinear on a smooth surface, all on the texel of the nearest depth across
// an edge); and the depth-buffer value of a linear depth, the inverse of the host frame's
// linearisation.
#include <gtest/gtest.h>

#include "render/shader/depth_linearize.h"
#include "render/shader/half_res.h"

namespace spindrift {
namespace {

TEST(HalfResMaths, DownsampleKeepsTheNearestDepthOfTheBlock) {
    EXPECT_EQ(sdHalfResDownsample(vec4(4, 3, 9, 5)), 3.0f);
    EXPECT_EQ(sdHalfResDownsample(vec4(kSceneDepthCleared, 2, kSceneDepthCleared, 7)), 2.0f);
    EXPECT_EQ(sdHalfResDownsample(vec4(kSceneDepthCleared)), kSceneDepthCleared);
}

TEST(HalfResMaths, TexelCentresFallBetweenTheirBlocksPixels) {
    // Pixel 2i + 0.5 and 2i + 1.5 (the block of texel i) sit a quarter texel either side of i.
    EXPECT_EQ(sdHalfResCoord(vec2(0.5f, 1.5f)), vec2(-0.25f, 0.25f));
    EXPECT_EQ(sdHalfResCoord(vec2(6.5f, 7.5f)), vec2(2.75f, 3.25f));
}

TEST(HalfResMaths, MatchingDepthsGiveBilinearWeights) {
    const vec2 f(0.25f, 0.75f);
    // Within kHalfResDepthTolerance of the pixel's 10 m: a gently sloping surface.
    const vec4 w = sdHalfResUpsampleWeights(f, vec4(10.0f, 10.5f, 9.5f, 10.9f), 10.0f);
    EXPECT_FLOAT_EQ(w.x, 0.75f * 0.25f);
    EXPECT_FLOAT_EQ(w.y, 0.25f * 0.25f);
    EXPECT_FLOAT_EQ(w.z, 0.75f * 0.75f);
    EXPECT_FLOAT_EQ(w.w, 0.25f * 0.75f);
    EXPECT_FLOAT_EQ(w.x + w.y + w.z + w.w, 1.0f);
    // The background everywhere (kSceneDepthCleared) is smooth too.
    const vec4 sky = sdHalfResUpsampleWeights(f, vec4(kSceneDepthCleared), kSceneDepthCleared);
    EXPECT_FLOAT_EQ(sky.z, 0.75f * 0.75f);
}

TEST(HalfResMaths, AcrossAnEdgeAllTheWeightGoesToTheNearestDepth) {
    const vec2 f(0.5f, 0.5f);
    // A box's face at 6 m in front of a ground at 10 m: a pixel of the face takes the face's
    // texel, a pixel of the ground a ground texel, and neither any of the other.
    EXPECT_EQ(sdHalfResUpsampleWeights(f, vec4(10, 10, 6, 10), 6.0f), vec4(0, 0, 1, 0));
    EXPECT_EQ(sdHalfResUpsampleWeights(f, vec4(6, 10.2f, 6, 10), 10.0f), vec4(0, 0, 0, 1));
    // Against the background: the pixel with no surface takes a texel with none.
    EXPECT_EQ(sdHalfResUpsampleWeights(f, vec4(5, kSceneDepthCleared, 5, 5), kSceneDepthCleared),
              vec4(0, 1, 0, 0));
    // Equal differences: the first texel, on every device.
    EXPECT_EQ(sdHalfResUpsampleWeights(f, vec4(8, 12, 8, 12), 10.0f), vec4(1, 0, 0, 0));
}

TEST(HalfResMaths, DepthFromLinearInvertsTheLinearisation) {
    const float near_m = 0.05f;
    const float far_m = 500.0f;
    // Within 0.01 % to 250 m; by the far plane a float depth (0.9999) resolves only ~0.05 %.
    for (const float linear_m : {0.05f, 0.3f, 2.0f, 17.5f, 250.0f, 499.0f}) {
        const float d = sdDepthFromLinear(linear_m, near_m, far_m);
        EXPECT_GE(d, 0.0f);
        EXPECT_LT(d, 1.0f);
        const float relative = linear_m > 250.0f ? 1e-3f : 1e-4f;
        EXPECT_NEAR(sdLinearFromDepth(d, near_m, far_m), linear_m, linear_m * relative) << linear_m;
    }
    EXPECT_NEAR(sdDepthFromLinear(near_m, near_m, far_m), 0.0f, 1e-6f);
    // No surface: the cleared far plane, which the particles' depth test passes everywhere.
    EXPECT_EQ(sdDepthFromLinear(kSceneDepthCleared, near_m, far_m), 1.0f);
    EXPECT_EQ(sdDepthFromLinear(far_m, near_m, far_m), 1.0f);
}

} // namespace
} // namespace spindrift
