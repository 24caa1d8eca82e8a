// Depth-buffer collision (collision.h, sdContactSceneDepth): a synthetic linear depth of known
// surfaces, seen by a known camera, against particles placed around them.
#include "kernels/collision.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

// A camera at `eye` looking along `forward` (up = the image's up), 64 x 48 pixels, 60 degrees
// vertically, and the linear depth of what it sees: the ground y = 0 and, when box_top > 0, the
// top of a box x, z in [-1, 1] at that height (its sides are not drawn: the depth of a
// heightfield-like scene is enough here). Sky where the ray misses.
struct DepthScene {
    vec3 eye{0.0f, 4.0f, 8.0f};
    vec3 forward = normalize(vec3(0.0f, -4.0f, -8.0f));
    vec3 up;
    vec3 right;
    uint32_t width = 64, height = 48;
    float tan_y = std::tan(0.5f * 1.0471976f);
    float tan_x = tan_y * 64.0f / 48.0f;
    float box_top = 0.0f;
    std::vector<float> depth;
    std::vector<ColliderRecord> records;

    DepthScene() {
        right = normalize(cross(forward, vec3(0.0f, 1.0f, 0.0f)));
        up = cross(right, forward);
    }

    // The records resolveStep would write for an op of thickness `thickness`, with
    // world_from_sim rows `rows` (identity by default).
    void build(float thickness, vec4 row0 = vec4(1, 0, 0, 0), vec4 row1 = vec4(0, 1, 0, 0),
               vec4 row2 = vec4(0, 0, 1, 0)) {
        depth.assign(size_t{width} * height, kSceneDepthNone);
        for (uint32_t y = 0; y < height; ++y) {
            for (uint32_t x = 0; x < width; ++x) {
                const float nx = (float(x) + 0.5f) / float(width) * 2.0f - 1.0f;
                const float ny = (float(y) + 0.5f) / float(height) * 2.0f - 1.0f;
                const vec3 ray = forward + right * (nx * tan_x) - up * (ny * tan_y);
                float t = ray.y < 0.0f ? -eye.y / ray.y : -1.0f; // ground
                if (box_top > 0.0f && ray.y < 0.0f) {
                    const float tb = (box_top - eye.y) / ray.y;
                    const vec3 hit = eye + ray * tb;
                    if (std::fabs(hit.x) <= 1.0f && std::fabs(hit.z) <= 1.0f) t = tb;
                }
                // ray's forward component is 1: t is the linear depth
                if (t > 0.0f) depth[size_t{y} * width + x] = t;
            }
        }
        records.assign(3, ColliderRecord{});
        ColliderRecord& c = records[0];
        c.kind = kColliderSceneDepth;
        c.radius = thickness;
        c.payload = 1;
        c.position = vec4(eye, tan_x);
        c.extent = vec4(forward, tan_y);
        c.axis_u = vec4(right, float(width));
        c.axis_v = vec4(up, float(height));
        ColliderRecord& t = records[1];
        t.kind = kColliderPayload;
        const uint64_t address = reinterpret_cast<uintptr_t>(depth.data());
        t.flags = static_cast<uint32_t>(address);
        t.payload = static_cast<uint32_t>(address >> 32);
        t.radius = 0.1f; // near plane
        t.position = row0;
        t.extent = row1;
        t.axis_u = row2;
    }

    CollisionContact contact(vec3 p, float radius) const {
        return sdColliderContact(CollidersRef{records.data()}, 0u, p, radius);
    }
};

TEST(SceneDepth, AParticleOnTheGroundIsPushedUpByWhatItLacks) {
    DepthScene scene;
    scene.build(0.5f);
    const CollisionContact c = scene.contact(vec3(0.3f, 0.04f, 0.5f), 0.1f);
    ASSERT_TRUE(c.hit);
    EXPECT_NEAR(c.normal.x, 0.0f, 1e-3f);
    EXPECT_NEAR(c.normal.y, 1.0f, 1e-3f);
    EXPECT_NEAR(c.normal.z, 0.0f, 1e-3f);
    EXPECT_NEAR(c.depth, 0.06f, 1e-3f); // radius 0.1 less the 0.04 it stands above
    // Above the ground by more than its radius: no contact.
    EXPECT_FALSE(scene.contact(vec3(0.3f, 0.2f, 0.5f), 0.1f).hit);
}

TEST(SceneDepth, ThicknessDecidesWhatIsInTheSurfaceAndWhatIsHiddenBehindIt) {
    DepthScene scene;
    scene.build(0.5f);
    const CollisionContact in = scene.contact(vec3(0.0f, -0.3f, 0.0f), 0.1f);
    ASSERT_TRUE(in.hit);
    EXPECT_NEAR(in.depth, 0.4f, 2e-3f);
    EXPECT_NEAR(in.normal.y, 1.0f, 1e-3f);
    EXPECT_FALSE(scene.contact(vec3(0.0f, -0.7f, 0.0f), 0.1f).hit); // past the thickness
    scene.build(1.0f);
    EXPECT_TRUE(scene.contact(vec3(0.0f, -0.7f, 0.0f), 0.1f).hit);
}

