// The public runtime (include/spindrift/runtime.h): the world's control calls, its handles, the
// per-instance overrides, bad use, and the effect library's lazy compile and hot reload. Effects
// are written to a temporary folder by each test, so reload tests can rewrite them.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "gpu/pass_pipelines.h"
#include "runtime/simulation_device.h"
#include "runtime/world_access.h"
#include "spindrift/runtime.h"
#include "world_frame.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// A looping world-space effect: "spray" 120 particles/s that do not move (so where they are is
// where they were born), and "sparks", born only when the host emits.
constexpr const char* kLooping = R"({
  "version": 1,
  "name": "looping",
  "seed": 3,
  "duration_s": 1,
  "emitters": [
    {"name": "spray", "capacity": 512, "spawn": {"rate_per_s": 120},
     "init": {"lifetime_s": [0.5, 0.5], "speed": [0, 0]}},
    {"name": "sparks", "capacity": 256, "spawn": {"rate_per_s": 0},
     "init": {"lifetime_s": [0.4, 0.4], "speed": [1, 2]}}
  ]
})";

// A one-shot: a burst of 10 at time 0 that lives 0.2 s, then nothing.
constexpr const char* kOneShot = R"({
  "version": 1,
  "name": "one_shot",
  "looping": false,
  "duration_s": 0.1,
  "emitters": [
    {"name": "pop", "capacity": 16, "spawn": {"rate_per_s": 0, "bursts": [{"time_s": 0, "count": 10}]},
     "init": {"lifetime_s": [0.2, 0.2], "speed": [1, 1]}}
  ]
})";

constexpr const char* kLocal = R"({
  "version": 1,
  "name": "local",
  "space": "local",
  "emitters": [
    {"name": "orb", "capacity": 64, "spawn": {"rate_per_s": 60},
     "init": {"lifetime_s": [0.5, 0.5], "speed": [0, 0]}}
  ]
})";

using test::kFrame;

class WorldTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               (std::string("spindrift_world_") + info->name() + "_" +
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

InstanceDesc descOf(EffectId id, float x = 0, float y = 0, float z = 0) {
    InstanceDesc desc;
    desc.effect = id;
    desc.transform.position = {x, y, z};
    return desc;
}

InstanceHandle mustCreate(World& world, const InstanceDesc& desc) {
    InstanceHandle h;
    EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    return h;
}

std::vector<Particle> particles(World& world, InstanceHandle h) {
    std::vector<Particle> out;
    EXPECT_EQ(world.readParticles(h, out), RuntimeError::none) << world.lastErrorMessage();
    return out;
}

size_t countOf(const std::vector<Particle>& ps, uint32_t emitter) {
    size_t n = 0;
    for (const Particle& p : ps) n += p.emitter_index == emitter ? 1 : 0;
    return n;
}

// Issue 15, point 9: an instance created away from the origin sweeps from the origin during its
// first frame. Here it starts where it is created, and where a first setTransform puts it.
TEST_F(WorldTest, AnInstanceStartsAtItsTransformNotAtTheOrigin) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    World world(library);
    const InstanceHandle created = mustCreate(world, descOf(id, 100, 5, -40));
    const InstanceHandle moved = mustCreate(world, descOf(id));
    InstanceTransform there;
    there.position = {-70, 2, 30};
    ASSERT_EQ(world.setTransform(moved, there), RuntimeError::none);
    const WorldUpdateReceipt receipt = world.update(4 * kFrame); // 4 steps in one frame
    EXPECT_EQ(receipt.steps, 8u);
    const auto a = particles(world, created);
    const auto b = particles(world, moved);
    ASSERT_GT(countOf(a, 0), 4u);
    ASSERT_GT(countOf(b, 0), 4u);
    for (const Particle& p : a) {
        if (p.emitter_index != 0) continue;
        EXPECT_NEAR(p.position.x, 100, 1e-3);
        EXPECT_NEAR(p.position.y, 5, 1e-3);
        EXPECT_NEAR(p.position.z, -40, 1e-3);
    }
    for (const Particle& p : b) {
        if (p.emitter_index != 0) continue;
        EXPECT_NEAR(p.position.x, -70, 1e-3);
        EXPECT_NEAR(p.position.z, 30, 1e-3);
    }
    // Once it has run, a move sweeps (births spread along the way); a teleport does not.
    InstanceTransform far;
    far.position = {200, 5, -40};
    ASSERT_EQ(world.setTransform(created, far), RuntimeError::none);
    world.update(4 * kFrame);
    bool between = false;
    for (const Particle& p : particles(world, created))
        between |= p.emitter_index == 0 && p.position.x > 101 && p.position.x < 199;
    EXPECT_TRUE(between) << "a moving instance spreads its births along its path";
}

