// The motion-vector maths both the motion shaders and these tests read (render/shader/motion.h)
// and the frame globals' motion block (render/view_globals.h), on the CPU: a surface point
// reconstructed from a pixel and its depth projects back onto that pixel, so the same camera gives
// no motion; a camera moved by a known amount gives the motion the geometry says; the previous
// pixel of a point behind the previous camera is none; the coverage rule.
#include <cmath>

#include <gtest/gtest.h>

#include "render/mesh_params.h"
#include "render/shader/mesh.h"
#include "render/shader/motion.h"
#include "render/view_globals.h"

namespace spindrift::render {
namespace {

constexpr uint32_t kViewWidth = 160;
constexpr uint32_t kViewHeight = 90;

FrameView view() {
    FrameView v;
    v.camera.eye = {1, 3, 8};
    v.camera.target = {0, 1, 0};
    v.camera.up = {0, 1, 0};
    v.fov_deg = 50;
    v.motion.enabled = true;
    return v;
}

vec4 previousClip(const MotionGlobals& m, vec3 p) {
    return sdMotionClip(m.previous_clip_from_world_c0, m.previous_clip_from_world_c1,
                        m.previous_clip_from_world_c2, m.previous_clip_from_world_c3, p);
}

vec3 worldPoint(const FrameGlobals& g, vec2 pixel, float depth_m) {
    return sdMotionWorldPoint(pixel, vec2(kViewWidth, kViewHeight), depth_m, vec3(g.eye),
                              vec3(g.camera_right), vec3(g.camera_up), vec3(g.camera_forward),
                              vec2(g.motion.view_tan));
}

TEST(MotionMaths, APointReconstructedFromItsPixelAndDepthProjectsBackOntoIt) {
    const FrameGlobals g = viewGlobals(view(), kViewWidth, kViewHeight);
    EXPECT_EQ(g.motion.params.z, 0.0f) << "no previous camera";
    const vec2 pixels[] = {{0.5f, 0.5f}, {80, 45}, {159.5f, 12.5f}, {33.5f, 89.5f}};
    for (const vec2 pixel : pixels) {
        for (const float depth : {0.5f, 7.0f, 120.0f}) {
            const vec3 p = worldPoint(g, pixel, depth);
            EXPECT_NEAR(dot(p - vec3(g.eye), vec3(g.camera_forward)), depth, 1e-4f * depth);
            // Without a previous camera the block holds this camera: no motion.
            const vec2 m =
                sdMotionPixels(pixel, previousClip(g.motion, p), vec2(kViewWidth, kViewHeight));
            EXPECT_NEAR(m.x, 0.0f, 2e-3f) << pixel.x << "," << pixel.y << " at " << depth;
            EXPECT_NEAR(m.y, 0.0f, 2e-3f) << pixel.x << "," << pixel.y << " at " << depth;
        }
    }
}

TEST(MotionMaths, ACameraMovedSidewaysMovesAPointByItsDepthsPixelsPerMetre) {
    FrameView v;
    v.camera.eye = {0, 0, 10};
    v.camera.target = {0, 0, 0};
    v.camera.up = {0, 1, 0};
    v.fov_deg = 90;
    v.motion.enabled = true;
    v.motion.has_previous_camera = true;
    v.motion.previous_fov_deg = 90;
    v.motion.previous_camera = v.camera;
    v.motion.previous_camera.eye.y = -0.5f; // the camera rose 0.5 m
    v.motion.previous_camera.target.y = -0.5f;
    const FrameGlobals g = viewGlobals(v, kViewWidth, kViewHeight);
    EXPECT_EQ(g.motion.params.z, 1.0f);
    // 90 degrees vertically: at 10 m the view is 20 m tall, kViewHeight / 20 px per metre. The
    // camera rose, so a still point went down the image (+y) by 0.5 m of it.
    const vec2 pixel(60.5f, 30.5f);
    const vec3 p = worldPoint(g, pixel, 10);
    const vec2 m = sdMotionPixels(pixel, previousClip(g.motion, p), vec2(kViewWidth, kViewHeight));
    EXPECT_NEAR(m.x, 0.0f, 1e-3f);
    EXPECT_NEAR(m.y, 0.5f * float(kViewHeight) / 20.0f, 1e-3f);
}

TEST(MotionMaths, APointBehindThePreviousCameraHasNoPreviousPixel) {
    EXPECT_EQ(sdMotionPixels(vec2(10, 10), vec4(1, 1, 0.5f, -2), vec2(100, 100)), vec2(0));
    EXPECT_EQ(sdMotionPixels(vec2(10, 10), vec4(1, 1, 0.5f, 0), vec2(100, 100)), vec2(0));
    // In front: ndc (0.5, -0.5) is pixel (75, 25).
    EXPECT_EQ(sdMotionPixels(vec2(80, 20), vec4(1, -1, 0.5f, 2), vec2(100, 100)), vec2(5, -5));
}

TEST(MotionMaths, AParticleWasItsVelocityTimesTheIntervalBack) {
    EXPECT_EQ(sdMotionPreviousPosition(vec3(1, 2, 3), vec3(10, -4, 0), 0.25f), vec3(-1.5f, 3, 3));
    EXPECT_EQ(sdMotionPreviousPosition(vec3(1, 2, 3), vec3(10, -4, 0), 0.0f), vec3(1, 2, 3));
}

TEST(MotionMaths, APointsPreviousClipIsItsMovedBackPointSeenByThePreviousCamera) {
    FrameView v = view();
    v.motion.has_previous_camera = true;
    v.motion.previous_camera = v.camera;
    v.motion.previous_camera.eye.x += 0.7f;
    v.motion.interval_s = 0.1f;
    const FrameGlobals g = viewGlobals(v, kViewWidth, kViewHeight);
    const vec3 p(0.5f, 1.5f, -2);
    const vec3 velocity(3, 0, -1);
    EXPECT_EQ(sdMotionPreviousClip(g.motion, p, velocity),
              previousClip(g.motion, p - velocity * 0.1f));
    EXPECT_EQ(sdMotionPreviousClipOf(g.motion, p), previousClip(g.motion, p));
}

TEST(MotionMaths, AMeshVertexWasItsCentreMovedBackAndItsTumbleTurnedBack) {
    EmitterRecord e{};
    e.mesh_scale = 1;
    e.mesh_tumble_rad_per_s = 2;
    e.lifetime_min_s = e.lifetime_max_s = 4;
    const MeshParams p = meshParams(e);
    // Age 2 s, rotation 0.3 rad, size 1.5, moving (1, 2, 0) m/s.
    const DrawRecord r =
        sdDrawRecord(vec3(1, 2, 3), 1.5f, vec4(1), vec3(1, 2, 0), 0.3f, 0.5f, 0.0f, 0u, 99u);
    const float interval = 0.25f;
    const MeshPlacement now = sdMeshPlacement(r, p);
    const MeshPlacement before = sdMeshPreviousPlacement(r, p, interval);
    EXPECT_EQ(before.center, vec3(1, 2, 3) - vec3(1, 2, 0) * interval);
    EXPECT_EQ(before.scale, now.scale) << "the size as now";
    // A vertex across the tumble axis at radius R turns by rate x interval = 0.5 rad about it:
    // relative to the centre it moved by the chord 2 R sin(0.25).
    const vec3 axis = sdTumbleAxis(r.key);
    const vec3 local = normalize(cross(axis, vec3(0.3f, 0.9f, 0.1f)));
    const vec3 offset_now = sdMeshPoint(now, local) - now.center;
    const vec3 offset_before = sdMeshPoint(before, local) - before.center;
    const float radius = 1.5f;
    EXPECT_NEAR(length(offset_now), radius, 1e-5f);
    EXPECT_NEAR(length(offset_now - offset_before), 2 * radius * std::sin(0.25f), 1e-5f);
    // Turned back: turning the previous offset on by 0.5 rad about the axis gives today's.
    const MeshPlacement on = sdAxisRotation(axis, 2 * interval);
    const vec3 turned = sdMeshRotate(on, offset_before);
    EXPECT_NEAR(length(turned - offset_now), 0.0f, 1e-5f);
}

TEST(MotionMaths, CoveringFragmentsWriteAndAdditiveOnesOnlyWhenAsked) {
    EXPECT_TRUE(sdMotionWrites(0.5f, 0.5f, false, false));
    EXPECT_FALSE(sdMotionWrites(0.49f, 0.5f, false, false));
    EXPECT_TRUE(sdMotionWrites(0.0f, 0.0f, false, false));
    EXPECT_FALSE(sdMotionWrites(1.0f, 0.5f, true, false));
    EXPECT_TRUE(sdMotionWrites(1.0f, 0.5f, true, true));
    EXPECT_FALSE(sdMotionWrites(0.2f, 0.5f, true, true));
}

TEST(MotionMaths, AFrameWithoutMotionVectorsHasAZeroMotionBlock) {
    FrameView v = view();
    v.motion.enabled = false;
    const FrameGlobals g = viewGlobals(v, kViewWidth, kViewHeight);
    EXPECT_EQ(g.motion.params, vec4(0));
    EXPECT_EQ(g.motion.previous_clip_from_world_c3, vec4(0));
}

} // namespace
} // namespace spindrift::render
