// Events to gameplay of GPU instances read back asynchronously (include/spindrift/runtime.h,
// "Events to gameplay"; docs/runtime-api.md, "Events"): a world's GPU instances are never waited
// for in update, their events come 1 or 2 updates late and say so, and nothing is lost — not by
// pausing, restarting, clearing, seeking, reseeding or destroying an instance with frames in
// flight. Each test runs the same calls on a CPU world and compares the concatenated streams once
// the GPU's late events have arrived. GpuReadback::synchronous keeps the old behaviour.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "runtime/simulation_device.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

const std::string kParityEffect =
    std::string(SPINDRIFT_SOURCE_DIR) + "/tests/data/runtime/events_parity.json";
constexpr double kReadbackFrame = 1.0 / 60.0;

// What a world delivered over its updates.
struct Stream {
    std::vector<GameplayEvent> events;
    std::vector<std::string> names; // World::emitterName of each, read in its update
    std::vector<size_t> per_update; // events delivered by each update
    uint64_t dropped = 0;
    uint32_t most_late = 0;
};

// max_late: while an instance steps, the ring of two frames in flight bounds the latency to 2
// updates (a third frame waits for the first); a paused one is not bounded by it.
WorldUpdateReceipt updateInto(World& world, double dt, Stream& stream, uint32_t max_late = 2) {
    const WorldUpdateReceipt r = world.update(dt);
    uint32_t late = 0;
    for (const GameplayEvent& e : world.events()) {
        stream.events.push_back(e);
        stream.names.emplace_back(world.emitterName(e));
        late = std::max(late, e.latency_frames);
    }
    EXPECT_EQ(late, r.events_latency_frames);
    EXPECT_LE(late, max_late);
    stream.per_update.push_back(world.events().size());
    stream.dropped += r.events_dropped;
    stream.most_late = std::max(stream.most_late, late);
    return r;
}

// The CPU's and the GPU's streams: the same events in the same order (kind, instance, emitter,
// step, key and collision op exactly; values within the GPU parity tolerance), the same names.
void expectSameStreams(const Stream& cpu, const Stream& gpu) {
    EXPECT_EQ(cpu.dropped, gpu.dropped);
    ASSERT_EQ(cpu.events.size(), gpu.events.size());
    for (size_t i = 0; i < cpu.events.size(); ++i) {
        const GameplayEvent& c = cpu.events[i];
        const GameplayEvent& g = gpu.events[i];
        SCOPED_TRACE("event " + std::to_string(i));
        ASSERT_EQ(c.kind, g.kind);
        ASSERT_EQ(c.instance, g.instance);
        ASSERT_EQ(c.emitter_index, g.emitter_index);
        ASSERT_EQ(c.step, g.step);
        ASSERT_EQ(c.particle_key, g.particle_key);
        ASSERT_EQ(c.collision_op, g.collision_op);
        EXPECT_EQ(c.latency_frames, 0u);
        EXPECT_EQ(cpu.names[i], gpu.names[i]);
        const float tolerance = 1e-3f;
        EXPECT_NEAR(c.position.x, g.position.x, tolerance);
        EXPECT_NEAR(c.position.y, g.position.y, tolerance);
        EXPECT_NEAR(c.position.z, g.position.z, tolerance);
        EXPECT_NEAR(c.velocity.y, g.velocity.y, tolerance);
    }
}

class GpuEventReadback : public ::testing::Test {
protected:
    void SetUp() override {
        const SimulationDevice device = probeSimulationDevice("");
        if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
        id = library.add(kParityEffect);
    }

    // The parity effect in local space: a destroyed instance keeps nothing (no retention), so
    // its frames in flight are all that is left of it.
    EffectId localEffect() {
        std::ifstream in(kParityEffect);
        std::stringstream text;
        text << in.rdbuf();
        std::string json = text.str();
        const std::string key = "\"duration_s\": 2,";
        json.replace(json.find(key), key.size(), key + " \"space\": \"local\",");
        dir = std::filesystem::temp_directory_path() /
              ("spindrift_gpu_events_" +
               std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir);
        const std::filesystem::path file = dir / "local.json";
        std::ofstream(file) << json;
        return library.add(file.string());
    }

