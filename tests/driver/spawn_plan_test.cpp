// The spawn plan: births per emitter per step from rates, bursts, rate per metre, delay,
// looping, the end of a non-looping effect, spawn scale, enable bits and capacity; the same for
// every frame pacing.
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "driver/driver_fixtures.h"
#include "kernels/random.h"

namespace spindrift {
namespace {

using test::birthSteps;
using test::compileOrFail;
using test::kDt60;
using test::makeBurst;
using test::makeEffect;
using test::makeEmitter;
using test::planSteps;
using test::totalBirths;

// The step whose [k dt, (k + 1) dt) holds time t, found by comparison (not by the driver's
// floor(t / dt)), so the two definitions check each other.
uint64_t stepContaining(double t, double dt) {
    uint64_t k = 0;
    while (static_cast<double>(k + 1) * dt <= t) ++k;
    return k;
}

TEST(SpawnPlan, IntegerRateBornEverySixthStep) {
    // 10/s * (1/60 s) = 1/6 per step: the carry reaches 1 after steps 6, 12, ... (step indices
    // 5, 11, ...). 600 steps (10 s) give 100 births.
    const CompiledEffect effect = compileOrFail(makeEffect({makeEmitter("a", 10)}, 10, false));
    const std::vector<SpawnPlan> plans = planSteps(effect, 600);
    for (const SpawnPlan& plan : plans) {
        const uint32_t expected = (plan.step_index + 1) % 6 == 0 ? 1 : 0;
        ASSERT_EQ(plan.emitters[0].count, expected) << "step " << plan.step_index;
    }
    EXPECT_EQ(totalBirths(plans, 0), 100u);
}

TEST(SpawnPlan, FractionalRateCarriesExactly) {
    // 7.3/s over 600 steps of float 1/60 s (10.0000005 s) is 73.0000058 births: exactly 73,
    // because rate * dt of two floats is exact in double and the carry never loses a bit.
    const CompiledEffect once = compileOrFail(makeEffect({makeEmitter("a", 7.3f)}, 10, false));
    EXPECT_EQ(totalBirths(planSteps(once, 600), 0), 73u);
    EXPECT_EQ(totalBirths(planSteps(once, 900), 0), 73u) << "no births after the duration";

    const CompiledEffect looping = compileOrFail(makeEffect({makeEmitter("a", 7.3f)}, 10, true));
    EXPECT_EQ(totalBirths(planSteps(looping, 1200), 0), 146u);

    // Against the closed form: births after step k = floor((k + 1) * rate * dt).
    const std::vector<SpawnPlan> plans = planSteps(looping, 1200);
    uint64_t sum = 0;
    const double per_step = static_cast<double>(7.3f) * kDt60;
    for (const SpawnPlan& plan : plans) {
        sum += plan.emitters[0].count;
        ASSERT_EQ(sum, static_cast<uint64_t>(
                           std::floor(static_cast<double>(plan.step_index + 1) * per_step)));
    }
}

// Three emitters exercising rate carry, delay, bursts with count ranges, probabilities, cycles
// shorter than a step and for-ever repeats, in a 2.5 s loop.
CompiledEffect busyEffect() {
    return compileOrFail(
        makeEffect({makeEmitter("rate", 7.3f, {makeBurst(0.2f, 3, 3, 5, 0.05f)}),
                    makeEmitter("bursts", 0,
                                {makeBurst(0, 2, 9, 0, 0.37f, 0.6f),
                                 makeBurst(1.1f, 1, 1, 40, 0.004f), makeBurst(2.4f, 50, 50)}),
                    makeEmitter("delayed", 33.3f, {makeBurst(0.25f, 4, 6, 3, 0.5f, 0.5f)}, 0.3f)},
                   2.5f, true, test::kStep60, 99));
}

std::vector<double> framesOf(double frame_s, double total_s) {
    return std::vector<double>(static_cast<size_t>(total_s / frame_s), frame_s);
}

void expectSamePlans(const std::vector<SpawnPlan>& reference, const std::vector<SpawnPlan>& got,
                     const char* pacing) {
    ASSERT_LE(got.size(), reference.size()) << pacing;
    for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_TRUE(test::samePlan(reference[i], got[i]))
            << pacing << ": step " << i << " differs (count " << got[i].emitters[1].count << " vs "
            << reference[i].emitters[1].count << ")";
    }
}

TEST(SpawnPlan, SamePlanForEveryFramePacing) {
    const CompiledEffect effect = busyEffect();
    const std::vector<SpawnPlan> reference = planSteps(effect, 1300);
    EXPECT_GT(totalBirths(reference, 0), 0u);
    EXPECT_GT(totalBirths(reference, 1), 0u);
    EXPECT_GT(totalBirths(reference, 2), 0u);

    DriverConfig uncapped;
    uncapped.max_steps_per_frame = 1u << 20;
    const double total_s = 20.0; // 1200 steps, 8 loops
    const std::vector<SpawnPlan> at60 = test::planFrames(effect, framesOf(1.0 / 60, total_s), {});
    const std::vector<SpawnPlan> at144 = test::planFrames(effect, framesOf(1.0 / 144, total_s), {});
    const std::vector<SpawnPlan> at30 = test::planFrames(effect, framesOf(1.0 / 30, total_s), {});
    std::vector<double> jitter;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> frame_s(0.0005, 0.12);
    for (double t = 0; t < total_s;) t += jitter.emplace_back(frame_s(rng));
    const std::vector<SpawnPlan> jittered = test::planFrames(effect, jitter, uncapped);
    const std::vector<SpawnPlan> giant = test::planFrames(effect, {total_s}, uncapped);
    const std::vector<SpawnPlan> giant_capped = test::planFrames(effect, {total_s}, {});

    for (const auto* plans : {&at60, &at144, &at30, &jittered, &giant}) {
        EXPECT_GE(plans->size(), 1199u);
    }
    EXPECT_EQ(giant_capped.size(), 8u);
    expectSamePlans(reference, at60, "60 Hz");
    expectSamePlans(reference, at144, "144 Hz");
    expectSamePlans(reference, at30, "30 Hz");
    expectSamePlans(reference, jittered, "jitter");
    expectSamePlans(reference, giant, "one giant frame");
    expectSamePlans(reference, giant_capped, "one giant frame, capped");
}

TEST(SpawnPlan, BurstFiresInTheStepContainingItsTime) {
    for (float time_s : {0.0f, 0.1f, 0.5f, 1.0f, 1.234f, 2.9f}) {
        const CompiledEffect effect =
            compileOrFail(makeEffect({makeEmitter("a", 0, {makeBurst(time_s, 5, 5)})}, 3, false));
        const std::vector<SpawnPlan> plans = planSteps(effect, 200);
        const std::vector<uint64_t> steps = birthSteps(plans, 0);
        ASSERT_EQ(steps.size(), 1u) << time_s;
        EXPECT_EQ(steps[0], stepContaining(time_s, kDt60)) << time_s;
        EXPECT_EQ(plans[steps[0]].emitters[0].count, 5u);
    }
}

TEST(SpawnPlan, BurstCyclesRepeatAtTheirInterval) {
    const CompiledEffect effect = compileOrFail(
        makeEffect({makeEmitter("a", 0, {makeBurst(0.1f, 3, 3, 4, 0.25f)})}, 5, false));
    const std::vector<SpawnPlan> plans = planSteps(effect, 300);
    std::vector<uint64_t> expected;
    for (int c = 0; c < 4; ++c) {
        expected.push_back(
            stepContaining(static_cast<double>(0.1f) + c * static_cast<double>(0.25f), kDt60));
    }
    EXPECT_EQ(birthSteps(plans, 0), expected);
    EXPECT_EQ(totalBirths(plans, 0), 12u);
}

TEST(SpawnPlan, CyclesShorterThanAStepAddUpInTheirSteps) {
    const float interval = 0.001f;
    const CompiledEffect effect = compileOrFail(
        makeEffect({makeEmitter("a", 0, {makeBurst(0, 1, 1, 50, interval)})}, 5, false));
    const std::vector<SpawnPlan> plans = planSteps(effect, 10);
    uint64_t total = 0;
    for (const SpawnPlan& plan : plans) {
        uint32_t expected = 0;
        for (int c = 0; c < 50; ++c) {
            const double t = c * static_cast<double>(interval);
            const double start = static_cast<double>(plan.step_index) * kDt60;
            if (t >= start && t < start + kDt60) ++expected;
        }
        EXPECT_EQ(plan.emitters[0].count, expected) << "step " << plan.step_index;
        total += plan.emitters[0].count;
    }
    EXPECT_EQ(plans[0].emitters[0].count, 17u); // cycles 0..16 are before 1/60 s
    EXPECT_EQ(total, 50u);
}

TEST(SpawnPlan, LoopingRepeatsBurstsEachDuration) {
    // 1 s loops are 60 steps. A burst at 0.5 s fires in step 29 of every loop; a for-ever burst
    // every 0.4 s fires at 0, 0.4 and 0.8 s of each loop (1.2 s is past the loop) and restarts.
    const CompiledEffect effect =
        compileOrFail(makeEffect({makeEmitter("once", 0, {makeBurst(0.5f, 5, 5)}),
                                  makeEmitter("forever", 0, {makeBurst(0, 2, 2, 0, 0.4f)})},
                                 1, true));
    ASSERT_EQ(stepsPerCycle(effect), 60u);
    const std::vector<SpawnPlan> plans = planSteps(effect, 300);
    const uint64_t burst_step = stepContaining(0.5, kDt60);
    const uint64_t second = stepContaining(static_cast<double>(0.4f), kDt60);
    const uint64_t third = stepContaining(2 * static_cast<double>(0.4f), kDt60);
    std::vector<uint64_t> once;
    std::vector<uint64_t> forever;
    for (uint64_t loop = 0; loop < 5; ++loop) {
        once.push_back(loop * 60 + burst_step);
        forever.insert(forever.end(), {loop * 60, loop * 60 + second, loop * 60 + third});
    }
    EXPECT_EQ(birthSteps(plans, 0), once);
    EXPECT_EQ(birthSteps(plans, 1), forever);
    EXPECT_EQ(totalBirths(plans, 0), 25u);
    EXPECT_EQ(totalBirths(plans, 1), 30u);
}

TEST(SpawnPlan, NonLoopingEffectStopsEmittingAtItsDuration) {
    const CompiledEffect effect = compileOrFail(makeEffect(
        {makeEmitter("rate", 10), makeEmitter("forever", 0, {makeBurst(0, 1, 1, 0, 0.3f)}),
         makeEmitter("late", 0, {makeBurst(1.5f, 9, 9)})},
        1, false));
    const std::vector<SpawnPlan> plans = planSteps(effect, 600);
    EXPECT_EQ(totalBirths(plans, 0), 10u); // 10/s * 60 steps of float 1/60 s = 10.0000005
    EXPECT_EQ(totalBirths(plans, 1), 4u);  // 0, 0.3, 0.6, 0.9 s
    EXPECT_EQ(totalBirths(plans, 2), 0u) << "a burst after the duration never fires";
    for (uint32_t e = 0; e < 3; ++e) {
        for (const SpawnPlan& plan : plans) {
            if (plan.step_index >= 60) {
                ASSERT_EQ(plan.emitters[e].count, 0u);
            }
        }
    }
}

TEST(SpawnPlan, DelayHoldsBackRatesAndShiftsBursts) {
    // delay 0.5 s: rate births only from 0.5 s to the end of the 2 s cycle (1.5000001 s * 60/s =
    // 90.0000047 -> 90); the burst at 0.25 s fires at 0.75 s.
    const CompiledEffect effect =
        compileOrFail(makeEffect({makeEmitter("rate", 60, {}, 0.5f),
                                  makeEmitter("burst", 0, {makeBurst(0.25f, 7, 7)}, 0.5f)},
                                 2, false));
    const std::vector<SpawnPlan> plans = planSteps(effect, 200);
    EXPECT_EQ(totalBirths(plans, 0), 90u);
    const std::vector<uint64_t> rate_steps = birthSteps(plans, 0);
    ASSERT_FALSE(rate_steps.empty());
    // Step 29 ends 2e-8 s after the delay; 60/s * dt = 1.00000005 per step from step 30 on.
    EXPECT_EQ(rate_steps.front(), 30u);
    EXPECT_EQ(birthSteps(plans, 1), std::vector<uint64_t>{stepContaining(0.75, kDt60)});
}

TEST(SpawnPlan, DelayAppliesInEveryLoop) {
    const CompiledEffect effect =
        compileOrFail(makeEffect({makeEmitter("rate", 60, {}, 0.5f)}, 1, true));
    const std::vector<SpawnPlan> plans = planSteps(effect, 180);
    for (const SpawnPlan& plan : plans) {
        if (plan.cycle_step < 29) {
            ASSERT_EQ(plan.emitters[0].count, 0u) << "step " << plan.step_index;
        }
    }
    // 30.0000016 births per loop: 30, 30, 30.
    EXPECT_EQ(totalBirths(plans, 0), 90u);
}

TEST(SpawnPlan, DelayPastTheDurationMeansNoBirths) {
    const CompiledEffect effect =
        compileOrFail(makeEffect({makeEmitter("a", 100, {makeBurst(0, 5, 5)}, 3)}, 2, true));
    EXPECT_EQ(totalBirths(planSteps(effect, 600), 0), 0u);
}

TEST(SpawnPlan, SpawnScaleMultipliesRatesAndBursts) {
    const CompiledEffect effect = compileOrFail(makeEffect(
        {makeEmitter("rate", 10), makeEmitter("burst", 0, {makeBurst(0, 3, 3, 4, 0.5f)})}, 10,
        false));
    DriverConfig half;
    half.spawn_scale = 0.5f;
    const std::vector<SpawnPlan> halved = planSteps(effect, 600, half);
    EXPECT_EQ(totalBirths(halved, 0), 50u);
    // 1.5 per cycle with the fraction carried: 1, 2, 1, 2.
    std::vector<uint32_t> cycle_counts;
    for (const SpawnPlan& plan : halved) {
        if (plan.emitters[1].count > 0) cycle_counts.push_back(plan.emitters[1].count);
    }
    EXPECT_EQ(cycle_counts, (std::vector<uint32_t>{1, 2, 1, 2}));

    DriverConfig twice;
    twice.spawn_scale = 2;
    const std::vector<SpawnPlan> doubled = planSteps(effect, 600, twice);
    EXPECT_EQ(totalBirths(doubled, 0), 200u);
    EXPECT_EQ(totalBirths(doubled, 1), 24u);

    for (float bad : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity()}) {
        DriverConfig config;
        config.spawn_scale = bad;
        const std::vector<SpawnPlan> none = planSteps(effect, 600, config);
        EXPECT_EQ(totalBirths(none, 0) + totalBirths(none, 1), 0u) << bad;
    }
}

