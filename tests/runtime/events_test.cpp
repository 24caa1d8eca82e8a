// Events to gameplay (include/spindrift/runtime.h, "Events to gameplay"; docs/runtime-api.md,
// "Events"): every kind reaches the host with its fields, in the canonical order, bounded and
// counted; thresholds cross by one kernel rule and fire sub-emitters; the stream does not depend
// on the thread count; the events block survives the effect format's whole pipeline (JSON, the
// compiler, .sfx); the GPU backend runs threshold sub-emitter links like the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "compiler/compile_effect.h"
#include "cook/sfx_reader.h"
#include "cook/sfx_writer.h"
#include "kernels/threshold.h"
#include "runtime/simulation_device.h"
#include "spindrift/effect_json.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

const std::string kEventsEffect =
    std::string(SPINDRIFT_SOURCE_DIR) + "/tests/data/runtime/events.json";
constexpr double kFrame = 1.0 / 60.0;

// An event copied out of World::events() with its emitter's name.
struct Seen {
    GameplayEvent event;
    std::string emitter;
};

std::vector<Seen> run(World& world, int frames, double frame_dt = kFrame) {
    std::vector<Seen> seen;
    for (int f = 0; f < frames; ++f) {
        const WorldUpdateReceipt receipt = world.update(frame_dt);
        EXPECT_EQ(receipt.events, world.events().size());
        for (const GameplayEvent& e : world.events())
            seen.push_back({e, std::string(world.emitterName(e))});
    }
    return seen;
}

bool sameEvent(const GameplayEvent& a, const GameplayEvent& b) {
    auto bits = [](const Vec3& v) {
        uint32_t w[3];
        std::memcpy(w, &v, sizeof(w));
        return std::vector<uint32_t>(w, w + 3);
    };
    return a.kind == b.kind && a.instance == b.instance && a.emitter_index == b.emitter_index &&
           a.particle_key == b.particle_key && a.step == b.step &&
           a.collision_op == b.collision_op && bits(a.position) == bits(b.position) &&
           bits(a.velocity) == bits(b.velocity) && bits(a.normal) == bits(b.normal);
}

InstanceHandle mustCreate(World& world, EffectId id) {
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h;
    EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    return h;
}

TEST(ThresholdKernel, CrossesOnlyInItsDirectionAndComparesSpeedSquared) {
    // Rising: from below to at-or-above; falling: the reverse; either: both; none: never.
    EXPECT_TRUE(sdThresholdCrossed(kThresholdHeight, kThresholdRising, 1.0f, 0.5f, 1.0f));
    EXPECT_FALSE(sdThresholdCrossed(kThresholdHeight, kThresholdRising, 1.0f, 1.0f, 2.0f));
    EXPECT_FALSE(sdThresholdCrossed(kThresholdHeight, kThresholdRising, 1.0f, 2.0f, 0.5f));
    EXPECT_TRUE(sdThresholdCrossed(kThresholdHeight, kThresholdFalling, 1.0f, 1.0f, 0.99f));
    EXPECT_FALSE(sdThresholdCrossed(kThresholdHeight, kThresholdFalling, 1.0f, 0.5f, 2.0f));
    EXPECT_TRUE(sdThresholdCrossed(kThresholdHeight, kThresholdEither, 1.0f, 0.5f, 2.0f));
    EXPECT_TRUE(sdThresholdCrossed(kThresholdHeight, kThresholdEither, 1.0f, 2.0f, 0.5f));
    EXPECT_FALSE(sdThresholdCrossed(kThresholdHeight, kThresholdEither, 1.0f, 2.0f, 3.0f));
    EXPECT_FALSE(sdThresholdCrossed(kThresholdNone, kThresholdEither, 0.0f, -1.0f, 1.0f));
    // Speed: the quantity is |v|^2, the level value^2 (3-4-5: |v| = 5 crosses 4.5 rising).
    const vec4 row(0, 1, 0, 0);
    const float slow = sdThresholdQuantity(kThresholdSpeed, vec3(0), vec3(3, 0, 0), 0, 1, row);
    const float fast = sdThresholdQuantity(kThresholdSpeed, vec3(0), vec3(3, 4, 0), 0, 1, row);
    EXPECT_EQ(slow, 9.0f);
    EXPECT_EQ(fast, 25.0f);
    EXPECT_TRUE(sdThresholdCrossed(kThresholdSpeed, kThresholdRising, 4.5f, slow, fast));
    EXPECT_FALSE(sdThresholdCrossed(kThresholdSpeed, kThresholdRising, 5.5f, slow, fast));
    // Height reads world y through the row; age fraction is clamped to [0, 1].
    EXPECT_EQ(
        sdThresholdQuantity(kThresholdHeight, vec3(1, 2, 3), vec3(0), 0, 1, vec4(0, 1, 0, 10)),
        12.0f);
    EXPECT_EQ(sdThresholdQuantity(kThresholdAgeFraction, vec3(0), vec3(0), 3, 2, row), 1.0f);
    EXPECT_EQ(sdThresholdQuantity(kThresholdAgeFraction, vec3(0), vec3(0), 0.5f, 2, row), 0.25f);
}