    void TearDown() override {
        if (!dir.empty()) std::filesystem::remove_all(dir);
    }

    std::unique_ptr<World> gpuWorld(GpuReadback readback = GpuReadback::asynchronous) {
        WorldConfig config;
        config.backend = SimulationBackend::gpu;
        config.gpu_readback = readback;
        return std::make_unique<World>(library, config);
    }

    InstanceHandle create(World& world) {
        InstanceDesc desc;
        desc.effect = effect.value != 0 ? effect : id;
        InstanceHandle h;
        EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
        return h;
    }

    // Runs `script` on a CPU and a GPU world (script(world, handle, update) calls update for
    // every frame it wants), then lets the GPU's late events arrive (a sync point and an update
    // of 0 s on both) and returns both streams.
    using Script = std::function<void(World&, InstanceHandle, const std::function<void(double)>&)>;
    void runBoth(const Script& script, Stream& cpu, Stream& gpu) {
        World cpu_world(library);
        std::unique_ptr<World> gpu_world = gpuWorld();
        const InstanceHandle hc = create(cpu_world);
        const InstanceHandle hg = create(*gpu_world);
        InstanceInfo info;
        ASSERT_EQ(gpu_world->info(hg, info), RuntimeError::none);
        ASSERT_EQ(info.backend, SimulationBackend::gpu);
        script(cpu_world, hc, [&](double dt) { updateInto(cpu_world, dt, cpu); });
        script(*gpu_world, hg, [&](double dt) { updateInto(*gpu_world, dt, gpu, max_late); });
        ASSERT_TRUE(gpu_world->waitForGpu()) << gpu_world->lastErrorMessage();
        updateInto(cpu_world, 0.0, cpu);
        updateInto(*gpu_world, 0.0, gpu, max_late);
    }

    EffectLibrary library;
    EffectId id;
    EffectId effect;       // what create makes when set; else id
    uint32_t max_late = 2; // runBoth's bound on the GPU's latency (updateInto)
    std::filesystem::path dir;
};

// The default: update does not wait, so some events come late (lavapipe runs the frames on its
// own threads while the host goes on), and a sync point brings the rest.
TEST_F(GpuEventReadback, EventsComeLateSayHowLateAndMatchTheCpu) {
    Stream cpu, gpu;
    runBoth(
        [](World&, InstanceHandle, const std::function<void(double)>& update) {
            for (int f = 0; f < 40; ++f) update(kReadbackFrame);
        },
        cpu, gpu);
    EXPECT_GT(gpu.most_late, 0u) << "the GPU world waited for its frames";
    EXPECT_EQ(cpu.most_late, 0u);
    EXPECT_GT(gpu.events.size(), 50u);
    expectSameStreams(cpu, gpu);
}

// GpuReadback::synchronous: each update waits, so it delivers its own steps' events, update for
// update as the CPU world does, none late.
TEST_F(GpuEventReadback, SynchronousReadbackDeliversEachUpdatesEventsInIt) {
    World cpu_world(library);
    std::unique_ptr<World> gpu_world = gpuWorld(GpuReadback::synchronous);
    create(cpu_world);
    create(*gpu_world);
    Stream cpu, gpu;
    for (int f = 0; f < 40; ++f) {
        updateInto(cpu_world, kReadbackFrame, cpu);
        updateInto(*gpu_world, kReadbackFrame, gpu);
        ASSERT_EQ(cpu.per_update.back(), gpu.per_update.back()) << "update " << f;
    }
    EXPECT_EQ(gpu.most_late, 0u);
    expectSameStreams(cpu, gpu);
}