TEST_F(WorldTest, StaleAndForgedHandlesAreReportedNeverAliased) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    World world(library);
    const InstanceHandle first = mustCreate(world, descOf(id));
    ASSERT_EQ(world.destroy(first), RuntimeError::none);
    // The slot is reused by the next instance; the old handle must not reach it.
    const InstanceHandle second = mustCreate(world, descOf(id, 1, 0, 0));
    EXPECT_NE(first, second);
    EXPECT_EQ(first.value & 0xffffffffu, second.value & 0xffffffffu) << "same slot reused";
    EXPECT_FALSE(world.isAlive(first));
    EXPECT_TRUE(world.isAlive(second));
    InstanceInfo info;
    EXPECT_EQ(world.destroy(first), RuntimeError::stale_handle);
    EXPECT_NE(world.lastErrorMessage().find("stale"), std::string::npos);
    EXPECT_EQ(world.play(first), RuntimeError::stale_handle);
    EXPECT_EQ(world.pause(first), RuntimeError::stale_handle);
    EXPECT_EQ(world.resume(first), RuntimeError::stale_handle);
    EXPECT_EQ(world.stop(first), RuntimeError::stale_handle);
    EXPECT_EQ(world.clear(first), RuntimeError::stale_handle);
    EXPECT_EQ(world.restart(first), RuntimeError::stale_handle);
    EXPECT_EQ(world.emit(first, "sparks", 3), RuntimeError::stale_handle);
    EXPECT_EQ(world.setTransform(first, {}), RuntimeError::stale_handle);
    EXPECT_EQ(world.setTimeScale(first, 1), RuntimeError::stale_handle);
    EXPECT_EQ(world.seek(first, 0.5), RuntimeError::stale_handle);
    EXPECT_EQ(world.setTint(first, {}), RuntimeError::stale_handle);
    EXPECT_EQ(world.setSizeScale(first, 1), RuntimeError::stale_handle);
    EXPECT_EQ(world.setSpawnRateScale(first, 1), RuntimeError::stale_handle);
    EXPECT_EQ(world.setEmitterEnabled(first, "spray", false), RuntimeError::stale_handle);
    EXPECT_EQ(world.setSeed(first, 9), RuntimeError::stale_handle);
    EXPECT_EQ(world.info(first, info), RuntimeError::stale_handle);
    std::vector<Particle> out;
    EXPECT_EQ(world.readParticles(first, out), RuntimeError::stale_handle);
    EXPECT_FALSE(world.isPlaying(first));
    EXPECT_FALSE(world.isFinished(first));
    // The live instance was untouched by all of that.
    EXPECT_EQ(world.info(second, info), RuntimeError::none);
    EXPECT_EQ(info.state, InstanceState::playing);
    EXPECT_EQ(info.transform.position.x, 1);
    EXPECT_EQ(world.stats().stale_handle_uses, 18u); // the queries above count none

    EXPECT_EQ(world.play(InstanceHandle{}), RuntimeError::invalid_handle);
    EXPECT_EQ(world.play(InstanceHandle{0xdeadbeef00000007ull}), RuntimeError::invalid_handle);
    EXPECT_EQ(world.play(InstanceHandle{(uint64_t(9) << 32) | 0}), RuntimeError::invalid_handle);
}

