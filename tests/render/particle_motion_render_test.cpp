// Motion vectors of strips and mesh particles on lavapipe, validation on (docs/rendering.md,
// "Motion vectors"), on the ground of motion_fixture.h seen straight down from 10 m. The camera
// moved 0.5 m along +x in every test, so the ground (10 m away) moves -0.5 m x 4.8 px/m = -2.4 px
// and a still thing 8 m away -3 px; a particle moving 1 m along +x over the interval moves
// (1 - 0.5) m x 6 px/m = +3 px. A ribbon writes its points' velocity where it covers and leaves
// the ground's elsewhere; points without velocities (a beam's) stand still; an opaque mesh
// particle writes its own motion, not its surface's camera motion, even under a billboard drawn
// before it in batch order (opaque meshes' motion is drawn first); blended and additive strips
// and meshes follow the billboards' coverage rule.
#include <vector>

#include <gtest/gtest.h>

#include "motion_fixture.h"
#include "render/mesh_params.h"
#include "render/renderer.h"

namespace spindrift::render {
namespace {

using test::errors;
using test::kHeight_m;
using test::kParticleHeight_m;
using test::kSide;
using test::meshParamsFor;
using test::movedCamera;
using test::Pixels;
using test::pixelsPerMetre;
using test::stripParamsFor;
using test::topView;

constexpr float kInterval_s = 0.05f;
const vec3 kSideways(20, 0, 0); // 1 m along +x over kInterval_s

// Every motion below: the camera moved 0.5 m along +x.
FrameView movedCameraView() {
    FrameView v = movedCamera(topView(), {0.5f, 0, 0});
    v.motion.interval_s = kInterval_s;
    return v;
}

const float kParticleK = pixelsPerMetre(kHeight_m - kParticleHeight_m); // 6 px/m
const vec2 kGround(-0.5f * pixelsPerMetre(kHeight_m), 0);               // -2.4 px
const vec2 kStill(-0.5f * kParticleK, 0);                               // -3 px at 8 m
const vec2 kMovedSideways(0.5f * kParticleK, 0);                        // +3 px at 8 m

// --- strips --------------------------------------------------------------------------------------

// A straight ribbon down the image (along +z) through x = 0 at the particles' height, from
// z = -3 m to z = 3 m (rows 30 to 66), 2 m wide (columns 42 to 54).
struct Ribbon {
    std::vector<StripPoint> points;
    std::vector<uint32_t> segments{0, 1};
    std::vector<vec4> velocities;

    explicit Ribbon(vec4 color, vec3 velocity) {
        const float z[3] = {-3, 0, 3};
        for (int i = 0; i < 3; ++i) {
            StripPoint p;
            p.position_width = vec4(0, kParticleHeight_m, z[i], 2);
            p.color = color;
            p.tangent_u = vec4(0, 0, 1, float(i) / 2);
            points.push_back(p);
        }
        velocities.assign(points.size(), vec4(velocity, 0));
    }