// A paused instance runs no step, yet its frames in flight still arrive: every update polls them
// (no sync point here; the loop only gives lavapipe time, bounded).
TEST_F(GpuEventReadback, APausedInstanceStillDeliversItsFramesInFlight) {
    World cpu_world(library);
    std::unique_ptr<World> gpu_world = gpuWorld();
    const InstanceHandle hc = create(cpu_world);
    const InstanceHandle hg = create(*gpu_world);
    Stream cpu, gpu;
    for (int f = 0; f < 20; ++f) {
        updateInto(cpu_world, kReadbackFrame, cpu);
        updateInto(*gpu_world, kReadbackFrame, gpu);
    }
    ASSERT_EQ(cpu_world.pause(hc), RuntimeError::none);
    ASSERT_EQ(gpu_world->pause(hg), RuntimeError::none);
    ASSERT_LT(gpu.events.size(), cpu.events.size()) << "nothing was in flight when paused";
    for (int i = 0; i < 2000 && gpu.events.size() < cpu.events.size(); ++i) {
        const WorldUpdateReceipt r = updateInto(*gpu_world, kReadbackFrame, gpu, UINT32_MAX);
        EXPECT_EQ(r.steps, 0u);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    expectSameStreams(cpu, gpu);
}

// Control calls that throw an instance's state away hold its events of the steps already run
// (its frames in flight included) for the next update; a destroyed instance drains its frames in
// flight under its stale handle; a seek's replayed steps deliver nothing, on both backends.
TEST_F(GpuEventReadback, ControlCallsAndDestroyLoseNoEventsInFlight) {
    Stream cpu, gpu;
    runBoth(
        [](World& world, InstanceHandle h, const std::function<void(double)>& update) {
            auto frames = [&](int n) {
                for (int f = 0; f < n; ++f) update(kReadbackFrame);
            };
            frames(25);
            ASSERT_EQ(world.restart(h), RuntimeError::none);
            frames(10);
            ASSERT_EQ(world.seek(h, 0.3), RuntimeError::none);
            frames(10);
            ASSERT_EQ(world.clear(h), RuntimeError::none);
            ASSERT_EQ(world.play(h), RuntimeError::none);
            frames(12);
            ASSERT_EQ(world.setSeed(h, 77), RuntimeError::none);
            frames(12);
            ASSERT_EQ(world.destroy(h), RuntimeError::none);
            frames(3);
        },
        cpu, gpu);
    expectSameStreams(cpu, gpu);
    // The update right after the restart (the 26th) opened with the held events: late steps of
    // the run before it (the new run's are 0 and 1), on the GPU only.
    ASSERT_GT(gpu.per_update.size(), 25u);
    size_t at = 0;
    for (size_t u = 0; u < 25; ++u) at += gpu.per_update[u];
    ASSERT_GT(gpu.per_update[25], 0u);
    const bool held_seen = gpu.events[at].step >= 20 && gpu.events[at].latency_frames > 0;
    EXPECT_TRUE(held_seen) << "the update after restart did not open with the held events";
}

// A destroyed instance that leaves nothing behind (local space) is not waited for: its frames in
// flight drain in later updates, their events under its stale handle, its emitter names intact.
TEST_F(GpuEventReadback, ADestroyedInstanceDrainsItsFramesInFlight) {
    effect = localEffect();
    max_late = UINT32_MAX; // drained, not stepped: the device's pace, not the ring, bounds it
    Stream cpu, gpu;
    runBoth(
        [](World& world, InstanceHandle h, const std::function<void(double)>& update) {
            for (int f = 0; f < 20; ++f) update(kReadbackFrame);
            ASSERT_EQ(world.destroy(h), RuntimeError::none);
            EXPECT_FALSE(world.isAlive(h));
            for (int f = 0; f < 3; ++f) update(kReadbackFrame);
        },
        cpu, gpu);
    expectSameStreams(cpu, gpu);
    size_t cpu_after = 0, gpu_after = 0;
    for (size_t u = 20; u < cpu.per_update.size(); ++u) cpu_after += cpu.per_update[u];
    for (size_t u = 20; u < gpu.per_update.size(); ++u) gpu_after += gpu.per_update[u];
    EXPECT_EQ(cpu_after, 0u); // a CPU instance's events were all delivered before destroy
    EXPECT_GT(gpu_after, 0u) << "nothing was in flight when destroyed";
}

} // namespace
} // namespace spindrift