TEST(SpawnPlan, EnableMaskSilencesOnlyItsEmitters) {
    const CompiledEffect effect = compileOrFail(
        makeEffect({makeEmitter("a", 60, {makeBurst(0.5f, 5, 5)}), makeEmitter("b", 60)}, 5, true));
    const std::vector<SpawnPlan> all = planSteps(effect, 120);
    DriverConfig only_b;
    only_b.enabled_mask = 0b10;
    const std::vector<SpawnPlan> masked = planSteps(effect, 120, only_b);
    EXPECT_EQ(totalBirths(masked, 0), 0u);
    EXPECT_EQ(masked.back().emitters[0].first_ordinal, 0u) << "no ordinals consumed";
    for (size_t i = 0; i < all.size(); ++i) {
        ASSERT_EQ(masked[i].emitters[1].count, all[i].emitters[1].count);
        ASSERT_EQ(masked[i].emitters[1].first_ordinal, all[i].emitters[1].first_ordinal);
    }
}

TEST(SpawnPlan, EnableMaskChangesAtRuntimeWithoutCatchingUp) {
    // Emitter a is off for steps 20..59; its burst at 0.5 s (step 29) is skipped, not deferred,
    // and its rate resumes from the carry it had.
    const CompiledEffect effect =
        compileOrFail(makeEffect({makeEmitter("a", 6, {makeBurst(0.5f, 5, 5)})}, 5, true));
    DriverState state = makeDriverState(effect);
    DriverConfig config;
    std::vector<SpawnPlan> plans = planSteps(state, effect, 20, config);
    config.enabled_mask = 0;
    const std::vector<SpawnPlan> off = planSteps(state, effect, 40, config);
    EXPECT_EQ(state.emitters[0].enabled, 0u);
    config.enabled_mask = ~0ull;
    const std::vector<SpawnPlan> on = planSteps(state, effect, 40, config);
    EXPECT_EQ(totalBirths(plans, 0), 2u); // 6/s = 0.1 per step: 2 after 20 steps
    EXPECT_EQ(totalBirths(off, 0), 0u);
    EXPECT_EQ(totalBirths(on, 0), 4u); // the carry picks up where it stopped
    EXPECT_EQ(on.front().emitters[0].first_ordinal, 2u);
}

