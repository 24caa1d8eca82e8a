// The deterministic CPU backend: reproducibility across runs, threads, snapshots and seeks, and
// each module against an analytic expectation.
#include <gtest/gtest.h>

#include <cmath>

#include "allocation_counter.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "cpu/snapshot.h"
#include "cpu_test_effects.h"
#include "kernels/sd_math.h"

namespace spindrift::cpu {
namespace {

using test::burstAt;
using test::busyEffect;
using test::compileOrFail;
using test::singleEmitterEffect;

std::unique_ptr<CpuEffect> makeEffect(const EffectDesc& desc, uint32_t threads = 1) {
    CpuConfig config;
    config.threads = threads;
    return createCpuEffect(compileOrFail(desc), config);
}

void runSteps(CpuEffect& fx, uint32_t steps) {
    for (uint32_t i = 0; i < steps; ++i) stepOnce(fx);
}

// The effect of the determinism tests: busyEffect, or under the sanitizers (SPINDRIFT_SANITIZE)
// busyEffect at a quarter of its particles. The release run keeps the full effect; under
// AddressSanitizer + UBSan (some 80 times slower here) the quarter still has several chunks per
// emitter (about 6000 particles at step 90, more than the three chunks
// ThreadCountDoesNotChangeAnyBit checks for), every update op, collisions, deaths and sub-emitter
// births, so every code path the full effect takes is still checked under the sanitizers, in a
// quarter of the time (CpuDeterminism was some 350 s of the ASan suite; docs/benchmarks.md, "CI
// time").
EffectDesc determinismEffect() {
    EffectDesc desc = busyEffect();
#ifdef SPINDRIFT_SANITIZE
    desc.emitters[0].capacity /= 4;
    desc.emitters[0].spawn.rate_per_s /= 4;
    desc.emitters[0].spawn.bursts[0].count.min /= 4;
    desc.emitters[0].spawn.bursts[0].count.max /= 4;
    desc.emitters[1].capacity /= 4;
#endif
    return desc;
}

uint64_t hashAfter(const EffectDesc& desc, uint32_t threads, uint32_t steps) {
    auto fx = makeEffect(desc, threads);
    runSteps(*fx, steps);
    return stateHash(*fx);
}

TEST(CpuDeterminism, SameEffectAndSeedGiveTheSameStateHash) {
    const EffectDesc desc = determinismEffect();
    const uint64_t a = hashAfter(desc, 1, 90);
    const uint64_t b = hashAfter(desc, 1, 90);
    EXPECT_EQ(a, b);
    EffectDesc other_seed = desc;
    other_seed.seed += 1;
    EXPECT_NE(a, hashAfter(other_seed, 1, 90));
}

TEST(CpuDeterminism, ThreadCountDoesNotChangeAnyBit) {
    const EffectDesc desc = determinismEffect();
    auto one = makeEffect(desc, 1);
    auto two = makeEffect(desc, 2);
    auto five = makeEffect(desc, 5);
    for (int i = 0; i < 90; ++i) {
        stepOnce(*one);
        stepOnce(*two);
        stepOnce(*five);
        ASSERT_EQ(stateHash(*one), stateHash(*two)) << "step " << i;
        ASSERT_EQ(stateHash(*one), stateHash(*five)) << "step " << i;
    }
    // Several chunks per emitter really were in play, and sub-emitters fired.
    EXPECT_GT(one->pools[0].count, 3 * kChunkParticles);
    EXPECT_GT(one->stats[1].births, 0u);
    EXPECT_GT(one->stats[0].contacts, 0u);
}

TEST(CpuDeterminism, SnapshotRestoreContinueEqualsAStraightRun) {
    const EffectDesc desc = determinismEffect();
    auto straight = makeEffect(desc);
    runSteps(*straight, 120);

    auto first = makeEffect(desc);
    runSteps(*first, 47);
    const std::vector<uint8_t> bytes = snapshotState(*first);
    auto second = makeEffect(desc, 2);
    std::string error;
    ASSERT_TRUE(restoreState(*second, bytes, error)) << error;
    EXPECT_EQ(stateHash(*second), stateHash(*first));
    runSteps(*second, 120 - 47);
    EXPECT_EQ(stateHash(*second), stateHash(*straight));
}

TEST(CpuDeterminism, RestoreRejectsForeignOrDamagedSnapshots) {
    const EffectDesc desc = determinismEffect();
    auto fx = makeEffect(desc);
    runSteps(*fx, 10);
    std::vector<uint8_t> bytes = snapshotState(*fx);
    const uint64_t before = stateHash(*fx);
    std::string error;

    std::vector<uint8_t> truncated(bytes.begin(), bytes.end() - 7);
    EXPECT_FALSE(restoreState(*fx, truncated, error));
    EXPECT_NE(error.find("truncated"), std::string::npos) << error;

    std::vector<uint8_t> bad_magic = bytes;
    bad_magic[0] ^= 0xff;
    EXPECT_FALSE(restoreState(*fx, bad_magic, error));

    std::vector<uint8_t> trailing = bytes;
    trailing.push_back(0);
    EXPECT_FALSE(restoreState(*fx, trailing, error));

    EffectDesc other = desc;
    other.emitters[0].spawn.rate_per_s += 1;
    auto foreign = makeEffect(other);
    EXPECT_FALSE(restoreState(*foreign, bytes, error));
    EXPECT_NE(error.find("different compiled effect"), std::string::npos) << error;

    EXPECT_EQ(stateHash(*fx), before); // failed restores changed nothing
}

TEST(CpuDeterminism, SeekEqualsAStraightRunForwardAndBackward) {
    const EffectDesc desc = determinismEffect();
    const double dt = 1.0 / 60.0;
    auto straight = makeEffect(desc);
    std::vector<uint64_t> hashes;
    for (int i = 0; i <= 150; ++i) {
        hashes.push_back(stateHash(*straight));
        stepOnce(*straight);
    }
    auto fx = makeEffect(desc);
    SeekConfig config;
    config.checkpoint_interval_steps = 30;
    SeekCache cache(config);
    for (int target : {100, 37, 150, 0, 61, 61, 149}) {
        const SeekResult r = cache.seek(*fx, target * dt);
        EXPECT_FALSE(r.limited);
        EXPECT_EQ(r.reached_step, static_cast<uint64_t>(target));
        EXPECT_EQ(stateHash(*fx), hashes[target]) << "seek to step " << target;
    }
    EXPECT_GT(cache.checkpointCount(), 1u);
}

TEST(CpuDeterminism, SeekReportsWhenTheReplayBudgetLimitsIt) {
    auto fx = makeEffect(determinismEffect());
    SeekConfig config;
    config.replay_budget_steps = 10;
    SeekCache cache(config);
    const SeekResult r = cache.seek(*fx, 1.0);
    EXPECT_TRUE(r.limited);
    EXPECT_EQ(r.target_step, 60u);
    EXPECT_EQ(r.reached_step, 10u);
    EXPECT_EQ(r.replayed_steps, 10u);
}

TEST(CpuDeterminism, FramePacingDoesNotChangeTheState) {
    const EffectDesc desc = determinismEffect();
    auto fixed = makeEffect(desc);
    auto jittery = makeEffect(desc);
    for (int i = 0; i < 60; ++i) advanceFrame(*fixed, 1.0 / 60.0);
    // 144 Hz, 30 Hz and uneven frames that add up to the same number of whole steps.
    double sent = 0;
    const double frames[] = {1.0 / 144, 1.0 / 30, 0.011, 0.023, 1.0 / 60};
    for (int i = 0; sent + 0.034 < 1.0; ++i) {
        advanceFrame(*jittery, frames[i % 5]);
        sent += frames[i % 5];
    }
    while (jittery->driver.step_index < fixed->driver.step_index) stepOnce(*jittery);
    ASSERT_EQ(jittery->driver.step_index, fixed->driver.step_index);
    for (size_t e = 0; e < fixed->pools.size(); ++e) {
        EXPECT_EQ(jittery->pools[e].count, fixed->pools[e].count);
        EXPECT_EQ(jittery->stats[e].births, fixed->stats[e].births);
    }
    // Everything but the frame accumulator matches.
    jittery->driver.accumulator_s = fixed->driver.accumulator_s;
    EXPECT_EQ(stateHash(*jittery), stateHash(*fixed));
}

TEST(CpuBackend, SteppingAllocatesNothing) {
    auto fx = makeEffect(busyEffect(), 2);
    runSteps(*fx, 5); // warm up: thread start-up may allocate
    spindrift::test::armAllocationCounter();
    runSteps(*fx, 60);
    EXPECT_EQ(spindrift::test::disarmAllocationCounter(), 0u);
    EXPECT_GT(liveCount(*fx), 0u);
}

// --- modules against analytic expectations -------------------------------------------------

// One particle born by a burst at t = 0 with velocity v0 and no shape spread.
EffectDesc projectile(Float3 v0) {
    EffectDesc desc = singleEmitterEffect(16);
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 1));
    desc.emitters[0].init.velocity = {v0, v0};
    return desc;
}

