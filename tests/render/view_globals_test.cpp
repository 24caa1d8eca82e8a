#include "render/view_globals.h"

#include <cmath>

#include <gtest/gtest.h>

namespace spindrift::render {
namespace {

vec4 clip(const FrameGlobals& g, vec3 p) {
    return g.clip_from_world_c0 * p.x + g.clip_from_world_c1 * p.y + g.clip_from_world_c2 * p.z +
           g.clip_from_world_c3;
}

FrameView view() {
    FrameView v;
    v.camera.eye = {0, 0, 5};
    v.camera.target = {0, 0, 0};
    v.camera.up = {0, 1, 0};
    v.fov_deg = 90;
    v.near_m = 0.5f;
    v.far_m = 100;
    return v;
}

TEST(ViewGlobals, ProjectsToVulkanClipSpace) {
    FrameGlobals g = viewGlobals(view(), 200, 100); // aspect 2
    vec4 c = clip(g, vec3(0, 0, 0));
    EXPECT_NEAR(c.x / c.w, 0.0f, 1e-6f);
    EXPECT_NEAR(c.y / c.w, 0.0f, 1e-6f);
    // Up in the world is up in the image: Vulkan's y points down, so NDC y is negative.
    c = clip(g, vec3(0, 1, 0));
    EXPECT_NEAR(c.y / c.w, -0.2f, 1e-6f);
    c = clip(g, vec3(1, 0, 0)); // right is +x, divided by the aspect
    EXPECT_NEAR(c.x / c.w, 0.1f, 1e-6f);
    // Depth 0 at the near plane, 1 at the far plane; w is the distance along the view.
    c = clip(g, vec3(0, 0, 4.5f));
    EXPECT_NEAR(c.z / c.w, 0.0f, 1e-6f);
    EXPECT_NEAR(c.w, 0.5f, 1e-6f);
    c = clip(g, vec3(0, 0, -95));
    EXPECT_NEAR(c.z / c.w, 1.0f, 1e-6f);
}

TEST(ViewGlobals, CameraAxesAndLight) {
    FrameView v = view();
    v.sun.direction = {0, 2, 0};
    v.sun.color = {1, 0.5f, 0.25f};
    v.sun.intensity = 2;
    v.ambient = {0.1f, 0.2f, 0.3f};
    FrameGlobals g = viewGlobals(v, 64, 64);
    EXPECT_EQ(vec3(g.eye), vec3(0, 0, 5));
    EXPECT_EQ(g.eye.w, 0.5f);
    EXPECT_EQ(g.camera_right.w, 100.0f);
    EXPECT_EQ(vec3(g.camera_right), vec3(1, 0, 0));
    EXPECT_EQ(vec3(g.camera_up), vec3(0, 1, 0));
    EXPECT_EQ(vec3(g.camera_forward), vec3(0, 0, -1));
    EXPECT_EQ(vec3(g.sun_direction), vec3(0, 1, 0));
    EXPECT_EQ(vec3(g.sun_radiance), vec3(2, 1, 0.5f));
    EXPECT_EQ(vec3(g.ambient), vec3(0.1f, 0.2f, 0.3f));
    EXPECT_EQ(g.viewport, vec4(64, 64, 1.0f / 64, 1.0f / 64));
}

TEST(ViewGlobals, UpAlongTheViewIsReplaced) {
    FrameView v = view();
    v.camera.eye = {0, 10, 0};
    v.camera.target = {0, 0, 0};
    v.camera.up = {0, 1, 0}; // degenerate: parallel to the view direction
    FrameGlobals g = viewGlobals(v, 64, 64);
    vec3 r(g.camera_right), u(g.camera_up), f(g.camera_forward);
    EXPECT_NEAR(length(r), 1.0f, 1e-6f);
    EXPECT_NEAR(length(u), 1.0f, 1e-6f);
    EXPECT_NEAR(dot(r, f), 0.0f, 1e-6f);
    EXPECT_NEAR(dot(u, f), 0.0f, 1e-6f);
    EXPECT_FALSE(std::isnan(g.clip_from_world_c0.x));
}

} // namespace
} // namespace spindrift::render
