#include "render/billboard_params.h"

#include <cmath>

#include <gtest/gtest.h>

namespace spindrift::render {
namespace {

EmitterRecord emitter() {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.axis = vec4(0, 1, 0, 0.25f);
    e.alignment = kAlignAxis;
    e.blend = kBlendPremultiplied;
    e.render_flags = kRenderFlagLit | kRenderFlagFrameBlend;
    e.flipbook_columns = 4;
    e.flipbook_rows = 2;
    e.flipbook_frames = 7;
    e.soft_fade_distance = 0.3f;
    return e;
}

TEST(BillboardParams, CopiesTheEmittersRenderSettings) {
    BillboardParams p = billboardParams(emitter(), Rows3x4{});
    EXPECT_EQ(p.alignment, kAlignAxis);
    EXPECT_EQ(p.blend, kBlendPremultiplied);
    EXPECT_EQ(p.render_flags, kRenderFlagLit | kRenderFlagFrameBlend);
    EXPECT_EQ(p.flipbook_columns, 4u);
    EXPECT_EQ(p.flipbook_rows, 2u);
    EXPECT_EQ(p.flipbook_frames, 7u);
    EXPECT_EQ(p.soft_fade_distance, 0.3f);
    EXPECT_EQ(p.axis_stretch, vec4(0, 1, 0, 0.25f));
    EXPECT_EQ(p.textured, 0u);
}

TEST(BillboardParams, AxisGoesThroughTheEmitterThenTheEffectTransform) {
    EmitterRecord e = emitter();
    // Emitter turned 90 degrees about Z: its +Y is the effect's -X.
    e.transform_row0 = vec4(0, -1, 0, 5);
    e.transform_row1 = vec4(1, 0, 0, 6);
    e.transform_row2 = vec4(0, 0, 1, 7);
    // Effect turned 90 degrees about Y: the effect's -X is the world's +Z.
    Rows3x4 world_from_effect = makeRigidTransform(10, 0, 0, 1.5707963267948966f);
    BillboardParams p = billboardParams(e, world_from_effect);
    EXPECT_NEAR(p.axis_stretch.x, 0.0f, 1e-6f);
    EXPECT_NEAR(p.axis_stretch.y, 0.0f, 1e-6f);
    EXPECT_NEAR(p.axis_stretch.z, 1.0f, 1e-6f);
    EXPECT_EQ(p.axis_stretch.w, 0.25f); // translation never touches the axis or the stretch
}

TEST(BillboardParams, FlipbookCountsAreAtLeastOne) {
    EmitterRecord e = emitter();
    e.flipbook_columns = e.flipbook_rows = e.flipbook_frames = 0;
    e.axis = vec4(0, 0, 0, 0);
    BillboardParams p = billboardParams(e, Rows3x4{});
    EXPECT_EQ(p.flipbook_columns, 1u);
    EXPECT_EQ(p.flipbook_rows, 1u);
    EXPECT_EQ(p.flipbook_frames, 1u);
    EXPECT_EQ(vec3(p.axis_stretch), vec3(0, 1, 0)); // a vanished axis falls back to +Y
}

} // namespace
} // namespace spindrift::render
