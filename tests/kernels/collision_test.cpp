#include "kernels/collision.h"

#include <cmath>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

ColliderRecord ground() {
    ColliderRecord c{};
    c.kind = kColliderPlane;
    c.position = vec4(0.0f);
    c.extent = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    return c;
}

ColliderRecord sphere(float radius, bool inside) {
    ColliderRecord c{};
    c.kind = kColliderSphere;
    c.flags = inside ? kColliderFlagInside : 0u;
    c.radius = radius;
    c.position = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    return c;
}

TEST(Collision, FallingOntoAPlaneBouncesWithRestitution) {
    // One step below the ground, falling at 5 m/s and sliding at 2 m/s.
    CollisionResult r =
        sdCollide(ground(), kResponseBounce, 0.4f, 0.0f, vec3(1, -0.1f, 0), vec3(2, -5, 0), 0.0f);
    EXPECT_TRUE(r.contact);
    EXPECT_FALSE(r.kill);
    EXPECT_EQ(r.position, vec3(1, 0, 0)); // back on the surface
    EXPECT_FLOAT_EQ(r.velocity.y, 5.0f * 0.4f);
    EXPECT_FLOAT_EQ(r.velocity.x, 2.0f); // no friction: tangential speed kept
}

TEST(Collision, SimulatedBallLosesVerticalSpeedByTheRestitutionPerBounce) {
    // A ball dropped from 1 m: each bounce leaves it rising at e times its impact speed.
    const float dt = 1.0f / 256.0f, e = 0.5f;
    vec3 p(0.0f, 1.0f, 0.0f), v(0.0f);
    float last_impact = 0.0f;
    int bounces = 0;
    for (int i = 0; i < 256 * 3 && bounces < 2; ++i) {
        v.y -= 8.0f * dt;
        p += v * dt;
        float impact = -v.y;
        CollisionResult r = sdCollide(ground(), kResponseBounce, e, 0.0f, p, v, 0.0f);
        if (r.contact && impact > 0.0f) {
            EXPECT_FLOAT_EQ(r.velocity.y, impact * e);
            if (bounces == 1) {
                EXPECT_LT(impact, last_impact);
            }
            last_impact = impact;
            ++bounces;
        }
        p = r.position;
        v = r.velocity;
        ASSERT_GE(p.y, 0.0f);
    }
    EXPECT_EQ(bounces, 2);
}

TEST(Collision, FrictionReducesTangentialSpeed) {
    CollisionResult r = sdCollide(ground(), kResponseBounce, 0.5f, 0.25f, vec3(0, -0.01f, 0),
                                  vec3(4, -2, -8), 0.0f);
    EXPECT_FLOAT_EQ(r.velocity.x, 3.0f);
    EXPECT_FLOAT_EQ(r.velocity.z, -6.0f);
    EXPECT_FLOAT_EQ(r.velocity.y, 1.0f);
}

TEST(Collision, StickZeroesVelocityAndKillFlags) {
    CollisionResult r =
        sdCollide(ground(), kResponseStick, 0.5f, 0.0f, vec3(0, -0.2f, 0), vec3(1, -3, 0), 0.1f);
    EXPECT_TRUE(r.contact);
    EXPECT_EQ(r.velocity, vec3(0.0f));
    EXPECT_NEAR(r.position.y, 0.1f, 1.0e-6f); // a particle of radius 0.1 rests on the plane
    r = sdCollide(ground(), kResponseKill, 0.5f, 0.0f, vec3(0, -0.2f, 0), vec3(1, -3, 0), 0.0f);
    EXPECT_TRUE(r.contact);
    EXPECT_TRUE(r.kill);
    // No contact: nothing changes and nothing is flagged.
    r = sdCollide(ground(), kResponseKill, 0.5f, 0.0f, vec3(0, 0.5f, 0), vec3(1, -3, 0), 0.1f);
    EXPECT_FALSE(r.contact);
    EXPECT_FALSE(r.kill);
    EXPECT_EQ(r.position, vec3(0, 0.5f, 0));
    EXPECT_EQ(r.velocity, vec3(1, -3, 0));
}

