#include "kernels/integrate.h"

#include <cmath>

#include <gtest/gtest.h>

#include "kernels/forces.h"

namespace spindrift {
namespace {

TEST(Integrate, ProjectileMatchesTheSemiImplicitEulerClosedFormExactly) {
    // Dyadic values keep every operation exact in float, so the closed form
    // p_n = p0 + n v0 dt + a dt^2 n (n + 1) / 2 must hold bit for bit.
    const float dt = 1.0f / 64.0f;
    const vec3 a(0.0f, -8.0f, 0.5f);
    const vec3 p0(1.0f, 100.0f, -2.0f), v0(3.0f, 20.0f, 0.25f);
    vec3 p = p0, v = v0;
    for (int n = 1; n <= 256; ++n) {
        v = sdAcceleration(v, a, dt);
        p = sdIntegratePosition(p, v, dt);
        float fn = float(n);
        vec3 want = p0 + v0 * (fn * dt) + a * (dt * dt * fn * (fn + 1.0f) * 0.5f);
        ASSERT_EQ(p, want) << "step " << n;
        ASSERT_EQ(v, v0 + a * (fn * dt));
    }
}

TEST(Integrate, ProjectileWithRealGravityMatchesTheClosedFormInDouble) {
    const float dt = 1.0f / 60.0f;
    const vec3 a(0.0f, -9.81f, 0.0f);
    vec3 p(0.0f), v(2.0f, 10.0f, 0.0f);
    const int steps = 120;
    for (int n = 0; n < steps; ++n) {
        v = sdAcceleration(v, a, dt);
        p = sdIntegratePosition(p, v, dt);
    }
    double n = steps, dtd = double(dt);
    double want_y = n * 10.0 * dtd + double(a.y) * dtd * dtd * n * (n + 1.0) / 2.0;
    EXPECT_NEAR(p.y, want_y, 1.0e-4);
    EXPECT_NEAR(p.x, n * 2.0 * dtd, 1.0e-5);
}

TEST(Integrate, ExponentialDragMatchesTheAnalyticDecay) {
    const float dt = 1.0f / 60.0f, k = 1.5f;
    const float factor = sdDragFactor(k, dt);
    vec3 v(4.0f, -2.0f, 1.0f);
    const vec3 v0 = v;
    for (int n = 1; n <= 240; ++n) {
        v = sdDrag(v, factor);
        double decay = std::exp(-double(k) * n * double(dt));
        ASSERT_NEAR(v.x, v0.x * decay, 1.0e-4 * v0.x * decay) << n;
        ASSERT_NEAR(v.y, v0.y * decay, 1.0e-4 * std::fabs(v0.y) * decay) << n;
    }
}

TEST(Integrate, DragIsIndependentOfTheStepRate) {
    // One second at 30 Hz and at 240 Hz lose the same fraction of speed.
    vec3 a(1.0f), b(1.0f);
    for (int i = 0; i < 30; ++i) a = sdDrag(a, sdDragFactor(2.0f, 1.0f / 30.0f));
    for (int i = 0; i < 240; ++i) b = sdDrag(b, sdDragFactor(2.0f, 1.0f / 240.0f));
    EXPECT_NEAR(a.x, std::exp(-2.0), 2.0e-5);
    EXPECT_NEAR(b.x, std::exp(-2.0), 2.0e-5);
}

TEST(Integrate, RotationAgeAndDeath) {
    EXPECT_EQ(sdIntegrateRotation(1.0f, 2.0f, 0.25f), 1.5f);
    float age = 0.0f;
    int steps = 0;
    while (!sdIsDead(age, 0.5f)) {
        age = sdAdvanceAge(age, 0.125f);
        ++steps;
    }
    EXPECT_EQ(steps, 4); // dies at age == lifetime
    EXPECT_TRUE(sdIsDead(0.5f, 0.5f));
    EXPECT_FALSE(sdIsDead(0.49f, 0.5f));
}

TEST(Integrate, NormalisedAgeIsClamped) {
    EXPECT_EQ(sdNormalizedAge(0.5f, 2.0f), 0.25f);
    EXPECT_EQ(sdNormalizedAge(3.0f, 2.0f), 1.0f);
    EXPECT_EQ(sdNormalizedAge(-1.0f, 2.0f), 0.0f);
}

} // namespace
} // namespace spindrift
