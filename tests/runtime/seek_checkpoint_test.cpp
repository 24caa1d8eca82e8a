// Exact seek from checkpoints (include/spindrift/runtime.h, World::seek, World::advanceTo,
// World::lastSeekCost; src/runtime/seek_checkpoints.h): a world that keeps checkpoints gives the
// same state, bit for bit (cpu::stateHash: clock, statistics, every particle column, trails), as
// one that replays every seek from time 0; a seek after a checkpoint replays at most the
// interval; every input change the instance sees discards the checkpoints it makes wrong; the
// memory bound holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cpu/cpu_effect.h"
#include "runtime/effect_instance.h"
#include "runtime/world_access.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// Rates, a burst, sub-steps of motion, user parameters, a hidden emitter for emit().
constexpr const char* kParams = R"({
  "version": 1, "name": "seek_params", "seed": 5, "duration_s": 2,
  "parameters": [
    {"name": "rate", "type": "float", "default": 60, "range": [0, 500]},
    {"name": "speed", "type": "float", "default": 1, "range": [0, 10]}
  ],
  "emitters": [
    {"name": "spray", "capacity": 1024, "spawn": {"rate_per_s": {"param": "rate"}},
     "shape": {"type": "sphere", "radius": 0.2},
     "init": {"lifetime_s": 1, "speed": {"param": "speed"}},
     "update": [{"type": "gravity"}, {"type": "curl_noise", "strength": 1}]},
    {"name": "pop", "capacity": 256,
     "spawn": {"rate_per_s": 0, "bursts": [{"time_s": 0, "count": 20, "cycles": 0,
                                              "interval_s": 0.5}]},
     "init": {"lifetime_s": 0.4, "speed": [0, 2]}},
    {"name": "sparks", "capacity": 256, "spawn": {"rate_per_s": 0},
     "init": {"lifetime_s": 0.4, "speed": [1, 2]}}
  ]
})";

constexpr uint32_t kInterval = 30;

std::string examplePath(const std::string& name) {
    return std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/" + name;
}

WorldConfig withCheckpoints(uint32_t interval, uint64_t bytes = uint64_t{8} << 20) {
    WorldConfig c;
    c.seek_checkpoint_interval_steps = interval;
    c.max_seek_checkpoint_bytes = bytes;
    return c;
}

// The instance's whole CPU state and step count in one number.
uint64_t stateOf(World& world, InstanceHandle h) {
    EffectInstance* fx = effectInstanceOf(world, h);
    EXPECT_NE(fx, nullptr);
    if (fx == nullptr || !fx->cpu) return 0;
    return cpu::stateHash(*fx->cpu) ^ (fx->steps_run * 0x9e3779b97f4a7c15ull);
}

SeekCost costOf(World& world, InstanceHandle h) {
    SeekCost cost;
    EXPECT_EQ(world.lastSeekCost(h, cost), RuntimeError::none);
    return cost;
}

// The same instance in a world with checkpoints and in one without; every call goes to both.
struct Pair {
    EffectLibrary library;
    World with;
    World without;
    InstanceHandle a, b;
    Pair(const std::string& path, const WorldConfig& config)
        : with(library, config), without(library, withCheckpoints(0)) {
        InstanceDesc desc;
        desc.effect = library.add(path);
        desc.transform.position = {1, 2, 3};
        desc.flags = 0;
        EXPECT_EQ(with.create(desc, a), RuntimeError::none) << with.lastErrorMessage();
        EXPECT_EQ(without.create(desc, b), RuntimeError::none) << without.lastErrorMessage();
    }
    template <typename Call> void both(Call call) {
        EXPECT_EQ(call(with, a), RuntimeError::none) << with.lastErrorMessage();
        EXPECT_EQ(call(without, b), RuntimeError::none) << without.lastErrorMessage();
    }
    void seek(double t) {
        both([&](World& w, InstanceHandle h) { return w.seek(h, t); });
    }
    void advanceTo(double t) {
        both([&](World& w, InstanceHandle h) { return w.advanceTo(h, t); });
    }
    bool same() { return stateOf(with, a) == stateOf(without, b); }
};

class SeekCheckpointTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("spindrift_seek_" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(dir_);
        path_ = (dir_ / "params.json").string();
        std::ofstream(path_) << kParams;
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
    std::string path_;
};

// Times up to 1.7 s: the loop takes ~0.1 s in release and ~3 s under AddressSanitizer.
TEST(SeekCheckpoints, EverySampleSeeksBackAndForthLikeTheReplayFromZero) {
    std::vector<std::string> samples;
    for (const auto& entry : fs::directory_iterator(examplePath("")))
        if (entry.path().extension() == ".json") samples.push_back(entry.path().filename());
    std::sort(samples.begin(), samples.end());
    ASSERT_GE(samples.size(), 10u);
    for (const std::string& name : samples) {
        SCOPED_TRACE(name);
        Pair p(examplePath(name), withCheckpoints(kInterval));
        uint64_t most_live = 0;
        auto live = [&] {
            InstanceInfo info;
            EXPECT_EQ(p.with.info(p.a, info), RuntimeError::none);
            most_live = std::max(most_live, info.live_particles);
        };
        for (double t : {1.6, 0.55, 1.25, 0.2, 1.58, 1.6}) {
            p.seek(t);
            ASSERT_TRUE(p.same()) << "seek to " << t;
            live();
        }
        for (double t : {1.7, 0.9, 1.1}) {
            p.advanceTo(t);
            ASSERT_TRUE(p.same()) << "advanceTo " << t;
            live();
        }
        EXPECT_GT(most_live, 0u) << "a sample that shows nothing tests nothing";
        const SeekCost cost = costOf(p.with, p.a);
        EXPECT_TRUE(cost.checkpoints_kept);
        EXPECT_GT(cost.checkpoint_count, 0u);
        EXPECT_EQ(cost.checkpoint_spacing_steps, kInterval);
    }
}

TEST_F(SeekCheckpointTest, ASeekAfterACheckpointReplaysAtMostTheInterval) {
    EffectLibrary library;
    World world(library, withCheckpoints(kInterval));
    InstanceDesc desc;
    desc.effect = library.add(path_);
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    ASSERT_EQ(world.seek(h, 3.0), RuntimeError::none);
    SeekCost cost = costOf(world, h);
    EXPECT_EQ(cost.origin, SeekOrigin::start);
    EXPECT_EQ(cost.steps_replayed, 180u);
    EXPECT_EQ(cost.checkpoint_count, 180u / kInterval);
    for (double t : {2.9, 0.1, 1.234, 0.5, 2.0, 2.76}) {
        ASSERT_EQ(world.seek(h, t), RuntimeError::none);
        cost = costOf(world, h);
        const auto target = static_cast<uint64_t>(std::llround(t * 60));
        EXPECT_EQ(cost.target_step, target) << t;
        EXPECT_LE(cost.steps_replayed, kInterval) << t;
        EXPECT_EQ(cost.resumed_from_step + cost.steps_replayed, target) << t;
        if (target >= kInterval) {
            EXPECT_EQ(cost.origin, SeekOrigin::checkpoint) << t;
            EXPECT_EQ(cost.resumed_from_step % kInterval, 0u) << t;
        }
    }
    // Forward from a replay's state: its own steps, no restore.
    ASSERT_EQ(world.seek(h, 2.8), RuntimeError::none);
    ASSERT_EQ(world.seek(h, 2.85), RuntimeError::none);
    cost = costOf(world, h);
    EXPECT_EQ(cost.origin, SeekOrigin::current);
    EXPECT_EQ(cost.steps_replayed, 3u);
    // advanceTo backwards resumes from a checkpoint too.
    ASSERT_EQ(world.advanceTo(h, 1.5), RuntimeError::none);
    cost = costOf(world, h);
    EXPECT_EQ(cost.origin, SeekOrigin::checkpoint);
    EXPECT_EQ(cost.resumed_from_step, 90u);
    EXPECT_EQ(cost.steps_replayed, 0u);
}

