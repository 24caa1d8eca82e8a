#include "gpu/live_bound.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpu/gpu_context.h"
#include "gpu/pool_layout.h"
#include "gpu/shader/gpu_sim.h"
#include "kernels/draw_record.h"

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

// Steps until the window forgets births made now (the bound falls to 0 with no more births).
uint32_t stepsKept(LiveWindow w) {
    uint32_t steps = 0;
    while (true) {
        beginLiveWindowStep(w);
        if (liveBound(w) == 0) return steps;
        addLiveWindowBirths(w, 0);
        ++steps;
        if (steps > 1000) return steps;
    }
}

// Hot reload: the old births stay counted at least as long as the old window would have kept
// them, and the window kept is never shorter than the new lifetimes need.
TEST(LiveBound, AReloadedWindowKeepsTheOldBirthsLongEnough) {
    const float dt = 0.1f;
    for (const float old_life : {0.5f, 2.0f}) {
        for (const float new_life : {0.5f, 2.0f}) {
            LiveWindow old = makeLiveWindow(emitterWith(old_life, old_life, 1000), dt);
            beginLiveWindowStep(old);
            addLiveWindowBirths(old, 10);
            LiveWindow fresh = makeLiveWindow(emitterWith(new_life, new_life, 1000), dt);
            const uint32_t old_kept = stepsKept(old);
            continueLiveWindow(old, fresh);
            EXPECT_EQ(liveBound(fresh), 10u) << old_life << " -> " << new_life;
            EXPECT_GE(stepsKept(fresh), old_kept) << old_life << " -> " << new_life;
            // A birth after the switch is kept for its new lifetime at least.
            LiveWindow later = fresh;
            clearLiveWindow(later);
            beginLiveWindowStep(later);
            addLiveWindowBirths(later, 1);
            EXPECT_GE(stepsKept(later), static_cast<uint32_t>(std::ceil(new_life / dt)))
                << old_life << " -> " << new_life;
        }
    }
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

PoolLimits limitOf(uint64_t buffer_bytes, uint64_t total_bytes = ~uint64_t{0}) {
    PoolLimits limits;
    limits.buffer_bytes = buffer_bytes;
    limits.total_bytes = total_bytes;
    return limits;
}

// Every column inside its buffer, aligned, and no two columns overlapping.
void expectColumnsDisjointAndInside(const PoolLayout& layout) {
    struct Span {
        uint32_t buffer;
        uint64_t begin, end;
    };
    std::vector<Span> spans;
    for (const EmitterRegion& region : layout.regions) {
        std::vector<ColumnPlace> places(region.columns.begin(), region.columns.end());
        if (region.relocates) {
            places.insert(places.end(), region.state_copy.begin(), region.state_copy.end());
        }
        for (const ColumnPlace& c : places) {
            ASSERT_LT(c.buffer, layout.buffer_bytes.size());
            EXPECT_EQ(c.offset_bytes % kGpuColumnAlignBytes, 0u);
            EXPECT_LE(c.offset_bytes + region.column_bytes, layout.buffer_bytes[c.buffer]);
            spans.push_back({c.buffer, c.offset_bytes, c.offset_bytes + region.column_bytes});
        }
    }
    for (size_t a = 0; a < spans.size(); ++a) {
        for (size_t b = a + 1; b < spans.size(); ++b) {
            const bool apart = spans[a].buffer != spans[b].buffer ||
                               spans[a].end <= spans[b].begin || spans[b].end <= spans[a].begin;
            EXPECT_TRUE(apart) << "columns " << a << " and " << b << " overlap";
        }
    }
}

// Child bounds (docs/gpu-backend.md, "Sub-emitters"): a hand-built effect of four emitters.
// parent (live bound 10, 2 collision ops) --death x3--> child, --collision x2--> child;
// child --birth x5--> grandchild (capacity 4), planned births of child: 7.
CompiledEffect chainEffect() {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 100), emitterWith(1, 1, 50), emitterWith(1, 1, 4),
                       emitterWith(1, 1, 100)};
    OpRecord collision{};
    collision.op = kOpCollision;
    OpRecord gravity{};
    gravity.op = kOpAcceleration;
    effect.ops = {collision, gravity, collision};
    effect.emitters[0].op_first = 0;
    effect.emitters[0].op_count = 3;
    SubEmitterRecord death{};
    death.event = kEventDeath;
    death.emitter = 1;
    death.count_min = 1;
    death.count_max = 3;
    SubEmitterRecord contact = death;
    contact.event = kEventCollision;
    contact.count_max = 2;
    SubEmitterRecord birth = death;
    birth.event = kEventBirth;
    birth.emitter = 2;
    birth.count_max = 5; // more than the grandchild's capacity: 4 per event
    effect.sub_emitters = {death, contact, birth};
    effect.emitters[0].sub_emitter_first = 0;
    effect.emitters[0].sub_emitter_count = 2;
    effect.emitters[1].sub_emitter_first = 2;
    effect.emitters[1].sub_emitter_count = 1;
    return effect;
}