TEST(SpawnPlan, OrdinalsAreConsecutivePerEmitter) {
    const CompiledEffect effect = busyEffect();
    DriverState state = makeDriverState(effect);
    uint64_t next[3] = {0, 0, 0};
    for (int step = 0; step < 400; ++step) {
        SpawnPlan plan;
        planStep(state, effect, {}, plan);
        for (uint32_t e = 0; e < 3; ++e) {
            ASSERT_EQ(plan.emitters[e].first_ordinal, next[e]);
            next[e] += plan.emitters[e].count + plan.emitters[e].dropped;
        }
        if (step == 100) {
            // Sub-emitter children take ordinals from the same counter.
            EXPECT_EQ(takeOrdinals(state, 2, 5), next[2]);
            next[2] += 5;
        }
    }
    EXPECT_EQ(state.emitters[0].next_ordinal, next[0]);
}

TEST(SpawnPlan, BurstDrawsArePerSeedEmitterBurstCycleAndLoop) {
    // Cycles every 0.1 s with counts 1..4 at probability 0.5: 100 cycles in each 10 s loop
    // (cycle 100 would be at 10.00000015 s, past the duration).
    auto effectWithSeed = [](uint32_t seed) {
        return compileOrFail(makeEffect(
            {makeEmitter("x", 0), makeEmitter("y", 0, {makeBurst(0, 1, 4, 0, 0.1f, 0.5f)})}, 10,
            true, test::kStep60, seed));
    };
    const CompiledEffect effect = effectWithSeed(42);
    const std::vector<SpawnPlan> plans = planSteps(effect, 1200); // 2 loops of 100 cycles

    // Recompute every cycle's outcome from the kernels, following docs/driver.md.
    std::vector<uint32_t> expected(1200, 0);
    uint64_t fired = 0;
    std::set<uint32_t> counts_seen;
    for (uint32_t loop = 0; loop < 2; ++loop) {
        for (uint32_t c = 0; c < 100; ++c) {
            const uint key = sdBurstKey(42, 1, 0, c, loop);
            if (!(sdRandom01(key, kBurstDrawProbability) < 0.5f)) continue;
            const uint32_t count = sdRandomCount(key, kBurstDrawCount, 1, 4);
            ASSERT_GE(count, 1u);
            ASSERT_LE(count, 4u);
            counts_seen.insert(count);
            ++fired;
            const double t = static_cast<double>(c) * static_cast<double>(0.1f);
            expected[loop * 600 + stepContaining(t, kDt60)] += count;
        }
    }
    for (const SpawnPlan& plan : plans) {
        ASSERT_EQ(plan.emitters[1].count, expected[plan.step_index]) << plan.step_index;
    }
    EXPECT_EQ(counts_seen, (std::set<uint32_t>{1, 2, 3, 4}));
    EXPECT_GT(fired, 70u); // 200 cycles at p = 0.5
    EXPECT_LT(fired, 130u);

    // The second loop draws anew.
    bool loops_differ = false;
    for (size_t i = 0; i < 600; ++i) loops_differ |= expected[i] != expected[600 + i];
    EXPECT_TRUE(loops_differ);

    // Same seed: same plan. Another seed: another pattern.
    const std::vector<SpawnPlan> again = planSteps(effectWithSeed(42), 1200);
    for (size_t i = 0; i < plans.size(); ++i) ASSERT_TRUE(test::samePlan(plans[i], again[i]));
    const std::vector<SpawnPlan> other = planSteps(effectWithSeed(43), 1200);
    bool seeds_differ = false;
    for (size_t i = 0; i < plans.size(); ++i) {
        seeds_differ |= plans[i].emitters[1].count != other[i].emitters[1].count;
    }
    EXPECT_TRUE(seeds_differ);
}