TEST_F(WorldTest, AMillionHandleOperationsStayFastAndExact) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    World world(library);
    const InstanceDesc desc = descOf(id);
    const auto start = std::chrono::steady_clock::now();
    InstanceHandle previous;
    uint64_t stale = 0;
    for (uint32_t i = 0; i < 250'000; ++i) { // 4 operations each
        InstanceHandle h;
        ASSERT_EQ(world.create(desc, h), RuntimeError::none);
        stale += world.play(previous) == RuntimeError::stale_handle ? 1 : 0;
        ASSERT_TRUE(world.isAlive(h));
        ASSERT_EQ(world.destroy(h), RuntimeError::none);
        previous = h;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(stale, 249'999u);
    EXPECT_EQ(world.instanceCount(), 0u);
    EXPECT_EQ(world.stats().instances_created, 250'000u);
    EXPECT_GE(world.stats().instances_recycled, 249'999u) << "churn reuses instances";
    EXPECT_LT(seconds, 20.0) << "10^6 handle operations took " << seconds << " s";
    RecordProperty("million_handle_ops_s", std::to_string(seconds));
}

TEST_F(WorldTest, PlayPauseResumeStopClearRestart) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    World world(library);
    InstanceDesc desc = descOf(id);
    desc.flags = 0; // not playing on create
    const InstanceHandle h = mustCreate(world, desc);
    InstanceInfo info;
    world.update(kFrame);
    ASSERT_EQ(world.info(h, info), RuntimeError::none);
    EXPECT_EQ(info.state, InstanceState::idle);
    EXPECT_EQ(info.steps, 0u);
    EXPECT_FALSE(world.isPlaying(h));

    ASSERT_EQ(world.play(h), RuntimeError::none);
    for (int i = 0; i < 10; ++i) world.update(kFrame);
    world.info(h, info);
    EXPECT_EQ(info.steps, 10u);
    EXPECT_TRUE(world.isPlaying(h));
    const uint64_t live = info.live_particles;
    EXPECT_GT(live, 10u);

    ASSERT_EQ(world.pause(h), RuntimeError::none);
    for (int i = 0; i < 5; ++i) world.update(kFrame);
    world.info(h, info);
    EXPECT_EQ(info.state, InstanceState::paused);
    EXPECT_EQ(info.steps, 10u);
    EXPECT_EQ(info.live_particles, live);

    ASSERT_EQ(world.resume(h), RuntimeError::none);
    world.update(kFrame);
    world.info(h, info);
    EXPECT_EQ(info.steps, 11u);

    // stop: no more births; the particles live out their 0.5 s and the instance finishes.
    ASSERT_EQ(world.stop(h), RuntimeError::none);
    world.update(kFrame);
    world.info(h, info);
    EXPECT_EQ(info.state, InstanceState::stopping);
    EXPECT_TRUE(world.isPlaying(h));
    uint64_t before = info.live_particles;
    uint32_t finished_in = 0;
    for (int i = 0; i < 60 && !world.isFinished(h); ++i) {
        const WorldUpdateReceipt r = world.update(kFrame);
        world.info(h, info);
        EXPECT_LE(info.live_particles, before) << "no births while stopping";
        before = info.live_particles;
        finished_in += r.finished;
    }
    EXPECT_TRUE(world.isFinished(h));
    EXPECT_EQ(finished_in, 1u);
    EXPECT_EQ(info.live_particles, 0u);
    EXPECT_TRUE(world.isAlive(h)) << "no kDestroyOnFinish: the instance stays";

    // restart: time 0, playing.
    ASSERT_EQ(world.restart(h), RuntimeError::none);
    world.info(h, info);
    EXPECT_EQ(info.state, InstanceState::playing);
    EXPECT_EQ(info.steps, 0u);
    for (int i = 0; i < 10; ++i) world.update(kFrame);
    world.info(h, info);
    EXPECT_GT(info.live_particles, 10u);

    // clear: every particle gone now, finished.
    ASSERT_EQ(world.clear(h), RuntimeError::none);
    world.info(h, info);
    EXPECT_EQ(info.live_particles, 0u);
    EXPECT_TRUE(world.isFinished(h));
    EXPECT_EQ(world.emit(h, "sparks", 5), RuntimeError::not_running);
    // play on a finished instance replays it.
    ASSERT_EQ(world.play(h), RuntimeError::none);
    world.update(kFrame);
    world.info(h, info);
    EXPECT_EQ(info.steps, 1u);
    EXPECT_EQ(info.state, InstanceState::playing);
}

TEST_F(WorldTest, DestroyOnFinishRemovesAFinishedOneShot) {
    EffectLibrary library;
    const EffectId id = library.add(write("one_shot.json", kOneShot));
    World world(library);
    InstanceDesc desc = descOf(id);
    desc.flags = kPlayOnCreate | kDestroyOnFinish;
    const InstanceHandle gone = mustCreate(world, desc);
    desc.flags = kPlayOnCreate;
    const InstanceHandle kept = mustCreate(world, desc);
    world.update(kFrame);
    EXPECT_EQ(countOf(particles(world, gone), 0), 10u);
    uint32_t destroyed = 0;
    for (int i = 0; i < 60; ++i) destroyed += world.update(kFrame).destroyed_on_finish;
    EXPECT_EQ(destroyed, 1u);
    EXPECT_FALSE(world.isAlive(gone));
    InstanceInfo info;
    EXPECT_EQ(world.info(gone, info), RuntimeError::stale_handle);
    EXPECT_TRUE(world.isFinished(kept));
}

TEST_F(WorldTest, EmitAddsABurstToANamedEmitter) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    World world(library);
    const InstanceHandle h = mustCreate(world, descOf(id));
    world.update(kFrame);
    EXPECT_EQ(countOf(particles(world, h), 1), 0u);
    ASSERT_EQ(world.emit(h, "sparks", 25), RuntimeError::none);
    ASSERT_EQ(world.emit(h, "sparks", 5), RuntimeError::none);
    world.update(3 * kFrame);
    EXPECT_EQ(countOf(particles(world, h), 1), 30u) << "on one step, not once per step";

    EXPECT_EQ(world.emit(h, "sparkz", 1), RuntimeError::unknown_emitter);
    EXPECT_NE(world.lastErrorMessage().find("'sparkz'"), std::string::npos);
    EXPECT_NE(world.lastErrorMessage().find("'spray', 'sparks'"), std::string::npos)
        << world.lastErrorMessage();
    EXPECT_EQ(world.emit(h, "sparks", kMaxEmitCount + 1), RuntimeError::invalid_argument);
    // A paused instance keeps its bursts for its next step; the queue is bounded.
    world.pause(h);
    for (uint32_t i = 0; i < kMaxPendingBursts; ++i)
        ASSERT_EQ(world.emit(h, "sparks", 1), RuntimeError::none);
    EXPECT_EQ(world.emit(h, "sparks", 1), RuntimeError::capacity_exceeded);
    world.resume(h);
    world.update(kFrame);
    EXPECT_GE(countOf(particles(world, h), 1), kMaxPendingBursts);
    // Emitting works while stopping, even though the effect's own births are off.
    world.stop(h);
    ASSERT_EQ(world.emit(h, "sparks", 7), RuntimeError::none);
    const size_t before = countOf(particles(world, h), 1);
    world.update(kFrame);
    EXPECT_EQ(countOf(particles(world, h), 1), before + 7);
}

TEST_F(WorldTest, OverridesTintSizeSpawnRateSeedAndEmitterEnable) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    World world(library);
    const InstanceHandle plain = mustCreate(world, descOf(id));
    InstanceDesc desc = descOf(id);
    desc.tint = {0.5f, 0.25f, 2, 0.5f};
    desc.size_scale = 3;
    const InstanceHandle tinted = mustCreate(world, desc);
    desc = descOf(id);
    desc.spawn_rate_scale = 0;
    const InstanceHandle silent = mustCreate(world, desc);
    desc.spawn_rate_scale = 2;
    const InstanceHandle doubled = mustCreate(world, desc);
    desc = descOf(id);
    desc.override_seed = true;
    desc.seed = 77;
    const InstanceHandle reseeded = mustCreate(world, desc);
    const InstanceHandle same_seed = mustCreate(world, desc);
    for (int i = 0; i < 20; ++i) world.update(kFrame);

    const auto a = particles(world, plain);
    const auto b = particles(world, tinted);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_FALSE(a.empty());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_FLOAT_EQ(b[i].color.r, a[i].color.r * 0.5f);
        EXPECT_FLOAT_EQ(b[i].color.g, a[i].color.g * 0.25f);
        EXPECT_FLOAT_EQ(b[i].color.b, a[i].color.b * 2);
        EXPECT_FLOAT_EQ(b[i].color.a, a[i].color.a * 0.5f);
        EXPECT_FLOAT_EQ(b[i].size_m, a[i].size_m * 3);
    }
    EXPECT_TRUE(particles(world, silent).empty());
    EXPECT_EQ(particles(world, doubled).size(), 2 * a.size());
    const auto r1 = particles(world, reseeded);
    const auto r2 = particles(world, same_seed);
    ASSERT_EQ(r1.size(), a.size());
    ASSERT_EQ(r1.size(), r2.size());
    bool differs = false;
    for (size_t i = 0; i < r1.size(); ++i) {
        EXPECT_EQ(r1[i].key, r2[i].key);
        differs |= r1[i].key != a[i].key;
    }
    EXPECT_TRUE(differs) << "another seed, other particles";

    // Live changes: rate scale and emitter enable act from the next step.
    ASSERT_EQ(world.setSpawnRateScale(silent, 1), RuntimeError::none);
    ASSERT_EQ(world.setEmitterEnabled(plain, "spray", false), RuntimeError::none);
    ASSERT_EQ(world.setTint(plain, {0, 0, 0, 1}), RuntimeError::none);
    ASSERT_EQ(world.setSizeScale(plain, 0), RuntimeError::none);
    const size_t plain_before = a.size();
    for (int i = 0; i < 40; ++i) world.update(kFrame);
    EXPECT_FALSE(particles(world, silent).empty());
    const auto after = particles(world, plain);
    EXPECT_TRUE(after.empty()) << "disabled: the " << plain_before << " died, none born";
    ASSERT_EQ(world.setEmitterEnabled(plain, "spray", true), RuntimeError::none);
    world.update(kFrame);
    const auto again = particles(world, plain);
    ASSERT_FALSE(again.empty());
    EXPECT_EQ(again[0].color.r, 0);
    EXPECT_EQ(again[0].size_m, 0);
    EXPECT_EQ(world.setEmitterEnabled(plain, "nope", false), RuntimeError::unknown_emitter);

    // setSeed restarts with the new seed: the same particles as an instance created with it.
    ASSERT_EQ(world.setSeed(plain, 77), RuntimeError::none);
    ASSERT_EQ(world.setEmitterEnabled(plain, "spray", true), RuntimeError::none);
    ASSERT_EQ(world.restart(reseeded), RuntimeError::none);
    for (int i = 0; i < 5; ++i) world.update(kFrame);
    const auto s1 = particles(world, plain);
    const auto s2 = particles(world, reseeded);
    ASSERT_EQ(s1.size(), s2.size());
    for (size_t i = 0; i < s1.size(); ++i) EXPECT_EQ(s1[i].key, s2[i].key);
}

