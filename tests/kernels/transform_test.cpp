#include "kernels/transform.h"

#include <cmath>

#include <gtest/gtest.h>

#include "kernels/kernel_test_records.h"

namespace spindrift {
namespace {

// Rows of parent_from_emitter for a rotation of 90 degrees about X then a translation: the
// format's example says [90, 0, 0] turns +Y to +Z and +Z to -Y.
struct Rows {
    vec4 r0{1, 0, 0, 10};
    vec4 r1{0, 0, -1, 20};
    vec4 r2{0, 1, 0, 30};
};

TEST(Transform, PointsRotateThenTranslate) {
    Rows m;
    vec3 p = sdTransformPoint(m.r0, m.r1, m.r2, vec3(0, 1, 0));
    EXPECT_EQ(p, vec3(10, 20, 31));
    p = sdTransformPoint(m.r0, m.r1, m.r2, vec3(0, 0, 1));
    EXPECT_EQ(p, vec3(10, 19, 30));
}

TEST(Transform, VectorsOnlyRotate) {
    Rows m;
    EXPECT_EQ(sdTransformVector(m.r0, m.r1, m.r2, vec3(0, 1, 0)), vec3(0, 0, 1));
    EXPECT_EQ(sdTransformVector(m.r0, m.r1, m.r2, vec3(2, 0, 0)), vec3(2, 0, 0));
}

TEST(Transform, InverseUndoesTheTransform) {
    // A general rotation (about an oblique axis) with translation.
    float c = std::cos(0.7f), s = std::sin(0.7f);
    vec4 r0(c, -s, 0, 1.5f), r1(s, c, 0, -2.0f), r2(0, 0, 1, 0.25f);
    for (float x = -3.0f; x < 3.0f; x += 0.9f) {
        vec3 p(x, 2.0f * x + 1.0f, -x);
        vec3 q = sdInverseTransformPoint(r0, r1, r2, sdTransformPoint(r0, r1, r2, p));
        EXPECT_NEAR(glm::length(q - p), 0.0f, 1.0e-5f);
        vec3 v = sdInverseTransformVector(r0, r1, r2, sdTransformVector(r0, r1, r2, p));
        EXPECT_NEAR(glm::length(v - p), 0.0f, 1.0e-5f);
    }
}

TEST(Transform, EmitterHelpersUseTheRecordRows) {
    EmitterRecord e = test::makeTestEmitter();
    Rows m;
    e.transform_row0 = m.r0;
    e.transform_row1 = m.r1;
    e.transform_row2 = m.r2;
    EXPECT_EQ(sdEmitterPoint(e, vec3(0, 1, 0)), vec3(10, 20, 31));
    EXPECT_EQ(sdEmitterVector(e, vec3(0, 1, 0)), vec3(0, 0, 1));
    EXPECT_EQ(sdEmitterUp(e), vec3(0, 0, 1)); // local +Y in the parent
}

} // namespace
} // namespace spindrift
