#include "kernels/forces.h"

#include <cmath>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

ForceFieldRecord field(uint32_t shape, float strength, float radius, float falloff) {
    ForceFieldRecord f{};
    f.shape = shape;
    f.strength = strength;
    f.radius = radius;
    f.falloff = falloff;
    f.position = vec4(1.0f, 2.0f, 3.0f, 0.0f);
    f.axis = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    return f;
}

// The acceleration the field applies at p: the velocity change over dt = 1 from rest.
vec3 accel(const ForceFieldRecord& f, vec3 p) {
    return sdForceField(f, p, vec3(0.0f), 1.0f);
}

TEST(ForceField, FalloffIsOneMinusDOverRToThePowerFalloff) {
    for (float falloff : {0.0f, 0.5f, 1.0f, 2.0f, 3.7f}) {
        for (float d = 0.0f; d < 2.0f; d += 0.05f) {
            double want = d < 2.0f ? std::pow(1.0 - d / 2.0, double(falloff)) : 0.0;
            EXPECT_NEAR(sdForceFieldFalloff(d, 2.0f, falloff), want, 2.0e-6 * want + 1.0e-12)
                << "d " << d << " falloff " << falloff;
        }
    }
}

TEST(ForceField, PointIsZeroBeyondTheRadiusAndFullAtTheCentreForFalloffZero) {
    ForceFieldRecord f = field(kForceFieldPoint, 4.0f, 2.0f, 0.0f);
    vec3 centre(1.0f, 2.0f, 3.0f);
    EXPECT_EQ(accel(f, centre + vec3(2.0f, 0.0f, 0.0f)), vec3(0.0f)); // at the rim
    EXPECT_EQ(accel(f, centre + vec3(0.0f, 5.0f, 0.0f)), vec3(0.0f));
    EXPECT_EQ(accel(f, centre), vec3(0.0f)); // direction undefined at the centre
    // Falloff 0: full strength everywhere inside, pointing at the centre.
    for (float d : {0.01f, 0.5f, 1.0f, 1.99f}) {
        vec3 a = accel(f, centre + vec3(0.0f, 0.0f, d));
        EXPECT_NEAR(a.z, -4.0f, 1.0e-5f) << d;
        EXPECT_NEAR(glm::length(vec3(a.x, a.y, 0.0f)), 0.0f, 1.0e-6f);
    }
}

TEST(ForceField, PointFadesLinearlyForFalloffOneAndRepelsWhenNegative) {
    ForceFieldRecord f = field(kForceFieldPoint, 4.0f, 2.0f, 1.0f);
    vec3 centre(1.0f, 2.0f, 3.0f);
    vec3 a = accel(f, centre + vec3(0.5f, 0.0f, 0.0f));
    EXPECT_NEAR(a.x, -4.0f * 0.75f, 1.0e-5f);
    f.strength = -4.0f;
    a = accel(f, centre + vec3(1.5f, 0.0f, 0.0f));
    EXPECT_NEAR(a.x, 4.0f * 0.25f, 1.0e-5f);
    // Near the centre the fade is ~1 (full strength).
    a = accel(f, centre + vec3(1.0e-4f, 0.0f, 0.0f));
    EXPECT_NEAR(a.x, 4.0f, 1.0e-3f);
}

TEST(ForceField, VortexIsPerpendicularToAxisAndRadiusCounterClockwise) {
    ForceFieldRecord f = field(kForceFieldVortex, 3.0f, 5.0f, 0.0f);
    vec3 centre(1.0f, 2.0f, 3.0f);
    // +X of the axis, some height along it: the push is toward -Z (counter-clockwise from +Y).
    vec3 a = accel(f, centre + vec3(1.0f, 7.0f, 0.0f));
    EXPECT_NEAR(a.x, 0.0f, 1.0e-6f);
    EXPECT_NEAR(a.y, 0.0f, 1.0e-6f);
    EXPECT_NEAR(a.z, -3.0f, 1.0e-5f);
    // An oblique axis: perpendicular to it and to the radial vector, for many points.
    f.axis = vec4(glm::normalize(vec3(1.0f, 2.0f, -0.5f)), 0.0f);
    vec3 axis(f.axis);
    for (float t = -2.0f; t < 2.0f; t += 0.37f) {
        vec3 p = centre + vec3(t, 1.0f - t, 0.5f * t * t);
        vec3 rel = p - centre;
        vec3 radial = rel - axis * glm::dot(rel, axis);
        vec3 acc = accel(f, p);
        if (glm::length(radial) >= 5.0f) continue;
        EXPECT_NEAR(glm::dot(acc, axis), 0.0f, 1.0e-5f);
        EXPECT_NEAR(glm::dot(acc, radial), 0.0f, 1.0e-5f);
        EXPECT_NEAR(glm::length(acc), 3.0f, 1.0e-5f);
        // Right-hand rule: axis x radial points along the push.
        EXPECT_GT(glm::dot(glm::cross(axis, radial), acc), 0.0f);
    }
    // Distance is measured from the axis line: far along the axis but near it is inside.
    EXPECT_GT(glm::length(accel(f, centre + axis * 100.0f + glm::cross(axis, vec3(0, 0, 1)))),
              0.0f);
}

