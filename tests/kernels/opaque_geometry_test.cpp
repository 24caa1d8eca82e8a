#include "render/shader/opaque_geometry.h"

#include <cmath>

#include <gtest/gtest.h>

#include "render/shader/lighting.h"

namespace spindrift {
namespace {

TEST(OpaqueGeometry, BoxVerticesLieOnTheirFaceWithOutwardNormals) {
    int per_face[6] = {};
    for (uint i = 0; i < kBoxVertexCount; ++i) {
        OpaqueVertex v = sdBoxVertex(i);
        ASSERT_EQ(dot(v.normal, v.normal), 1.0f) << i;
        EXPECT_EQ(dot(v.position, v.normal), 1.0f) << i; // on the face the normal leaves
        EXPECT_LE(std::abs(v.position.x), 1.0f);
        EXPECT_LE(std::abs(v.position.y), 1.0f);
        EXPECT_LE(std::abs(v.position.z), 1.0f);
        ++per_face[i / 6];
    }
    for (int count : per_face) EXPECT_EQ(count, 6);
    EXPECT_EQ(sdBoxVertex(0).normal, vec3(1, 0, 0));
    EXPECT_EQ(sdBoxVertex(6).normal, vec3(-1, 0, 0));
    EXPECT_EQ(sdBoxVertex(12).normal, vec3(0, 1, 0));
    EXPECT_EQ(sdBoxVertex(35).normal, vec3(0, 0, -1));
}

TEST(OpaqueGeometry, SphereVerticesAreOnTheUnitSphere) {
    float min_y = 2, max_y = -2;
    for (uint i = 0; i < kSphereVertexCount; ++i) {
        OpaqueVertex v = sdSphereVertex(i);
        ASSERT_NEAR(length(v.position), 1.0f, 1.0e-5f) << i;
        EXPECT_EQ(v.normal, v.position);
        min_y = std::min(min_y, v.position.y);
        max_y = std::max(max_y, v.position.y);
    }
    EXPECT_NEAR(min_y, -1.0f, 1.0e-6f); // pole to pole
    EXPECT_NEAR(max_y, 1.0f, 1.0e-6f);
}

TEST(OpaqueGeometry, DrawsScaleAndPlaceTheUnitShapes) {
    OpaqueDraw ground{};
    ground.kind = kOpaqueGround;
    ground.center = vec4(0, -1.5f, 0, 0);
    ground.extent = vec4(20, 1, 20, 0);
    OpaqueVertex v = sdOpaqueVertex(ground, 2); // corner (1, 1)
    EXPECT_EQ(v.position, vec3(20, -1.5f, 20));
    EXPECT_EQ(v.normal, vec3(0, 1, 0));

    OpaqueDraw box{};
    box.kind = kOpaqueBox;
    box.center = vec4(1, 2, 3, 0);
    box.extent = vec4(0.5f, 1, 2, 0);
    v = sdOpaqueVertex(box, 0); // +X face
    EXPECT_EQ(v.position.x, 1.5f);
    EXPECT_EQ(v.normal, vec3(1, 0, 0));
}

TEST(OpaqueGeometry, GroundCheckerAlternatesByMetre) {
    EXPECT_EQ(sdGroundChecker(vec3(0.5f, 0, 0.5f), 0), 1.0f);
    EXPECT_EQ(sdGroundChecker(vec3(1.5f, 0, 0.5f), 0), kGroundCheckerDark);
    EXPECT_EQ(sdGroundChecker(vec3(-0.5f, 0, 0.5f), 0.25f), kGroundCheckerDark);
    EXPECT_EQ(sdGroundChecker(vec3(-0.5f, 0, -0.5f), 0.1f), 1.0f);
    EXPECT_LT(kGroundCheckerDark, 1.0f);
}

TEST(OpaqueGeometry, GroundCheckerFadesToItsMeanWherePixelsCoverWholeCells) {
    const float mean = 0.5f * (1.0f + kGroundCheckerDark);
    EXPECT_FLOAT_EQ(sdGroundChecker(vec3(0.5f, 0, 0.5f), 0.75f), mean);
    EXPECT_FLOAT_EQ(sdGroundChecker(vec3(1.5f, 0, 0.5f), 4.0f), mean);
    // Half way: half the contrast.
    EXPECT_FLOAT_EQ(sdGroundChecker(vec3(0.5f, 0, 0.5f), 0.5f), 0.5f * (1.0f + mean));
}

TEST(Lighting, SunLambertPlusAmbient) {
    vec3 sun = normalize(vec3(0, 1, 1));
    vec3 light = sdSunAmbient(vec3(0, 1, 0), sun, vec3(2, 2, 2), vec3(0.1f, 0.2f, 0.3f));
    EXPECT_NEAR(light.x, 0.1f + 2 * std::sqrt(0.5f), 1.0e-6f);
    EXPECT_NEAR(light.z, 0.3f + 2 * std::sqrt(0.5f), 1.0e-6f);
    // Facing away: ambient only.
    EXPECT_EQ(sdSunAmbient(vec3(0, -1, 0), sun, vec3(2), vec3(0.1f)), vec3(0.1f));
}

} // namespace
} // namespace spindrift