TEST(LiveBound, BoundsEventBirthsThroughChains) {
    const CompiledEffect effect = chainEffect();
    std::vector<LiveWindow> windows;
    for (const EmitterRecord& e : effect.emitters) windows.push_back(makeLiveWindow(e, 0.1f));
    beginLiveWindowStep(windows[0]);
    addLiveWindowBirths(windows[0], 10);
    for (LiveWindow& w : windows) beginLiveWindowStep(w);
    SpawnPlan plan;
    plan.emitters[1].count = 7;
    std::vector<uint64_t> births(effect.emitters.size(), 99);
    const uint64_t events = boundEventBirths(effect, windows, plan, births);
    // Deaths: 10 events x 3; collisions: 10 x 2 ops = 20 events x 2.
    EXPECT_EQ(births[1], 10u * 3 + 20u * 2);
    // The child's births (planned and from events) each fire a birth event of up to 4.
    EXPECT_EQ(births[2], (7u + 70u) * 4);
    EXPECT_EQ(births[0], 0u);
    EXPECT_EQ(births[3], 0u);
    EXPECT_EQ(events, 10u + 20u + 77u);
}

TEST(LiveBound, EventBoundsStopAtTheStepLimitAndAreZeroWithoutEvents) {
    CompiledEffect effect = chainEffect();
    std::vector<LiveWindow> windows;
    for (const EmitterRecord& e : effect.emitters) windows.push_back(makeLiveWindow(e, 0.1f));
    for (LiveWindow& w : windows) beginLiveWindowStep(w);
    SpawnPlan plan;
    std::vector<uint64_t> births(effect.emitters.size(), 5);
    EXPECT_EQ(boundEventBirths(effect, windows, plan, births), 0u);
    for (const uint64_t b : births) EXPECT_EQ(b, 0u);
    plan.emitters[1].count = 50;
    windows[0].capacity = 1u << 20;
    addLiveWindowBirths(windows[0], 1u << 20);
    beginLiveWindowStep(windows[0]);
    EXPECT_EQ(boundEventBirths(effect, windows, plan, births), 1u << 16);
}

// The update's workgroups by live bound (gpu_sim.h: measured on the H200), unless configured.
TEST(UpdateWorkgroupCap, FollowsTheLiveBoundUnlessConfigured) {
    EXPECT_EQ(updateWorkgroupCap(0, 1000), kGpuUpdateMaxWorkgroups);
    EXPECT_EQ(updateWorkgroupCap(0, kGpuUpdateMidBound), kGpuUpdateMaxWorkgroups);
    EXPECT_EQ(updateWorkgroupCap(0, kGpuUpdateMidBound + 1), kGpuUpdateMidWorkgroups);
    EXPECT_EQ(updateWorkgroupCap(0, 10'000'000), kGpuUpdateMidWorkgroups);
    EXPECT_EQ(updateWorkgroupCap(0, kGpuUpdateLargeBound), kGpuUpdateMidWorkgroups);
    EXPECT_EQ(updateWorkgroupCap(0, kGpuUpdateLargeBound + 1), kGpuUpdateLargeWorkgroups);
    EXPECT_EQ(updateWorkgroupCap(7, 10'000'000), 7u);
}

TEST(PoolLayout, PlacesAlignedColumnsPerEmitterAndDrawRecordsByCapacity) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 10), emitterWith(1, 1, 100)};
    PoolLayout layout;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutPool(effect, PoolLimits{}, true, layout, d));
    ASSERT_EQ(layout.regions.size(), 2u);
    EXPECT_EQ(layout.regions[0].column_bytes, 256u);
    EXPECT_EQ(layout.regions[1].column_bytes, 512u);
    // A small effect stays in one buffer: emitter 1's columns follow emitter 0's.
    ASSERT_EQ(layout.buffer_bytes.size(), 1u);
    EXPECT_EQ(layout.buffer_bytes[0], (256u + 512u) * kGpuColumnCount);
    EXPECT_EQ(layout.regions[0].columns[3].offset_bytes, 3u * 256u);
    EXPECT_EQ(layout.regions[1].columns[0].offset_bytes, 256u * kGpuColumnCount);
    EXPECT_EQ(layout.regions[1].columns[2].offset_bytes, 256u * kGpuColumnCount + 2u * 512u);
    EXPECT_EQ(layout.regions[1].first_draw_record, 10u);
    EXPECT_EQ(layout.draw_records, 110u);
    ASSERT_EQ(layout.chunk_records.size(), 1u);
    EXPECT_EQ(layout.chunk_records[0], 110u);
    EXPECT_EQ(layout.total_bytes, (256u + 512u) * kGpuColumnCount + 110u * sizeof(DrawRecord));
    expectColumnsDisjointAndInside(layout);
}

