// What the motion-vector pixel tests share (motion_render_test.cpp: billboards and the camera;
// particle_motion_render_test.cpp: strips and mesh particles): a ground seen straight down from
// kHeight_m with a 90-degree field, so at view depth d a metre across the view is kSide / (2 d)
// pixels and every expected motion follows from the geometry alone; the previous camera of a
// camera that moved; a pixel's motion; the MotionRenderTest fixture that renders a frame's motion.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "render/renderer.h"
#include "square_frame_fixture.h"

namespace spindrift::render::test {

// kHeight_m (square_frame_fixture.h): the camera's height over the ground.
inline constexpr float kParticleHeight_m = 2; // the particles' plane: 8 m from the eye
// The largest rounding of a motion read back: half floats hold values below 16 pixels to 2^-7
// (half a step 2^-8), and the float maths before them to about 1e-5 px; 0.01 px covers both.
inline constexpr float kTolerance_px = 0.01f;

// Pixels per metre across the view at view depth depth_m: the 90-degree field spans 2 d metres.
inline float pixelsPerMetre(float depth_m) {
    return float(kSide) / (2.0f * depth_m);
}

// Straight down from kHeight_m over a 100 m ground: image right is +x, image down is +z; motion
// vectors on, no previous camera.
inline FrameView topView() {
    FrameView view;
    view.camera.eye = {0, kHeight_m, 0};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 0, -1};
    view.fov_deg = 90;
    view.ground.enabled = true;
    view.ground.size = 100;
    view.motion.enabled = true;
    return view;
}

// The previous frame's camera: the current one moved back by `moved` (the camera moved by it).
inline FrameView movedCamera(FrameView view, Float3 moved) {
    view.motion.has_previous_camera = true;
    view.motion.previous_fov_deg = view.fov_deg;
    view.motion.previous_camera = view.camera;
    view.motion.previous_camera.eye = {view.camera.eye.x - moved.x, view.camera.eye.y - moved.y,
                                       view.camera.eye.z - moved.z};
    view.motion.previous_camera.target = {view.camera.target.x - moved.x,
                                          view.camera.target.y - moved.y,
                                          view.camera.target.z - moved.z};
    return view;
}

inline vec2 motionAt(const MotionImage& m, uint32_t x, uint32_t y) {
    const size_t i = (size_t{y} * m.width + x) * 2;
    return vec2(m.xy[i], m.xy[i + 1]);
}

using Pixels = std::vector<std::pair<uint32_t, uint32_t>>;

// The frame's corners: ground wherever the tests put their particles.
inline const Pixels& cornerPixels() {
    static const Pixels corners = {{3, 3}, {kSide - 4, 3}, {3, kSide - 4}, {kSide - 4, kSide - 4}};
    return corners;
}

class MotionRenderTest : public SquareFrameTest {
protected:
    MotionImage renderMotion(const FrameView& view, const std::vector<DrawBatch>& batches = {},
                             Image* colour = nullptr) {
        Image image;
        MotionImage motion;
        std::vector<Diagnostic> d;
        EXPECT_TRUE(renderFrame(*renderer_, view, batches, image, &motion, stats_, d)) << errors(d);
        EXPECT_EQ(motion.width, kSide);
        EXPECT_EQ(motion.height, kSide);
        EXPECT_EQ(motion.xy.size(), size_t{kSide} * kSide * 2);
        if (colour != nullptr) *colour = image;
        return motion;
    }

    // Every pixel of `pixels` holds `expected` within kTolerance_px.
    void expectAt(const MotionImage& m, const Pixels& pixels, vec2 expected, const char* what) {
        for (const auto& [x, y] : pixels) {
            const vec2 got = motionAt(m, x, y);
            EXPECT_NEAR(got.x, expected.x, kTolerance_px) << what << " at " << x << "," << y;
            EXPECT_NEAR(got.y, expected.y, kTolerance_px) << what << " at " << x << "," << y;
        }
    }

    void expectCorners(const MotionImage& m, vec2 expected, const char* what) {
        expectAt(m, cornerPixels(), expected, what);
    }
};

} // namespace spindrift::render::test