// Every kind, with its fields: births and deaths of one particle share its key, contacts carry
// the plane's normal, crossings happen where the threshold says, and the threshold's sub-emitter
// link gives "smoke" its only particles.
TEST(Events, EveryKindReachesTheHostWithItsFields) {
    EffectLibrary library;
    const EffectId id = library.add(kEventsEffect);
    World world(library);
    const InstanceHandle h = mustCreate(world, id);
    uint64_t dropped = 0;
    std::vector<Seen> seen;
    for (int f = 0; f < 150; ++f) {
        const WorldUpdateReceipt receipt = world.update(kFrame);
        dropped += receipt.events_dropped;
        for (const GameplayEvent& e : world.events())
            seen.push_back({e, std::string(world.emitterName(e))});
    }
    EXPECT_EQ(dropped, 0u); // at most 12 + 1 births a step: under max_per_step 64
    std::map<std::pair<std::string, EventKind>, int> count;
    auto n = [&](const char* emitter, EventKind kind) { return count[{emitter, kind}]; };
    std::set<uint32_t> born;
    for (const Seen& s : seen) {
        const GameplayEvent& e = s.event;
        EXPECT_EQ(e.instance, h);
        ++count[{s.emitter, e.kind}];
        if (s.emitter == "sparks") {
            EXPECT_EQ(e.emitter_index, 0u);
            if (e.kind == EventKind::birth) {
                EXPECT_TRUE(born.insert(e.particle_key).second) << "a key is born twice";
                EXPECT_NEAR(e.position.y, 1.0f, 0.2f); // the emitter sits at y = 1
            } else {
                EXPECT_TRUE(born.count(e.particle_key)) << "an event of a particle never born";
            }
            if (e.kind == EventKind::collision) {
                EXPECT_EQ(e.normal.x, 0.0f);
                EXPECT_EQ(e.normal.y, 1.0f);
                EXPECT_EQ(e.normal.z, 0.0f);
                EXPECT_EQ(e.collision_op, 0u);
                EXPECT_GE(e.position.y, -1e-4f);
            } else {
                EXPECT_EQ(e.normal.y, 0.0f);
            }
            if (e.kind == EventKind::threshold) {
                // Falling through y = 0.5: below it now (a bounce may lift it back later).
                EXPECT_LT(e.position.y, 0.5f);
            }
        } else {
            EXPECT_EQ(s.emitter, "smoke");
            EXPECT_EQ(e.emitter_index, 1u);
            EXPECT_TRUE(e.kind == EventKind::death || e.kind == EventKind::threshold);
        }
    }
    for (EventKind k :
         {EventKind::birth, EventKind::death, EventKind::collision, EventKind::threshold}) {
        EXPECT_GT(n("sparks", k), 0) << "sparks kind " << int(k);
    }
    // Smoke is born only by the threshold link, so its events prove the trigger.
    EXPECT_GT(n("smoke", EventKind::threshold), 0);
    EXPECT_GT(n("smoke", EventKind::death), 0);
    // A sub-emitter child is born two per crossing: no more smoke half-lives than that.
    EXPECT_LE(n("smoke", EventKind::threshold), 2 * n("sparks", EventKind::threshold));
}

// The order is canonical: steps ascend, and within a step (emitter, kind, key, op) ascend.
TEST(Events, TheStreamIsInCanonicalOrder) {
    EffectLibrary library;
    const EffectId id = library.add(kEventsEffect);
    World world(library);
    mustCreate(world, id);
    const std::vector<Seen> seen = run(world, 120, 3 * kFrame); // 3 steps an update
    ASSERT_GT(seen.size(), 100u);
    for (size_t i = 1; i < seen.size(); ++i) {
        const GameplayEvent& a = seen[i - 1].event;
        const GameplayEvent& b = seen[i].event;
        auto key = [](const GameplayEvent& e) {
            return std::make_tuple(e.step, e.emitter_index, static_cast<int>(e.kind),
                                   e.particle_key, e.collision_op);
        };
        EXPECT_LE(key(a), key(b)) << "event " << i;
    }
}

