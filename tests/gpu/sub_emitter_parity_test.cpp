// Sub-emitters on the GPU backend against the CPU backend (docs/gpu-backend.md,
// "Sub-emitters"): every event kind (threshold crossings of speed, height and age fraction in
// each direction included), probability below 1, count ranges, inherited velocity, a
// full child pool (drop_new and replace_oldest), chains (a child with its own sub-emitters), a
// moving emitter, and more events in one step than kMaxEventsPerStep. Counts (births, deaths,
// drops, replacements, dropped events) must match every frame, so every child has the CPU's
// key, hence ordinal; values within the parity tolerance.
#include "gpu/gpu_parity.h"

#include <cstdio>

#include "compiler/sample_effects.h"
#include "gpu/shader/gpu_sim.h"
#include "gpu/sub_emitters.h"
#include "spindrift/effect_json.h"

namespace spindrift::gpu::test {
namespace {

using spindrift::test::module;

static_assert(kGpuMaxEvents == cpu::kMaxEventsPerStep);
static_assert(kGpuEventChunk == cpu::kChunkParticles);

// A parent with varied lifetimes (deaths throughout the run, out of birth order) and a child.
EffectDesc parentAndChild(SubEmitterDesc link) {
    EmitterDesc parent = sprayEmitter({.name = "parent",
                                       .capacity = 256,
                                       .rate_per_s = 120,
                                       .burst_time_s = 0.1f,
                                       .burst_count = {20, 30},
                                       .sphere_radius = 0.3f,
                                       .lifetime_s = {0.2f, 0.6f},
                                       .speed = {1, 3},
                                       .size = {0.05f, 0.1f}});
    parent.update.push_back(module(GravityModule{}));
    link.emitter = "child";
    parent.sub_emitters.push_back(link);
    EmitterDesc child = sprayEmitter({.name = "child",
                                      .capacity = 1024,
                                      .rate_per_s = 0,
                                      .sphere_radius = 0.05f,
                                      .lifetime_s = {0.2f, 0.4f},
                                      .speed = {0.5f, 1.5f},
                                      .size = {0.02f, 0.04f}});
    child.init.rotation_deg = {0, 360};
    child.update.push_back(module(DragModule{1}));
    return testEffect({.name = "events", .seed = 19, .duration_s = 2, .capacity = 2048},
                      {parent, child});
}

uint32_t childrenCompared(const ParityResult& r) {
    return static_cast<uint32_t>(r.per_emitter.size() > 1 ? r.per_emitter[1] : 0);
}

TEST(GpuSubEmitters, DeathEventsWithProbabilityCountRangeAndInheritedVelocity) {
    const ParityResult r =
        expectParity(parentAndChild({SubEmitterEvent::death, "", 0.6f, {1, 4}, 0.5f}));
    EXPECT_GT(childrenCompared(r), 50u);
}

TEST(GpuSubEmitters, BirthEvents) {
    const ParityResult r =
        expectParity(parentAndChild({SubEmitterEvent::birth, "", 0.5f, {2, 3}, 0.25f}));
    EXPECT_GT(childrenCompared(r), 20u);
}

// Two collision modules: a particle may touch both in one step; the CPU lists a chunk's
// contacts collision module by collision module, and so must the GPU.
TEST(GpuSubEmitters, CollisionEventsFromTwoCollisionModules) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::collision, "", 0.8f, {1, 2}, 0.3f});
    CollisionModule floor;
    floor.response = CollisionResponse::bounce;
    floor.bounce = 0.5f;
    floor.planes.push_back({{0, -0.2f, 0}, {0, 1, 0}});
    CollisionModule wall = floor;
    wall.planes[0] = {{0.2f, 0, 0}, {-1, 0, 0}};
    fx.emitters[0].update.push_back(module(floor));
    fx.emitters[0].update.push_back(module(wall));
    const ParityResult r = expectParity(fx);
    EXPECT_GT(childrenCompared(r), 20u);
}