TEST_F(WorldTest, TimeScaleAndSeekToAnExactTime) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    World world(library);
    InstanceDesc desc = descOf(id, 3, 0, 0);
    const InstanceHandle normal = mustCreate(world, desc);
    desc.time_scale = 0.5f;
    const InstanceHandle slow = mustCreate(world, desc);
    for (int i = 0; i < 30; ++i) world.update(kFrame);
    InstanceInfo a;
    InstanceInfo b;
    world.info(normal, a);
    world.info(slow, b);
    EXPECT_EQ(a.steps, 30u);
    EXPECT_EQ(b.steps, 15u);
    EXPECT_EQ(world.setTimeScale(slow, -1), RuntimeError::invalid_argument);
    EXPECT_EQ(world.setTimeScale(slow, std::numeric_limits<float>::quiet_NaN()),
              RuntimeError::invalid_argument);

    // Seek the slow one to where the normal one is: the same particles, bit for bit.
    ASSERT_EQ(world.seek(slow, 0.5), RuntimeError::none) << world.lastErrorMessage();
    world.info(slow, b);
    EXPECT_EQ(b.steps, 30u);
    EXPECT_DOUBLE_EQ(b.time_s, a.time_s);
    const auto pa = particles(world, normal);
    const auto pb = particles(world, slow);
    ASSERT_EQ(pa.size(), pb.size());
    for (size_t i = 0; i < pa.size(); ++i) {
        EXPECT_EQ(pa[i].key, pb[i].key);
        EXPECT_EQ(pa[i].position.x, pb[i].position.x);
        EXPECT_EQ(pa[i].normalized_age, pb[i].normalized_age);
    }
    EXPECT_EQ(world.seek(slow, -1), RuntimeError::invalid_argument);
    EXPECT_EQ(world.seek(slow, std::numeric_limits<double>::infinity()),
              RuntimeError::invalid_argument);
    EXPECT_EQ(world.seek(slow, 1e12), RuntimeError::invalid_argument);
    EXPECT_NE(world.lastErrorMessage().find("max_seek_steps"), std::string::npos);
}