vec3 positionOf(const CpuEffect& fx, uint32_t emitter = 0, uint32_t slot = 0) {
    const ParticlePool& p = fx.pools[emitter];
    return vec3(p.position_x[slot], p.position_y[slot], p.position_z[slot]);
}
vec3 velocityOf(const CpuEffect& fx, uint32_t emitter = 0, uint32_t slot = 0) {
    const ParticlePool& p = fx.pools[emitter];
    return vec3(p.velocity_x[slot], p.velocity_y[slot], p.velocity_z[slot]);
}

TEST(CpuModules, ProjectileUnderGravityFollowsTheSemiImplicitEulerClosedForm) {
    EffectDesc desc = projectile({3, 10, 0});
    desc.emitters[0].update.push_back({true, GravityModule{{0, -9.81f, 0}}});
    auto fx = makeEffect(desc);
    stepOnce(*fx); // born in step 0 at fraction 0.5: pre-aged by dt / 2
    ASSERT_EQ(fx->pools[0].count, 1u);
    const double dt = 1.0 / 60.0;
    for (int k = 1; k <= 90; ++k) {
        stepOnce(*fx);
        // p_k = v0 (k + 1/2) dt + g dt^2 k (k + 1) / 2; v_k = v0 + k g dt.
        const double t_x = 3.0 * (k + 0.5) * dt;
        const double t_y = 10.0 * (k + 0.5) * dt - 9.81 * dt * dt * k * (k + 1) / 2.0;
        const vec3 p = positionOf(*fx);
        EXPECT_NEAR(p.x, t_x, 1e-4 * (1 + std::abs(t_x)));
        EXPECT_NEAR(p.y, t_y, 1e-4 * (1 + std::abs(t_y)));
        EXPECT_NEAR(velocityOf(*fx).y, 10.0 - 9.81 * k * dt, 1e-4);
    }
}