// Kill collisions: a particle makes a collision event and a death event in the same step.
TEST(GpuSubEmitters, CollisionAndDeathEventsOfKilledParticles) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::collision, "", 1, {1, 2}, 0.3f});
    fx.emitters[0].sub_emitters.push_back({SubEmitterEvent::death, "child", 0.5f, {1, 1}, 0});
    CollisionModule kill;
    kill.response = CollisionResponse::kill;
    kill.planes.push_back({{0, -0.1f, 0}, {0, 1, 0}});
    fx.emitters[0].update.push_back(module(kill));
    expectParity(fx);
}

// A child pool far too small: drop_new drops the same children on both backends.
TEST(GpuSubEmitters, FullChildPoolDropsTheSameBirths) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 1, {3, 6}, 0});
    fx.emitters[1].capacity = 40;
    const ParityResult r = expectParity(fx);
    EXPECT_EQ(childrenCompared(r), 40u);
}

// replace_oldest children: a later event of the same step may replace births of an earlier one.
// Capacity 24 takes the parallel assignment (at most 6 children an event); capacity 4 the serial
// walker (an event's children can outnumber the pool, so planSlots' cap on replacements bites and
// the rest are dropped).
TEST(GpuSubEmitters, ReplaceOldestChildrenReplaceTheSameParticles) {
    for (const uint32_t capacity : {24u, 4u}) {
        SCOPED_TRACE(capacity);
        EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 1, {3, 6}, 0});
        fx.emitters[1].capacity = capacity;
        fx.emitters[1].overflow = OverflowPolicy::replace_oldest;
        EXPECT_EQ(assignsInParallel(*compileOrFail(fx)), capacity == 24u);
        const ParityResult r = expectParity(fx);
        EXPECT_GT(r.replaced, 0u);
        fx.emitters[1].render.stable_order = true;
        const ParityResult ordered = expectParity(fx);
        EXPECT_EQ(ordered.in_order, capacity);
    }
}

// A child larger than any one event but with a rate of its own: planned births and event
// births share its ordinals (event births take them after the planned ones).
TEST(GpuSubEmitters, ChildWithItsOwnRateSharesOrdinals) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 0.7f, {1, 3}, 0.2f});
    fx.emitters[1].spawn.rate_per_s = 50;
    expectParity(fx);
}

// Chains: the child's own children on birth and on death (a grandchild), the child keeping
// birth order for its death events.
TEST(GpuSubEmitters, ChainsOfSubEmitters) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 0.8f, {1, 3}, 0.5f});
    EmitterDesc grandchild = fx.emitters[1];
    grandchild.name = "grandchild";
    grandchild.capacity = 512;
    grandchild.init.lifetime_s = {0.1f, 0.3f};
    fx.emitters.push_back(grandchild);
    fx.emitters[1].sub_emitters.push_back({SubEmitterEvent::birth, "grandchild", 0.5f, {1, 2}, 1});
    fx.emitters[1].sub_emitters.push_back({SubEmitterEvent::death, "grandchild", 0.5f, {1, 1}, 0});
    const ParityResult r = expectParity(fx);
    ASSERT_EQ(r.per_emitter.size(), 3u);
    EXPECT_GT(r.per_emitter[2], 20u);
}

// A moving emitter: planned births interpolate the transform, event births use the child's
// transform at the end of the step; world and local space.
TEST(GpuSubEmitters, MovingEmitterWorldAndLocalSpace) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 0.8f, {1, 3}, 0.5f});
    fx.emitters[1].sub_emitters.clear();
    fx.emitters[0].sub_emitters.push_back({SubEmitterEvent::birth, "child", 0.3f, {1, 1}, 1});
    fx.emitters[1].transform.position = {0.5f, 0, 0};
    expectParity(fx, true);
    fx.space = SimulationSpace::local;
    expectParity(fx, true);
}

