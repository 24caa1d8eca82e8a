#include "kernels/collision.h"
#include "kernels/update_step.h"

#include <cmath>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

// The kernels take the collider array and an index (a heightfield reads the records after it).
// (One spare record: GCC's bounds check cannot rule out the heightfield branch reading the record
// after a collider.)
CollisionContact contactOne(const ColliderRecord& c, vec3 p, float radius) {
    const ColliderRecord one[2] = {c, {}};
    return sdColliderContact(CollidersRef{one}, 0u, p, radius);
}

CollisionResult collideOne(const ColliderRecord& c, uint response, float bounce, float friction,
                           vec3 p, vec3 v, float radius) {
    const ColliderRecord one[2] = {c, {}};
    return sdCollide(CollidersRef{one}, 0u, response, bounce, friction, p, v, radius);
}

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
        collideOne(ground(), kResponseBounce, 0.4f, 0.0f, vec3(1, -0.1f, 0), vec3(2, -5, 0), 0.0f);
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
        CollisionResult r = collideOne(ground(), kResponseBounce, e, 0.0f, p, v, 0.0f);
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
    CollisionResult r = collideOne(ground(), kResponseBounce, 0.5f, 0.25f, vec3(0, -0.01f, 0),
                                   vec3(4, -2, -8), 0.0f);
    EXPECT_FLOAT_EQ(r.velocity.x, 3.0f);
    EXPECT_FLOAT_EQ(r.velocity.z, -6.0f);
    EXPECT_FLOAT_EQ(r.velocity.y, 1.0f);
}

TEST(Collision, StickZeroesVelocityAndKillFlags) {
    CollisionResult r =
        collideOne(ground(), kResponseStick, 0.5f, 0.0f, vec3(0, -0.2f, 0), vec3(1, -3, 0), 0.1f);
    EXPECT_TRUE(r.contact);
    EXPECT_EQ(r.velocity, vec3(0.0f));
    EXPECT_NEAR(r.position.y, 0.1f, 1.0e-6f); // a particle of radius 0.1 rests on the plane
    r = collideOne(ground(), kResponseKill, 0.5f, 0.0f, vec3(0, -0.2f, 0), vec3(1, -3, 0), 0.0f);
    EXPECT_TRUE(r.contact);
    EXPECT_TRUE(r.kill);
    // No contact: nothing changes and nothing is flagged.
    r = collideOne(ground(), kResponseKill, 0.5f, 0.0f, vec3(0, 0.5f, 0), vec3(1, -3, 0), 0.1f);
    EXPECT_FALSE(r.contact);
    EXPECT_FALSE(r.kill);
    EXPECT_EQ(r.position, vec3(0, 0.5f, 0));
    EXPECT_EQ(r.velocity, vec3(1, -3, 0));
}

TEST(Collision, MovingAwayKeepsItsVelocity) {
    CollisionResult r =
        collideOne(ground(), kResponseBounce, 0.5f, 0.5f, vec3(0, -0.01f, 0), vec3(1, 2, 0), 0.0f);
    EXPECT_TRUE(r.contact);
    EXPECT_EQ(r.velocity, vec3(1, 2, 0));
    EXPECT_EQ(r.position.y, 0.0f);
}

TEST(Collision, SphereOutsidePushesOutAlongTheNormal) {
    ColliderRecord c = sphere(1.0f, false);
    vec3 p(0.0f, 1.0f, 0.9f); // 0.9 from the centre
    CollisionResult r = collideOne(c, kResponseBounce, 1.0f, 0.0f, p, vec3(0, 0, -2), 0.05f);
    EXPECT_TRUE(r.contact);
    EXPECT_NEAR(r.position.z, 1.05f, 1.0e-6f);
    EXPECT_NEAR(r.velocity.z, 2.0f, 1.0e-6f);
    EXPECT_FALSE(contactOne(c, vec3(0.0f, 1.0f, 1.1f), 0.05f).hit);
}