TEST(Collision, MovingAwayKeepsItsVelocity) {
    CollisionResult r =
        sdCollide(ground(), kResponseBounce, 0.5f, 0.5f, vec3(0, -0.01f, 0), vec3(1, 2, 0), 0.0f);
    EXPECT_TRUE(r.contact);
    EXPECT_EQ(r.velocity, vec3(1, 2, 0));
    EXPECT_EQ(r.position.y, 0.0f);
}

TEST(Collision, SphereOutsidePushesOutAlongTheNormal) {
    ColliderRecord c = sphere(1.0f, false);
    vec3 p(0.0f, 1.0f, 0.9f); // 0.9 from the centre
    CollisionResult r = sdCollide(c, kResponseBounce, 1.0f, 0.0f, p, vec3(0, 0, -2), 0.05f);
    EXPECT_TRUE(r.contact);
    EXPECT_NEAR(r.position.z, 1.05f, 1.0e-6f);
    EXPECT_NEAR(r.velocity.z, 2.0f, 1.0e-6f);
    EXPECT_FALSE(sdColliderContact(c, vec3(0.0f, 1.0f, 1.1f), 0.05f).hit);
}

TEST(Collision, SphereInsideKeepsParticlesIn) {
    ColliderRecord c = sphere(2.0f, true);
    EXPECT_FALSE(sdColliderContact(c, vec3(0.0f, 1.0f, 1.0f), 0.1f).hit);
    CollisionResult r =
        sdCollide(c, kResponseBounce, 0.5f, 0.0f, vec3(2.5f, 1.0f, 0.0f), vec3(3, 0, 0), 0.1f);
    EXPECT_TRUE(r.contact);
    EXPECT_NEAR(r.position.x, 1.9f, 1.0e-6f);
    EXPECT_NEAR(r.velocity.x, -1.5f, 1.0e-6f);
}

TEST(Collision, BoxFromOutsideAndFromInside) {
    ColliderRecord c{};
    c.kind = kColliderBox;
    c.position = vec4(0.0f);
    c.extent = vec4(1.0f, 2.0f, 3.0f, 0.0f);
    // Near the +X face, outside: touching within the particle radius.
    CollisionContact k = sdColliderContact(c, vec3(1.05f, 0.0f, 0.0f), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_EQ(k.normal, vec3(1, 0, 0));
    EXPECT_NEAR(k.depth, 0.05f, 1.0e-6f);
    EXPECT_FALSE(sdColliderContact(c, vec3(1.2f, 0.0f, 0.0f), 0.1f).hit);
    // Near an edge: the normal points from the closest point of the box.
    k = sdColliderContact(c, vec3(1.03f, 2.04f, 0.0f), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.x, 0.6f, 1.0e-5f);
    EXPECT_NEAR(k.normal.y, 0.8f, 1.0e-5f);
    // Inside: out through the nearest face (-Y is 0.3 away, the others further).
    CollisionResult r =
        sdCollide(c, kResponseBounce, 1.0f, 0.0f, vec3(0.0f, -1.7f, 0.0f), vec3(0, 1, 0), 0.0f);
    EXPECT_TRUE(r.contact);
    EXPECT_NEAR(r.position.y, -2.0f, 1.0e-6f);
    EXPECT_NEAR(r.velocity.y, -1.0f, 1.0e-6f);
}

TEST(Collision, LifetimeLossIsAFractionOfTheLifetime) {
    EXPECT_FLOAT_EQ(sdLifetimeAfterContact(2.0f, 0.25f), 1.5f);
    EXPECT_EQ(sdLifetimeAfterContact(2.0f, 0.0f), 2.0f);
    EXPECT_EQ(sdLifetimeAfterContact(2.0f, 1.0f), 0.0f);
}

} // namespace
} // namespace spindrift