bool samePlace(const ColumnPlace& a, const ColumnPlace& b) {
    return a.buffer == b.buffer && a.offset_bytes == b.offset_bytes;
}

// Birth-order emitters without trails relocate (birth_order.h): a second copy of their state
// columns, which the slots of alive list 1 use; their lists and every other emitter's columns
// are the same for both lists.
TEST(PoolLayout, GivesEmittersThatRelocateASecondCopyOfTheirStateColumns) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 10), emitterWith(1, 1, 10), emitterWith(1, 1, 10),
                       emitterWith(1, 1, 10)};
    effect.emitters[1].render_flags = kRenderFlagStableOrder;
    effect.emitters[2].render_flags = kRenderFlagStableOrder;
    effect.emitters[2].render_type = kRenderRibbon; // trails stay with their slots
    effect.emitters[3].overflow = kOverflowReplaceOldest;
    PoolLayout layout;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutPool(effect, PoolLimits{}, true, layout, d));
    ASSERT_EQ(layout.regions.size(), 4u);
    const bool relocates[] = {false, true, false, true};
    for (uint32_t e = 0; e < 4; ++e) {
        SCOPED_TRACE(e);
        const EmitterRegion& region = layout.regions[e];
        EXPECT_EQ(region.relocates, relocates[e]);
        for (uint32_t c = 0; c < kGpuColumnCount; ++c) {
            EXPECT_TRUE(samePlace(columnPlace(region, c, 0), region.columns[c]));
            const bool copied = relocates[e] && c < kGpuStateColumnCount;
            EXPECT_EQ(samePlace(columnPlace(region, c, 1), region.columns[c]), !copied) << c;
        }
    }
    ASSERT_EQ(layout.buffer_bytes.size(), 1u);
    EXPECT_EQ(layout.buffer_bytes[0], 256u * (4 * kGpuColumnCount + 2 * kGpuStateColumnCount));
    expectColumnsDisjointAndInside(layout);

    ASSERT_TRUE(layoutPool(effect, PoolLimits{}, false, layout, d));
    for (const EmitterRegion& region : layout.regions) EXPECT_FALSE(region.relocates);
    EXPECT_EQ(layout.buffer_bytes[0], 256u * 4 * kGpuColumnCount);
}

TEST(PoolLayout, SpreadsColumnsOverBuffersOfAtMostTheLimit) {
    CompiledEffect effect;
    // Columns of 2048 and 4096 bytes; buffers of at most 5000 hold two and one of them.
    effect.emitters = {emitterWith(1, 1, 512), emitterWith(1, 1, 1000)};
    PoolLayout layout;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutPool(effect, limitOf(5000), true, layout, d));
    for (const uint64_t bytes : layout.buffer_bytes) EXPECT_LE(bytes, 5000u);
    // 23 columns of 2048 in 12 buffers (the last half full, then the next emitter's 4096 does
    // not fit beside it), 23 of 4096 in 23 more.
    EXPECT_EQ(layout.buffer_bytes.size(), 12u + 23u);
    EXPECT_EQ(layout.regions[0].columns[0].buffer, 0u);
    EXPECT_EQ(layout.regions[0].columns[1].buffer, 0u);
    EXPECT_EQ(layout.regions[0].columns[1].offset_bytes, 2048u);
    EXPECT_EQ(layout.regions[0].columns[2].buffer, 1u);
    EXPECT_EQ(layout.regions[0].columns[22].buffer, 11u);
    EXPECT_EQ(layout.regions[1].columns[0].buffer, 12u);
    EXPECT_EQ(layout.regions[1].columns[22].buffer, 34u);
    expectColumnsDisjointAndInside(layout);
    EXPECT_EQ(layout.total_bytes, (23u * 2048u + 23u * 4096u) + 1512u * sizeof(DrawRecord));
}

