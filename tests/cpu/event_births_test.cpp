// Sub-emitter event births on the CPU (src/cpu/spawn.cpp, planEventBirths / writeEventBirths):
// a step's children are planned first and only the survivors are written, so a fan-out into a
// replace_oldest child costs the child's capacity per step, not the children requested; and the
// state is bit-identical to writing every event's children at once (the reference path).
#include <gtest/gtest.h>

#include <algorithm>

#include "cpu/cpu_effect.h"
#include "cpu_test_effects.h"

namespace spindrift::cpu {
namespace {

using test::compileOrFail;
using test::singleEmitterEffect;

std::unique_ptr<CpuEffect> makeBirthsEffect(const EffectDesc& desc, bool reference = false,
                                            uint32_t threads = 1) {
    CpuConfig config;
    config.threads = threads;
    config.reference_event_births = reference;
    return createCpuEffect(compileOrFail(desc), config);
}

// Parents at a high rate with short lives; every death asks for `count` children of "child".
EffectDesc fanOut(uint32_t parent_capacity, uint32_t count, uint32_t child_capacity,
                  OverflowPolicy overflow) {
    EffectDesc desc = singleEmitterEffect(parent_capacity);
    EmitterDesc& parent = desc.emitters[0];
    parent.spawn.rate_per_s = 60.0f * static_cast<float>(parent_capacity);
    parent.init.lifetime_s = {0.01f, 0.03f};
    parent.init.speed = {1, 2};
    parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 1, {count, count}, 0.5f});
    EmitterDesc child = singleEmitterEffect(child_capacity).emitters[0];
    child.name = "child";
    child.overflow = overflow;
    child.init.lifetime_s = {0.2f, 0.6f};
    child.init.speed = {1, 3};
    desc.emitters.push_back(child);
    desc.capacity = parent_capacity + child_capacity;
    return desc;
}

// Adds a grandchild emitter fed by the child's births (birth events queued while the step's
// events are walked).
void addBirthGrandchild(EffectDesc& desc, uint32_t count_max, float probability) {
    desc.emitters[1].sub_emitters.push_back(
        {SubEmitterEvent::birth, "grandchild", probability, {1, count_max}, 1});
    EmitterDesc grandchild = singleEmitterEffect(128).emitters[0];
    grandchild.name = "grandchild";
    grandchild.overflow = OverflowPolicy::replace_oldest;
    grandchild.init.lifetime_s = {0.05f, 0.2f};
    desc.emitters.push_back(grandchild);
    desc.capacity += 128;
}

uint64_t requested(const EmitterStats& s) {
    return s.births + s.overflow_dropped;
}

// The statistics keep their meaning: every birth is live, dead or replaced.
void expectBalancedCounts(const CpuEffect& fx) {
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const EmitterStats& s = fx.stats[e];
        EXPECT_EQ(s.births, fx.pools[e].count + s.deaths + s.overflow_replaced) << "emitter " << e;
    }
}

TEST(CpuEventBirths, FanOutIntoAReplaceOldestChildWritesAtMostItsCapacityPerStep) {
    for (const bool stable_order : {false, true}) {
        EffectDesc desc = fanOut(2048, 64, 1024, OverflowPolicy::replace_oldest);
        desc.emitters[1].render.stable_order = stable_order;
        auto fx = makeBirthsEffect(desc);
        for (int step = 0; step < 30; ++step) {
            stepOnce(*fx);
            ASSERT_LE(fx->work.event_births_written, 1024u) << "step " << step;
            ASSERT_EQ(fx->work.event_births_evaluated, 0u) << "no birth links: nothing to queue";
        }
        // The fan-out was real: tens of children per capacity slot and step.
        EXPECT_GT(fx->stats[1].overflow_replaced, 30u * 1024u * 10u);
        EXPECT_EQ(fx->pools[1].count, 1024u);
        expectBalancedCounts(*fx);
    }
}

// The counter measures what it claims: the reference writes every child requested.
TEST(CpuEventBirths, TheReferenceWritesEveryChildItKeeps) {
    auto fx = makeBirthsEffect(fanOut(2048, 64, 1024, OverflowPolicy::replace_oldest), true);
    uint64_t written = 0;
    for (int step = 0; step < 10; ++step) {
        stepOnce(*fx);
        written += fx->work.event_births_written;
    }
    EXPECT_EQ(written, fx->stats[1].births);
    EXPECT_GT(written, 10u * 1024u * 10u);
}

// A child with birth links: its children's birth events are evaluated while the queue has room,
// and only counted past it.
TEST(CpuEventBirths, BirthEventsOfAFanOutStayWithinTheEventQueue) {
    EffectDesc desc = fanOut(2048, 256, 512, OverflowPolicy::replace_oldest);
    addBirthGrandchild(desc, 2, 0.1f);
    auto fx = makeBirthsEffect(desc);
    for (int step = 0; step < 20; ++step) {
        stepOnce(*fx);
        ASSERT_LE(fx->work.event_births_written, 512u + 128u) << "step " << step;
        ASSERT_LE(fx->work.event_births_evaluated, kMaxEventsPerStep) << "step " << step;
    }
    EXPECT_GT(fx->stats[1].events_dropped, 0u) << "the queue filled";
    EXPECT_GT(fx->stats[2].births, 0u);
    expectBalancedCounts(*fx);
}