// More events in one step than kMaxEventsPerStep: the same events are dropped and counted.
TEST(GpuSubEmitters, EventsPastTheStepLimitAreDroppedAndCounted) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 0.01f, {1, 1}, 0});
    fx.capacity = 80000;
    fx.emitters[0].capacity = 70000;
    fx.emitters[0].spawn.rate_per_s = 0;
    fx.emitters[0].spawn.bursts[0].time_s = 0;
    fx.emitters[0].spawn.bursts[0].count = {70000, 70000};
    fx.emitters[0].init.lifetime_s = {0.1f, 0.1f};
    fx.emitters[0].sub_emitters.push_back({SubEmitterEvent::death, "child", 0.01f, {1, 1}, 0});
    const ParityResult r = runParity(compileOrFail(fx), 12);
    // 140000 death events in one step (a lifetime of exactly 0.1 s): the last 74464 dropped.
    EXPECT_EQ(r.events_dropped, 2u * 70000u - cpu::kMaxEventsPerStep);
}

// Threshold links (docs/gpu-backend.md, "Sub-emitters"): the parent's threshold (its
// events.threshold_at) and a child born only by its crossings, so every child proves a crossing
// both backends saw in the same step, in the same order (its key and ordinal). The parent sits
// at y = -0.2 and sprays outwards, so its particles rise through y = 0 and fall back.
EffectDesc thresholdParentAndChild(ThresholdDesc threshold, SubEmitterDesc link) {
    link.event = SubEmitterEvent::threshold;
    EffectDesc fx = parentAndChild(link);
    EmitterDesc& parent = fx.emitters[0];
    parent.capacity = 512;
    parent.spawn.rate_per_s = 400;
    parent.transform.position = {0, -0.2f, 0};
    parent.events.threshold_at = threshold;
    return fx;
}

uint64_t childBirths(const ParityResult& r) {
    return r.births.size() > 1 ? r.births[1] : 0;
}

// Each direction of a threshold on one quantity: the children of every direction must match.
void expectThresholdParity(ThresholdQuantity quantity, float value) {
    for (const ThresholdDirection direction :
         {ThresholdDirection::rising, ThresholdDirection::falling, ThresholdDirection::either}) {
        SCOPED_TRACE("direction " + std::to_string(static_cast<int>(direction)));
        const ParityResult r = expectParity(thresholdParentAndChild(
            {quantity, value, direction}, {SubEmitterEvent::threshold, "", 0.8f, {1, 3}, 0.5f}));
        EXPECT_GT(childBirths(r), 40u);
        EXPECT_GT(childrenCompared(r), 5u);
    }
}

// Gravity speeds falling particles up past 2.5 m/s and slows rising ones below it.
TEST(GpuSubEmitters, SpeedThresholdEventsInBothDirections) {
    expectThresholdParity(ThresholdQuantity::speed, 2.5f);
}

// Particles rise through y = 0 and fall back through it.
TEST(GpuSubEmitters, HeightThresholdEventsInBothDirections) {
    expectThresholdParity(ThresholdQuantity::height, 0);
}

// Age only grows: rising and either cross at half the lifetime, falling never (no children).
TEST(GpuSubEmitters, AgeFractionThresholdEvents) {
    for (const ThresholdDirection direction :
         {ThresholdDirection::rising, ThresholdDirection::falling, ThresholdDirection::either}) {
        SCOPED_TRACE("direction " + std::to_string(static_cast<int>(direction)));
        const ParityResult r = expectParity(
            thresholdParentAndChild({ThresholdQuantity::age_fraction, 0.5f, direction},
                                    {SubEmitterEvent::threshold, "", 0.8f, {1, 3}, 0.5f}));
        if (direction == ThresholdDirection::falling) {
            EXPECT_EQ(childBirths(r), 0u);
        } else {
            EXPECT_GT(childBirths(r), 300u);
            EXPECT_GT(childrenCompared(r), 50u);
        }
    }
}