TEST(CpuModules, DragDecaysVelocityExponentially) {
    EffectDesc desc = projectile({4, 0, 0});
    desc.emitters[0].update.push_back({true, DragModule{1.5f}});
    auto fx = makeEffect(desc);
    stepOnce(*fx);
    const double dt = 1.0 / 60.0;
    for (int k = 1; k <= 120; ++k) {
        stepOnce(*fx);
        EXPECT_NEAR(velocityOf(*fx).x, 4.0 * std::exp(-1.5 * k * dt), 2e-5) << "step " << k;
    }
}

TEST(CpuModules, SpawnCountsMatchRatesAndBurstsAtAnyFramePacing) {
    EffectDesc desc = singleEmitterEffect(100000);
    desc.emitters[0].spawn.rate_per_s = 7.3f;
    Burst repeating = burstAt(0.5f, 25);
    repeating.cycles = 4;
    repeating.interval_s = 1.0f;
    desc.emitters[0].spawn.bursts.push_back(repeating);
    std::vector<uint64_t> births;
    for (double frame : {1.0 / 60, 1.0 / 144, 1.0 / 24, 0.1, 0.0037}) {
        auto fx = makeEffect(desc);
        while (fx->driver.step_index + 8 < 600) advanceFrame(*fx, frame);
        while (fx->driver.step_index < 600) stepOnce(*fx);
        births.push_back(fx->stats[0].births);
    }
    // 7.3/s for 10 s is 73 (the carry keeps every fraction; rounding of the carry may leave the
    // 73rd a hair short of the end) plus four bursts of 25 — the same for every pacing.
    EXPECT_GE(births[0], 72u + 100u);
    EXPECT_LE(births[0], 73u + 100u);
    for (uint64_t b : births) EXPECT_EQ(b, births[0]);
}