TEST_F(WorldTest, BadFrameTimesAndTransformsAreRefusedClearly) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    const EffectId local = library.add(write("local.json", kLocal));
    World world(library);
    const InstanceHandle h = mustCreate(world, descOf(id));
    for (double dt : {-1.0, std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::infinity(), -0.0 - 1e-300}) {
        const WorldUpdateReceipt r = world.update(dt);
        EXPECT_TRUE(r.frame_rejected) << dt;
        EXPECT_EQ(r.steps, 0u);
    }
    const WorldUpdateReceipt huge = world.update(1e300);
    EXPECT_FALSE(huge.frame_rejected);
    EXPECT_EQ(huge.steps, 8u) << "the catch-up cap";
    EXPECT_GT(huge.discarded_steps, 0u);
    EXPECT_GT(huge.discarded_s, 1e6);
    EXPECT_EQ(world.stats().rejected_frames, 4u);

    const float nan = std::numeric_limits<float>::quiet_NaN();
    InstanceTransform bad;
    bad.position = {0, nan, 0};
    EXPECT_EQ(world.setTransform(h, bad), RuntimeError::invalid_argument);
    EXPECT_NE(world.lastErrorMessage().find("position"), std::string::npos);
    bad = {};
    bad.rotation = {0, 0, 0, 0};
    EXPECT_EQ(world.setTransform(h, bad), RuntimeError::invalid_argument);
    bad = {};
    bad.scale = {1, 0, 1};
    EXPECT_EQ(world.setTransform(h, bad), RuntimeError::invalid_argument);
    InstanceDesc desc = descOf(id);
    desc.transform.rotation.w = std::numeric_limits<float>::infinity();
    InstanceHandle none;
    EXPECT_EQ(world.create(desc, none), RuntimeError::invalid_argument);
    EXPECT_EQ(none, InstanceHandle{});
    desc = descOf(id);
    desc.tint.g = nan;
    EXPECT_EQ(world.create(desc, none), RuntimeError::invalid_argument);
    EXPECT_EQ(world.create(descOf(EffectId{99}), none), RuntimeError::unknown_effect);
    // A local-space effect takes no scale; a world-space one does.
    desc = descOf(local);
    desc.transform.scale = {2, 2, 2};
    EXPECT_EQ(world.create(desc, none), RuntimeError::unsupported);
    desc.effect = id;
    EXPECT_EQ(world.create(desc, none), RuntimeError::none);
    InstanceInfo info;
    world.info(h, info);
    EXPECT_EQ(info.transform.position.y, 0) << "refused calls change nothing";
}