TEST(Collision, SphereInsideKeepsParticlesIn) {
    ColliderRecord c = sphere(2.0f, true);
    EXPECT_FALSE(contactOne(c, vec3(0.0f, 1.0f, 1.0f), 0.1f).hit);
    CollisionResult r =
        collideOne(c, kResponseBounce, 0.5f, 0.0f, vec3(2.5f, 1.0f, 0.0f), vec3(3, 0, 0), 0.1f);
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
    CollisionContact k = contactOne(c, vec3(1.05f, 0.0f, 0.0f), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_EQ(k.normal, vec3(1, 0, 0));
    EXPECT_NEAR(k.depth, 0.05f, 1.0e-6f);
    EXPECT_FALSE(contactOne(c, vec3(1.2f, 0.0f, 0.0f), 0.1f).hit);
    // Near an edge: the normal points from the closest point of the box.
    k = contactOne(c, vec3(1.03f, 2.04f, 0.0f), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.x, 0.6f, 1.0e-5f);
    EXPECT_NEAR(k.normal.y, 0.8f, 1.0e-5f);
    // Inside: out through the nearest face (-Y is 0.3 away, the others further).
    CollisionResult r =
        collideOne(c, kResponseBounce, 1.0f, 0.0f, vec3(0.0f, -1.7f, 0.0f), vec3(0, 1, 0), 0.0f);
    EXPECT_TRUE(r.contact);
    EXPECT_NEAR(r.position.y, -2.0f, 1.0e-6f);
    EXPECT_NEAR(r.velocity.y, -1.0f, 1.0e-6f);
}

TEST(Collision, LifetimeLossIsAFractionOfTheLifetime) {
    EXPECT_FLOAT_EQ(sdLifetimeAfterContact(2.0f, 0.25f), 1.5f);
    EXPECT_EQ(sdLifetimeAfterContact(2.0f, 0.0f), 2.0f);
    EXPECT_EQ(sdLifetimeAfterContact(2.0f, 1.0f), 0.0f);
}

ColliderRecord framed(uint kind, vec3 center, vec3 u, vec3 v) {
    ColliderRecord c{};
    c.kind = kind;
    c.position = vec4(center, 0.0f);
    c.axis_u = vec4(u, 0.0f);
    c.axis_v = vec4(v, 0.0f);
    return c;
}

TEST(Collision, OrientedBoxTurnedAboutYPushesOutAlongItsOwnFace) {
    // A 2 x 2 x 2 box at the origin turned 45 degrees about +Y: its local +X face normal is
    // (s, 0, -s) in world space, s = sqrt(1/2).
    const float s = std::sqrt(0.5f);
    ColliderRecord c = framed(kColliderOrientedBox, vec3(0.0f), vec3(s, 0, -s), vec3(0, 1, 0));
    c.extent = vec4(1.0f, 1.0f, 1.0f, 0.0f);
    // 0.95 along the local +X axis: inside by 0.05, plus the particle's radius 0.1.
    CollisionContact k = contactOne(c, vec3(0.95f * s, 0.0f, -0.95f * s), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.x, s, 1.0e-5f);
    EXPECT_NEAR(k.normal.z, -s, 1.0e-5f);
    EXPECT_NEAR(k.depth, 0.15f, 1.0e-5f);
    // (1.05, 0, 0) in world space is inside the unturned box's room but outside the turned one's
    // local extent along no axis: it is 0.74 along local x and 0.74 along local z, so inside.
    EXPECT_TRUE(contactOne(c, vec3(1.05f, 0.0f, 0.0f), 0.0f).hit);
    // (1.5, 0, 0): local (1.06, 0, 1.06), outside both faces' room by more than the radius.
    EXPECT_FALSE(contactOne(c, vec3(1.5f, 0.0f, 0.0f), 0.05f).hit);
}

TEST(Collision, CapsuleIsASphereAroundTheNearestPointOfItsSegment) {
    ColliderRecord c = framed(kColliderCapsule, vec3(0, 1, 0), vec3(1, 0, 0), vec3(0, 1, 0));
    c.radius = 0.5f;
    c.extent = vec4(1.0f, 0.0f, 0.0f, 0.0f); // segment from y = 0 to y = 2
    // Beside the middle: pushed out sideways.
    CollisionContact k = contactOne(c, vec3(0.45f, 1.5f, 0.0f), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.x, 1.0f, 1.0e-6f);
    EXPECT_NEAR(k.depth, 0.15f, 1.0e-5f);
    // Above the top end: pushed out upwards from the end's hemisphere.
    k = contactOne(c, vec3(0.0f, 2.45f, 0.0f), 0.0f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.y, 1.0f, 1.0e-6f);
    EXPECT_NEAR(k.depth, 0.05f, 1.0e-5f);
    EXPECT_FALSE(contactOne(c, vec3(0.0f, 2.7f, 0.0f), 0.1f).hit);
}

TEST(Collision, CylinderSidesAndCaps) {
    ColliderRecord c = framed(kColliderCylinder, vec3(0.0f), vec3(1, 0, 0), vec3(0, 1, 0));
    c.radius = 1.0f;
    c.extent = vec4(2.0f, 0.0f, 0.0f, 0.0f); // y in [-2, 2]
    // Beside the side (radial along +Z): outward radial normal.
    CollisionContact k = contactOne(c, vec3(0.0f, 0.5f, 1.05f), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.z, 1.0f, 1.0e-6f);
    EXPECT_NEAR(k.depth, 0.05f, 1.0e-5f);
    // Just above the top cap: up.
    k = contactOne(c, vec3(0.3f, 2.02f, 0.0f), 0.1f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.y, 1.0f, 1.0e-6f);
    EXPECT_NEAR(k.depth, 0.08f, 1.0e-5f);
    // Inside, nearer the side than a cap: out through the side.
    k = contactOne(c, vec3(-0.9f, 0.0f, 0.0f), 0.0f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.x, -1.0f, 1.0e-6f);
    EXPECT_NEAR(k.depth, 0.1f, 1.0e-5f);
    // Beyond the rim diagonally: no contact.
    EXPECT_FALSE(contactOne(c, vec3(1.2f, 2.2f, 0.0f), 0.2f).hit);
}

TEST(Collision, HeightfieldIsBilinearAndSkipsItsSampleRecords) {
    // 3 x 2 samples, 1 m cells, corner at the origin: heights rise along x (0, 1, 2) on both rows.
    ColliderRecord records[3] = {};
    records[0] = framed(kColliderHeightfield, vec3(0.0f), vec3(1, 0, 0), vec3(0, 1, 0));
    records[0].extent = vec4(1.0f, 1.0f, 3.0f, 2.0f);
    records[0].payload = 1u;
    records[1].kind = kColliderPayload;
    records[1].position = vec4(0.0f, 1.0f, 2.0f, 0.0f); // row 0: x = 0, 1, 2; row 1 starts at w
    records[1].extent = vec4(1.0f, 2.0f, 0.0f, 0.0f);
    const CollidersRef refs{records};
    // At x = 0.5 the surface is at 0.5 with slope 1: below it, pushed out along (-1, 1)/sqrt 2.
    CollisionContact k = sdColliderContact(refs, 0u, vec3(0.5f, 0.3f, 0.5f), 0.0f);
    EXPECT_TRUE(k.hit);
    EXPECT_NEAR(k.normal.x, -std::sqrt(0.5f), 1.0e-5f);
    EXPECT_NEAR(k.normal.y, std::sqrt(0.5f), 1.0e-5f);
    EXPECT_NEAR(k.depth, 0.2f * std::sqrt(0.5f), 1.0e-5f);
    EXPECT_FALSE(sdColliderContact(refs, 0u, vec3(0.5f, 0.7f, 0.5f), 0.0f).hit);
    // Off the grid: nothing.
    EXPECT_FALSE(sdColliderContact(refs, 0u, vec3(2.5f, -5.0f, 0.5f), 0.0f).hit);
    // The sample record itself never touches, and a collision op's sweep steps over it.
    EXPECT_FALSE(sdColliderContact(refs, 1u, vec3(0.0f, -100.0f, 0.0f), 1.0f).hit);
    OpRecord op{};
    op.op = kOpCollision;
    op.first = 0u;
    op.count = 2u;
    op.mode = kResponseStick;
    op.params0 = vec4(0.0f, 0.0f, 0.0f, 1.0f);
    ParticleMotion q{};
    q.position = vec3(1.5f, 1.0f, 0.5f); // surface at 1.5
    q.velocity = vec3(0.0f, -1.0f, 0.0f);
    q.lifetime_s = 1.0f;
    EXPECT_TRUE(sdApplyCollisionOp(op, refs, 0.0f, q));
    EXPECT_EQ(q.velocity, vec3(0.0f));
    EXPECT_NE(q.flags & kParticleFlagStuck, 0u);
}

} // namespace
} // namespace spindrift
