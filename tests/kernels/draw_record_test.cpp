#include "kernels/draw_record.h"

#include <cstddef>

#include <gtest/gtest.h>

#include "kernels/kernel_test_records.h"

namespace spindrift {
namespace {

// The layout itself is pinned by static_asserts in draw_record.h; these restate the contract.
static_assert(sizeof(DrawRecord) == 64);
static_assert(offsetof(DrawRecord, color) == 16);
static_assert(offsetof(DrawRecord, emitter_index) == 56);
static_assert(offsetof(DrawRecord, key) == 60);

TEST(DrawRecord, BuilderFillsEveryField) {
    DrawRecord r = sdDrawRecord(vec3(1, 2, 3), 0.5f, vec4(0.1f, 0.2f, 0.3f, 0.4f), vec3(4, 5, 6),
                                1.25f, 0.75f, 3.5f, 7u, 0xC0FFEEu);
    EXPECT_EQ(r.position_size, vec4(1, 2, 3, 0.5f));
    EXPECT_EQ(r.color, vec4(0.1f, 0.2f, 0.3f, 0.4f));
    EXPECT_EQ(r.velocity_rotation, vec4(4, 5, 6, 1.25f));
    EXPECT_EQ(r.normalized_age, 0.75f);
    EXPECT_EQ(r.flipbook_frame, 3.5f);
    EXPECT_EQ(r.emitter_index, 7u);
    EXPECT_EQ(r.key, 0xC0FFEEu);
}

EmitterRecord flipbook(uint32_t frames, float cycles, uint32_t flags) {
    EmitterRecord e = test::makeTestEmitter();
    e.flipbook_columns = 4;
    e.flipbook_rows = 4;
    e.flipbook_frames = frames;
    e.flipbook_cycles = cycles;
    e.render_flags = flags;
    return e;
}

TEST(DrawRecord, FlipbookPlaysOverLife) {
    EmitterRecord e = flipbook(16, 1.0f, 0u);
    EXPECT_EQ(sdFlipbookFrame(e, 0.0f, 1u), 0.0f);
    EXPECT_EQ(sdFlipbookFrame(e, 0.5f, 1u), 8.0f);
    EXPECT_EQ(sdFlipbookFrame(e, 0.53f, 1u), 8.0f); // whole frames without blending
    EXPECT_EQ(sdFlipbookFrame(e, 0.999f, 1u), 15.0f);
    e.render_flags = kRenderFlagFrameBlend;
    EXPECT_NEAR(sdFlipbookFrame(e, 0.53f, 1u), 8.48f, 1.0e-4f);
}

TEST(DrawRecord, FlipbookCyclesWrapAndStayInRange) {
    EmitterRecord e = flipbook(10, 3.0f, kRenderFlagFrameBlend);
    EXPECT_NEAR(sdFlipbookFrame(e, 0.5f, 1u), 5.0f, 1.0e-4f); // 1.5 cycles
    for (float t = 0.0f; t <= 1.0f; t += 0.001f) {
        float f = sdFlipbookFrame(e, t, 3u);
        ASSERT_GE(f, 0.0f);
        ASSERT_LT(f, 10.0f);
    }
}

TEST(DrawRecord, RandomStartIsAWholeFrameFromTheKey) {
    EmitterRecord e = flipbook(16, 1.0f, kRenderFlagRandomStart);
    int distinct = 0;
    float first = sdFlipbookFrame(e, 0.0f, sdParticleKey(0, 0, 0, 0));
    for (uint32_t i = 0; i < 64; ++i) {
        uint32_t key = sdParticleKey(0, 0, i, 0);
        float f = sdFlipbookFrame(e, 0.0f, key);
        EXPECT_EQ(f, float(int(sdRandom01(key, kDrawFlipbook) * 16.0f)));
        distinct += f != first;
    }
    EXPECT_GT(distinct, 32);
}

} // namespace
} // namespace spindrift