// Bit-identical to the reference, step by step, over the cases where the closed form could go
// wrong: replacement cycles that wrap several times, children asked for beyond the capacity in
// one event, birth order kept (stable_order, and a child that is itself a parent of death
// events), ribbon trails restarted in replaced slots, birth events of children (and the queue
// filling up), collision events, a child that also spawns at a rate, drop_new.
TEST(CpuEventBirths, EqualWritingEveryEventsChildrenAtOnceBitForBit) {
    struct Case {
        const char* name;
        EffectDesc desc;
        int steps;
    };
    std::vector<Case> cases;
    for (const OverflowPolicy overflow :
         {OverflowPolicy::replace_oldest, OverflowPolicy::drop_new}) {
        const bool replaces = overflow == OverflowPolicy::replace_oldest;
        cases.push_back(
            {replaces ? "cycles" : "cycles, drop_new", fanOut(64, 40, 100, overflow), 60});
        cases.push_back({replaces ? "beyond capacity" : "beyond capacity, drop_new",
                         fanOut(64, 40, 16, overflow), 60});
        EffectDesc stable = fanOut(64, 7, 50, overflow);
        stable.emitters[1].render.stable_order = true;
        cases.push_back({replaces ? "stable order" : "stable order, drop_new", stable, 60});
        EffectDesc ribbon = fanOut(32, 9, 40, overflow);
        ribbon.emitters[1].render.type = RenderType::ribbon;
        ribbon.emitters[1].render.ribbon.max_points = 6;
        ribbon.emitters[1].render.ribbon.min_sample_distance = 0.01f;
        cases.push_back({replaces ? "ribbon" : "ribbon, drop_new", ribbon, 60});
        EffectDesc chain = fanOut(64, 12, 60, overflow);
        addBirthGrandchild(chain, 3, 0.4f);
        cases.push_back({replaces ? "birth links" : "birth links, drop_new", chain, 60});
        EffectDesc parent_child = fanOut(64, 12, 60, overflow);
        parent_child.emitters[1].init.lifetime_s = {0.01f, 0.05f}; // some die before replaced
        parent_child.emitters[1].sub_emitters.push_back(
            {SubEmitterEvent::death, "grandchild", 1, {1, 4}, 0});
        EmitterDesc grandchild = singleEmitterEffect(90).emitters[0];
        grandchild.name = "grandchild";
        grandchild.overflow = overflow;
        grandchild.init.lifetime_s = {0.05f, 0.2f};
        parent_child.emitters.push_back(grandchild);
        parent_child.capacity += 90;
        cases.push_back(
            {replaces ? "child with death links" : "death links, drop_new", parent_child, 60});
    }
    EffectDesc full_queue = fanOut(2048, 128, 300, OverflowPolicy::replace_oldest);
    addBirthGrandchild(full_queue, 1, 0.05f);
    cases.push_back({"full event queue", full_queue, 4});
    EffectDesc collisions = fanOut(64, 5, 40, OverflowPolicy::replace_oldest);
    CollisionModule ground;
    ground.planes.push_back({{0, 0, 0}, {0, 1, 0}});
    collisions.emitters[0].init.velocity = {{-1, -3, -1}, {1, -1, 1}};
    collisions.emitters[0].init.lifetime_s = {0.1f, 0.3f};
    collisions.emitters[0].update.push_back({true, ground});
    collisions.emitters[0].sub_emitters.push_back(
        {SubEmitterEvent::collision, "child", 1, {2, 30}, 0});
    cases.push_back({"collisions", collisions, 60});
    EffectDesc rate = fanOut(64, 20, 50, OverflowPolicy::replace_oldest);
    rate.emitters[1].spawn.rate_per_s = 600;
    cases.push_back({"child with a rate", rate, 60});

    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        auto planned = makeBirthsEffect(c.desc, false, 2);
        auto reference = makeBirthsEffect(c.desc, true);
        uint64_t written = 0;
        uint64_t written_by_reference = 0;
        for (int step = 0; step < c.steps; ++step) {
            stepOnce(*planned);
            stepOnce(*reference);
            ASSERT_EQ(stateHash(*planned), stateHash(*reference)) << "step " << step;
            written += planned->work.event_births_written;
            written_by_reference += reference->work.event_births_written;
        }
        EXPECT_LE(written, written_by_reference);
        for (uint32_t e = 1; e < c.desc.emitters.size(); ++e) {
            EXPECT_GT(requested(planned->stats[e]), 0u) << "emitter " << e << " got children";
        }
        expectBalancedCounts(*planned);
    }
}

} // namespace
} // namespace spindrift::cpu