TEST(CpuModules, ColourAndSizeOverLifeSampleTheirCurvesAtTheParticlesAge) {
    EffectDesc desc = singleEmitterEffect(16);
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 1));
    desc.emitters[0].init.lifetime_s = {2, 2};
    desc.emitters[0].init.size = {0.5f, 0.5f};
    Gradient fade;
    fade.color_keys = {{0, {1, 1, 1}}, {1, {1, 0, 0}}};
    fade.alpha_keys = {{0, 1}, {1, 0}};
    desc.emitters[0].update.push_back({true, ColorOverLifeModule{fade}});
    Curve grow;
    grow.keys = {{0, 1}, {0.5f, 3}, {1, 3}};
    desc.emitters[0].update.push_back({true, SizeOverLifeModule{grow}});
    auto fx = makeEffect(desc);
    for (int k = 0; k < 90; ++k) {
        stepOnce(*fx);
        DrawRecord r;
        ASSERT_EQ(writeDrawRecords(*fx, &r), 1u);
        const double age_n = fx->pools[0].age_s[0] / 2.0;
        EXPECT_NEAR(r.normalized_age, age_n, 1e-6);
        // The LUT has 64 texels: linear keys sample exactly, within float rounding.
        EXPECT_NEAR(r.color.y, 1.0 - age_n, 1e-5);
        EXPECT_NEAR(r.color.w, 1.0 - age_n, 1e-5);
        const double size = 0.5 * (age_n < 0.5 ? 1.0 + 4.0 * age_n : 3.0);
        EXPECT_NEAR(r.position_size.w, size, 0.5 * 2.0 / 63.0 * 2.0 + 1e-5); // one texel
    }
}

TEST(CpuModules, ForceFieldFallsOffToZeroAtTheRim) {
    // Two particles at rest at x = -3 and x = +3; a point field at x = -2.5 of radius 2.
    EffectDesc desc = singleEmitterEffect(16);
    desc.emitters[0].shape.type = ShapeKind::line;
    desc.emitters[0].shape.length = 6;
    desc.emitters[0].shape.emit_from = EmitFrom::edge; // exactly the two ends
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 2));
    ForceFieldModule field;
    field.position = {-2.5f, 0, 0};
    field.radius = 2;
    field.strength = 4;
    field.falloff = 1;
    desc.emitters[0].update.push_back({true, field});
    auto fx = makeEffect(desc);
    stepOnce(*fx); // born
    stepOnce(*fx); // one step of the field
    ASSERT_EQ(fx->pools[0].count, 2u);
    const double dt = 1.0 / 60.0;
    int inside = 0, outside = 0;
    for (uint32_t i = 0; i < 2; ++i) {
        const vec3 v = velocityOf(*fx, 0, i);
        if (positionOf(*fx, 0, i).x > 0) {
            EXPECT_EQ(length(v), 0.0f) << "beyond the radius the field is zero";
            ++outside;
        } else {
            // d = 0.5 of r = 2: strength * (1 - d / r)^1 toward the centre, for one step.
            EXPECT_NEAR(v.x, 4.0 * 0.75 * dt, 1e-5);
            EXPECT_NEAR(v.y, 0.0, 1e-7);
            ++inside;
        }
    }
    EXPECT_EQ(inside, 1);
    EXPECT_EQ(outside, 1);
}