TEST(PoolLayout, CutsDrawRecordsIntoChunksAndListsEachEmittersPieces) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 100), emitterWith(1, 1, 250), emitterWith(1, 1, 3)};
    PoolLayout layout;
    std::vector<Diagnostic> d;
    // 78 records of 64 bytes fit 5000 bytes; columns of at most 1024 bytes fit too.
    ASSERT_TRUE(layoutPool(effect, limitOf(5000), true, layout, d));
    EXPECT_EQ(layout.records_per_chunk, 78u);
    EXPECT_EQ(layout.draw_records, 353u);
    EXPECT_EQ(layout.chunk_records, (std::vector<uint64_t>{78, 78, 78, 78, 41}));
    // Emitter 1 holds stream records 100..349: chunk 1 from 22, chunks 2 and 3, chunk 4 to 37.
    const std::vector<DrawRecordRange> r = drawRecordRanges(layout, 1);
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0].chunk, 1u);
    EXPECT_EQ(r[0].first_in_chunk, 22u);
    EXPECT_EQ(r[0].first_in_emitter, 0u);
    EXPECT_EQ(r[0].count, 56u);
    EXPECT_EQ(r[1].chunk, 2u);
    EXPECT_EQ(r[1].first_in_chunk, 0u);
    EXPECT_EQ(r[1].first_in_emitter, 56u);
    EXPECT_EQ(r[1].count, 78u);
    EXPECT_EQ(r[3].chunk, 4u);
    EXPECT_EQ(r[3].first_in_emitter, 212u);
    EXPECT_EQ(r[3].count, 38u);
    // Every emitter's pieces cover its capacity once, in order, inside their chunks.
    for (uint32_t e = 0; e < 3; ++e) {
        uint32_t next = 0;
        for (const DrawRecordRange& piece : drawRecordRanges(layout, e)) {
            EXPECT_EQ(piece.first_in_emitter, next);
            EXPECT_LE(piece.first_in_chunk + piece.count, layout.chunk_records[piece.chunk]);
            next += piece.count;
        }
        EXPECT_EQ(next, layout.regions[e].capacity);
    }
    EXPECT_EQ(drawRecordRangeAt(layout, 1, 100).first_in_chunk, 44u);
    EXPECT_EQ(drawRecordRangeAt(layout, 1, 100).count, 34u);
}

TEST(PoolLayout, HoldsAHundredMillionParticlesInBuffersUnderTheDefaultLimit) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 100'000'000)};
    PoolLayout layout;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutPool(effect, PoolLimits{}, true, layout, d));
    for (const uint64_t bytes : layout.buffer_bytes) EXPECT_LE(bytes, kGpuMaxBufferBytes);
    for (const uint64_t n : layout.chunk_records)
        EXPECT_LE(n * sizeof(DrawRecord), kGpuMaxBufferBytes);
    EXPECT_EQ(layout.buffer_bytes.size(), 3u);  // 23 columns of 400 MB, 10 a buffer
    EXPECT_EQ(layout.chunk_records.size(), 2u); // 6.4 GB of draw records
    EXPECT_EQ(drawRecordRanges(layout, 0).size(), 2u);
    expectColumnsDisjointAndInside(layout);
}

TEST(PoolLayout, RefusesAColumnPastTheBufferLimitNamingTheEmitter) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 1000), emitterWith(1, 1, 1000)};
    effect.emitters[1].source_index = 3;
    PoolLayout layout;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(layoutPool(effect, limitOf(3000), true, layout, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].path, "$.emitters[0].capacity");
    EXPECT_NE(d[0].message.find("past the limit of 3000 bytes per buffer"), std::string::npos)
        << d[0].message;
}

TEST(PoolLayout, RefusesAPoolPastTheTotalLimitNamingTheEmitter) {
    CompiledEffect effect;
    effect.emitters = {emitterWith(1, 1, 1000), emitterWith(1, 1, 1000)};
    effect.emitters[1].source_index = 3;
    PoolLayout layout;
    std::vector<Diagnostic> d;
    // The first emitter needs 23 x 4096 + 64000 = 158208 bytes; the second passes 200000.
    EXPECT_FALSE(layoutPool(effect, limitOf(kGpuMaxBufferBytes, 200000), true, layout, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].path, "$.emitters[3].capacity");
    EXPECT_NE(d[0].message.find("316416 bytes"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("limit of 200000 bytes"), std::string::npos) << d[0].message;
}

TEST(PoolLayout, RefusesMoreBuffersThanTheLimitNamingTheEmitter) {
    CompiledEffect effect;
    // Each emitter: 23 columns of 4096 bytes, one a buffer, and 16 chunks of 64 draw records.
    for (uint32_t e = 0; e < 30; ++e) {
        effect.emitters.push_back(emitterWith(1, 1, 1024));
        effect.emitters.back().source_index = e;
    }
    PoolLayout layout;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(layoutPool(effect, limitOf(4096), true, layout, d));
    ASSERT_EQ(d.size(), 1u);
    // 26 emitters take 26 x 39 = 1014 buffers; the 27th would make 1053.
    EXPECT_EQ(d[0].path, "$.emitters[26].capacity");
    EXPECT_NE(d[0].message.find("1053 buffers"), std::string::npos) << d[0].message;
    effect.emitters.resize(26);
    d.clear();
    EXPECT_TRUE(layoutPool(effect, limitOf(4096), true, layout, d));
    EXPECT_EQ(layout.buffer_bytes.size() + layout.chunk_records.size(), 1014u);
}

} // namespace
} // namespace spindrift::gpu