// Threshold, collision and death links on one parent (the threshold link first): a chunk queues
// its collision events, then its deaths, then its crossings, whatever the links' order; threshold
// gameplay events reported beside them change nothing.
TEST(GpuSubEmitters, ThresholdCollisionAndDeathEventsOfOneParent) {
    EffectDesc fx =
        thresholdParentAndChild({ThresholdQuantity::height, 0, ThresholdDirection::falling},
                                {SubEmitterEvent::threshold, "", 0.7f, {1, 2}, 0.4f});
    fx.emitters[0].events.threshold = true;
    fx.emitters[0].sub_emitters.push_back({SubEmitterEvent::death, "child", 0.5f, {1, 1}, 0});
    fx.emitters[0].sub_emitters.push_back({SubEmitterEvent::collision, "child", 0.5f, {1, 2}, 0});
    CollisionModule floor;
    floor.response = CollisionResponse::bounce;
    floor.bounce = 0.5f;
    floor.planes.push_back({{0, -0.3f, 0}, {0, 1, 0}});
    fx.emitters[0].update.push_back(module(floor));
    const ParityResult r = expectParity(fx);
    EXPECT_GT(childBirths(r), 300u);
    EXPECT_GT(childrenCompared(r), 50u);
}

// A height threshold reads the world height: a moving emitter in world and local space (where
// world_from_simulation's row 1 is not (0, 1, 0, 0)).
TEST(GpuSubEmitters, HeightThresholdOfAMovingEmitterInWorldAndLocalSpace) {
    EffectDesc fx =
        thresholdParentAndChild({ThresholdQuantity::height, 0.2f, ThresholdDirection::either},
                                {SubEmitterEvent::threshold, "", 0.8f, {1, 2}, 0.5f});
    EXPECT_GT(childBirths(expectParity(fx, true)), 100u);
    fx.space = SimulationSpace::local;
    EXPECT_GT(childBirths(expectParity(fx, true)), 100u);
}

// Many events a step (the parallel gather: per-chunk counts, a scan, an ordered scatter).
// A parent of `count` born at once whose lifetimes end within a few steps: thousands of deaths
// in one step, over several chunks of kGpuEventChunk and out of birth order inside them.
EmitterDesc massParent(uint32_t count, FloatRange lifetime_s) {
    EmitterDesc parent = sprayEmitter({.name = "parent",
                                       .capacity = count,
                                       .rate_per_s = 0,
                                       .burst_time_s = 0,
                                       .burst_count = {count, count},
                                       .sphere_radius = 0.3f,
                                       .lifetime_s = lifetime_s,
                                       .speed = {1, 3},
                                       .size = {0.05f, 0.1f}});
    parent.update.push_back(module(GravityModule{}));
    return parent;
}

EmitterDesc massChild(const char* name, uint32_t capacity, FloatRange lifetime_s) {
    return sprayEmitter({.name = name,
                         .capacity = capacity,
                         .rate_per_s = 0,
                         .sphere_radius = 0.05f,
                         .lifetime_s = lifetime_s,
                         .speed = {0.5f, 1.5f},
                         .size = {0.02f, 0.04f}});
}

// Two death links into two drop_new children, the events of both interleaved in the queue: each
// child's ordinals and slots come from its own prefix sum; the small one fills mid-event.
TEST(GpuSubEmitters, ThousandsOfDeathsInOneStepIntoTwoChildren) {
    EmitterDesc parent = massParent(5000, {0.1f, 0.15f});
    parent.sub_emitters.push_back({SubEmitterEvent::death, "sparks", 0.7f, {1, 3}, 0.5f});
    parent.sub_emitters.push_back({SubEmitterEvent::death, "embers", 1, {2, 4}, 0});
    const EffectDesc fx = testEffect(
        {.name = "mass_deaths", .seed = 23, .duration_s = 2, .capacity = 32768},
        {parent, massChild("sparks", 20000, {0.2f, 0.4f}), massChild("embers", 500, {1, 1})});
    const auto effect = compileOrFail(fx);
    EXPECT_TRUE(assignsInParallel(*effect));
    const ParityResult r = expectParity(effect, 20);
    ASSERT_EQ(r.per_emitter.size(), 3u);
    EXPECT_GT(r.per_emitter[1], 3000u);
    EXPECT_EQ(r.per_emitter[2], 500u);
}

