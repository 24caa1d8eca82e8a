// The ribbon kernels that read recorded points (src/kernels/ribbon.h): the ring view, the
// recording rule and the polyline walk every strip writer calls.
#include "kernels/ribbon.h"

#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernel_test_records.h"

namespace spindrift {
namespace {

const vec4 kIdentityRow0(1, 0, 0, 0), kIdentityRow1(0, 1, 0, 0), kIdentityRow2(0, 0, 1, 0);

// Points as the view reads them: three floats each.
std::vector<float> flatten(const std::vector<vec3>& points) {
    std::vector<float> v;
    for (const vec3& p : points) v.insert(v.end(), {p.x, p.y, p.z});
    return v;
}

TEST(RibbonRing, ReadsTheKthNewestPointOfItsOwnRing) {
    // Two rings of 3 entries; the second (base 3) is full with its oldest at entry 1.
    const std::vector<float> v =
        flatten({vec3(9), vec3(9), vec3(9), vec3(30, 0, 0), vec3(10, 0, 0), vec3(20, 0, 0)});
    const RibbonPointsRef points{v.data()};
    const RibbonRing ring = sdRibbonRing(3, 1, 3, 3);
    EXPECT_EQ(sdRibbonRecordedPoint(points, ring, 0), vec3(30, 0, 0)) << "newest";
    EXPECT_EQ(sdRibbonRecordedPoint(points, ring, 1), vec3(20, 0, 0));
    EXPECT_EQ(sdRibbonRecordedPoint(points, ring, 2), vec3(10, 0, 0)) << "oldest";
}

TEST(RibbonRecordStep, RecordsAfterTheMinimumDistanceAndDropsTheOldestWhenFull) {
    const std::vector<float> v = flatten({vec3(0, 0, 0), vec3(1, 0, 0), vec3(5)});
    const RibbonPointsRef points{v.data()};
    // Two of three entries in use: the newest is (1, 0, 0).
    const RibbonRing ring = sdRibbonRing(0, 0, 2, 3);
    const RibbonRecordStep near = sdRibbonRecordStep(points, ring, vec3(1.2f, 0, 0), 0.25f);
    EXPECT_FALSE(near.record);
    const RibbonRecordStep far = sdRibbonRecordStep(points, ring, vec3(1.25f, 0, 0), 0.25f);
    EXPECT_TRUE(far.record);
    EXPECT_EQ(far.entry, 2u);
    EXPECT_EQ(far.first, 0u);
    EXPECT_EQ(far.count, 3u);
    // Full, oldest at entry 1, newest at entry 0: the new point replaces the oldest.
    const RibbonRecordStep full =
        sdRibbonRecordStep(points, sdRibbonRing(0, 1, 3, 3), vec3(0, 1, 0), 0.5f);
    EXPECT_TRUE(full.record);
    EXPECT_EQ(full.entry, 1u);
    EXPECT_EQ(full.first, 2u);
    EXPECT_EQ(full.count, 3u);
}

TEST(RibbonPolyline, LeavesOutANewestPointThatIsTheHeadAndNeedsTwoPoints) {
    const std::vector<float> v = flatten({vec3(0, 0, 0), vec3(1, 0, 0), vec3(2, 0, 0)});
    const RibbonPointsRef points{v.data()};
    const RibbonRing three = sdRibbonRing(0, 0, 3, 4);
    const RibbonPolyline moved =
        sdRibbonPolyline(points, three, vec3(3, 0, 0), kIdentityRow0, kIdentityRow1, kIdentityRow2);
    EXPECT_EQ(moved.skip_newest, 0u);
    EXPECT_EQ(moved.points, 4u);
    EXPECT_EQ(sdRibbonPolylinePoint(points, moved, 0), vec3(3, 0, 0)) << "the head";
    EXPECT_EQ(sdRibbonPolylinePoint(points, moved, 1), vec3(2, 0, 0)) << "then newest first";
    EXPECT_EQ(sdRibbonPolylinePoint(points, moved, 3), vec3(0, 0, 0));
    const RibbonPolyline just =
        sdRibbonPolyline(points, three, vec3(2, 0, 0), kIdentityRow0, kIdentityRow1, kIdentityRow2);
    EXPECT_EQ(just.skip_newest, 1u);
    EXPECT_EQ(just.points, 3u);
    EXPECT_EQ(sdRibbonPolylinePoint(points, just, 1), vec3(1, 0, 0));
    // Born this step: its only point is the head, so nothing is drawn.
    const RibbonPolyline born = sdRibbonPolyline(points, sdRibbonRing(0, 0, 1, 4), vec3(0, 0, 0),
                                                 kIdentityRow0, kIdentityRow1, kIdentityRow2);
    EXPECT_EQ(born.points, 0u);
}

TEST(RibbonPolyline, CarriesEveryPointToTheWorld) {
    const std::vector<float> v = flatten({vec3(1, 0, 0)});
    const RibbonPointsRef points{v.data()};
    // A quarter turn about +Y (x -> -z), then up 5.
    const RibbonPolyline line =
        sdRibbonPolyline(points, sdRibbonRing(0, 0, 1, 2), vec3(0, 0, 0), vec4(0, 0, 1, 0),
                         vec4(0, 1, 0, 5), vec4(-1, 0, 0, 0));
    ASSERT_EQ(line.points, 2u);
    EXPECT_EQ(sdRibbonPolylinePoint(points, line, 0), vec3(0, 5, 0));
    EXPECT_EQ(sdRibbonPolylinePoint(points, line, 1), vec3(0, 5, -1));
    EXPECT_EQ(sdRibbonPolylineLength(points, line), 1.0f);
}

TEST(RibbonWalk, TapersWidthAndRunsUFromHeadToTail) {
    // Head at x = 4, then 3, 1, 0: segment lengths 1, 2, 1, length 4.
    const std::vector<float> v = flatten({vec3(0, 0, 0), vec3(1, 0, 0), vec3(3, 0, 0)});
    const RibbonPointsRef points{v.data()};
    const RibbonPolyline line = sdRibbonPolyline(points, sdRibbonRing(0, 0, 3, 8), vec3(4, 0, 0),
                                                 kIdentityRow0, kIdentityRow1, kIdentityRow2);
    ASSERT_EQ(line.points, 4u);
    const float length_m = sdRibbonPolylineLength(points, line);
    EXPECT_EQ(length_m, 4.0f);
    EmitterRecord e = test::makeTestEmitter();
    e.ribbon_width = 2.0f;
    e.ribbon_taper = 0.5f;
    e.ribbon_uv_tiling = 0.0f;
    const vec4 color(0.1f, 0.2f, 0.3f, 0.4f);
    RibbonWalk walk = sdRibbonWalk(line, length_m, e, 0.5f, color); // head width 1
    const float expect_u[] = {0.0f, 0.25f, 0.75f, 1.0f};
    const float expect_x[] = {4, 3, 1, 0};
    for (uint32_t k = 0; k < line.points; ++k) {
        const StripPoint p = sdRibbonNextStripPoint(points, line, walk);
        EXPECT_EQ(vec3(p.position_width), vec3(expect_x[k], 0, 0)) << k;
        EXPECT_EQ(p.tangent_u.w, expect_u[k]) << k;
        EXPECT_EQ(p.position_width.w, 1.0f - 0.5f * expect_u[k]) << k;
        EXPECT_EQ(vec3(p.tangent_u), vec3(-1, 0, 0)) << k << ": from the head toward the tail";
        EXPECT_EQ(p.color, color) << k;
        // Each point is the per-point rule applied to the walk's values.
        const vec3 in = k == 0 ? vec3(0.0f) : vec3(-1, 0, 0);
        const vec3 out = k + 1 == line.points ? vec3(0.0f) : vec3(-1, 0, 0);
        const StripPoint rule = sdRibbonStripPoint(vec3(expect_x[k], 0, 0), 4.0f * expect_u[k],
                                                   length_m, in, out, 1.0f, 0.5f, 0.0f, color);
        EXPECT_EQ(p.position_width, rule.position_width) << k;
        EXPECT_EQ(p.tangent_u, rule.tangent_u) << k;
    }
    // Tiled: u is metres from the head times the tiling.
    e.ribbon_uv_tiling = 2.0f;
    walk = sdRibbonWalk(line, length_m, e, 0.5f, color);
    for (uint32_t k = 0; k < line.points; ++k) {
        EXPECT_EQ(sdRibbonNextStripPoint(points, line, walk).tangent_u.w, 8.0f * expect_u[k]) << k;
    }
}

TEST(RibbonWalk, TangentsAverageTheSegmentsAtACorner) {
    // Head (0, 1, 0), then the corner (0, 0, 0), then (1, 0, 0).
    const std::vector<float> v = flatten({vec3(1, 0, 0), vec3(0, 0, 0)});
    const RibbonPointsRef points{v.data()};
    const RibbonPolyline line = sdRibbonPolyline(points, sdRibbonRing(0, 0, 2, 2), vec3(0, 1, 0),
                                                 kIdentityRow0, kIdentityRow1, kIdentityRow2);
    EmitterRecord e = test::makeTestEmitter();
    e.ribbon_width = 1.0f;
    RibbonWalk walk = sdRibbonWalk(line, sdRibbonPolylineLength(points, line), e, 1.0f, vec4(1));
    EXPECT_EQ(vec3(sdRibbonNextStripPoint(points, line, walk).tangent_u), vec3(0, -1, 0));
    const vec3 corner = vec3(sdRibbonNextStripPoint(points, line, walk).tangent_u);
    EXPECT_NEAR(corner.x, 0.70710678f, 1e-6f);
    EXPECT_NEAR(corner.y, -0.70710678f, 1e-6f);
    EXPECT_EQ(vec3(sdRibbonNextStripPoint(points, line, walk).tangent_u), vec3(1, 0, 0));
}

} // namespace
} // namespace spindrift
