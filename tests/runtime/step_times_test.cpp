// World::setStepTiming and World::takeStepTimes (include/spindrift/runtime.h, StepTimes): the
// stages of a CPU instance's steps through the public runtime, each within its whole; the same
// particles with timing on as off; a take zeroes the sums; draw records are timed by drawList;
// off, nothing is reported; a stale handle is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

// Sprays that fall onto a ground plane and spawn a child on death: births, updates, collisions
// and deaths in every step once it runs.
constexpr const char* kFountain = R"({
  "version": 1,
  "name": "fountain",
  "seed": 11,
  "duration_s": 2,
  "emitters": [
    {"name": "spray", "capacity": 4096, "spawn": {"rate_per_s": 3000},
     "init": {"lifetime_s": [0.2, 0.6], "speed": [2, 4]},
     "update": [{"type": "gravity"},
                {"type": "collision", "planes": [{}]}],
     "sub_emitters": [{"event": "death", "emitter": "child", "probability": 0.5, "count": [1, 1]}]},
    {"name": "child", "capacity": 2048, "spawn": {"rate_per_s": 0},
     "init": {"lifetime_s": [0.1, 0.1], "speed": [0, 0]}}
  ]
})";

constexpr double kFrame = 1.0 / 60.0;

double stagesMs(const StepTimes& t) {
    return t.plan_ms + t.update_ms + t.collision_ms + t.deaths_ms + t.births_ms;
}

struct Fountain {
    EffectLibrary library;
    std::unique_ptr<World> world;
    InstanceHandle h;
    Fountain() {
        const EffectId id = library.addText("fountain", kFountain);
        world = std::make_unique<World>(library);
        InstanceDesc desc;
        desc.effect = id;
        EXPECT_EQ(world->create(desc, h), RuntimeError::none) << world->lastErrorMessage();
    }
};

TEST(StepTimes, StagesOfACpuInstanceAreTimedAndWithinTheStep) {
    Fountain f;
    ASSERT_EQ(f.world->setStepTiming(f.h, true), RuntimeError::none);
    uint64_t steps = 0;
    for (int i = 0; i < 30; ++i) steps += f.world->update(kFrame).steps;
    StepTimes t;
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_TRUE(t.timed);
    EXPECT_FALSE(t.gpu_untimed);
    EXPECT_EQ(t.steps, steps);
    EXPECT_GT(t.plan_ms, 0.0);
    EXPECT_GT(t.update_ms, 0.0);
    EXPECT_GT(t.collision_ms, 0.0);
    EXPECT_GT(t.deaths_ms, 0.0);
    EXPECT_GT(t.births_ms, 0.0);
    EXPECT_LE(stagesMs(t), t.step_ms);
    // update() writes the draw records in the instance's job after its steps: timed, outside
    // the steps.
    EXPECT_GT(t.draw_records_ms, 0.0);

    // The take zeroed the sums; a draw list of the same state writes no records again.
    StepTimes again;
    ASSERT_EQ(f.world->takeStepTimes(f.h, again), RuntimeError::none);
    EXPECT_TRUE(again.timed);
    EXPECT_EQ(again.steps, 0u);
    EXPECT_EQ(again.step_ms, 0.0);
    DrawView view;
    view.eye = {0, 1, 6};
    view.forward = {0, 0, -1};
    DrawList list;
    ASSERT_EQ(f.world->drawList(view, list), RuntimeError::none) << f.world->lastErrorMessage();
    ASSERT_EQ(f.world->takeStepTimes(f.h, again), RuntimeError::none);
    EXPECT_EQ(again.draw_records_ms, 0.0);
    // advanceTo writes none; the draw list after it does.
    ASSERT_EQ(f.world->advanceTo(f.h, 1.0), RuntimeError::none) << f.world->lastErrorMessage();
    ASSERT_EQ(f.world->takeStepTimes(f.h, again), RuntimeError::none);
    EXPECT_GT(again.steps, 0u);
    EXPECT_EQ(again.draw_records_ms, 0.0);
    ASSERT_EQ(f.world->drawList(view, list), RuntimeError::none) << f.world->lastErrorMessage();
    ASSERT_EQ(f.world->takeStepTimes(f.h, again), RuntimeError::none);
    EXPECT_GT(again.draw_records_ms, 0.0);
    EXPECT_EQ(again.steps, 0u);
}

TEST(StepTimes, TimingChangesNoParticle) {
    Fountain plain;
    Fountain timed;
    ASSERT_EQ(timed.world->setStepTiming(timed.h, true), RuntimeError::none);
    for (int i = 0; i < 40; ++i) {
        plain.world->update(kFrame);
        timed.world->update(kFrame);
    }
    std::vector<Particle> a, b;
    ASSERT_EQ(plain.world->readParticles(plain.h, a), RuntimeError::none);
    ASSERT_EQ(timed.world->readParticles(timed.h, b), RuntimeError::none);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GT(a.size(), 100u);
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].key, b[i].key) << i;
        EXPECT_EQ(a[i].position.x, b[i].position.x) << i;
        EXPECT_EQ(a[i].position.y, b[i].position.y) << i;
        EXPECT_EQ(a[i].position.z, b[i].position.z) << i;
        EXPECT_EQ(a[i].velocity_m_per_s.y, b[i].velocity_m_per_s.y) << i;
    }
}

TEST(StepTimes, OffReportsNothingAndSetSeedKeepsItOn) {
    Fountain f;
    f.world->update(kFrame);
    StepTimes t;
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_FALSE(t.timed);
    EXPECT_EQ(t.steps, 0u);
    EXPECT_EQ(t.step_ms, 0.0);

    ASSERT_EQ(f.world->setStepTiming(f.h, true), RuntimeError::none);
    ASSERT_EQ(f.world->setSeed(f.h, 77), RuntimeError::none); // a new instance behind the handle
    f.world->update(kFrame);
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_TRUE(t.timed);
    EXPECT_EQ(t.steps, 1u);

    ASSERT_EQ(f.world->setStepTiming(f.h, false), RuntimeError::none);
    f.world->update(kFrame);
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_FALSE(t.timed);

    ASSERT_EQ(f.world->destroy(f.h), RuntimeError::none);
    EXPECT_EQ(f.world->setStepTiming(f.h, true), RuntimeError::stale_handle);
    EXPECT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::stale_handle);
}

TEST(StepTimes, AHotReloadKeepsItOnAndStartsTheSumsAgain) {
    Fountain f;
    ASSERT_EQ(f.world->setStepTiming(f.h, true), RuntimeError::none);
    f.world->update(kFrame);
    std::string changed = kFountain;
    const std::string from = "\"rate_per_s\": 3000";
    changed.replace(changed.find(from), from.size(), "\"rate_per_s\": 2000");
    f.library.addText("fountain", changed);
    ASSERT_EQ(f.library.pollChanges().files_reloaded, 1u);
    const WorldUpdateReceipt receipt = f.world->update(kFrame);
    ASSERT_EQ(receipt.reloaded_kept + receipt.reloaded_restarted, 1u);
    StepTimes t;
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_TRUE(t.timed);
    EXPECT_EQ(t.steps, receipt.steps) << "only the steps since the switch";
}

} // namespace
} // namespace spindrift
