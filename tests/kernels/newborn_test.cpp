// sdNewborn, sdPlannedBirthPlace and sdEventBirthPlace: the newborn both backends write
// (docs/kernels.md, "Births").
#include <vector>

#include <gtest/gtest.h>

#include "kernels/birth.h"
#include "kernels/kernel_test_records.h"

namespace spindrift {
namespace {

constexpr uint32_t kNewbornSeed = 11;
constexpr uint32_t kEmitter = 3;

// A rotation of 90 degrees about +Y and a translation, as 3x4 rows.
constexpr vec4 kRow0{0, 0, 1, 5};
constexpr vec4 kRow1{0, 1, 0, -2};
constexpr vec4 kRow2{-1, 0, 0, 0.5f};

Newborn newbornAt(const EmitterRecord& e, uint32_t ordinal, const BirthPlace& place,
                  const std::vector<vec4>& lut = {},
                  const std::vector<MeshPointRecord>& points = {}) {
    return sdNewborn(e, kNewbornSeed, kEmitter, ordinal, 0u, place, LutRef{lut.data()},
                     MeshPointsRef{points.data()});
}

TEST(Newborn, IsTheKeysBirthPlacedAndPreAged) {
    EmitterRecord e = test::makeTestEmitter();
    e.shape_kind = kShapeSphere;
    e.speed_min = 1.0f;
    e.speed_max = 3.0f;
    const BirthPlace place =
        sdPlannedBirthPlace(kRow0, kRow1, kRow2, kRow0, kRow1, kRow2, 1u, 4u, 0.5f);
    EXPECT_EQ(place.pre_age_s, (1.0f - 0.375f) * 0.5f);
    for (uint32_t ordinal = 0; ordinal < 100; ++ordinal) {
        const Newborn n = newbornAt(e, ordinal, place);
        const uint32_t key = sdParticleKey(kNewbornSeed, kEmitter, ordinal, 0u);
        ASSERT_EQ(n.key, key);
        const Birth b = sdBirth(e, key, sdSampleShape(e, key));
        EXPECT_EQ(n.birth.lifetime_s, b.lifetime_s);
        const vec3 velocity = sdTransformVector(kRow0, kRow1, kRow2, b.velocity);
        EXPECT_EQ(n.velocity, velocity);
        EXPECT_EQ(n.position,
                  sdTransformPoint(kRow0, kRow1, kRow2, b.position) + velocity * place.pre_age_s);
        EXPECT_EQ(n.color, e.color_a);
    }
}

TEST(Newborn, PlannedBirthsInterpolateAMovingEmitter) {
    const vec4 end0 = kRow0 + vec4(0, 0, 0, 4);
    // Birth 0 of 2 sits at a quarter of the step: a quarter of the way, pre-aged by 3/4 of it.
    const BirthPlace place =
        sdPlannedBirthPlace(kRow0, kRow1, kRow2, end0, kRow1, kRow2, 0u, 2u, 1.0f / 60.0f);
    EXPECT_EQ(place.row0, vec4(0, 0, 1, 6));
    EXPECT_EQ(place.row1, kRow1);
    EXPECT_EQ(place.pre_age_s, 0.75f * (1.0f / 60.0f));
    EXPECT_TRUE(place.translated);

    EmitterRecord e = test::makeTestEmitter();
    e.speed_min = e.speed_max = 0.0f; // at rest at the shape's point: the origin, moved
    const Newborn n = newbornAt(e, 0, place);
    EXPECT_EQ(n.position, vec3(6, -2, 0.5f));
}

TEST(Newborn, EventChildrenAreCentredOnTheEventWithItsVelocity) {
    EmitterRecord e = test::makeTestEmitter();
    e.speed_min = e.speed_max = 2.0f;
    const vec3 event_position(1, 2, 3);
    const vec3 inherited(0, 0, -1);
    const BirthPlace place = sdEventBirthPlace(kRow0, kRow1, kRow2, event_position, inherited);
    EXPECT_EQ(place.pre_age_s, 0.0f);
    EXPECT_FALSE(place.translated);
    const Newborn n = newbornAt(e, 9, place);
    const Birth b = sdBirth(e, n.key, sdSampleShape(e, n.key));
    // The rows turn the shape but their translation is ignored: the child starts at the event.
    EXPECT_EQ(n.position, event_position);
    EXPECT_EQ(n.velocity, sdTransformVector(kRow0, kRow1, kRow2, b.velocity) + inherited);
}

TEST(Newborn, GradientColourIsReadThroughTheLut) {
    EmitterRecord e = test::makeTestEmitter();
    e.color_mode = kColorModeGradient;
    e.color_a = e.color_b = vec4(0.0f);
    e.color_lut_row = 1;
    std::vector<vec4> lut(2 * kLutWidth, vec4(0.0f));
    for (uint32_t i = 0; i < kLutWidth; ++i) {
        lut[kLutWidth + i] = vec4(float(i), 1.0f, 0.5f, 1.0f); // row 1: red ramps 0 .. 63
    }
    const BirthPlace place = sdEventBirthPlace(kRow0, kRow1, kRow2, vec3(0.0f), vec3(0.0f));
    for (uint32_t ordinal = 0; ordinal < 50; ++ordinal) {
        const Newborn n = newbornAt(e, ordinal, place, lut);
        EXPECT_EQ(n.color, sdLutSample(LutRef{lut.data()}, 1u, n.birth.color_t));
        EXPECT_NEAR(n.color.x, n.birth.color_t * float(kLutWidth - 1), 1e-4f);
    }
}

TEST(Newborn, MeshSurfaceIsReadThroughTheMeshPoints) {
    EmitterRecord e = test::makeTestEmitter();
    e.shape_kind = kShapeMesh;
    e.mesh_point_first = 2;
    e.mesh_point_count = 3;
    e.speed_min = e.speed_max = 1.0f;
    std::vector<MeshPointRecord> points(5);
    for (uint32_t i = 0; i < 5; ++i) {
        points[i].position = vec4(float(i), 10.0f, 0.0f, 0.0f);
        points[i].normal = vec4(0, 0, 1, 0);
    }
    const BirthPlace place = sdEventBirthPlace(kRow0, kRow1, kRow2, vec3(0.0f), vec3(0.0f));
    bool seen[3] = {};
    for (uint32_t ordinal = 0; ordinal < 100; ++ordinal) {
        const Newborn n = newbornAt(e, ordinal, place, {}, points);
        const uint32_t index = sdMeshPointIndex(e, n.key);
        ASSERT_LT(index, 3u);
        seen[index] = true;
        // Only the emitter's own points: the rows turn (x, 10, 0) into (0, 10, -x).
        EXPECT_EQ(n.position, vec3(0.0f, 10.0f, -float(2 + index)));
        EXPECT_EQ(n.birth.position, vec3(points[2 + index].position));
    }
    EXPECT_TRUE(seen[0] && seen[1] && seen[2]);
}

} // namespace
} // namespace spindrift