TEST(Events, TheThreadCountDoesNotChangeTheStream) {
    EffectLibrary library;
    const EffectId id = library.add(kEventsEffect);
    WorldConfig one;
    WorldConfig three;
    three.threads = 3;
    World a(library, one);
    World b(library, three);
    mustCreate(a, id);
    mustCreate(b, id);
    const std::vector<Seen> sa = run(a, 100);
    const std::vector<Seen> sb = run(b, 100);
    ASSERT_EQ(sa.size(), sb.size());
    for (size_t i = 0; i < sa.size(); ++i) EXPECT_TRUE(sameEvent(sa[i].event, sb[i].event)) << i;
}

class EventFiles : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("spindrift_events_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string write(const std::string& name, const std::string& text) {
        const fs::path path = dir_ / name;
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        return path.string();
    }
    fs::path dir_;
};

std::string burstEffect(uint32_t max_per_step) {
    return R"({"version": 1, "name": "burst", "looping": false, "duration_s": 0.5,
      "emitters": [{"name": "pop", "capacity": 64,
        "spawn": {"rate_per_s": 0, "bursts": [{"count": 50}]},
        "init": {"lifetime_s": [0.1, 0.3], "speed": [1, 2]},
        "events": {"birth": true, "death": true, "max_per_step": )" +
           std::to_string(max_per_step) + "}}]}";
}

// 50 births in one step, 5 kept: the 5 first in canonical order (the smallest keys), and the
// 45 others counted in the receipt.
TEST_F(EventFiles, TheBoundKeepsTheFirstInCanonicalOrderAndCountsTheRest) {
    EffectLibrary library;
    const EffectId bounded = library.add(write("bounded.json", burstEffect(5)));
    const EffectId open = library.add(write("open.json", burstEffect(256)));
    World world(library);
    mustCreate(world, bounded);
    WorldUpdateReceipt r = world.update(kFrame);
    EXPECT_EQ(r.events, 5u);
    EXPECT_EQ(r.events_dropped, 45u);
    std::vector<uint32_t> kept;
    for (const GameplayEvent& e : world.events()) kept.push_back(e.particle_key);

    World reference(library);
    mustCreate(reference, open);
    r = reference.update(kFrame);
    EXPECT_EQ(r.events, 50u);
    EXPECT_EQ(r.events_dropped, 0u);
    std::vector<uint32_t> all;
    for (const GameplayEvent& e : reference.events()) all.push_back(e.particle_key);
    std::sort(all.begin(), all.end());
    all.resize(5);
    EXPECT_EQ(kept, all);

    // Deaths of a later step are bounded per step in the same way; nothing is silent.
    uint64_t delivered = 5;
    uint64_t dropped = 45;
    for (int f = 0; f < 30; ++f) {
        r = world.update(kFrame);
        delivered += r.events;
        dropped += r.events_dropped;
    }
    EXPECT_EQ(delivered + dropped, 100u); // 50 births + 50 deaths
}

TEST_F(EventFiles, AnEffectWithoutAnEventsBlockDeliversNothingAndCompilesAsBefore) {
    const std::string campfire =
        std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/campfire.json";
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffectFile(campfire, desc, diagnostics));
    CompiledEffect compiled;
    ASSERT_TRUE(compileEffect(desc, compiled, diagnostics));
    EXPECT_TRUE(compiled.emitter_events.empty());
    EffectLibrary library;
    World world(library);
    mustCreate(world, library.add(campfire));
    for (int f = 0; f < 30; ++f) {
        const WorldUpdateReceipt r = world.update(kFrame);
        EXPECT_EQ(r.events, 0u);
        EXPECT_TRUE(world.events().empty());
    }
}

// A seek replays steps silently; the next update delivers the steps it runs.
TEST(Events, SeekDeliversNoEventsOfTheReplayedSteps) {
    EffectLibrary library;
    const EffectId id = library.add(kEventsEffect);
    World world(library);
    const InstanceHandle h = mustCreate(world, id);
    world.update(kFrame);
    ASSERT_EQ(world.seek(h, 0.5), RuntimeError::none);
    const WorldUpdateReceipt r = world.update(kFrame);
    EXPECT_EQ(r.steps, 1u);
    for (const GameplayEvent& e : world.events()) EXPECT_EQ(e.step, 30u);
    const std::vector<Seen> later = run(world, 10);
    ASSERT_FALSE(later.empty());
    for (const Seen& s : later) EXPECT_GT(s.event.step, 30u);
}

// An instance destroyed by destroy_on_finish in an update still delivers that update's events;
// its handle is stale by then, and the emitter's name still resolves.
TEST_F(EventFiles, AnInstanceDestroyedOnFinishDeliversItsLastEvents) {
    EffectLibrary library;
    // Ends when its last particle dies: the update of the last deaths destroys it.
    std::string text = burstEffect(256);
    text.replace(text.find("0.5"), 3, "0.01");
    const EffectId id = library.add(write("burst.json", text));
    World world(library);
    InstanceDesc desc;
    desc.effect = id;
    desc.flags = kPlayOnCreate | kDestroyOnFinish;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    bool destroyed_with_events = false;
    for (int f = 0; f < 60 && !destroyed_with_events; ++f) {
        const WorldUpdateReceipt r = world.update(kFrame);
        if (r.destroyed_on_finish == 0) continue;
        ASSERT_FALSE(world.events().empty());
        EXPECT_FALSE(world.isAlive(h));
        for (const GameplayEvent& e : world.events()) {
            EXPECT_EQ(e.kind, EventKind::death);
            EXPECT_EQ(world.emitterName(e), "pop");
        }
        destroyed_with_events = true;
    }
    EXPECT_TRUE(destroyed_with_events);
}

// The events block goes through JSON, the writer, the compiler and .sfx unchanged.
TEST(Events, TheEventsBlockSurvivesWritingCompilingAndCooking) {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffectFile(kEventsEffect, desc, diagnostics));
    const EventsDesc& sparks = desc.emitters[0].events;
    EXPECT_TRUE(sparks.birth && sparks.death && sparks.collision && sparks.threshold);
    EXPECT_EQ(sparks.max_per_step, 64u);
    EXPECT_EQ(sparks.threshold_at.quantity, ThresholdQuantity::height);
    EXPECT_EQ(sparks.threshold_at.direction, ThresholdDirection::falling);
    EXPECT_EQ(desc.emitters[0].sub_emitters[0].event, SubEmitterEvent::threshold);
    EffectDesc again;
    ASSERT_TRUE(loadEffect(saveEffect(desc), "written", again, diagnostics));
    EXPECT_EQ(again, desc);

    CompiledEffect compiled;
    ASSERT_TRUE(compileEffect(desc, compiled, diagnostics));
    ASSERT_EQ(compiled.emitter_events.size(), 2u);
    EXPECT_EQ(compiled.emitter_events[0].kinds, 15u);
    EXPECT_EQ(compiled.emitter_events[0].threshold_quantity, kThresholdHeight);
    EXPECT_EQ(compiled.emitter_events[1].kinds, (1u << kEventDeath) | (1u << kEventThreshold));
    EXPECT_EQ(compiled.sub_emitters[0].event, kEventThreshold);
    const std::vector<uint8_t> bytes = cookEffect(compiled);
    CompiledEffect loaded;
    ASSERT_TRUE(loadCookedEffect(bytes, "events.sfx", loaded, diagnostics));
    EXPECT_EQ(loaded, compiled);
}

