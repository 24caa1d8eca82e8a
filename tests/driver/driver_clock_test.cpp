// The frame clock: whole fixed steps from host frames, the catch-up cap, bad frame times,
// finishing, restart and snapshots.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "driver/driver_fixtures.h"

namespace spindrift {
namespace {

using test::compileOrFail;
using test::kDt60;
using test::makeEffect;
using test::makeEmitter;

CompiledEffect oneEmitter(float rate_per_s = 10, float duration_s = 5, bool looping = true) {
    return compileOrFail(makeEffect({makeEmitter("a", rate_per_s)}, duration_s, looping));
}

TEST(DriverClock, StartsAtTimeZeroWithEveryEmitterEnabled) {
    const CompiledEffect effect = compileOrFail(
        makeEffect({makeEmitter("a", 1), makeEmitter("b", 2), makeEmitter("c", 3)}, 5, true));
    const DriverState state = makeDriverState(effect);
    EXPECT_EQ(state.emitter_count, 3u);
    EXPECT_EQ(state.step_index, 0u);
    EXPECT_EQ(state.accumulator_s, 0.0);
    EXPECT_EQ(stepTime(state, effect), 0.0);
    for (uint32_t e = 0; e < 3; ++e) {
        EXPECT_EQ(state.emitters[e].enabled, 1u);
        EXPECT_EQ(state.emitters[e].next_ordinal, 0u);
    }
    EXPECT_EQ(state.emitters[3].enabled, 0u);
}

// Hot reload: a fresh clock of a new version continues the old one; emitters match by the map
// (here: the new version's "b", "new", "a" against the old "a", "b").
TEST(DriverClock, AReloadedClockContinuesTheMatchedEmitters) {
    const CompiledEffect before =
        compileOrFail(makeEffect({makeEmitter("a", 50), makeEmitter("b", 70)}, 5, true));
    const CompiledEffect after = compileOrFail(
        makeEffect({makeEmitter("b", 70), makeEmitter("new", 30), makeEmitter("a", 50)}, 5, true));
    DriverState old = makeDriverState(before);
    FrameReport report;
    SpawnPlan plan;
    const DriverConfig config;
    for (int frame = 0; frame < 7; ++frame) {
        const uint32_t steps = beginFrame(old, before, 1.3 * kDt60, config, report);
        for (uint32_t s = 0; s < steps; ++s) planStep(old, before, config, plan);
    }
    DriverState next = makeDriverState(after);
    const std::vector<int32_t> old_emitter{1, -1, 0};
    continueClock(old, next, old_emitter);
    EXPECT_EQ(next.step_index, old.step_index);
    EXPECT_EQ(next.accumulator_s, old.accumulator_s);
    EXPECT_EQ(next.loop_index, old.loop_index);
    EXPECT_EQ(std::memcmp(&next.stats, &old.stats, sizeof(DriverStats)), 0);
    EXPECT_EQ(std::memcmp(&next.emitters[0], &old.emitters[1], sizeof(EmitterClock)), 0);
    EXPECT_EQ(std::memcmp(&next.emitters[2], &old.emitters[0], sizeof(EmitterClock)), 0);
    EXPECT_GT(next.emitters[2].next_ordinal, 0u);
    EXPECT_EQ(next.emitters[1].next_ordinal, 0u) << "a new emitter starts fresh";
    EXPECT_EQ(next.emitters[1].spawn_carry, 0.0);
    EXPECT_EQ(next.emitter_count, 3u);
}

TEST(DriverClock, FramesOfOneStepRunOneStepEach) {
    // The host's 1/60 (double) is 8.7e-10 s shorter than the stored step (float 1/60); the snap
    // tolerance (dt / 1024 = 1.6e-5 s) absorbs that debt for ~18000 frames.
    const CompiledEffect effect = oneEmitter();
    DriverState state = makeDriverState(effect);
    const DriverConfig config;
    for (int frame = 0; frame < 1000; ++frame) {
        FrameReport report;
        ASSERT_EQ(beginFrame(state, effect, 1.0 / 60.0, config, report), 1u) << "frame " << frame;
        EXPECT_EQ(report.steps, 1u);
        SpawnPlan plan;
        planStep(state, effect, config, plan);
    }
    EXPECT_EQ(state.step_index, 1000u);
    EXPECT_DOUBLE_EQ(stepTime(state, effect), 1000 * kDt60);
}

TEST(DriverClock, ShortFramesAccumulateIntoWholeSteps) {
    const CompiledEffect effect = oneEmitter();
    DriverState state = makeDriverState(effect);
    uint64_t steps = 0;
    for (int frame = 0; frame < 144; ++frame) {
        FrameReport report;
        const uint32_t n = beginFrame(state, effect, 1.0 / 144.0, {}, report);
        EXPECT_LE(n, 1u); // a 144 Hz frame is shorter than a step
        steps += n;
    }
    // One second is 59.99999 steps of the float step, plus the snap: 60.
    EXPECT_EQ(steps, 60u);
}

TEST(DriverClock, JitteredFramesLoseNoTime) {
    const CompiledEffect effect = oneEmitter();
    DriverState state = makeDriverState(effect);
    std::mt19937 rng(1234);
    std::uniform_real_distribution<double> frame_s(0.0, 0.1);
    double total_s = 0;
    uint64_t steps = 0;
    DriverConfig config;
    config.max_steps_per_frame = 100; // a 0.1 s frame needs 6 steps; the cap never bites
    for (int frame = 0; frame < 5000; ++frame) {
        const double dt = frame_s(rng);
        total_s += dt;
        FrameReport report;
        steps += beginFrame(state, effect, dt, config, report);
        EXPECT_EQ(report.discarded_steps, 0u);
    }
    const double snap = kDt60 * kStepSnapFraction;
    EXPECT_GE(state.accumulator_s, -snap);
    EXPECT_LT(state.accumulator_s, kDt60);
    // Steps run plus the remainder account for every second the host gave.
    EXPECT_NEAR(static_cast<double>(steps) * kDt60 + state.accumulator_s, total_s, 1e-9);
}

TEST(DriverClock, CatchUpCapDropsWholeStepsAndReportsThem) {
    const CompiledEffect effect = oneEmitter();
    DriverState state = makeDriverState(effect);
    FrameReport report;
    // 10 s = 599.99997 steps; with the snap, 600 steps are due: 8 run, 592 dropped.
    EXPECT_EQ(beginFrame(state, effect, 10.0, {}, report), 8u);
    EXPECT_EQ(report.steps, 8u);
    EXPECT_EQ(report.discarded_steps, 592u);
    EXPECT_DOUBLE_EQ(report.discarded_s, 592 * kDt60);
    EXPECT_EQ(state.stats.discarded_steps, 592u);
    EXPECT_DOUBLE_EQ(state.stats.discarded_s, 592 * kDt60);
    EXPECT_NEAR(state.accumulator_s, 10.0 - 600 * kDt60, 1e-12);
    EXPECT_EQ(report.frame_rejected, 0u);

    // The dropped time is gone: the next short frame owes nothing.
    EXPECT_EQ(beginFrame(state, effect, 0.005, {}, report), 0u);
    EXPECT_EQ(report.discarded_steps, 0u);
    EXPECT_EQ(state.stats.discarded_steps, 592u);
}

TEST(DriverClock, CatchUpCapIsConfigurableAndZeroMeansOne) {
    const CompiledEffect effect = oneEmitter();
    DriverState state = makeDriverState(effect);
    DriverConfig config;
    config.max_steps_per_frame = 3;
    FrameReport report;
    EXPECT_EQ(beginFrame(state, effect, 5.5 * kDt60, config, report), 3u);
    EXPECT_EQ(report.discarded_steps, 2u);
    EXPECT_NEAR(report.discarded_s, 2 * kDt60, 1e-15);
    EXPECT_NEAR(state.accumulator_s, 0.5 * kDt60, 1e-12);

    config.max_steps_per_frame = 0;
    EXPECT_EQ(beginFrame(state, effect, 3 * kDt60, config, report), 1u);
    EXPECT_EQ(report.discarded_steps, 2u);
}

TEST(DriverClock, RejectsNegativeAndNonFiniteFrameTimes) {
    const CompiledEffect effect = oneEmitter();
    DriverState state = makeDriverState(effect);
    FrameReport report;
    beginFrame(state, effect, 0.5 * kDt60, {}, report);
    const double before = state.accumulator_s;
    for (double bad :
         {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity()}) {
        EXPECT_EQ(beginFrame(state, effect, bad, {}, report), 0u) << bad;
        EXPECT_EQ(report.frame_rejected, 1u) << bad;
        EXPECT_EQ(report.discarded_steps, 0u);
        EXPECT_EQ(state.accumulator_s, before) << bad;
    }
    EXPECT_EQ(state.stats.rejected_frames, 4u);
    EXPECT_EQ(beginFrame(state, effect, 0.5 * kDt60, {}, report), 1u);
    EXPECT_EQ(report.frame_rejected, 0u);
}

TEST(DriverClock, AbsurdFrameTimesStayBounded) {
    const CompiledEffect effect = oneEmitter();
    DriverState state = makeDriverState(effect);
    for (double huge : {1e300, std::numeric_limits<double>::max()}) {
        FrameReport report;
        EXPECT_EQ(beginFrame(state, effect, huge, {}, report), 8u);
        EXPECT_EQ(report.discarded_steps, std::numeric_limits<uint32_t>::max());
        EXPECT_TRUE(std::isfinite(report.discarded_s));
        EXPECT_TRUE(std::isfinite(state.accumulator_s));
        EXPECT_GE(state.accumulator_s, -kDt60);
        EXPECT_LT(state.accumulator_s, kDt60);
    }
    EXPECT_TRUE(std::isfinite(state.stats.discarded_s));
}

TEST(DriverClock, NonLoopingEffectFinishesAfterItsDurationAndLastParticle) {
    const CompiledEffect effect = oneEmitter(10, 0.5f, false);
    ASSERT_EQ(stepsPerCycle(effect), 30u); // 0.5 / (1/60) = 29.99999 -> 30
    DriverState state = makeDriverState(effect);
    test::planSteps(state, effect, 29);
    EXPECT_FALSE(effectFinished(state, effect, 0)) << "step 29 may still plan births";
    test::planSteps(state, effect, 1);
    EXPECT_FALSE(effectFinished(state, effect, 3)) << "particles are still alive";
    EXPECT_FALSE(updateFinished(state, effect, 3));
    EXPECT_TRUE(effectFinished(state, effect, 0));
    EXPECT_TRUE(updateFinished(state, effect, 0));
    EXPECT_EQ(state.finished, 1u);

    FrameReport report;
    EXPECT_EQ(beginFrame(state, effect, 1.0, {}, report), 0u) << "a finished effect runs no steps";

    restartDriver(state);
    EXPECT_EQ(state.finished, 0u);
    EXPECT_EQ(beginFrame(state, effect, kDt60, {}, report), 1u);
}

TEST(DriverClock, LoopingEffectNeverFinishes) {
    const CompiledEffect effect = oneEmitter(10, 0.5f, true);
    DriverState state = makeDriverState(effect);
    test::planSteps(state, effect, 1000);
    EXPECT_FALSE(effectFinished(state, effect, 0));
    EXPECT_FALSE(updateFinished(state, effect, 0));
}

TEST(DriverClock, RestartGivesTheBytesOfAFreshState) {
    const CompiledEffect effect = compileOrFail(makeEffect(
        {makeEmitter("a", 7.3f, {test::makeBurst(0.1f, 2, 9, 0, 0.2f, 0.5f)}), makeEmitter("b", 3)},
        2, true));
    DriverState state = makeDriverState(effect);
    FrameReport report;
    beginFrame(state, effect, 0.123, {}, report);
    test::planSteps(state, effect, 250);
    state.finished = 1;
    restartDriver(state);
    const DriverState fresh = makeDriverState(effect);
    EXPECT_EQ(std::memcmp(&state, &fresh, sizeof(DriverState)), 0);
}

TEST(DriverClock, StateCopiedAsBytesContinuesIdentically) {
    const CompiledEffect effect = compileOrFail(makeEffect(
        {makeEmitter("a", 7.3f, {test::makeBurst(0.1f, 2, 9, 0, 0.2f, 0.5f)})}, 2, true));
    DriverState state = makeDriverState(effect);
    test::planSteps(state, effect, 77);
    unsigned char bytes[sizeof(DriverState)];
    std::memcpy(bytes, &state, sizeof(DriverState));
    const std::vector<SpawnPlan> straight = test::planSteps(state, effect, 300);
    DriverState restored;
    std::memcpy(&restored, bytes, sizeof(DriverState));
    const std::vector<SpawnPlan> resumed = test::planSteps(restored, effect, 300);
    for (size_t i = 0; i < straight.size(); ++i) {
        ASSERT_TRUE(test::samePlan(straight[i], resumed[i])) << "step " << straight[i].step_index;
    }
    EXPECT_EQ(std::memcmp(&state, &restored, sizeof(DriverState)), 0);
}

TEST(DriverClock, StepsPerCycleRoundsTheDurationToWholeSteps) {
    EXPECT_EQ(stepsPerCycle(oneEmitter(1, 5, true)), 300u);
    EXPECT_EQ(stepsPerCycle(oneEmitter(1, 3600, true)), 216000u);
    // 1 / 0.03 = 33.3 -> 33 steps (0.99 s per loop).
    EXPECT_EQ(stepsPerCycle(compileOrFail(makeEffect({makeEmitter("a", 1)}, 1, true, 0.03f))), 33u);
    // Shorter than half a step: still one step.
    EXPECT_EQ(stepsPerCycle(compileOrFail(makeEffect({makeEmitter("a", 1)}, 0.01f, true, 0.1f))),
              1u);
}

TEST(DriverClock, PlanCarriesTheStepTimeAndLoop) {
    const CompiledEffect effect = oneEmitter(10, 1, true); // 60 steps per loop
    const std::vector<SpawnPlan> plans = test::planSteps(effect, 130);
    EXPECT_EQ(plans[0].loop_index, 0u);
    EXPECT_EQ(plans[59].cycle_step, 59u);
    EXPECT_EQ(plans[60].loop_index, 1u);
    EXPECT_EQ(plans[60].cycle_step, 0u);
    EXPECT_EQ(plans[125].loop_index, 2u);
    EXPECT_EQ(plans[125].cycle_step, 5u);
    EXPECT_EQ(plans[125].step_index, 125u);
    EXPECT_DOUBLE_EQ(plans[125].time_s, 125 * kDt60);
    EXPECT_EQ(plans[125].emitter_count, 1u);
}

// The run-time bound every host applies (docs/driver.md, "Limits"): round(time / dt), counted in
// double, refused past kMaxSimulatedSteps, for negative or non-finite times and for a bad step.
TEST(DriverClock, StepsInATimeAreBoundedAndNeverOverflow) {
    uint64_t steps = 12345;
    EXPECT_TRUE(boundedStepsInTime(1.0, kDt60, steps));
    EXPECT_EQ(steps, 60u);
    EXPECT_TRUE(boundedStepsInTime(0.0, kDt60, steps));
    EXPECT_EQ(steps, 0u);
    EXPECT_TRUE(boundedStepsInTime(86400.0, kDt60, steps)) << "a day at 60 Hz";
    EXPECT_EQ(steps, 5'184'000u);
    EXPECT_TRUE(boundedStepsInTime(10000.0, 0.001f, steps));
    EXPECT_EQ(steps, kMaxSimulatedSteps);
    steps = 7;
    for (const double time_s :
         {10000.001, 86400.0, 1e20, 1e300, -1.0, -1e-9 * 1e9,
          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::quiet_NaN()}) {
        EXPECT_FALSE(boundedStepsInTime(time_s, 0.001f, steps)) << time_s;
        EXPECT_EQ(steps, 7u) << "left alone";
    }
    EXPECT_FALSE(boundedStepsInTime(1.0, 0.0f, steps));
    EXPECT_FALSE(boundedStepsInTime(1.0, -0.1f, steps));
    EXPECT_FALSE(boundedStepsInTime(1.0, std::numeric_limits<float>::quiet_NaN(), steps));
    EXPECT_EQ(stepsInTime(1e20, 0.001f), 1e20 / static_cast<double>(0.001f));
    EXPECT_EQ(stepsInTime(2.5 * static_cast<double>(0.1f), 0.1f), 3.0) << "half away from zero";
}

} // namespace
} // namespace spindrift