// Two parents of several chunks each feeding one child: the gather numbers the chunks emitter by
// emitter (the second parent's events after all of the first's), and the child's prefix sum
// runs over both.
TEST(GpuSubEmitters, ThousandsOfDeathsOfTwoParentsIntoOneChild) {
    EmitterDesc first = massParent(3000, {0.1f, 0.15f});
    first.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.6f, {1, 2}, 0.5f});
    EmitterDesc second = massParent(2500, {0.1f, 0.2f});
    second.name = "second";
    second.transform.position = {1, 0, 0};
    second.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.8f, {1, 3}, 0});
    const EffectDesc fx =
        testEffect({.name = "two_parents", .seed = 41, .duration_s = 2, .capacity = 32768},
                   {first, second, massChild("child", 16000, {0.2f, 0.4f})});
    const ParityResult r = expectParity(compileOrFail(fx), 20);
    ASSERT_EQ(r.per_emitter.size(), 3u);
    EXPECT_GT(r.per_emitter[2], 3000u);
}

// Collision events from two collision modules and death events of thousands of particles: a
// chunk's (link, module) segments and its death segment in the CPU's order.
TEST(GpuSubEmitters, ThousandsOfCollisionAndDeathEventsInOneStep) {
    EmitterDesc parent = massParent(3000, {0.1f, 0.3f});
    CollisionModule floor;
    floor.response = CollisionResponse::bounce;
    floor.bounce = 0.5f;
    floor.planes.push_back({{0, -0.1f, 0}, {0, 1, 0}});
    CollisionModule wall = floor;
    wall.planes[0] = {{0.1f, 0, 0}, {-1, 0, 0}};
    parent.update.push_back(module(floor));
    parent.update.push_back(module(wall));
    parent.sub_emitters.push_back({SubEmitterEvent::collision, "child", 0.8f, {1, 2}, 0.3f});
    parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.5f, {1, 1}, 0});
    const EffectDesc fx =
        testEffect({.name = "mass_contacts", .seed = 29, .duration_s = 2, .capacity = 32768},
                   {parent, massChild("child", 16000, {0.2f, 0.4f})});
    const ParityResult r = expectParity(compileOrFail(fx), 20);
    ASSERT_EQ(r.per_emitter.size(), 2u);
    EXPECT_GT(r.per_emitter[1], 1000u);
}

// Thousands of crossings and deaths in the same steps, over several chunks (a burst whose
// lifetimes reach 0.9 and end within a few steps), the threshold link listed before the death
// link; the parallel assignment and the serial walker.
TEST(GpuSubEmitters, ThousandsOfThresholdCrossingsInOneStep) {
    EmitterDesc parent = massParent(5000, {0.1f, 0.15f});
    parent.events.threshold_at = {ThresholdQuantity::age_fraction, 0.9f,
                                  ThresholdDirection::rising};
    parent.sub_emitters.push_back({SubEmitterEvent::threshold, "child", 0.6f, {1, 2}, 0.5f});
    parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.3f, {1, 1}, 0});
    const EffectDesc fx =
        testEffect({.name = "mass_thresholds", .seed = 47, .duration_s = 2, .capacity = 32768},
                   {parent, massChild("child", 16000, {0.2f, 0.4f})});
    const auto effect = compileOrFail(fx);
    EXPECT_TRUE(assignsInParallel(*effect));
    GpuConfig config = testGpuConfig();
    for (const bool serial : {false, true}) {
        SCOPED_TRACE(serial);
        config.force_serial_event_assign = serial;
        const ParityResult r = expectParity(effect, 20, false, config);
        ASSERT_EQ(r.per_emitter.size(), 2u);
        EXPECT_GT(r.per_emitter[1], 3000u);
    }
}

// 75 000 death events in one step (three links, 3072 events a chunk): kMaxEventsPerStep falls
// inside a chunk, whose first events are kept and the rest dropped, as on the CPU.
TEST(GpuSubEmitters, StepLimitInsideAChunkKeepsTheSameEvents) {
    EmitterDesc parent = massParent(25000, {0.1f, 0.1f});
    for (int l = 0; l < 3; ++l) {
        parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.02f, {1, 2}, 0});
    }
    const EffectDesc fx =
        testEffect({.name = "limit", .seed = 31, .duration_s = 2, .capacity = 32768},
                   {parent, massChild("child", 4096, {0.3f, 0.5f})});
    const ParityResult r = expectParity(compileOrFail(fx), 12);
    EXPECT_EQ(r.events_dropped, 3u * 25000u - cpu::kMaxEventsPerStep);
    ASSERT_EQ(r.per_emitter.size(), 2u);
    EXPECT_GT(r.per_emitter[1], 500u);
}