TEST_F(SeekCheckpointTest, NoCheckpointsReplaysFromZero) {
    EffectLibrary library;
    World world(library, withCheckpoints(0));
    InstanceDesc desc;
    desc.effect = library.add(path_);
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    ASSERT_EQ(world.seek(h, 2.0), RuntimeError::none);
    ASSERT_EQ(world.seek(h, 1.0), RuntimeError::none);
    const SeekCost cost = costOf(world, h);
    EXPECT_FALSE(cost.checkpoints_kept);
    EXPECT_EQ(cost.origin, SeekOrigin::start);
    EXPECT_EQ(cost.steps_replayed, 60u);
    EXPECT_EQ(cost.checkpoint_count, 0u);
}

// The GPU backend keeps no checkpoints (the issue allows it): a seek back replays from time 0,
// and the cost says so.
TEST_F(SeekCheckpointTest, AGpuInstanceReplaysFromZeroAndSaysSo) {
    EffectLibrary library;
    WorldConfig config = withCheckpoints(kInterval);
    config.backend = SimulationBackend::gpu;
    config.gpu_readback = GpuReadback::synchronous;
    World world(library, config);
    InstanceDesc desc;
    desc.effect = library.add(path_);
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    ASSERT_EQ(world.seek(h, 2.0), RuntimeError::none);
    ASSERT_EQ(world.seek(h, 1.0), RuntimeError::none);
    SeekCost cost = costOf(world, h);
    EXPECT_FALSE(cost.checkpoints_kept);
    EXPECT_EQ(cost.origin, SeekOrigin::start);
    EXPECT_EQ(cost.resumed_from_step, 0u);
    EXPECT_EQ(cost.steps_replayed, 60u);
    EXPECT_EQ(cost.checkpoint_count, 0u);
    ASSERT_EQ(world.advanceTo(h, 0.5), RuntimeError::none);
    cost = costOf(world, h);
    EXPECT_EQ(cost.origin, SeekOrigin::start);
    EXPECT_EQ(cost.steps_replayed, 30u);
}

// Each change between a seek forward and a seek back; the world with checkpoints must not reuse
// one taken before the change.
TEST_F(SeekCheckpointTest, AnInputChangeDiscardsTheCheckpointsItMakesWrong) {
    struct Change {
        const char* what;
        RuntimeError (*call)(World&, InstanceHandle);
    };
    const Change changes[] = {
        {"setParameter",
         [](World& w, InstanceHandle h) { return w.setParameter(h, "speed", 4.0f); }},
        {"setSpawnRateScale",
         [](World& w, InstanceHandle h) { return w.setSpawnRateScale(h, 0.5f); }},
        {"setEmitterEnabled",
         [](World& w, InstanceHandle h) { return w.setEmitterEnabled(h, "pop", false); }},
        {"setTransform",
         [](World& w, InstanceHandle h) {
             InstanceTransform t;
             t.position = {5, 0, -1};
             return w.setTransform(h, t);
         }},
        {"setTransform teleport",
         [](World& w, InstanceHandle h) {
             InstanceTransform t;
             t.position = {-3, 1, 0};
             return w.setTransform(h, t, true);
         }},
        {"setSeed", [](World& w, InstanceHandle h) { return w.setSeed(h, 77); }},
        {"emit", [](World& w, InstanceHandle h) { return w.emit(h, "sparks", 40); }},
        {"setSpawnScale", [](World& w, InstanceHandle) { return w.setSpawnScale(0.25f); }},
        {"setQualityTier",
         [](World& w, InstanceHandle) { return w.setQualityTier(QualityTier::low); }},
        {"setColliders",
         [](World& w, InstanceHandle) {
             WorldCollider ground;
             ground.position = {0, 1.5f, 0};
             return w.setColliders(&ground, 1);
         }},
        {"restart", [](World& w, InstanceHandle h) { return w.restart(h); }},
    };
    for (const Change& change : changes) {
        SCOPED_TRACE(change.what);
        Pair p(path_, withCheckpoints(kInterval));
        p.seek(2.0);
        ASSERT_TRUE(p.same());
        p.both(change.call);
        // emit's burst goes with the next step: run it forward first, then come back.
        p.advanceTo(2.2);
        ASSERT_TRUE(p.same());
        for (double t : {1.3, 0.6, 2.1}) {
            p.seek(t);
            ASSERT_TRUE(p.same()) << "seek to " << t;
        }
        p.advanceTo(0.9);
        ASSERT_TRUE(p.same()) << "advanceTo 0.9";
    }
}