TEST(SpawnPlan, RatePerMetreFollowsTheTravelledDistance) {
    EmitterDesc trail = makeEmitter("trail", 0);
    trail.spawn.rate_per_m = 5;
    EmitterDesc delayed = trail;
    delayed.name = "delayed";
    delayed.spawn.delay_s = 0.5f;
    const CompiledEffect effect = compileOrFail(makeEffect({trail, delayed}, 10, true));
    DriverState state = makeDriverState(effect);
    const float travel[2] = {0.1f, 0.1f}; // 0.5 births per step
    uint64_t births[2] = {0, 0};
    for (int step = 0; step < 100; ++step) {
        SpawnPlan plan;
        planStep(state, effect, {}, travel, plan);
        EXPECT_EQ(plan.emitters[0].count, step % 2 == 1 ? 1u : 0u) << step;
        births[0] += plan.emitters[0].count;
        births[1] += plan.emitters[1].count;
    }
    EXPECT_EQ(births[0], 50u);
    // The delayed one moves the same but only counts from 0.5 s (step 29 is 1e-6 active): 35.
    EXPECT_EQ(births[1], 35u);

    // No travel, or nonsense travel, makes nothing.
    const float bad[2] = {std::numeric_limits<float>::quiet_NaN(), -3.0f};
    for (int step = 0; step < 50; ++step) {
        SpawnPlan plan;
        planStep(state, effect, {}, bad, plan);
        EXPECT_EQ(plan.emitters[0].count + plan.emitters[1].count, 0u);
        planStep(state, effect, {}, plan);
        EXPECT_EQ(plan.emitters[0].count + plan.emitters[1].count, 0u);
    }
}