// A threshold sub-emitter link runs on the GPU backend too (docs/gpu-backend.md,
// "Sub-emitters"): "smoke" is born only by the crossings of "sparks", so the same smoke events
// (kind, step, key) on a GPU world as on a CPU world prove the same children of the same
// crossings. The GPU world waits for its device and runs 3 more updates of 0 s to drain its late
// readback.
TEST(Events, GpuBackendRunsThresholdLinksLikeTheCpu) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    EffectLibrary library;
    const EffectId id = library.add(kEventsEffect);
    WorldConfig gpu;
    gpu.backend = SimulationBackend::gpu;
    World gpu_world(library, gpu);
    World cpu_world(library);
    const InstanceHandle hg = mustCreate(gpu_world, id);
    mustCreate(cpu_world, id);
    InstanceInfo info;
    ASSERT_EQ(gpu_world.info(hg, info), RuntimeError::none);
    ASSERT_EQ(info.backend, SimulationBackend::gpu);
    constexpr int kFrames = 60;
    std::vector<Seen> cpu_seen = run(cpu_world, kFrames);
    std::vector<Seen> gpu_seen = run(gpu_world, kFrames);
    gpu_world.waitForGpu(); // the readback is asynchronous: the next updates deliver the rest
    for (const Seen& s : run(gpu_world, 3, 0.0)) gpu_seen.push_back(s);
    auto smoke = [](const std::vector<Seen>& seen) {
        std::vector<std::tuple<EventKind, uint64_t, uint32_t>> out;
        for (const Seen& s : seen) {
            if (s.emitter == "smoke")
                out.emplace_back(s.event.kind, s.event.step, s.event.particle_key);
        }
        return out;
    };
    const auto cpu_smoke = smoke(cpu_seen);
    EXPECT_GT(cpu_smoke.size(), 10u);
    EXPECT_EQ(smoke(gpu_seen), cpu_smoke);
}