TEST_F(WorldTest, ScaleAndRotationPlaceBirths) {
    EffectLibrary library;
    // Births in a ball of radius 1 around the emitter.
    const EffectId id = library.add(write("sphere.json", R"({
  "version": 1, "name": "sphere",
  "emitters": [{"name": "shell", "capacity": 256, "spawn": {"rate_per_s": 600},
    "shape": {"type": "sphere", "radius": 1},
    "init": {"lifetime_s": [1, 1], "speed": [0, 0]}}]
})"));
    World world(library);
    InstanceDesc desc = descOf(id, 10, 0, 0);
    desc.transform.scale = {4, 1, 1};
    const float half = std::sqrt(0.5f);
    desc.transform.rotation = {0, 0, half, half}; // 90 degrees about +Z: x goes to y
    const InstanceHandle h = mustCreate(world, desc);
    world.update(6 * kFrame);
    const auto ps = particles(world, h);
    ASSERT_GT(ps.size(), 20u);
    float max_y = 0;
    float max_x = 0;
    for (const Particle& p : ps) {
        max_y = std::max(max_y, std::fabs(p.position.y));
        max_x = std::max(max_x, std::fabs(p.position.x - 10));
    }
    EXPECT_GT(max_y, 2.5f) << "the x-scaled axis turned onto y";
    EXPECT_LE(max_y, 4.001f);
    EXPECT_LE(max_x, 1.001f);
}