    StripBatch batch(uint32_t blend) const {
        StripBatch b;
        b.params = stripParamsFor(blend);
        b.points = points;
        b.segments = segments;
        b.velocities = velocities;
        return b;
    }
};

// The untextured band's coverage is (1 - a^2)^2 at a = the distance from its line over its half
// width (1 m, 6 px): at least 0.68 within 2.5 px (columns 46 to 49 here), at most 0.19 beyond
// 4.5 px (columns 43 and 52 and out).
Pixels ribbonMiddle() {
    Pixels out;
    for (uint32_t y = 36; y < 60; y += 3) {
        for (uint32_t x = 46; x < 50; ++x) out.emplace_back(x, y);
    }
    return out;
}
Pixels ribbonEdges() {
    Pixels out;
    for (uint32_t y = 36; y < 60; y += 3) {
        for (const uint32_t x : {40u, 42u, 43u, 52u, 53u, 55u}) out.emplace_back(x, y);
    }
    return out;
}

using ParticleMotionRenderTest = test::MotionRenderTest;

TEST_F(ParticleMotionRenderTest,
       ARibbonMovingSidewaysWritesItsMotionWhereItCoversAndTheGroundsElsewhere) {
    const Ribbon ribbon(vec4(1, 0.5f, 0.2f, 1), kSideways);
    const MotionImage m = renderMotion(movedCameraView(), {ribbon.batch(kBlendAlpha)});
    EXPECT_EQ(stats_.motion_batches, 1u);
    EXPECT_EQ(stats_.motion_strip_batches, 1u);
    EXPECT_EQ(stats_.motion_mesh_batches, 0u);
    expectAt(m, ribbonMiddle(), kMovedSideways, "the ribbon's middle");
    expectAt(m, ribbonEdges(), kGround, "beside the ribbon and its faint edges");
    expectCorners(m, kGround, "the ground");
}

TEST_F(ParticleMotionRenderTest, StripPointsWithoutVelocitiesStandStill) {
    // A beam's points carry no velocity: its surface gets the camera's motion at its own depth
    // (8 m), not the ground's behind it.
    Ribbon beam(vec4(1), kSideways);
    beam.velocities.clear();
    const MotionImage m = renderMotion(movedCameraView(), {beam.batch(kBlendAlpha)});
    expectAt(m, ribbonMiddle(), kStill, "a still strip");
    expectAt(m, ribbonEdges(), kGround, "beside it");
}

TEST_F(ParticleMotionRenderTest, AdditiveStripsWriteNothingUnlessAskedTo) {
    const Ribbon ribbon(vec4(1), kSideways);
    FrameView v = movedCameraView();
    const MotionImage kept = renderMotion(v, {ribbon.batch(kBlendAdditive)});
    EXPECT_EQ(stats_.motion_batches, 0u);
    EXPECT_EQ(stats_.motion_strip_batches, 0u);
    expectAt(kept, ribbonMiddle(), kGround, "under an additive ribbon: the ground");

    v.motion.additive_writes = true;
    const MotionImage written = renderMotion(v, {ribbon.batch(kBlendAdditive)});
    EXPECT_EQ(stats_.motion_strip_batches, 1u);
    expectAt(written, ribbonMiddle(), kMovedSideways, "additive_writes");
}

TEST_F(ParticleMotionRenderTest, AStripFragmentBelowTheCoverageThresholdKeepsWhatIsBehind) {
    // Colour alpha 0.3: the middle columns' coverage is 0.3 x (0.68 .. 1), below 0.5, above 0.2.
    const Ribbon faint(vec4(1, 1, 1, 0.3f), kSideways);
    FrameView v = movedCameraView();
    v.motion.coverage_threshold = 0.5f;
    expectAt(renderMotion(v, {faint.batch(kBlendAlpha)}), ribbonMiddle(), kGround,
             "alpha 0.3 under 0.5");
    v.motion.coverage_threshold = 0.2f;
    expectAt(renderMotion(v, {faint.batch(kBlendAlpha)}), ribbonMiddle(), kMovedSideways,
             "alpha 0.3 over 0.2");
}

TEST_F(ParticleMotionRenderTest, StripVelocitiesOfTheWrongCountAreRefused) {
    Ribbon ribbon(vec4(1), kSideways);
    ribbon.velocities.pop_back();
    Image image;
    MotionImage motion;
    std::vector<Diagnostic> d;
    const std::vector<DrawBatch> batches = {ribbon.batch(kBlendAlpha)};
    EXPECT_FALSE(renderFrame(*renderer_, movedCameraView(), batches, image, &motion, stats_, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("2 velocities for 3 points"), std::string::npos) << d[0].message;
}

// --- mesh particles -----------------------------------------------------------------------------

// A 2 x 2 square in the mesh's xz plane facing +y (the camera), both windings, so whichever the
// raster calls front draws and the other is culled.
std::vector<MeshVertex> floorSquare() {
    const vec3 c[4] = {vec3(-1, 0, -1), vec3(1, 0, -1), vec3(1, 0, 1), vec3(-1, 0, 1)};
    const int order[6] = {0, 1, 2, 0, 2, 3};
    std::vector<MeshVertex> v;
    for (const bool reversed : {false, true}) {
        for (int k = 0; k < 6; ++k) {
            v.push_back({vec4(c[order[reversed ? 5 - k : k]], 0), vec4(0, 1, 0, 0)});
        }
    }
    return v;
}

// Size 2: the square is 4 m wide (columns and rows 36 to 60 at 8 m); rotation 0, no tumble.
DrawRecord meshRecord(vec3 velocity, float alpha = 1) {
    return sdDrawRecord(vec3(0, kParticleHeight_m, 0), 2, vec4(0.2f, 0.6f, 0.9f, alpha), velocity,
                        0.0f, 0.5f, 0.0f, 0u, 7u);
}

// Within 4 px of the middle, and the ground around the square.
Pixels meshMiddle() {
    Pixels out;
    for (uint32_t y = 44; y < 52; ++y) {
        for (uint32_t x = 44; x < 52; ++x) out.emplace_back(x, y);
    }
    return out;
}
const Pixels kAroundMesh = {{30, 48}, {66, 48}, {48, 30}, {48, 66}};

class MeshMotionRenderTest : public test::MotionRenderTest {
protected:
    void SetUp() override {
        test::MotionRenderTest::SetUp();
        if (HasFatalFailure()) return;
        std::vector<Diagnostic> d;
        square_ = addMesh(*renderer_, floorSquare(), "floor square", d);
        ASSERT_NE(square_, kNoMesh) << errors(d);
    }

    MeshBatch batchOf(std::span<const DrawRecord> records, uint32_t blend) const {
        return MeshBatch{meshParamsFor(blend), square_, records, {}};
    }

    MeshHandle square_ = kNoMesh;
};

TEST_F(MeshMotionRenderTest, AnOpaqueMeshParticleWritesItsOwnMotionNotItsSurfacesCameraMotion) {
    // 1 m along +x and 0.5 m along +z of its own over the interval, less the camera's 0.5 m.
    const DrawRecord records[] = {meshRecord(vec3(20, 0, 10))};
    const MotionImage m = renderMotion(movedCameraView(), {batchOf(records, kBlendOpaque)});
    EXPECT_EQ(stats_.motion_batches, 1u);
    EXPECT_EQ(stats_.motion_mesh_batches, 1u);
    expectAt(m, meshMiddle(), vec2(0.5f, 0.5f) * kParticleK, "the moving mesh");
    expectAt(m, kAroundMesh, kGround, "around it");

    const DrawRecord still[] = {meshRecord(vec3(0))};
    expectAt(renderMotion(movedCameraView(), {batchOf(still, kBlendOpaque)}), meshMiddle(), kStill,
             "a still mesh: the camera's motion of its surface");
}

TEST_F(MeshMotionRenderTest, ABillboardInFrontOfAnOpaqueMeshKeepsItsMotionWhateverTheBatchOrder) {
    // A still billboard 5 m from the eye (9.6 px/m; a 2 m disc, radius 9.6 px) drawn before the
    // moving opaque mesh in batch order, as the colour draws opaque meshes first.
    const DrawRecord disc[] = {
        sdDrawRecord(vec3(0, 5, 0), 2, vec4(1), vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u)};
    BillboardBatch billboard;
    billboard.params = test::cameraFacingParams(kBlendAlpha);
    billboard.records = disc;
    const DrawRecord records[] = {meshRecord(vec3(20, 0, 10))};
    const MotionImage m =
        renderMotion(movedCameraView(), {billboard, batchOf(records, kBlendOpaque)});
    EXPECT_EQ(stats_.motion_batches, 2u);
    const Pixels centre = {{47, 47}, {48, 47}, {47, 48}, {48, 48}};
    expectAt(m, centre, vec2(-0.5f * pixelsPerMetre(5), 0), "the billboard in front");
    // 10.5 px from the middle: past the disc, on the square.
    const Pixels beside = {{58, 48}, {37, 47}};
    expectAt(m, beside, vec2(0.5f, 0.5f) * kParticleK, "the mesh beside it");
}

TEST_F(MeshMotionRenderTest, BlendedMeshesFollowTheCoverageRuleAndAdditiveOnesWriteNothing) {
    FrameView v = movedCameraView();
    const DrawRecord faint[] = {meshRecord(kSideways, 0.3f)};
    v.motion.coverage_threshold = 0.5f;
    expectAt(renderMotion(v, {batchOf(faint, kBlendAlpha)}), meshMiddle(), kGround,
             "alpha 0.3 under 0.5");
    v.motion.coverage_threshold = 0.2f;
    expectAt(renderMotion(v, {batchOf(faint, kBlendAlpha)}), meshMiddle(), kMovedSideways,
             "alpha 0.3 over 0.2");

    const DrawRecord bright[] = {meshRecord(kSideways)};
    expectAt(renderMotion(v, {batchOf(bright, kBlendAdditive)}), meshMiddle(), kGround, "additive");
    EXPECT_EQ(stats_.motion_mesh_batches, 0u);
    v.motion.additive_writes = true;
    expectAt(renderMotion(v, {batchOf(bright, kBlendAdditive)}), meshMiddle(), kMovedSideways,
             "additive_writes");
    EXPECT_EQ(stats_.motion_mesh_batches, 1u);
}

} // namespace
} // namespace spindrift::render