// 80 000 birth events in one step (a burst of 40 000 with two birth links) after the step's
// death events: the planned births' events are queued in parallel after the gathered ones, and
// the ones past kMaxEventsPerStep dropped and counted, as on the CPU.
TEST(GpuSubEmitters, BirthEventsOfABurstPastTheStepLimitAreDroppedAndCounted) {
    EmitterDesc parent = massParent(42000, {0.1f, 0.1f});
    parent.spawn.bursts[0].count = {40000, 40000};
    Burst late;
    late.time_s = 0.1f;
    late.count = {2000, 2000};
    parent.spawn.bursts.push_back(late);
    parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.05f, {1, 1}, 0});
    parent.sub_emitters.push_back({SubEmitterEvent::birth, "child", 0.01f, {1, 2}, 1});
    parent.sub_emitters.push_back({SubEmitterEvent::birth, "child", 0.01f, {1, 1}, 0});
    const EffectDesc fx =
        testEffect({.name = "birth_limit", .seed = 43, .duration_s = 2, .capacity = 48000},
                   {parent, massChild("child", 4096, {0.3f, 0.5f})});
    const auto effect = compileOrFail(fx);
    EXPECT_TRUE(assignsInParallel(*effect));
    const ParityResult r = expectParity(effect, 12);
    // Only the burst's step passes the limit (the deaths and the late burst: 44 000 events).
    EXPECT_EQ(r.events_dropped, 2u * 40000u - cpu::kMaxEventsPerStep);
    ASSERT_EQ(r.per_emitter.size(), 2u);
    EXPECT_GT(r.per_emitter[1], 500u);
}

// Thousands of deaths into a replace_oldest child: the parallel assignment, where later events
// replace earlier events' children, more than the child's capacity in one step (so entries are
// replaced twice and only the last child may write its slot); and the same through the serial
// walker.
TEST(GpuSubEmitters, ThousandsOfDeathsIntoAReplaceOldestChild) {
    EmitterDesc parent = massParent(4000, {0.1f, 0.15f});
    parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.9f, {1, 3}, 0.2f});
    EmitterDesc child = massChild("child", 1000, {0.3f, 0.5f});
    child.overflow = OverflowPolicy::replace_oldest;
    const EffectDesc fx = testEffect(
        {.name = "mass_replace", .seed = 37, .duration_s = 2, .capacity = 8192}, {parent, child});
    const auto effect = compileOrFail(fx);
    EXPECT_TRUE(assignsInParallel(*effect));
    GpuConfig config = testGpuConfig();
    for (const bool serial : {false, true}) {
        SCOPED_TRACE(serial);
        config.force_serial_event_assign = serial;
        const ParityResult r = expectParity(effect, 20, false, config);
        EXPECT_GT(r.replaced, 1000u);
    }
}

// The parallel assignment is chosen only where events cannot interact: a child's birth link
// would queue events while the queue is walked; a replace_oldest child whose events may ask for
// more children than its capacity needs planSlots' cap, which has no closed form in R.
TEST(GpuSubEmitters, ParallelAssignmentOnlyWhereEventsCannotInteract) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 1, {1, 2}, 0});
    EXPECT_TRUE(assignsInParallel(*compileOrFail(fx)));
    EffectDesc replacing = fx;
    replacing.emitters[1].overflow = OverflowPolicy::replace_oldest;
    replacing.emitters[1].capacity = 8;
    replacing.emitters[0].sub_emitters[0].count = {1, 8};
    EXPECT_TRUE(assignsInParallel(*compileOrFail(replacing)));
    replacing.emitters[0].sub_emitters[0].count = {1, 9};
    EXPECT_FALSE(assignsInParallel(*compileOrFail(replacing)));
    EffectDesc births = fx;
    births.emitters[0].sub_emitters[0].event = SubEmitterEvent::birth;
    EXPECT_TRUE(assignsInParallel(*compileOrFail(births)));
    EffectDesc chain = fx;
    chain.emitters.push_back(fx.emitters[1]);
    chain.emitters[2].name = "grandchild";
    chain.emitters[2].capacity = 256;
    chain.emitters[1].sub_emitters.push_back({SubEmitterEvent::birth, "grandchild", 1, {1, 1}, 0});
    EXPECT_FALSE(assignsInParallel(*compileOrFail(chain)));
}

