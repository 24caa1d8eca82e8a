#include "kernels/birth.h"

#include <cmath>

#include <gtest/gtest.h>

#include "kernels/kernel_test_records.h"

namespace spindrift {
namespace {

uint32_t birthKeyOf(uint32_t i) {
    return sdParticleKey(5u, 2u, i, 0u);
}

TEST(Birth, RangesAreDrawnWithTheirOwnDrawIndices) {
    EmitterRecord e = test::makeTestEmitter();
    e.lifetime_min_s = 1.0f;
    e.lifetime_max_s = 3.0f;
    e.size_min = 0.2f;
    e.size_max = 0.4f;
    e.rotation_min_rad = -1.0f;
    e.rotation_max_rad = 1.0f;
    e.angular_velocity_min_rad_per_s = 2.0f;
    e.angular_velocity_max_rad_per_s = 4.0f;
    e.mass_min = 0.5f;
    e.mass_max = 5.0f;
    for (uint32_t i = 0; i < 2000; ++i) {
        uint32_t key = birthKeyOf(i);
        ShapeSample s = sdSampleShape(e, key);
        Birth b = sdBirth(e, key, s);
        EXPECT_EQ(b.lifetime_s, sdRandomRange(key, kDrawLifetime, 1.0f, 3.0f));
        EXPECT_EQ(b.size, sdRandomRange(key, kDrawSize, 0.2f, 0.4f));
        EXPECT_EQ(b.rotation_rad, sdRandomRange(key, kDrawRotation, -1.0f, 1.0f));
        EXPECT_EQ(b.angular_velocity_rad_per_s,
                  sdRandomRange(key, kDrawAngularVelocity, 2.0f, 4.0f));
        EXPECT_EQ(b.mass, sdRandomRange(key, kDrawMass, 0.5f, 5.0f));
        EXPECT_GE(b.lifetime_s, 1.0f);
        EXPECT_LT(b.lifetime_s, 3.0f);
        EXPECT_EQ(b.position, s.position);
    }
}

TEST(Birth, VelocityIsSpeedAlongTheDirectionPlusInitVelocity) {
    EmitterRecord e = test::makeTestEmitter();
    e.speed_min = 2.0f;
    e.speed_max = 2.0f;
    e.velocity_min = vec4(-1, 3, 0.5f, 0);
    e.velocity_max = vec4(1, 3, 0.5f, 0);
    ShapeSample s;
    s.position = vec3(1, 2, 3);
    s.direction = vec3(0, 0, 1);
    for (uint32_t i = 0; i < 1000; ++i) {
        Birth b = sdBirth(e, birthKeyOf(i), s);
        EXPECT_GE(b.velocity.x, -1.0f);
        EXPECT_LT(b.velocity.x, 1.0f);
        EXPECT_EQ(b.velocity.y, 3.0f);
        EXPECT_EQ(b.velocity.z, 2.5f);
    }
    e.speed_min = e.speed_max = -1.0f; // negative speed goes against the direction
    e.velocity_min = e.velocity_max = vec4(0.0f);
    EXPECT_EQ(sdBirth(e, birthKeyOf(0), s).velocity, vec3(0, 0, -1));
}

TEST(Birth, LifetimeIsClampedBelow) {
    EmitterRecord e = test::makeTestEmitter();
    e.lifetime_min_s = e.lifetime_max_s = 1.0e-9f;
    ShapeSample s = sdSampleShape(e, birthKeyOf(0));
    Birth b = sdBirth(e, birthKeyOf(0), s);
    EXPECT_EQ(b.lifetime_s, kMinLifetimeS);
    EXPECT_TRUE(std::isfinite(1.0f / b.lifetime_s));
}

TEST(Birth, ConstantColourIsExact) {
    EmitterRecord e = test::makeTestEmitter();
    e.color_a = e.color_b = vec4(0.3f, 2.5f, 0.1f, 0.7f);
    ShapeSample s = sdSampleShape(e, birthKeyOf(0));
    for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(sdBirth(e, birthKeyOf(i), s).color, e.color_a);
}

TEST(Birth, RandomBetweenUsesOneBlendForAllComponents) {
    EmitterRecord e = test::makeTestEmitter();
    e.color_mode = kColorModeRandomBetween;
    e.color_a = vec4(0, 0, 0, 0);
    e.color_b = vec4(1, 2, 4, 0.5f);
    ShapeSample s = sdSampleShape(e, birthKeyOf(0));
    for (uint32_t i = 0; i < 1000; ++i) {
        Birth b = sdBirth(e, birthKeyOf(i), s);
        float t = sdRandom01(birthKeyOf(i), kDrawColor);
        EXPECT_EQ(b.color_t, t);
        EXPECT_FLOAT_EQ(b.color.x, t);
        EXPECT_FLOAT_EQ(b.color.y, 2.0f * t);
        EXPECT_FLOAT_EQ(b.color.z, 4.0f * t);
        EXPECT_FLOAT_EQ(b.color.w, 0.5f * t);
    }
}

TEST(Birth, GradientModeGivesTheGradientPosition) {
    EmitterRecord e = test::makeTestEmitter();
    e.color_mode = kColorModeGradient;
    e.color_a = e.color_b = vec4(0.0f);
    e.color_lut_row = 3;
    ShapeSample s = sdSampleShape(e, birthKeyOf(0));
    Birth b = sdBirth(e, birthKeyOf(7), s);
    EXPECT_EQ(b.color_t, sdRandom01(birthKeyOf(7), kDrawColor));
    EXPECT_GE(b.color_t, 0.0f);
    EXPECT_LT(b.color_t, 1.0f);
}

TEST(Birth, SameKeySameBirthDifferentKeyDifferentBirth) {
    EmitterRecord e = test::makeTestEmitter();
    e.lifetime_min_s = 1.0f;
    e.lifetime_max_s = 2.0f;
    ShapeSample s = sdSampleShape(e, birthKeyOf(1));
    EXPECT_EQ(sdBirth(e, birthKeyOf(1), s).lifetime_s, sdBirth(e, birthKeyOf(1), s).lifetime_s);
    EXPECT_NE(sdBirth(e, birthKeyOf(1), s).lifetime_s, sdBirth(e, birthKeyOf(2), s).lifetime_s);
}

} // namespace
} // namespace spindrift
