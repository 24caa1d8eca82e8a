#include "kernels/shape.h"

#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include "kernels/kernel_test_records.h"

namespace spindrift {
namespace {

constexpr int kShapeSamples = 20000;
constexpr float kSurfaceTolerance = 1.0e-5f;
constexpr float kPiF = 3.14159265358979f;

uint32_t shapeKeyOf(uint32_t i) {
    return sdParticleKey(99u, 0u, i, 0u);
}

void forEachSample(const EmitterRecord& e, const std::function<void(const ShapeSample&)>& check) {
    for (int i = 0; i < kShapeSamples; ++i) {
        ShapeSample s = sdSampleShape(e, shapeKeyOf(uint32_t(i)));
        ASSERT_NEAR(glm::length(s.direction), 1.0f, 1.0e-5f) << "sample " << i;
        check(s);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

EmitterRecord emitter(uint32_t kind, uint32_t from) {
    EmitterRecord e = test::makeTestEmitter();
    e.shape_kind = kind;
    e.emit_from = from;
    return e;
}

// Azimuth from +X toward -Z, in [0, 2 pi): the convention of arc_deg.
float azimuth(vec3 p) {
    float a = std::atan2(-p.z, p.x);
    return a < 0.0f ? a + 2.0f * kPiF : a;
}

TEST(Shape, PointIsTheOriginWithAUniformRandomDirection) {
    EmitterRecord e = emitter(kShapePoint, kEmitFromVolume);
    vec3 mean(0.0f);
    forEachSample(e, [&](const ShapeSample& s) {
        ASSERT_EQ(s.position, vec3(0.0f));
        mean += s.direction;
    });
    mean /= float(kShapeSamples);
    EXPECT_LT(glm::length(mean), 0.03f); // 3 sigma of a uniform mean is ~0.012 per axis
}

TEST(Shape, LineVolumeIsOnTheSegmentPointingUp) {
    EmitterRecord e = emitter(kShapeLine, kEmitFromVolume);
    e.shape_length = 3.0f;
    float lo = 1.0f, hi = -1.0f;
    forEachSample(e, [&](const ShapeSample& s) {
        ASSERT_LE(std::fabs(s.position.x), 1.5f);
        ASSERT_EQ(s.position.y, 0.0f);
        ASSERT_EQ(s.position.z, 0.0f);
        ASSERT_EQ(s.direction, vec3(0, 1, 0));
        lo = std::min(lo, s.position.x);
        hi = std::max(hi, s.position.x);
    });
    EXPECT_LT(lo, -1.45f); // spread over the whole segment
    EXPECT_GT(hi, 1.45f);
}

TEST(Shape, LineEdgeIsOneOfTheTwoEnds) {
    EmitterRecord e = emitter(kShapeLine, kEmitFromEdge);
    e.shape_length = 3.0f;
    int left = 0;
    forEachSample(e, [&](const ShapeSample& s) {
        ASSERT_EQ(std::fabs(s.position.x), 1.5f);
        left += s.position.x < 0.0f;
    });
    EXPECT_NEAR(double(left) / kShapeSamples, 0.5, 0.02);
}

TEST(Shape, BoxVolumeIsInside) {
    EmitterRecord e = emitter(kShapeBox, kEmitFromVolume);
    e.shape_size = vec4(1, 2, 3, 0);
    forEachSample(e, [&](const ShapeSample& s) {
        ASSERT_LE(std::fabs(s.position.x), 0.5f);
        ASSERT_LE(std::fabs(s.position.y), 1.0f);
        ASSERT_LE(std::fabs(s.position.z), 1.5f);
        ASSERT_EQ(s.direction, vec3(0, 1, 0));
    });
}

int countOnBoundary(vec3 p, vec3 h) {
    int n = 0;
    for (int i = 0; i < 3; ++i) n += std::fabs(std::fabs(p[i]) - h[i]) <= kSurfaceTolerance;
    return n;
}

TEST(Shape, BoxShellIsOnTheFacesInProportionToTheirArea) {
    EmitterRecord e = emitter(kShapeBox, kEmitFromShell);
    e.shape_size = vec4(1, 2, 3, 0);
    vec3 h(0.5f, 1.0f, 1.5f);
    int on_x_faces = 0;
    forEachSample(e, [&](const ShapeSample& s) {
        for (int i = 0; i < 3; ++i) ASSERT_LE(std::fabs(s.position[i]), h[i] + kSurfaceTolerance);
        ASSERT_GE(countOnBoundary(s.position, h), 1);
        on_x_faces += std::fabs(std::fabs(s.position.x) - 0.5f) <= kSurfaceTolerance;
    });
    // Faces normal to X have area 2*3 of a total 2*3 + 3*1 + 1*2 = 11 per side pair.
    EXPECT_NEAR(double(on_x_faces) / kShapeSamples, 6.0 / 11.0, 0.02);
}

TEST(Shape, BoxEdgeIsOnTheTwelveEdges) {
    EmitterRecord e = emitter(kShapeBox, kEmitFromEdge);
    e.shape_size = vec4(1, 2, 3, 0);
    vec3 h(0.5f, 1.0f, 1.5f);
    int along_z = 0;
    forEachSample(e, [&](const ShapeSample& s) {
        for (int i = 0; i < 3; ++i) ASSERT_LE(std::fabs(s.position[i]), h[i] + kSurfaceTolerance);
        ASSERT_GE(countOnBoundary(s.position, h), 2);
        along_z += std::fabs(std::fabs(s.position.z) - 1.5f) > kSurfaceTolerance;
    });
    // Edges along Z are 3 of every 1 + 2 + 3 metres of edge.
    EXPECT_NEAR(double(along_z) / kShapeSamples, 0.5, 0.02);
}

TEST(Shape, SphereVolumeIsInsideAndUniformInRadius) {
    EmitterRecord e = emitter(kShapeSphere, kEmitFromVolume);
    e.shape_radius = 2.0f;
    int inner = 0;
    forEachSample(e, [&](const ShapeSample& s) {
        float r = glm::length(s.position);
        ASSERT_LE(r, 2.0f * (1.0f + 1.0e-6f));
        if (r > 1.0e-3f) {
            ASSERT_NEAR(glm::length(s.position / r - s.direction), 0.0f, 1.0e-5f);
        }
        inner += r < 1.0f;
    });
    EXPECT_NEAR(double(inner) / kShapeSamples, 1.0 / 8.0,
                0.01); // volume fraction of half the radius
}

TEST(Shape, SphereShellIsOnTheSurfaceFacingOutward) {
    EmitterRecord e = emitter(kShapeSphere, kEmitFromShell);
    e.shape_radius = 2.0f;
    int upper = 0;
    forEachSample(e, [&](const ShapeSample& s) {
        ASSERT_NEAR(glm::length(s.position), 2.0f, kSurfaceTolerance);
        ASSERT_NEAR(glm::length(s.position * 0.5f - s.direction), 0.0f, 1.0e-5f);
        upper += s.position.y > 0.0f;
    });
    EXPECT_NEAR(double(upper) / kShapeSamples, 0.5, 0.02);
}

TEST(Shape, HemisphereKeepsYNonNegative) {
    for (uint32_t from : {kEmitFromVolume, kEmitFromShell, kEmitFromEdge}) {
        EmitterRecord e = emitter(kShapeHemisphere, from);
        e.shape_radius = 1.5f;
        forEachSample(e, [&](const ShapeSample& s) {
            ASSERT_GE(s.position.y, 0.0f);
            ASSERT_GE(s.direction.y, 0.0f);
            float r = glm::length(s.position);
            ASSERT_LE(r, 1.5f + kSurfaceTolerance);
            if (from != kEmitFromVolume) {
                ASSERT_NEAR(r, 1.5f, kSurfaceTolerance);
            }
            if (from == kEmitFromEdge) {
                ASSERT_EQ(s.position.y, 0.0f);
                ASSERT_EQ(s.direction.y, 0.0f);
            }
        });
    }
}

// Cone of base radius 0.5, height 2, half angle 30 degrees, over 270 degrees of arc.
EmitterRecord testCone(uint32_t from) {
    EmitterRecord e = emitter(kShapeCone, from);
    e.shape_radius = 0.5f;
    e.shape_length = 2.0f;
    e.shape_angle_rad = kPiF / 6.0f;
    e.shape_size.w = 1.5f * kPiF;
    return e;
}

void checkCone(uint32_t from) {
    EmitterRecord e = testCone(from);
    float tan_angle = std::tan(e.shape_angle_rad);
    float max_azimuth = 0.0f;
    forEachSample(e, [&](const ShapeSample& s) {
        vec3 p = s.position;
        float r = std::sqrt(p.x * p.x + p.z * p.z);
        ASSERT_GE(p.y, 0.0f);
        ASSERT_LE(p.y, 2.0f + kSurfaceTolerance);
        float rim = 0.5f + p.y * tan_angle; // frustum radius at this height
        ASSERT_LE(r, rim + kSurfaceTolerance);
        if (from == kEmitFromShell) {
            ASSERT_NEAR(r, rim, kSurfaceTolerance);
        }
        if (from == kEmitFromEdge) {
            ASSERT_EQ(p.y, 0.0f);
            ASSERT_NEAR(r, 0.5f, kSurfaceTolerance);
        }
        if (r > 1.0e-4f) {
            float a = azimuth(p);
            ASSERT_LE(a, e.shape_size.w + 1.0e-4f);
            max_azimuth = std::max(max_azimuth, a);
            // Tilted outward in the point's own azimuthal plane by angle * r / rim.
            float tilt = e.shape_angle_rad * (r / rim);
            ASSERT_NEAR(s.direction.y, std::cos(tilt), 1.0e-5f);
            vec3 radial(p.x / r, 0.0f, p.z / r);
            ASSERT_NEAR(glm::dot(s.direction, radial), std::sin(tilt), 1.0e-5f);
        }
    });
    EXPECT_GT(max_azimuth, e.shape_size.w - 0.01f); // the whole arc is used
}

TEST(Shape, ConeVolumeIsInsideTheFrustumWithinTheArc) {
    checkCone(kEmitFromVolume);
}
TEST(Shape, ConeShellIsOnTheLateralSurface) {
    checkCone(kEmitFromShell);
}
TEST(Shape, ConeEdgeIsOnTheBaseRim) {
    checkCone(kEmitFromEdge);
}

TEST(Shape, ConeVolumeHeightFollowsTheCrossSectionArea) {
    // Fraction of a frustum's volume below height y: ((a + y tan)^3 - a^3) / (b^3 - a^3).
    EmitterRecord e = testCone(kEmitFromVolume);
    float a = 0.5f, b = 0.5f + 2.0f * std::tan(e.shape_angle_rad);
    float rm = 0.5f + 1.0f * std::tan(e.shape_angle_rad);
    double want = (rm * rm * rm - a * a * a) / (b * b * b - a * a * a);
    int below = 0;
    forEachSample(e, [&](const ShapeSample& s) { below += s.position.y < 1.0f; });
    EXPECT_NEAR(double(below) / kShapeSamples, want, 0.015);
}

TEST(Shape, ZeroAngleConeIsACylinderPointingUp) {
    EmitterRecord e = testCone(kEmitFromShell);
    e.shape_angle_rad = 0.0f;
    forEachSample(e, [&](const ShapeSample& s) {
        ASSERT_NEAR(std::sqrt(s.position.x * s.position.x + s.position.z * s.position.z), 0.5f,
                    kSurfaceTolerance);
        ASSERT_EQ(s.direction, vec3(0, 1, 0));
    });
}

TEST(Shape, CircleIsInTheXZPlaneWithinTheArcPointingOutward) {
    for (uint32_t from : {kEmitFromVolume, kEmitFromEdge}) {
        EmitterRecord e = emitter(kShapeCircle, from);
        e.shape_radius = 1.5f;
        e.shape_size.w = 2.0f * kPiF / 3.0f; // 120 degrees
        forEachSample(e, [&](const ShapeSample& s) {
            ASSERT_EQ(s.position.y, 0.0f);
            ASSERT_EQ(s.direction.y, 0.0f);
            float r = glm::length(s.position);
            ASSERT_LE(r, 1.5f + kSurfaceTolerance);
            if (from == kEmitFromEdge) {
                ASSERT_NEAR(r, 1.5f, kSurfaceTolerance);
            }
            if (r > 1.0e-4f) {
                ASSERT_LE(azimuth(s.position), e.shape_size.w + 1.0e-4f);
                ASSERT_NEAR(glm::length(s.position / r - s.direction), 0.0f, 1.0e-5f);
            }
        });
    }
}

TEST(Shape, TorusIsInOrOnTheTubeWithinTheArc) {
    for (uint32_t from : {kEmitFromVolume, kEmitFromShell}) {
        EmitterRecord e = emitter(kShapeTorus, from);
        e.shape_radius = 2.0f;
        e.shape_tube_radius = 0.5f;
        e.shape_size.w = 200.0f * kPiF / 180.0f;
        forEachSample(e, [&](const ShapeSample& s) {
            vec3 p = s.position;
            float ring = std::sqrt(p.x * p.x + p.z * p.z);
            vec3 centre = vec3(p.x, 0.0f, p.z) * (2.0f / ring); // closest point of the ring
            float tube = glm::length(p - centre);
            ASSERT_LE(tube, 0.5f + kSurfaceTolerance);
            ASSERT_LE(azimuth(p), e.shape_size.w + 1.0e-4f);
            if (from == kEmitFromShell) {
                ASSERT_NEAR(tube, 0.5f, kSurfaceTolerance);
                ASSERT_NEAR(glm::length((p - centre) / tube - s.direction), 0.0f, 1.0e-4f);
            }
        });
    }
}

TEST(Shape, RandomizeDirectionBlendsTowardARandomDirection) {
    EmitterRecord e = emitter(kShapeLine, kEmitFromVolume);
    e.randomize_direction = 0.0f;
    forEachSample(e, [&](const ShapeSample& s) { ASSERT_EQ(s.direction, vec3(0, 1, 0)); });
    e.randomize_direction = 1.0f;
    double mean_y = 0.0;
    for (int i = 0; i < kShapeSamples; ++i) {
        uint32_t key = shapeKeyOf(uint32_t(i));
        ShapeSample s = sdSampleShape(e, key);
        vec3 random_dir = sdRandomUnitVector(key, kDrawDirection0);
        ASSERT_NEAR(glm::length(s.direction - random_dir), 0.0f, 1.0e-6f);
        mean_y += s.direction.y;
    }
    EXPECT_NEAR(mean_y / kShapeSamples, 0.0, 0.03);
    e.randomize_direction = 0.3f;
    forEachSample(e, [&](const ShapeSample& s) {
        // v = 0.7 (+Y) + 0.3 r has v.y >= 0.4 and |v| <= 1, so the normalised y is >= 0.4.
        ASSERT_GE(s.direction.y, 0.4f - 1.0e-6f);
    });
}

TEST(Shape, MeshPicksTheListedPointsUniformlyWithTheirNormals) {
    EmitterRecord e = emitter(kShapeMesh, kEmitFromVolume);
    MeshPointRecord points[3] = {{vec4(0, 0, 0, 0), vec4(0, 1, 0, 0)},
                                 {vec4(0.5f, 0, 0, 0), vec4(1, 0, 0, 0)},
                                 {vec4(0, 0.5f, 0.5f, 0), vec4(0, 0.7071068f, 0.7071068f, 0)}};
    e.mesh_point_count = 3;
    int hits[3] = {0, 0, 0};
    for (int i = 0; i < kShapeSamples; ++i) {
        uint32_t key = shapeKeyOf(uint32_t(i));
        uint32_t index = sdMeshPointIndex(e, key);
        ASSERT_LT(index, 3u);
        ++hits[index];
        ShapeSample s = sdMeshShapeSample(e, key, points[index].position, points[index].normal);
        ASSERT_EQ(s.position, vec3(points[index].position));
        ASSERT_EQ(s.direction, vec3(points[index].normal));
    }
    for (int h : hits) EXPECT_NEAR(double(h) / kShapeSamples, 1.0 / 3.0, 0.02);
    e.mesh_point_count = 0;
    EXPECT_EQ(sdMeshPointIndex(e, shapeKeyOf(1)), 0u);
}

TEST(Shape, ZeroSizedShapesDegenerateToTheOrigin) {
    for (uint32_t kind : {kShapeLine, kShapeBox, kShapeSphere, kShapeCircle}) {
        EmitterRecord e = emitter(kind, kEmitFromVolume);
        e.shape_length = 0.0f;
        e.shape_radius = 0.0f;
        e.shape_size = vec4(0, 0, 0, 2.0f * kPiF);
        forEachSample(e, [&](const ShapeSample& s) { ASSERT_EQ(glm::length(s.position), 0.0f); });
    }
}

} // namespace
} // namespace spindrift