TEST_F(WorldTest, LibraryCompilesLazilyAndReloadsChangedFiles) {
    EffectLibrary library;
    const std::string path = write("looping.json", kLooping);
    const EffectId id = library.add(path);
    EXPECT_EQ(library.add(path), id);
    EXPECT_EQ(library.find(path), id);
    EXPECT_EQ(library.add(""), EffectId{});
    EffectInfo info;
    ASSERT_TRUE(library.info(id, info));
    EXPECT_FALSE(info.compiled) << "nothing is read before the first use";

    World world(library);
    const InstanceHandle a = mustCreate(world, descOf(id));
    const InstanceHandle b = mustCreate(world, descOf(id, 5, 0, 0));
    ASSERT_TRUE(library.info(id, info));
    EXPECT_TRUE(info.compiled);
    EXPECT_EQ(info.version, 1u) << "compiled once for both instances";
    EXPECT_EQ(info.emitters, (std::vector<std::string>{"spray", "sparks"}));
    for (int i = 0; i < 10; ++i) world.update(kFrame);
    EXPECT_EQ(library.pollChanges().files_changed, 0u);

    // A change that keeps every emitter's name and pool layout (a new rate): both instances
    // switch at their next update and keep their particles and clock.
    InstanceInfo ia;
    world.info(a, ia);
    const uint64_t live_before = ia.live_particles;
    EXPECT_EQ(live_before, 20u) << "120 per second for 10 steps, none dead yet";
    const auto keys_before = particles(world, a);
    std::string changed = kLooping;
    changed.replace(changed.find("\"rate_per_s\": 120"), 17, "\"rate_per_s\": 600");
    write("looping.json", changed);
    const ReloadReport report = library.pollChanges();
    EXPECT_EQ(report.files_changed, 1u);
    EXPECT_EQ(report.files_reloaded, 1u);
    ASSERT_EQ(report.reloaded.size(), 1u);
    EXPECT_EQ(report.reloaded[0], id);
    const WorldUpdateReceipt r = world.update(kFrame);
    EXPECT_EQ(r.reloaded_kept, 2u);
    EXPECT_EQ(r.reloaded_restarted, 0u);
    world.info(a, ia);
    EXPECT_EQ(ia.effect_version, 2u);
    EXPECT_EQ(ia.restarts_by_reload, 0u);
    EXPECT_EQ(ia.steps, 11u) << "the clock goes on";
    EXPECT_EQ(ia.live_particles, live_before + 10) << "kept, plus 600 per second for one step";
    const auto keys_after = particles(world, a);
    ASSERT_GE(keys_after.size(), keys_before.size());
    for (size_t i = 0; i < keys_before.size(); ++i)
        EXPECT_EQ(keys_after[i].key, keys_before[i].key);
    EXPECT_EQ(world.update(kFrame).reloaded_kept, 0u);

    // A broken change: the old version stays, the diagnostics name the file and place.
    std::string broken = changed;
    broken.replace(broken.find("\"rate_per_s\": 600"), 17, "\"rate_per_s\": -60000");
    write("looping.json", broken);
    const ReloadReport rejected = library.pollChanges();
    EXPECT_EQ(rejected.files_rejected, 1u);
    ASSERT_FALSE(rejected.diagnostics.empty());
    EXPECT_NE(rejected.diagnostics[0].file.find("looping.json"), std::string::npos);
    EXPECT_GT(rejected.diagnostics[0].line, 0u);
    EXPECT_EQ(world.update(kFrame).reloaded_restarted, 0u);
    world.info(b, ia);
    EXPECT_EQ(ia.effect_version, 2u);
    EXPECT_EQ(ia.state, InstanceState::playing);
    ASSERT_TRUE(library.info(id, info));
    EXPECT_TRUE(info.failed);
    EXPECT_EQ(info.version, 2u);
    EXPECT_EQ(library.pollChanges().files_changed, 0u) << "a rejected file is not retried";
    // New instances still get the last good version.
    const InstanceHandle c = mustCreate(world, descOf(id));
    EXPECT_TRUE(world.isAlive(c));

    // Forced reload of an unchanged good file: same layout, particles kept.
    write("looping.json", changed);
    EXPECT_EQ(library.reload(id).files_reloaded, 1u);
    EXPECT_EQ(world.update(kFrame).reloaded_kept, 3u);

    // A pool layout change (capacity) cannot keep them: the instances restart and say so.
    std::string resized = changed;
    resized.replace(resized.find("\"capacity\": 512"), 15, "\"capacity\": 300");
    write("looping.json", resized);
    EXPECT_EQ(library.pollChanges().files_reloaded, 1u);
    const WorldUpdateReceipt restarted = world.update(kFrame);
    EXPECT_EQ(restarted.reloaded_restarted, 3u);
    EXPECT_EQ(restarted.reloaded_kept, 0u);
    world.info(a, ia);
    EXPECT_EQ(ia.restarts_by_reload, 1u);
    EXPECT_EQ(ia.steps, 1u);
    EXPECT_EQ(ia.effect_version, 4u);
}

TEST_F(WorldTest, AnEffectThatDoesNotLoadIsAnErrorWithItsDiagnostics) {
    EffectLibrary library;
    const EffectId id = library.add(write("bad.json", R"({"version": 1, "emitters": 3})"));
    const EffectId missing = library.add((dir_ / "missing.json").string());
    World world(library);
    InstanceHandle h;
    EXPECT_EQ(world.create(descOf(id), h), RuntimeError::effect_failed);
    EXPECT_NE(world.lastErrorMessage().find("bad.json"), std::string::npos);
    EXPECT_EQ(world.create(descOf(missing), h), RuntimeError::effect_failed);
    EXPECT_EQ(library.compile(missing), RuntimeError::effect_failed);
    EXPECT_EQ(library.compile(EffectId{42}), RuntimeError::unknown_effect);
    EXPECT_EQ(world.instanceCount(), 0u);
    EXPECT_STREQ(describe(RuntimeError::stale_handle), "stale instance handle");
}

TEST_F(WorldTest, MaxInstancesIsABoundNotACrash) {
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    WorldConfig config;
    config.max_instances = 3;
    World world(library, config);
    InstanceHandle h;
    for (int i = 0; i < 3; ++i) ASSERT_EQ(world.create(descOf(id), h), RuntimeError::none);
    EXPECT_EQ(world.create(descOf(id), h), RuntimeError::capacity_exceeded);
    std::vector<InstanceHandle> all;
    world.instances(all);
    EXPECT_EQ(all.size(), 3u);
}

