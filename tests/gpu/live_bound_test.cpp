#include "gpu/live_bound.h"

#include <gtest/gtest.h>

#include "gpu/pool_layout.h"
#include "kernels/gpu_sim.h"

namespace spindrift::gpu {
namespace {

EmitterRecord emitterWith(float lifetime_min_s, float lifetime_max_s, uint32_t capacity) {
    EmitterRecord e{};
    e.lifetime_min_s = lifetime_min_s;
    e.lifetime_max_s = lifetime_max_s;
    e.capacity = capacity;
    return e;
}

TEST(LiveBound, KeepsBirthsForTheLongestLifeThenForgetsThem) {
    const float dt = 0.1f;
    LiveWindow w = makeLiveWindow(emitterWith(0.2f, 0.5f, 1000), dt); // 5 steps of life + 2
    beginLiveWindowStep(w);
    addLiveWindowBirths(w, 10);
    uint32_t steps_kept = 0;
    while (true) {
        beginLiveWindowStep(w);
        if (liveBound(w) == 0) break;
        EXPECT_EQ(liveBound(w), 10u);
        addLiveWindowBirths(w, 0);
        ++steps_kept;
        ASSERT_LT(steps_kept, 100u);
    }
    EXPECT_GE(steps_kept, 7u); // ceil(0.5 / 0.1) + 2
}

TEST(LiveBound, IsClampedToTheCapacity) {
    LiveWindow w = makeLiveWindow(emitterWith(1, 1, 50), 0.1f);
    for (int i = 0; i < 5; ++i) {
        beginLiveWindowStep(w);
        addLiveWindowBirths(w, 20);
    }
    EXPECT_EQ(liveBound(w), 50u);
    clearLiveWindow(w);
    EXPECT_EQ(liveBound(w), 0u);
}

TEST(LiveBound, LongLivesUseAFixedRingOfBuckets) {
    // 1000 s at 60 Hz: 60000 steps of window in at most 257 buckets, still conservative.
    LiveWindow w = makeLiveWindow(emitterWith(1000, 1000, 1u << 20), 1.0f / 60.0f);
    EXPECT_LE(w.buckets.size(), kLiveWindowBuckets + 1);
    beginLiveWindowStep(w);
    addLiveWindowBirths(w, 7);
    for (int i = 0; i < 60000; ++i) {
        beginLiveWindowStep(w);
        ASSERT_EQ(liveBound(w), 7u) << "step " << i;
        addLiveWindowBirths(w, 0);
    }
}

TEST(PoolLayout, PlacesAlignedColumnsPerEmitterAndDrawRecordsByCapacity) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 10), emitterWith(1, 1, 100)};
    PoolLayout layout;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutPool(effect, kGpuMaxBufferBytes, layout, d));
    ASSERT_EQ(layout.regions.size(), 2u);
    EXPECT_EQ(layout.regions[0].column_stride_bytes, 256u);
    EXPECT_EQ(layout.regions[1].offset_bytes, 256u * kGpuColumnCount);
    EXPECT_EQ(layout.regions[1].column_stride_bytes, 512u);
    EXPECT_EQ(layout.regions[1].first_draw_record, 10u);
    EXPECT_EQ(layout.draw_records, 110u);
    EXPECT_EQ(layout.pool_bytes, (256u + 512u) * kGpuColumnCount);
}

TEST(PoolLayout, RefusesAPoolPastTheBufferLimitNamingTheEmitter) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 1000), emitterWith(1, 1, 1000)};
    effect.emitters[1].source_index = 3;
    PoolLayout layout;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(layoutPool(effect, 150000, layout, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].path, "$.emitters[3].capacity");
    EXPECT_NE(d[0].message.find("limit of 150000 bytes"), std::string::npos) << d[0].message;
}

} // namespace
} // namespace spindrift::gpu