TEST(SpawnPlan, BirthsPastCapacityAreDroppedAndCounted) {
    const CompiledEffect effect = compileOrFail(
        makeEffect({makeEmitter("small", 0, {makeBurst(0, 25, 25, 2, 0.5f)}, 0, 10)}, 5, false));
    DriverState state = makeDriverState(effect);
    const std::vector<SpawnPlan> plans = planSteps(state, effect, 40);
    EXPECT_EQ(plans[0].emitters[0].count, 10u);
    EXPECT_EQ(plans[0].emitters[0].dropped, 15u);
    EXPECT_EQ(plans[1].emitters[0].first_ordinal, 25u) << "dropped births consume ordinals";
    const uint64_t second = stepContaining(static_cast<double>(0.5f), kDt60);
    EXPECT_EQ(plans[second].emitters[0].count, 10u);
    EXPECT_EQ(state.stats.dropped_births, 30u);
}

TEST(SpawnPlan, HugeRatesStayBounded) {
    const CompiledEffect effect = compileOrFail(
        makeEffect({makeEmitter("flood", std::numeric_limits<float>::max(), {}, 0, 100)}, 5, true));
    DriverState state = makeDriverState(effect);
    DriverConfig config;
    config.spawn_scale = std::numeric_limits<float>::max();
    const std::vector<SpawnPlan> plans = planSteps(state, effect, 3, config);
    for (const SpawnPlan& plan : plans) {
        EXPECT_EQ(plan.emitters[0].count, 100u);
        EXPECT_EQ(plan.emitters[0].dropped, kMaxPlannedBirthsPerStep - 100);
    }
    EXPECT_EQ(state.emitters[0].next_ordinal, 3 * kMaxPlannedBirthsPerStep);
    EXPECT_GE(state.emitters[0].spawn_carry, 0.0);
    EXPECT_LT(state.emitters[0].spawn_carry, 1.0);
}

