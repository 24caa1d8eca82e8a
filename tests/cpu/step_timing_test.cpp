// Per-stage step timing of the CPU backend (src/cpu/step_timing.h): it changes no bit of the
// state, on one thread or several; every stage of a busy effect's steps is timed and within the
// whole step, which is within the wall time the test measures around it; off, nothing is summed.
#include <gtest/gtest.h>

#include <chrono>

#include "cpu/cpu_effect.h"
#include "cpu_test_effects.h"

namespace spindrift::cpu::test {
namespace {

std::unique_ptr<CpuEffect> makeBusy(uint32_t threads, bool timed) {
    CpuConfig config;
    config.threads = threads;
    auto fx = createCpuEffect(compileOrFail(busyEffect()), config);
    fx->timing.on = timed;
    return fx;
}

uint64_t stagesNs(const StepTiming& t) {
    return t.plan_ns + t.update_ns + t.collision_ns + t.deaths_ns + t.births_ns;
}

TEST(CpuStepTiming, TimingChangesNoBitOnOneThreadOrSeveral) {
    for (const uint32_t threads : {1u, 3u}) {
        auto plain = makeBusy(threads, false);
        auto timed = makeBusy(threads, true);
        for (int i = 0; i < 60; ++i) {
            stepOnce(*plain);
            stepOnce(*timed);
            ASSERT_EQ(stateHash(*plain), stateHash(*timed)) << threads << " threads, step " << i;
        }
        // Several chunks, collisions and sub-emitter births were in play, and were timed.
        EXPECT_GT(timed->pools[0].count, 3 * kChunkParticles);
        EXPECT_GT(timed->stats[0].contacts, 0u);
        EXPECT_GT(timed->stats[1].births, 0u);
        EXPECT_EQ(timed->timing.steps, 60u);
    }
}

TEST(CpuStepTiming, EveryStageIsTimedAndWithinItsWhole) {
    for (const uint32_t threads : {1u, 2u}) {
        auto fx = makeBusy(threads, true);
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < 40; ++i) stepOnce(*fx);
        const uint64_t wall_ns =
            static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now() - start)
                                      .count());
        const StepTiming& t = fx->timing;
        EXPECT_EQ(t.steps, 40u);
        EXPECT_GT(t.plan_ns, 0u);
        EXPECT_GT(t.update_ns, 0u);
        EXPECT_GT(t.collision_ns, 0u) << "the busy effect collides with a ground plane";
        EXPECT_GT(t.deaths_ns, 0u);
        EXPECT_GT(t.births_ns, 0u);
        EXPECT_LE(stagesNs(t), t.step_ns) << threads << " threads";
        EXPECT_LE(t.step_ns, wall_ns) << threads << " threads";
        // The update's thirteen ops over tens of thousands of particles outweigh planning.
        EXPECT_GT(t.update_ns, t.plan_ns);
        EXPECT_EQ(t.draw_records_ns, 0u) << "no draw records were written";
    }
}

TEST(CpuStepTiming, OffSumsNothing) {
    auto fx = makeBusy(1, false);
    for (int i = 0; i < 10; ++i) stepOnce(*fx);
    EXPECT_EQ(fx->timing.steps, 0u);
    EXPECT_EQ(fx->timing.step_ns, 0u);
    EXPECT_EQ(stagesNs(fx->timing), 0u);
    for (uint32_t c = 0; c < fx->chunk_first.back(); ++c) {
        EXPECT_EQ(fx->chunk_results[c].collision_ns, 0u);
        EXPECT_EQ(fx->chunk_results[c].job_ns, 0u);
    }
}

} // namespace
} // namespace spindrift::cpu::test