TEST(CpuModules, CollisionKeepsParticlesAboveTheGroundAndBounces) {
    EffectDesc desc = projectile({0, -5, 0});
    desc.emitters[0].transform.position = {0, 1, 0};
    desc.emitters[0].init.size = {0.2f, 0.2f};
    desc.emitters[0].update.push_back({true, GravityModule{}});
    CollisionModule ground;
    ground.planes.push_back({{0, 0, 0}, {0, 1, 0}});
    ground.bounce = 0.5f;
    ground.radius_scale = 0.5f;
    desc.emitters[0].update.push_back({true, ground});
    auto fx = makeEffect(desc);
    bool bounced = false;
    for (int k = 0; k < 120; ++k) {
        stepOnce(*fx);
        EXPECT_GE(positionOf(*fx).y, 0.1f - 1e-5f) << "step " << k;
        bounced = bounced || velocityOf(*fx).y > 0;
    }
    EXPECT_TRUE(bounced);
    EXPECT_GT(fx->stats[0].contacts, 0u);
}

TEST(CpuModules, AttractorKillRadiusKillsArrivals) {
    EffectDesc desc = projectile({0, 0, 0});
    AttractorModule attractor;
    attractor.position = {0, 0, 0};
    attractor.kill_radius = 0.5f;
    desc.emitters[0].update.push_back({true, attractor});
    auto fx = makeEffect(desc);
    stepOnce(*fx); // born at the attractor: dies at the end of its first full step
    stepOnce(*fx);
    EXPECT_EQ(fx->pools[0].count, 0u);
    EXPECT_EQ(fx->stats[0].deaths, 1u);
}

// --- capacity, space, events, lifecycle -------------------------------------------------------

TEST(CpuBackend, FullPoolDropsOrReplacesAndCountsIt) {
    EffectDesc desc = singleEmitterEffect(100);
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 80));
    desc.emitters[0].spawn.bursts.push_back(burstAt(0.5f, 50));
    auto drop = makeEffect(desc);
    runSteps(*drop, 60);
    EXPECT_EQ(drop->pools[0].count, 100u);
    EXPECT_EQ(drop->stats[0].births, 100u);
    EXPECT_EQ(drop->stats[0].overflow_dropped, 30u);

    desc.emitters[0].overflow = OverflowPolicy::replace_oldest;
    auto replace = makeEffect(desc);
    runSteps(*replace, 60);
    const ParticlePool& pool = replace->pools[0];
    EXPECT_EQ(pool.count, 100u);
    EXPECT_EQ(replace->stats[0].births, 130u);
    EXPECT_EQ(replace->stats[0].overflow_replaced, 30u);
    // The 30 oldest (ordinals 0..29) were replaced: ordinals 30..129 remain.
    uint64_t smallest = ~0ull;
    for (uint32_t i = 0; i < pool.count; ++i) smallest = std::min(smallest, pool.ordinal[i]);
    EXPECT_EQ(smallest, 30u);
}