// Catch-up frames: several steps in one submission, each with its own event queue, ordinals
// carried from step to step on the device.
TEST(GpuSubEmitters, CatchUpFramesOfSeveralStepsKeepTheCounts) {
    EffectDesc fx = parentAndChild({SubEmitterEvent::death, "", 0.7f, {1, 3}, 0.2f});
    fx.emitters[1].spawn.rate_per_s = 30;
    fx.emitters[0].sub_emitters.push_back({SubEmitterEvent::birth, "child", 0.2f, {1, 2}, 1});
    const auto effect = compileOrFail(fx);
    auto cpu_fx = cpu::createCpuEffect(effect, cpu::CpuConfig{});
    std::vector<Diagnostic> diagnostics;
    auto gpu_fx = createGpuEffect(effect, testGpuConfig(), diagnostics);
    ASSERT_NE(gpu_fx, nullptr) << joinedDiagnostics(diagnostics);
    const double frame_s = 3.0 * static_cast<double>(effect->effect.fixed_timestep_s);
    uint64_t children = 0;
    for (uint32_t frame = 0; frame < 20; ++frame) {
        EXPECT_EQ(cpu::advanceFrame(*cpu_fx, frame_s).steps, 3u);
        EXPECT_EQ(advanceFrame(*gpu_fx, frame_s).steps, 3u);
        ASSERT_TRUE(gpu_fx->errors.empty()) << joinedDiagnostics(gpu_fx->errors);
        for (uint32_t e = 0; e < 2; ++e) {
            const std::string where =
                "frame " + std::to_string(frame) + " emitter " + std::to_string(e);
            EXPECT_EQ(gpu_fx->stats[e].live, cpu_fx->pools[e].count) << where;
            EXPECT_EQ(gpu_fx->stats[e].births, cpu_fx->stats[e].births) << where;
            EXPECT_EQ(gpu_fx->stats[e].deaths, cpu_fx->stats[e].deaths) << where;
            EXPECT_EQ(gpu_fx->stats[e].overflow_dropped, cpu_fx->stats[e].overflow_dropped)
                << where;
        }
        children = cpu_fx->stats[1].births;
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(children, 100u);
    EXPECT_TRUE(validationMessages(*gpu_fx).empty()) << joined(validationMessages(*gpu_fx));
}

// The samples with sub-emitters. fountain runs as it is; fireworks' rockets draw ribbons, which
// the GPU backend does not run yet, so its variant draws them as billboards (same simulation).
std::shared_ptr<const CompiledEffect> sampleVariant(const std::string& name, bool no_ribbons) {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadEffectFile(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/" + name,
                               desc, diagnostics))
        << joinedDiagnostics(diagnostics);
    for (EmitterDesc& e : desc.emitters) {
        if (!no_ribbons || e.render.type != RenderType::ribbon) continue;
        e.render.type = RenderType::billboard;
        e.render.ribbon = RibbonDesc{};
    }
    return compileOrFail(desc);
}

TEST(GpuSubEmitters, FountainSampleMatchesTheCpu) {
    const ParityResult r = runParity(sampleVariant("fountain.json", false), 120);
    ASSERT_EQ(r.per_emitter.size(), 2u);
    EXPECT_GT(r.per_emitter[1], 0u) << "no splash alive at the end";
}

TEST(GpuSubEmitters, FireworksWithRibbonsAsBillboardsMatchesTheCpu) {
    const ParityResult r = runParity(sampleVariant("fireworks.json", true), 120);
    ASSERT_EQ(r.per_emitter.size(), 2u);
    EXPECT_GT(r.per_emitter[1], 100u) << "no stars alive at the end";
}

} // namespace
} // namespace spindrift::gpu::test