// The same world on the GPU backend (lavapipe here): the same counts as on the CPU.
TEST_F(WorldTest, GpuWorldRunsTheSameControlsAsTheCpuWorld) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    WorldConfig gpu_config;
    gpu_config.backend = SimulationBackend::gpu;
    World gpu_world(library, gpu_config);
    World cpu_world(library);
    const InstanceHandle g = mustCreate(gpu_world, descOf(id, 20, 0, 0));
    const InstanceHandle c = mustCreate(cpu_world, descOf(id, 20, 0, 0));
    InstanceInfo info;
    gpu_world.info(g, info);
    EXPECT_EQ(info.backend, SimulationBackend::gpu);
    for (World* w : {&gpu_world, &cpu_world}) {
        const InstanceHandle h = w == &gpu_world ? g : c;
        for (int i = 0; i < 10; ++i) w->update(kFrame);
        ASSERT_EQ(w->emit(h, "sparks", 12), RuntimeError::none);
        w->update(kFrame);
        w->setEmitterEnabled(h, "spray", false);
        for (int i = 0; i < 5; ++i) w->update(kFrame);
    }
    const auto pg = particles(gpu_world, g);
    const auto pc = particles(cpu_world, c);
    EXPECT_EQ(countOf(pg, 0), countOf(pc, 0));
    EXPECT_EQ(countOf(pg, 1), countOf(pc, 1));
    EXPECT_EQ(countOf(pg, 1), 12u);
    for (const Particle& p : pg) {
        if (p.emitter_index == 0) {
            EXPECT_NEAR(p.position.x, 20, 1e-3);
        }
    }
    ASSERT_EQ(gpu_world.seek(g, 0.25), RuntimeError::none);
    gpu_world.info(g, info);
    EXPECT_EQ(info.steps, 15u);
}

// A world's GPU instances run on one device, which the world keeps: the first opens it and
// compiles the passes; later ones, of any effect and after every instance is gone, compile none.
TEST_F(WorldTest, GpuInstancesShareTheWorldsDeviceAndItsPipelines) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    EffectLibrary library;
    const EffectId id = library.add(write("looping.json", kLooping));
    WorldConfig config;
    config.backend = SimulationBackend::gpu;
    World world(library, config);
    const InstanceHandle a = mustCreate(world, descOf(id, 0, 0, 0));
    const EffectInstance* first = effectInstanceOf(world, a);
    ASSERT_NE(first, nullptr);
    ASSERT_NE(first->gpu, nullptr);
    const std::shared_ptr<vk::Context> context = first->gpu->gpu->vulkan;
    gpu::PassPipelines& passes = *first->gpu->gpu->passes;
    const uint32_t compiled = gpu::compiledPipelines(passes);
    EXPECT_GT(compiled, 0u);
    const InstanceHandle b = mustCreate(world, descOf(id, 5, 0, 0));
    EXPECT_EQ(effectInstanceOf(world, b)->gpu->gpu->vulkan, context);
    for (int i = 0; i < 10; ++i) world.update(kFrame);
    EXPECT_EQ(gpu::compiledPipelines(passes), compiled);
    ASSERT_EQ(world.destroy(a), RuntimeError::none);
    ASSERT_EQ(world.destroy(b), RuntimeError::none);
    world.update(kFrame);
    const InstanceHandle c = mustCreate(world, descOf(id, 0, 0, 0));
    EXPECT_EQ(effectInstanceOf(world, c)->gpu->gpu->vulkan, context);
    EXPECT_EQ(gpu::compiledPipelines(passes), compiled);
    // The shared device runs an instance as its own did: the same counts as the CPU.
    World cpu_world(library);
    const InstanceHandle d = mustCreate(cpu_world, descOf(id, 0, 0, 0));
    for (int i = 0; i < 10; ++i) {
        world.update(kFrame);
        cpu_world.update(kFrame);
    }
    EXPECT_EQ(particles(world, c).size(), particles(cpu_world, d).size());
    EXPECT_GT(particles(world, c).size(), 0u);
}

// docs/runtime-api.md shows the embedding example as it is in examples/embed/minimal.cpp (which
// ctest builds and runs as embed_minimal).
TEST(RuntimeApiDoc, ShowsTheEmbeddingExampleAsItIs) {
    auto read = [](const char* relative) {
        std::ifstream in(std::string(SPINDRIFT_SOURCE_DIR) + "/" + relative, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    const std::string example = read("examples/embed/minimal.cpp");
    const std::string doc = read("docs/runtime-api.md");
    ASSERT_FALSE(example.empty());
    EXPECT_NE(doc.find("```cpp\n" + example + "```"), std::string::npos)
        << "copy examples/embed/minimal.cpp into docs/runtime-api.md";
}

} // namespace
} // namespace spindrift
