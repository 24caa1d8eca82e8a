// World::setStepTiming and World::takeStepTimes (include/spindrift/runtime.h, StepTimes): the
// stages of a CPU instance's steps through the public runtime, each within its whole; the same
// particles with timing on as off; a take zeroes the sums; draw records are timed by drawList;
// off, nothing is reported; a stale handle is refused. The same for a GPU instance's device
// stages (gpu/gpu_stage_timing.h), taken when its submissions finish.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/simulation_device.h"
#include "runtime/world_access.h"
#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"
#include "vulkan/context.h"
#include "world_frame.h"

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

using test::kFrame;

double stagesMs(const StepTimes& t) {
    return t.plan_ms + t.update_ms + t.collision_ms + t.deaths_ms + t.births_ms;
}

double gpuStagesMs(const StepTimes& t) {
    return t.gpu_update_ms + t.gpu_events_ms + t.gpu_births_ms + t.gpu_order_ms;
}

struct Fountain {
    EffectLibrary library;
    std::unique_ptr<World> world;
    InstanceHandle h;
    // On a device of the world's own, or on `shared` (as a renderer's world is).
    explicit Fountain(SimulationBackend backend = SimulationBackend::cpu,
                      std::shared_ptr<vk::Context> shared = nullptr) {
        const EffectId id = library.addText("fountain", kFountain);
        WorldConfig config;
        config.backend = backend;
        world = std::make_unique<World>(library, config);
        if (shared) {
            WorldDevice device;
            device.device = probeSimulationDevice("");
            device.shared_device = std::move(shared);
            setWorldDevice(*world, device);
        }
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

bool gpuAvailable() {
    return probeSimulationDevice("").kind != DeviceKind::none;
}

// A GPU instance's stages are device times between timestamps, taken when its submissions have
// finished (waitForGpu: none is pending then): every step with work stamped, each stage within
// the step, the plan timed on the host; a draw list's record pass is timed apart; a take zeroes
// them. On a shared device with the validation layer on, which must report nothing.
// Mutation-checked: with takeStageEntry's sums left out (stamps never read) it fails.
TEST(StepTimes, StagesOfAGpuInstanceAreTimedOnTheDevice) {
    if (!gpuAvailable()) GTEST_SKIP() << "no Vulkan device";
    std::vector<Diagnostic> diagnostics;
    std::shared_ptr<vk::Context> context = vk::createContext("", true, diagnostics);
    ASSERT_TRUE(context) << (diagnostics.empty() ? "" : diagnostics[0].message);
    Fountain f(SimulationBackend::gpu, context);
    InstanceInfo info;
    ASSERT_EQ(f.world->info(f.h, info), RuntimeError::none);
    ASSERT_EQ(info.backend, SimulationBackend::gpu);
    ASSERT_EQ(f.world->setStepTiming(f.h, true), RuntimeError::none);
    uint64_t steps = 0;
    for (int i = 0; i < 30; ++i) steps += f.world->update(kFrame).steps;
    ASSERT_TRUE(f.world->waitForGpu()) << f.world->lastErrorMessage();
    StepTimes t;
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_FALSE(t.timed) << "no emitter on the CPU";
    EXPECT_TRUE(t.gpu_timed);
    EXPECT_FALSE(t.gpu_untimed);
    EXPECT_EQ(t.gpu_pending_submissions, 0u);
    // The fountain spawns from its first step, so every step dispatches and is stamped.
    EXPECT_EQ(t.gpu_steps, steps);
    EXPECT_EQ(t.gpu_steps_untimed, 0u);
    EXPECT_GT(t.gpu_plan_ms, 0.0);
    EXPECT_GT(t.gpu_update_ms, 0.0);
    EXPECT_GT(t.gpu_events_ms, 0.0) << "the death sub-emitter gathers events";
    EXPECT_GT(t.gpu_births_ms, 0.0);
    EXPECT_GE(t.gpu_order_ms, 0.0);
    EXPECT_LE(gpuStagesMs(t), t.gpu_step_ms * (1 + 1e-9));
    EXPECT_EQ(t.step_ms, 0.0);

    // Taken: zero.
    StepTimes again;
    ASSERT_EQ(f.world->takeStepTimes(f.h, again), RuntimeError::none);
    EXPECT_EQ(again.gpu_steps, 0u);
    EXPECT_EQ(again.gpu_step_ms, 0.0);
    EXPECT_EQ(again.gpu_plan_ms, 0.0);

    // Off: untimed, nothing summed.
    ASSERT_EQ(f.world->setStepTiming(f.h, false), RuntimeError::none);
    f.world->update(kFrame);
    ASSERT_TRUE(f.world->waitForGpu());
    ASSERT_EQ(f.world->takeStepTimes(f.h, again), RuntimeError::none);
    EXPECT_FALSE(again.gpu_timed);
    EXPECT_TRUE(again.gpu_untimed);
    EXPECT_EQ(again.gpu_steps, 0u);
    EXPECT_EQ(again.gpu_plan_ms, 0.0);
    const auto& messages = context->instance->messages().messages();
    EXPECT_TRUE(messages.empty()) << "validation: " << messages.front();
}

// A GPU instance on a device of its own is drawn from records read back: the draw list's record
// pass is timed apart from the steps, once per state.
TEST(StepTimes, AGpuDrawListReadBackIsTimedApart) {
    if (!gpuAvailable()) GTEST_SKIP() << "no Vulkan device";
    Fountain f(SimulationBackend::gpu);
    ASSERT_EQ(f.world->setStepTiming(f.h, true), RuntimeError::none);
    for (int i = 0; i < 10; ++i) f.world->update(kFrame);
    ASSERT_TRUE(f.world->waitForGpu()) << f.world->lastErrorMessage();
    StepTimes t;
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_GT(t.gpu_steps, 0u);
    EXPECT_EQ(t.gpu_draw_outputs, 0u) << "nothing drawn yet";
    DrawView view;
    view.eye = {0, 1, 6};
    view.forward = {0, 0, -1};
    DrawList list;
    ASSERT_EQ(f.world->drawList(view, list), RuntimeError::none) << f.world->lastErrorMessage();
    ASSERT_EQ(f.world->drawList(view, list), RuntimeError::none) << "the same state: no pass";
    ASSERT_EQ(f.world->takeStepTimes(f.h, t), RuntimeError::none);
    EXPECT_EQ(t.gpu_draw_outputs, 1u);
    EXPECT_GT(t.gpu_draw_records_ms, 0.0);
    EXPECT_EQ(t.gpu_steps, 0u);
}

// The stamps read the clock between passes that are ordered anyway: a timed GPU instance has
// the same particles as an untimed one.
TEST(StepTimes, GpuTimingChangesNoParticle) {
    if (!gpuAvailable()) GTEST_SKIP() << "no Vulkan device";
    Fountain plain(SimulationBackend::gpu);
    Fountain timed(SimulationBackend::gpu);
    ASSERT_EQ(timed.world->setStepTiming(timed.h, true), RuntimeError::none);
    for (int i = 0; i < 40; ++i) {
        plain.world->update(kFrame);
        timed.world->update(kFrame);
    }
    ASSERT_TRUE(plain.world->waitForGpu());
    ASSERT_TRUE(timed.world->waitForGpu());
    std::vector<Particle> a, b;
    ASSERT_EQ(plain.world->readParticles(plain.h, a), RuntimeError::none);
    ASSERT_EQ(timed.world->readParticles(timed.h, b), RuntimeError::none);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GT(a.size(), 100u);
    auto byKey = [](std::vector<Particle>& v) {
        std::sort(v.begin(), v.end(), [](const Particle& x, const Particle& y) {
            return x.emitter_index != y.emitter_index ? x.emitter_index < y.emitter_index
                                                      : x.key < y.key;
        });
    };
    byKey(a);
    byKey(b);
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].key, b[i].key) << i;
        EXPECT_EQ(a[i].position.x, b[i].position.x) << i;
        EXPECT_EQ(a[i].position.y, b[i].position.y) << i;
        EXPECT_EQ(a[i].velocity_m_per_s.y, b[i].velocity_m_per_s.y) << i;
    }
}

} // namespace
} // namespace spindrift
