// Mesh-particle placement: the tumble axis is a unit vector fixed per particle, the rotation is a
// proper rotation about it by rotation + tumble x age, the age uses the lifetime the particle was
// born with, and points are scaled by size x scale about the particle's position.
#include "render/shader/mesh.h"

#include <cmath>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

constexpr float kMeshEps = 2.0e-5f;

void expectMeshVec3Near(vec3 actual, vec3 expected, float tolerance = kMeshEps) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

MeshParams meshParams(float scale, float tumble_rad_per_s, float lifetime_min, float lifetime_max) {
    MeshParams p{};
    p.scale = scale;
    p.tumble_rad_per_s = tumble_rad_per_s;
    p.lifetime_min_s = lifetime_min;
    p.lifetime_max_s = lifetime_max;
    return p;
}

DrawRecord meshRecord(vec3 position, float size, float rotation, float age_n, uint key) {
    return sdDrawRecord(position, size, vec4(1), vec3(0), rotation, age_n, 0.0f, 0u, key);
}

TEST(MeshKernel, TheAgeUsesTheLifetimeTheParticleWasBornWith) {
    EmitterRecord e{};
    e.lifetime_min_s = 0.5f;
    e.lifetime_max_s = 4.0f;
    const MeshParams p = meshParams(1, 0, e.lifetime_min_s, e.lifetime_max_s);
    for (uint key = 1; key < 200; key += 7) {
        ShapeSample s{};
        const float lifetime = sdBirth(e, key, s).lifetime_s;
        EXPECT_FLOAT_EQ(sdMeshAge(meshRecord(vec3(0), 1, 0, 0.25f, key), p), 0.25f * lifetime);
    }
}

TEST(MeshKernel, RotationIsProperAndKeepsTheTumbleAxis) {
    for (uint key = 0; key < 50; ++key) {
        const vec3 axis = sdTumbleAxis(key);
        EXPECT_NEAR(length(axis), 1.0f, kMeshEps);
        const MeshPlacement m = sdAxisRotation(axis, 0.3f + 0.1f * float(key));
        expectMeshVec3Near(sdMeshRotate(m, axis), axis);
        EXPECT_NEAR(dot(m.column0, m.column1), 0.0f, kMeshEps);
        EXPECT_NEAR(dot(m.column1, m.column2), 0.0f, kMeshEps);
        EXPECT_NEAR(length(m.column0), 1.0f, kMeshEps);
        EXPECT_NEAR(dot(cross(m.column0, m.column1), m.column2), 1.0f, kMeshEps); // det +1
    }
    // Counter-clockwise seen from the axis: a quarter turn about +Z takes +X to +Y.
    expectMeshVec3Near(sdMeshRotate(sdAxisRotation(vec3(0, 0, 1), 1.5707964f), vec3(1, 0, 0)),
                       vec3(0, 1, 0));
}

TEST(MeshKernel, TheAngleIsRotationPlusTumbleTimesAge) {
    const uint key = 12345u;
    const MeshParams p = meshParams(1, 2.0f, 1.5f, 1.5f);         // lifetime 1.5 s
    const DrawRecord r = meshRecord(vec3(0), 1, 0.4f, 0.5f, key); // age 0.75 s: angle 0.4 + 1.5
    const MeshPlacement m = sdMeshPlacement(r, p);
    const MeshPlacement expected = sdAxisRotation(sdTumbleAxis(key), 1.9f);
    expectMeshVec3Near(m.column0, expected.column0);
    expectMeshVec3Near(m.column1, expected.column1);
    expectMeshVec3Near(m.column2, expected.column2);
}

TEST(MeshKernel, PointsAreScaledBySizeTimesScaleAboutThePosition) {
    const MeshParams p = meshParams(0.5f, 0, 1, 1);
    const DrawRecord r = meshRecord(vec3(1, 2, 3), 4.0f, 0.0f, 0.3f, 7u); // no turn at all
    const MeshPlacement m = sdMeshPlacement(r, p);
    expectMeshVec3Near(sdMeshPoint(m, vec3(0)), vec3(1, 2, 3));
    expectMeshVec3Near(sdMeshPoint(m, vec3(1, -1, 0.5f)), vec3(3, 0, 4));
}

} // namespace
} // namespace spindrift