// Frames played by update() (which sweep and keep a fractional clock) are never checkpointed;
// a seek after them is still the replay's.
TEST_F(SeekCheckpointTest, UpdateFramesBetweenSeeksLeaveSeeksExact) {
    Pair p(path_, withCheckpoints(kInterval));
    p.seek(1.0);
    p.both([](World& w, InstanceHandle h) { return w.play(h); });
    for (int frame = 0; frame < 40; ++frame) {
        p.with.update(1.0 / 45);
        p.without.update(1.0 / 45);
    }
    ASSERT_TRUE(p.same());
    p.seek(1.9);
    ASSERT_TRUE(p.same());
    p.seek(0.7);
    ASSERT_TRUE(p.same());
}

// A moving path: advanceTo's replays follow it, seek's stand at its start; checkpoints of one
// are never used for the other.
class Circle final : public TransformPath {
public:
    Matrix3x4 worldFromEffectAt(double time_s) const override {
        Matrix3x4 m;
        m.rows[0][3] = static_cast<float>(3 * std::cos(time_s * 2));
        m.rows[2][3] = static_cast<float>(3 * std::sin(time_s * 2));
        m.rows[1][3] = static_cast<float>(time_s);
        return m;
    }
};

TEST_F(SeekCheckpointTest, PathRunsAndSeeksKeepTheirOwnCheckpoints) {
    Pair p(path_, withCheckpoints(kInterval));
    Circle circle;
    p.both([&](World& w, InstanceHandle h) { return w.followPath(h, &circle); });
    p.advanceTo(2.0);
    ASSERT_TRUE(p.same());
    for (double t : {1.2, 0.4, 1.9}) {
        p.advanceTo(t);
        ASSERT_TRUE(p.same()) << "advanceTo " << t;
    }
    EXPECT_EQ(costOf(p.with, p.a).origin, SeekOrigin::checkpoint);
    for (double t : {1.5, 0.8, 0.85}) {
        p.seek(t);
        ASSERT_TRUE(p.same()) << "seek to " << t;
    }
    p.advanceTo(1.0);
    ASSERT_TRUE(p.same());
}

TEST_F(SeekCheckpointTest, CheckpointMemoryStaysUnderTheBound) {
    // A bound a few checkpoints of this effect fill (about 60 live particles of spray).
    const uint64_t bound = 32 * 1024;
    Pair p(path_, withCheckpoints(kInterval, bound));
    p.seek(8.0);
    SeekCost cost = costOf(p.with, p.a);
    EXPECT_LE(cost.checkpoint_bytes, bound);
    EXPECT_GT(cost.checkpoint_count, 1u);
    EXPECT_GT(cost.checkpoint_spacing_steps, kInterval) << "the bound should have thinned them";
    EXPECT_EQ(cost.checkpoint_spacing_steps % kInterval, 0u);
    for (double t : {7.5, 3.3, 6.1, 0.9}) {
        p.seek(t);
        ASSERT_TRUE(p.same()) << "seek to " << t;
        cost = costOf(p.with, p.a);
        EXPECT_LE(cost.checkpoint_bytes, bound);
        EXPECT_LE(cost.steps_replayed, cost.checkpoint_spacing_steps) << t;
    }
    // A bound smaller than one checkpoint keeps none.
    Pair tiny(path_, withCheckpoints(kInterval, 64));
    tiny.seek(2.0);
    tiny.seek(1.0);
    ASSERT_TRUE(tiny.same());
    cost = costOf(tiny.with, tiny.a);
    EXPECT_EQ(cost.checkpoint_count, 0u);
    EXPECT_EQ(cost.checkpoint_bytes, 0u);
    EXPECT_EQ(cost.origin, SeekOrigin::start);
}

} // namespace
} // namespace spindrift