// stable_order keeps slot order = birth order (ascending ordinals) while particles die out of
// order (varied lifetimes) and while replace_oldest replaces the oldest.
TEST(CpuBackend, StableOrderKeepsBirthOrderThroughDeathsAndReplacement) {
    for (const OverflowPolicy policy : {OverflowPolicy::drop_new, OverflowPolicy::replace_oldest}) {
        EffectDesc desc = busyEffect();
        desc.emitters.resize(1); // the main emitter alone, without its death children
        desc.emitters[0].sub_emitters.clear();
        desc.emitters[0].spawn.rate_per_s = 4000;
        desc.emitters[0].render.stable_order = true;
        desc.emitters[0].overflow = policy;
        desc.emitters[0].capacity = 3000; // three chunks
        desc.emitters[0].init.lifetime_s = {0.2f, 1.5f};
        auto fx = makeEffect(desc);
        uint64_t out_of_order_deaths_seen = 0;
        for (int step = 0; step < 60; ++step) {
            stepOnce(*fx);
            const ParticlePool& pool = fx->pools[0];
            for (uint32_t i = 1; i < pool.count; ++i) {
                ASSERT_LT(pool.ordinal[i - 1], pool.ordinal[i]) << "step " << step << " slot " << i;
            }
            // Out-of-order deaths happened when the live particles are not a contiguous run.
            if (pool.count > 1 && pool.ordinal[pool.count - 1] - pool.ordinal[0] + 1 > pool.count)
                ++out_of_order_deaths_seen;
        }
        EXPECT_GT(out_of_order_deaths_seen, 0u) << "policy " << static_cast<int>(policy);
        if (policy == OverflowPolicy::replace_oldest) {
            EXPECT_GT(fx->stats[0].overflow_replaced, 0u);
        }
    }
}

TEST(CpuBackend, LocalParticlesFollowTheEffectWorldParticlesStay) {
    for (SimulationSpace space : {SimulationSpace::world, SimulationSpace::local}) {
        EffectDesc desc = projectile({0, 0, 0});
        desc.space = space;
        auto fx = makeEffect(desc);
        advanceFrame(*fx, 1.0 / 60);
        setTransform(*fx, makeRigidTransform(5, 0, 0, 0));
        advanceFrame(*fx, 1.0 / 60);
        DrawRecord r;
        ASSERT_EQ(writeDrawRecords(*fx, &r), 1u);
        const float expected_x = space == SimulationSpace::local ? 5.0f : 0.0f;
        EXPECT_NEAR(r.position_size.x, expected_x, 1e-5)
            << (space == SimulationSpace::local ? "local" : "world");
    }
}

TEST(CpuBackend, FastEmitterLeavesNoGapsWithinAStep) {
    EffectDesc desc = singleEmitterEffect(1000);
    desc.emitters[0].spawn.rate_per_s = 6000; // 100 births per step
    auto fx = makeEffect(desc);
    advanceFrame(*fx, 1.0 / 60);
    fx->pools[0].count = 0;
    setTransform(*fx, makeRigidTransform(10, 0, 0, 0)); // 10 m in one step
    advanceFrame(*fx, 1.0 / 60);
    const ParticlePool& pool = fx->pools[0];
    ASSERT_EQ(pool.count, 100u);
    float lo = 1e9f, hi = -1e9f;
    for (uint32_t i = 0; i < pool.count; ++i) {
        lo = std::min(lo, pool.position_x[i]);
        hi = std::max(hi, pool.position_x[i]);
    }
    // Births at fractions (i + 0.5) / 100 of the path: spread from 0.05 m to 9.95 m.
    EXPECT_NEAR(lo, 0.05f, 1e-3);
    EXPECT_NEAR(hi, 9.95f, 1e-3);
}

TEST(CpuBackend, DeathEventsSpawnChildrenWithinTheCountRange) {
    EffectDesc desc = singleEmitterEffect(64);
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 10));
    desc.emitters[0].init.lifetime_s = {0.5f, 0.5f};
    desc.emitters[0].sub_emitters.push_back({SubEmitterEvent::death, "child", 1, {3, 5}, 0});
    EmitterDesc child = singleEmitterEffect(1000).emitters[0];
    child.name = "child";
    desc.emitters.push_back(child);
    desc.capacity = 64 + 1000;
    auto fx = makeEffect(desc);
    runSteps(*fx, 40);
    EXPECT_EQ(fx->stats[0].deaths, 10u);
    EXPECT_GE(fx->stats[1].births, 30u);
    EXPECT_LE(fx->stats[1].births, 50u);
    EXPECT_EQ(fx->pools[1].count, fx->stats[1].births);
}