TEST(ForceField, DragFieldDampsInsideOnly) {
    ForceFieldRecord f = field(kForceFieldDrag, 2.0f, 1.0f, 0.0f);
    vec3 centre(1.0f, 2.0f, 3.0f), v(3.0f, 0.0f, -1.0f);
    vec3 inside = sdForceField(f, centre + vec3(0.5f, 0.0f, 0.0f), v, 0.25f);
    EXPECT_NEAR(inside.x, 3.0f * std::exp(-0.5f), 1.0e-6f);
    EXPECT_EQ(sdForceField(f, centre + vec3(1.5f, 0.0f, 0.0f), v, 0.25f), v);
}

TEST(Attractor, SoftenedInverseSquareTowardThePosition) {
    vec3 at(0.0f, 1.0f, 0.0f);
    AttractorResult r = sdAttractor(vec3(0.0f, 1.0f, 4.0f), at, 8.0f, 0.5f, 0.0f);
    EXPECT_NEAR(r.acceleration.z, -8.0f / 16.0f, 1.0e-6f);
    EXPECT_FALSE(r.kill);
    // Inside the softening radius the magnitude is strength / radius^2.
    r = sdAttractor(vec3(0.1f, 1.0f, 0.0f), at, 8.0f, 0.5f, 0.0f);
    EXPECT_NEAR(r.acceleration.x, -8.0f / 0.25f, 1.0e-4f);
    // At the position itself: no direction, no acceleration, no NaN.
    r = sdAttractor(at, at, 8.0f, 0.5f, 0.0f);
    EXPECT_EQ(r.acceleration, vec3(0.0f));
    EXPECT_FALSE(r.kill); // kill_radius 0 disables killing
    // Negative strength repels.
    r = sdAttractor(vec3(2.0f, 1.0f, 0.0f), at, -4.0f, 0.5f, 0.0f);
    EXPECT_NEAR(r.acceleration.x, 1.0f, 1.0e-6f);
}

TEST(Attractor, KillsInsideTheKillRadius) {
    vec3 at(0.0f);
    EXPECT_TRUE(sdAttractor(vec3(0.05f, 0.0f, 0.0f), at, 1.0f, 0.2f, 0.1f).kill);
    EXPECT_TRUE(sdAttractor(at, at, 1.0f, 0.2f, 0.1f).kill);
    EXPECT_FALSE(sdAttractor(vec3(0.1f, 0.0f, 0.0f), at, 1.0f, 0.2f, 0.1f).kill);
    EXPECT_FALSE(sdAttractor(vec3(0.5f, 0.0f, 0.0f), at, 1.0f, 0.2f, 0.1f).kill);
}

TEST(Forces, AccelerationBuoyancyAndWind) {
    EXPECT_EQ(sdAcceleration(vec3(1, 2, 3), vec3(0, -8, 0), 0.5f), vec3(1, -2, 3));
    EXPECT_EQ(sdBuoyancy(vec3(0), vec3(0, 0, 1), 4.0f, 0.5f, 0.25f), vec3(0, 0, 0.5f));
    // Wind pulls toward the air velocity by 1 - exp(-k dt) per step; many steps converge to it.
    float blend = sdWindBlend(3.0f, 0.1f);
    EXPECT_NEAR(blend, 1.0 - std::exp(-0.3), 1.0e-7);
    vec3 v(0.0f), wind(2.0f, 0.0f, -1.0f);
    v = sdWind(v, wind, blend);
    EXPECT_NEAR(v.x, 2.0f * blend, 1.0e-7f);
    for (int i = 0; i < 200; ++i) v = sdWind(v, wind, blend);
    EXPECT_NEAR(glm::length(v - wind), 0.0f, 1.0e-5f);
}

TEST(Forces, SpeedLimitDecaysTheExcessOnly) {
    float factor = sdDragFactor(5.0f, 0.1f);
    vec3 fast(0.0f, 0.0f, 14.0f);
    vec3 limited = sdSpeedLimit(fast, 10.0f, factor);
    EXPECT_NEAR(limited.z, 10.0f + 4.0f * std::exp(-0.5f), 1.0e-5f);
    EXPECT_EQ(limited.x, 0.0f);
    vec3 slow(3.0f, 4.0f, 0.0f);
    EXPECT_EQ(sdSpeedLimit(slow, 10.0f, factor), slow);
    EXPECT_EQ(sdSpeedLimit(vec3(0.0f), 0.0f, factor), vec3(0.0f));
    // Direction is kept.
    vec3 d = sdSpeedLimit(vec3(30.0f, -40.0f, 0.0f), 10.0f, factor);
    EXPECT_NEAR(d.x / d.y, -0.75f, 1.0e-6f);
}

} // namespace
} // namespace spindrift