TEST(SceneDepth, WhatTheCameraDidNotSeeNeverTouches) {
    DepthScene scene;
    scene.build(100.0f);
    // Behind the camera, outside its view, and in front of its near plane.
    EXPECT_FALSE(scene.contact(vec3(0.0f, 4.0f, 12.0f), 0.1f).hit);
    EXPECT_FALSE(scene.contact(vec3(40.0f, 0.0f, 0.0f), 0.1f).hit);
    EXPECT_FALSE(scene.contact(scene.eye + scene.forward * 0.05f, 0.1f).hit);
    // The sky: the camera saw no surface above the horizon.
    scene.eye = vec3(0.0f, 1.0f, 8.0f);
    scene.forward = vec3(0.0f, 0.0f, -1.0f);
    scene.right = vec3(1.0f, 0.0f, 0.0f);
    scene.up = vec3(0.0f, 1.0f, 0.0f);
    scene.build(100.0f);
    EXPECT_FALSE(scene.contact(vec3(0.0f, 3.0f, 0.0f), 0.1f).hit);
    EXPECT_TRUE(scene.contact(vec3(0.0f, 0.02f, 0.0f), 0.1f).hit);
}

TEST(SceneDepth, TheNormalComesFromTheSameSideOfASilhouette) {
    DepthScene scene;
    scene.box_top = 1.0f;
    scene.build(0.5f);
    // On the box top near its front edge, where half the neighbours see the ground far below:
    // the normal is still the top's.
    for (float z : {0.0f, 0.5f, 0.8f}) {
        const CollisionContact c = scene.contact(vec3(0.2f, 1.03f, z), 0.1f);
        ASSERT_TRUE(c.hit) << z;
        EXPECT_NEAR(c.normal.y, 1.0f, 2e-2f) << z;
    }
}

TEST(SceneDepth, TheContactComesBackInSimulationSpace) {
    DepthScene scene;
    // Simulation space 2 m above the world (world = sim + (0, 2, 0)) and turned 90 degrees about
    // Y (world x = -sim z, world z = sim x): a particle at sim (0.5, -1.96, -0.3) is at world
    // (0.3, 0.04, 0.5), on the ground as in the first test.
    scene.build(0.5f, vec4(0, 0, -1, 0), vec4(0, 1, 0, 2), vec4(1, 0, 0, 0));
    const CollisionContact c = scene.contact(vec3(0.5f, -1.96f, -0.3f), 0.1f);
    ASSERT_TRUE(c.hit);
    EXPECT_NEAR(c.normal.y, 1.0f, 1e-3f);
    EXPECT_NEAR(c.depth, 0.06f, 1e-3f);
    // Turned so the world's up is the simulation's +x: the push is along sim +x.
    scene.build(0.5f, vec4(0, 1, 0, 0), vec4(1, 0, 0, 0), vec4(0, 0, 1, 0));
    const CollisionContact turned = scene.contact(vec3(0.04f, 0.3f, 0.5f), 0.1f);
    ASSERT_TRUE(turned.hit);
    EXPECT_NEAR(turned.normal.x, 1.0f, 1e-3f);
    EXPECT_NEAR(turned.depth, 0.06f, 1e-3f);
}

// The op sweeps the depth with its response like any collider: a falling particle bounces.
TEST(SceneDepth, TheOpBouncesAFallingParticle) {
    DepthScene scene;
    scene.build(0.5f);
    OpRecord op{};
    op.op = kOpCollision;
    op.mode = kResponseBounce;
    op.params0 = vec4(0.5f, 0.0f, 0.0f, 0.5f); // bounce, friction, lifetime loss, radius scale
    op.first = 0;
    op.count = 2; // the camera record and its payload
    ParticleMotion q{};
    q.position = vec3(0.0f, 0.02f, 0.0f);
    q.velocity = vec3(0.0f, -4.0f, 0.0f);
    q.lifetime_s = 1.0f;
    vec3 normal;
    ASSERT_TRUE(
        sdApplyCollisionOpWithNormal(op, CollidersRef{scene.records.data()}, 0.2f, q, normal));
    EXPECT_NEAR(q.position.y, 0.1f, 1e-3f);
    EXPECT_NEAR(q.velocity.y, 2.0f, 1e-3f);
    EXPECT_NEAR(normal.y, 1.0f, 1e-3f);
}

} // namespace
} // namespace spindrift