// Two collision modules, and every particle of two full chunks touches in both in its first
// step: a chunk's contact lists must hold 2 x 1024 entries (particle_pool.h, contact_lists), and
// each contact fires a collision event (one child each).
TEST(CpuBackend, ContactsInSeveralCollisionOpsOfAFullChunkAllFireEvents) {
    EffectDesc desc = singleEmitterEffect(2048);
    EmitterDesc& parent = desc.emitters[0];
    parent.spawn.bursts.push_back(burstAt(0, 2048));
    parent.init.lifetime_s = {5, 5};
    parent.init.speed = {0, 0};
    parent.init.velocity.min = {-1, -1, 0};
    parent.init.velocity.max = {-1, -1, 0};
    parent.transform.position = {-0.5f, -0.5f, 0};
    CollisionModule floor;
    floor.planes.push_back({{0, 0, 0}, {0, 1, 0}});
    floor.radius_scale = 0;
    CollisionModule wall = floor;
    wall.planes[0].normal = {1, 0, 0};
    parent.update.push_back(UpdateModule{true, floor});
    parent.update.push_back(UpdateModule{true, wall});
    parent.sub_emitters.push_back({SubEmitterEvent::collision, "child", 1, {1, 1}, 0});
    EmitterDesc child = singleEmitterEffect(8192).emitters[0];
    child.name = "child";
    desc.emitters.push_back(child);
    desc.capacity = 2048 + 8192;
    auto fx = makeEffect(desc);
    runSteps(*fx, 2); // born in the first step, below both planes; the second step collides
    EXPECT_EQ(fx->stats[0].births, 2048u);
    EXPECT_EQ(fx->stats[0].contacts, 2u * 2048u);
    EXPECT_EQ(fx->stats[1].births, 2u * 2048u);
    // Every child is born where its parent touched: on the corner the two planes make.
    const ParticlePool& children = fx->pools[1];
    ASSERT_EQ(children.count, 2u * 2048u);
    for (uint32_t i = 0; i < children.count; ++i) {
        ASSERT_NEAR(children.position_x[i], 0.0f, 0.02f) << i;
        ASSERT_NEAR(children.position_y[i], 0.0f, 0.02f) << i;
    }
}

TEST(CpuBackend, NonLoopingEffectFinishesWhenTheLastParticleDies) {
    EffectDesc desc = singleEmitterEffect(64);
    desc.looping = false;
    desc.duration_s = 1;
    desc.emitters[0].spawn.rate_per_s = 30;
    desc.emitters[0].init.lifetime_s = {0.5f, 0.5f};
    auto fx = makeEffect(desc);
    runSteps(*fx, 60);
    EXPECT_FALSE(finished(*fx)); // particles born just before 1 s are still alive
    runSteps(*fx, 40);
    EXPECT_TRUE(finished(*fx));
    EXPECT_EQ(liveCount(*fx), 0u);
    EXPECT_EQ(fx->stats[0].births, 30u);
}

TEST(CpuBackend, RestartReturnsToTimeZero) {
    const EffectDesc desc = busyEffect();
    auto fx = makeEffect(desc);
    const uint64_t fresh_driver_hash = stateHash(*fx);
    runSteps(*fx, 30);
    restart(*fx);
    EXPECT_EQ(liveCount(*fx), 0u);
    EXPECT_EQ(simulationTime(*fx), 0.0);
    fx->stats.assign(fx->stats.size(), EmitterStats{});
    EXPECT_EQ(stateHash(*fx), fresh_driver_hash);
}

} // namespace
} // namespace spindrift::cpu
