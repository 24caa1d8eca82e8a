// Motion vectors on lavapipe, validation on (docs/rendering.md, "Motion vectors"), measured on a
// ground seen straight down from 10 m with a 90-degree field: at view depth d a metre across the
// view is kSide / (2 d) pixels, so every expected motion below follows from the geometry alone.
// A moving particle moves its pixels by its projected displacement; a static one under a moving
// camera gets the camera's reprojection, as does the ground; without a previous camera the camera
// adds nothing; additive particles and fragments below the coverage threshold keep what is
// behind; the option off leaves the colour frame as it was and makes nothing; bad settings are
// refused.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/renderer.h"
#include "render/renderer_state.h"

#include "motion_fixture.h"

namespace spindrift::render {
namespace {

using test::batchOf;
using test::errors;
using test::kHeight_m;
using test::kParticleHeight_m;
using test::kSide;
using test::kTolerance_px;
using test::motionAt;
using test::movedCamera;
using test::pixelsPerMetre;
using test::topView;

DrawRecord movingParticle(vec3 velocity, float alpha = 1) {
    return sdDrawRecord(vec3(0, kParticleHeight_m, 0), 4, vec4(0.9f, 0.5f, 0.2f, alpha), velocity,
                        0.0f, 0.5f, 0.0f, 0u, 0u);
}

// The pixels of the particle's middle (within 4 px of the centre: the 4 m quad is 24 px across
// at 8 m, its soft disc's alpha well above one half there).
test::Pixels middlePixels() {
    test::Pixels out;
    for (uint32_t y = kSide / 2 - 4; y < kSide / 2 + 4; ++y) {
        for (uint32_t x = kSide / 2 - 4; x < kSide / 2 + 4; ++x) out.emplace_back(x, y);
    }
    return out;
}

class MotionRenderTest : public test::MotionRenderTest {
protected:
    void expectMiddle(const MotionImage& m, vec2 expected, const char* what) {
        expectAt(m, middlePixels(), expected, what);
    }
};

TEST_F(MotionRenderTest, AParticleMovingAtAKnownVelocityMovesItsPixelsByItsProjectedDisplacement) {
    FrameView view = topView();
    view.motion.interval_s = 0.05f;
    // 20 m/s along +x and 10 m/s along +z for 0.05 s: 1 m right and 0.5 m down the image, at
    // 8 m from the eye (6 px/m): (6, 3) px.
    const DrawRecord records[] = {movingParticle(vec3(20, 0, 10))};
    const MotionImage m = renderMotion(view, {batchOf(records)});
    EXPECT_EQ(stats_.motion_batches, 1u);
    const float k = pixelsPerMetre(kHeight_m - kParticleHeight_m);
    expectMiddle(m, vec2(1.0f * k, 0.5f * k), "moving particle");
    expectCorners(m, vec2(0), "ground without a previous camera");
}

TEST_F(MotionRenderTest, AStaticParticleUnderAMovingCameraGetsTheCamerasReprojection) {
    // The camera moved 1 m along +x and 0.5 m along -z: what stands still moves the other way on
    // screen, by more the nearer it is (the particle at 8 m, the ground at 10 m).
    const FrameView view = movedCamera(topView(), {1, 0, -0.5f});
    const DrawRecord records[] = {movingParticle(vec3(0))};
    const MotionImage m = renderMotion(view, {batchOf(records)});
    const float particle_k = pixelsPerMetre(kHeight_m - kParticleHeight_m);
    const float ground_k = pixelsPerMetre(kHeight_m);
    expectMiddle(m, vec2(-1.0f * particle_k, 0.5f * particle_k), "static particle");
    expectCorners(m, vec2(-1.0f * ground_k, 0.5f * ground_k), "ground");
}

TEST_F(MotionRenderTest, TheGroundIsReprojectedWhenTheCameraClimbs) {
    // The camera 2 m higher than before: a ground point at (x, z) was at x / 8 of the half view
    // and is now at x / 10, so it moved toward the middle by x (1/8 - 1/10) half views.
    const FrameView view = movedCamera(topView(), {0, 2, 0});
    const MotionImage m = renderMotion(view);
    for (const auto& [x, y] : test::cornerPixels()) {
        const float px = float(x) + 0.5f; // the pixel centre the motion is measured at
        const float py = float(y) + 0.5f;
        const float half = float(kSide) / 2;
        // The ground point under this pixel now: offset (px - half) pixels at 10 m.
        const float wx = (px - half) / pixelsPerMetre(kHeight_m);
        const float wz = (py - half) / pixelsPerMetre(kHeight_m);
        const float previous_x = half + wx * pixelsPerMetre(kHeight_m - 2);
        const float previous_y = half + wz * pixelsPerMetre(kHeight_m - 2);
        const vec2 got = motionAt(m, x, y);
        // Values up to 12 px: half-float steps of 2^-7 (half of it rounding) and float maths.
        EXPECT_NEAR(got.x, px - previous_x, kTolerance_px) << x << "," << y;
        EXPECT_NEAR(got.y, py - previous_y, kTolerance_px) << x << "," << y;
    }
}

TEST_F(MotionRenderTest, WithoutAPreviousCameraTheCameraAddsNoMotion) {
    FrameView view = topView();
    view.primitives = {};
    const MotionImage m = renderMotion(view);
    for (const float v : m.xy) ASSERT_EQ(v, 0.0f);
    // A static particle: nothing moves (its points are reprojected with this camera: float
    // rounding only).
    const DrawRecord records[] = {movingParticle(vec3(0))};
    const MotionImage with_particle = renderMotion(view, {batchOf(records)});
    for (const float v : with_particle.xy) ASSERT_NEAR(v, 0.0f, 1e-3f);
}

TEST_F(MotionRenderTest, AdditiveParticlesLeaveTheBackgroundsMotionUnlessAskedToWrite) {
    FrameView view = movedCamera(topView(), {1, 0, 0});
    view.motion.interval_s = 0.05f;
    const DrawRecord records[] = {movingParticle(vec3(40, 0, 0))};
    const float ground_k = pixelsPerMetre(kHeight_m);
    const MotionImage kept = renderMotion(view, {batchOf(records, kBlendAdditive)});
    EXPECT_EQ(stats_.motion_batches, 0u);
    expectMiddle(kept, vec2(-1.0f * ground_k, 0), "under an additive particle: the ground");

    view.motion.additive_writes = true;
    const MotionImage written = renderMotion(view, {batchOf(records, kBlendAdditive)});
    EXPECT_EQ(stats_.motion_batches, 1u);
    // 2 m along +x of its own, 1 m along -x of the camera's: 1 m at 8 m.
    const float k = pixelsPerMetre(kHeight_m - kParticleHeight_m);
    expectMiddle(written, vec2(1.0f * k, 0), "additive_writes");
}

TEST_F(MotionRenderTest, AFragmentBelowTheCoverageThresholdKeepsWhatIsBehind) {
    FrameView view = topView();
    view.motion.interval_s = 0.05f;
    const DrawRecord faint[] = {movingParticle(vec3(20, 0, 0), 0.3f)};
    view.motion.coverage_threshold = 0.5f;
    expectMiddle(renderMotion(view, {batchOf(faint)}), vec2(0), "alpha 0.3 under 0.5");
    // The middle's outermost pixels are 0.41 of the radius out: disc (1 - 0.41^2)^2 = 0.69, times
    // 0.3 is 0.2 there.
    view.motion.coverage_threshold = 0.15f;
    const float k = pixelsPerMetre(kHeight_m - kParticleHeight_m);
    expectMiddle(renderMotion(view, {batchOf(faint)}), vec2(1.0f * k, 0), "alpha 0.3 over 0.15");
}

TEST_F(MotionRenderTest, AParticleBehindAnOpaqueBoxLeavesTheBoxsMotion) {
    FrameView view = movedCamera(topView(), {1, 0, 0});
    view.motion.interval_s = 0.05f;
    // A box whose top is at 5 m (5 m from the eye), covering the particle at 2 m.
    const PrimitiveDesc box[] = {
        PrimitiveDesc{PrimitiveKind::box, {0, 2.5f, 0}, {4, 5, 4}, 1, {0.5f, 0.5f, 0.5f}}};
    view.primitives = box;
    const DrawRecord records[] = {movingParticle(vec3(20, 0, 0))};
    expectMiddle(renderMotion(view, {batchOf(records)}), vec2(-1.0f * pixelsPerMetre(5), 0),
                 "the box's top");
}

TEST_F(MotionRenderTest, TheComputeRasteriserGivesTheSameMotion) {
    FrameView view = movedCamera(topView(), {0.5f, 0, 0});
    view.motion.interval_s = 0.05f;
    const DrawRecord records[] = {movingParticle(vec3(20, 0, 5))};
    const MotionImage graphics = renderMotion(view, {batchOf(records)});
    view.raster = RasterPath::compute;
    const MotionImage compute = renderMotion(view, {batchOf(records)});
    EXPECT_EQ(stats_.raster_batches, 1u);
    EXPECT_EQ(stats_.motion_batches, 1u);
    EXPECT_EQ(graphics.xy, compute.xy);
}

TEST_F(MotionRenderTest, OffTheColourFrameIsUnchangedAndNothingIsMade) {
    FrameView view = movedCamera(topView(), {1, 0, 0});
    view.motion.enabled = false;
    const DrawRecord records[] = {movingParticle(vec3(20, 0, 0), 0.7f)};
    const std::vector<DrawBatch> batches = {batchOf(records)};
    const Image off = render(view, batches);
    EXPECT_EQ(stats_.motion_batches, 0u);
    EXPECT_EQ(renderer_->motion, nullptr) << "a frame without motion vectors made their target";
    MotionImage untouched;
    untouched.width = 7;
    Image off_again;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(renderFrame(*renderer_, view, batches, off_again, &untouched, stats_, d))
        << errors(d);
    EXPECT_EQ(untouched.width, 7u) << "motion written by a frame that did not ask for it";
    view.motion.enabled = true;
    Image on;
    renderMotion(view, batches, &on);
    EXPECT_EQ(off.rgba8, on.rgba8) << "motion vectors changed the colour frame";
    EXPECT_EQ(off.rgba8, off_again.rgba8);
}

TEST_F(MotionRenderTest, BadMotionSettingsAreRefused) {
    struct Case {
        const char* name;
        void (*spoil)(MotionVectorsDesc&);
        const char* expected;
    };
    static const float s_nan = std::numeric_limits<float>::quiet_NaN();
    static const float s_inf = std::numeric_limits<float>::infinity();
    const Case cases[] = {
        {"NaN interval", [](MotionVectorsDesc& m) { m.interval_s = s_nan; }, "interval_s"},
        {"negative interval", [](MotionVectorsDesc& m) { m.interval_s = -0.01f; }, "interval_s"},
        {"interval over 1 s", [](MotionVectorsDesc& m) { m.interval_s = 1.5f; }, "interval_s"},
        {"infinite threshold", [](MotionVectorsDesc& m) { m.coverage_threshold = s_inf; },
         "coverage_threshold"},
        {"threshold over 1", [](MotionVectorsDesc& m) { m.coverage_threshold = 1.01f; },
         "coverage_threshold"},
        {"NaN previous eye",
         [](MotionVectorsDesc& m) {
             m.has_previous_camera = true;
             m.previous_camera.eye.y = s_nan;
         },
         "previous_camera"},
        {"previous fov 0",
         [](MotionVectorsDesc& m) {
             m.has_previous_camera = true;
             m.previous_fov_deg = 0;
         },
         "previous_fov_deg"},
    };
    for (const Case& c : cases) {
        FrameView view = topView();
        c.spoil(view.motion);
        Image image;
        MotionImage motion;
        std::vector<Diagnostic> d;
        EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, &motion, stats_, d)) << c.name;
        ASSERT_EQ(d.size(), 1u) << c.name;
        EXPECT_NE(formatDiagnostic(d[0]).find(c.expected), std::string::npos)
            << c.name << ": " << formatDiagnostic(d[0]);
    }
    // Asking without a place to put them.
    Image image;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, topView(), {}, image, stats_, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(formatDiagnostic(d[0]).find("MotionImage"), std::string::npos);
    // The renderer draws again after the refusals.
    FrameView view = topView();
    renderMotion(view);
}

} // namespace
} // namespace spindrift::render