// The same steps give the same events in the same order on both backends: an effect with every
// kind (births, deaths, plane contacts, height and age-fraction crossings, a death sub-emitter,
// a per-step bound that drops) run for the same frames on a CPU and a GPU world, every event
// drained (the GPU's readback is asynchronous: its last ones come after a sync point), then
// compared one by one: kind, emitter, step, key and collision op exactly; values within the GPU
// parity tolerance. Each GPU event says how late it came; CPU events are never late.
TEST(Events, CpuAndGpuDeliverTheSameEventsInTheSameOrder) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    EffectLibrary library;
    const EffectId id =
        library.add(std::string(SPINDRIFT_SOURCE_DIR) + "/tests/data/runtime/events_parity.json");
    WorldConfig gpu;
    gpu.backend = SimulationBackend::gpu;
    World gpu_world(library, gpu);
    World cpu_world(library);
    const InstanceHandle hg = mustCreate(gpu_world, id);
    mustCreate(cpu_world, id);
    InstanceInfo info;
    ASSERT_EQ(gpu_world.info(hg, info), RuntimeError::none);
    ASSERT_EQ(info.backend, SimulationBackend::gpu);
    uint64_t cpu_dropped = 0;
    uint64_t gpu_dropped = 0;
    std::vector<GameplayEvent> cpu_events;
    std::vector<GameplayEvent> gpu_events;
    constexpr int kFrames = 90;
    uint32_t most_late = 0;
    for (int f = 0; f <= kFrames; ++f) {
        if (f < kFrames) {
            const WorldUpdateReceipt r = cpu_world.update(kFrame);
            EXPECT_EQ(r.events_latency_frames, 0u);
            cpu_dropped += r.events_dropped;
            cpu_events.insert(cpu_events.end(), cpu_world.events().begin(),
                              cpu_world.events().end());
        } else {
            // The GPU's last frames are still in flight: a sync point, then an update of 0 s (no
            // step) delivers them.
            ASSERT_TRUE(gpu_world.waitForGpu()) << gpu_world.lastErrorMessage();
        }
        const WorldUpdateReceipt r = gpu_world.update(f < kFrames ? kFrame : 0.0);
        // Asynchronous by default: 1 or 2 updates late at most, as the receipt says.
        EXPECT_LE(r.events_latency_frames, 2u);
        uint32_t late = 0;
        for (const GameplayEvent& e : gpu_world.events()) late = std::max(late, e.latency_frames);
        EXPECT_EQ(late, r.events_latency_frames);
        most_late = std::max(most_late, late);
        gpu_dropped += r.events_dropped;
        gpu_events.insert(gpu_events.end(), gpu_world.events().begin(), gpu_world.events().end());
    }
    EXPECT_GT(most_late, 0u) << "the GPU world waited for its frames";
    EXPECT_EQ(cpu_dropped, gpu_dropped);
    EXPECT_GT(cpu_dropped, 0u); // the burst of 24 births in one step, max_per_step 16
    std::map<EventKind, int> kinds;
    ASSERT_EQ(cpu_events.size(), gpu_events.size());
    for (size_t i = 0; i < cpu_events.size(); ++i) {
        const GameplayEvent& c = cpu_events[i];
        const GameplayEvent& g = gpu_events[i];
        SCOPED_TRACE("event " + std::to_string(i));
        ASSERT_EQ(c.kind, g.kind);
        ASSERT_EQ(c.emitter_index, g.emitter_index);
        ASSERT_EQ(c.step, g.step);
        ASSERT_EQ(c.particle_key, g.particle_key);
        ASSERT_EQ(c.collision_op, g.collision_op);
        const float tolerance = 1e-3f;
        EXPECT_NEAR(c.position.x, g.position.x, tolerance);
        EXPECT_NEAR(c.position.y, g.position.y, tolerance);
        EXPECT_NEAR(c.position.z, g.position.z, tolerance);
        EXPECT_NEAR(c.velocity.y, g.velocity.y, tolerance);
        EXPECT_NEAR(c.normal.y, g.normal.y, tolerance);
        ++kinds[c.kind];
    }
    for (EventKind k :
         {EventKind::birth, EventKind::death, EventKind::collision, EventKind::threshold}) {
        EXPECT_GT(kinds[k], 0) << "kind " << int(k);
    }
}

} // namespace
} // namespace spindrift