TEST(SpawnPlan, EndlessBurstWithATinyIntervalIsBoundedAndCounted) {
    // 1e-9 s between cycles is ~1.7e7 cycles per step: the first kMaxBurstCyclesPerStep fire,
    // the rest are counted as skipped.
    const CompiledEffect effect = compileOrFail(makeEffect(
        {makeEmitter("storm", 0, {makeBurst(0, 1, 1, 0, 1e-9f)}, 0, 1u << 17)}, 1, true));
    DriverState state = makeDriverState(effect);
    const std::vector<SpawnPlan> plans = planSteps(state, effect, 2);
    for (const SpawnPlan& plan : plans) {
        EXPECT_EQ(plan.emitters[0].count, kMaxBurstCyclesPerStep);
    }
    const double per_step = kDt60 / static_cast<double>(1e-9f);
    EXPECT_NEAR(static_cast<double>(state.stats.skipped_burst_cycles),
                2 * (per_step - static_cast<double>(kMaxBurstCyclesPerStep)), 4);

    // At 1e-30 s double precision cannot tell cycles apart; the work is still bounded.
    const CompiledEffect absurd = compileOrFail(
        makeEffect({makeEmitter("storm", 0, {makeBurst(0, 1, 1, 0, 1e-30f)}, 0, 16)}, 3600, false));
    DriverState absurd_state = makeDriverState(absurd);
    const std::vector<SpawnPlan> absurd_plans = planSteps(absurd_state, absurd, 3);
    EXPECT_EQ(absurd_plans[0].emitters[0].count, 16u);
    EXPECT_GT(absurd_state.stats.skipped_burst_cycles, 0u);
}

} // namespace
} // namespace spindrift
