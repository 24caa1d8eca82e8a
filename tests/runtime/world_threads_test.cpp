// The world's threads (include/spindrift/runtime.h, JobRunner; src/runtime/world_stepping.h): the
// same world, stepped on 1, 2 or 4 threads of the world's own pool or through a host's job
// runner, gives the same particles bit for bit and the same receipts, frame after frame; the
// runner is used as the interface promises (never nested, every index once).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "runtime/world_stepping.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// Small: six emitters of bursts and rates, colour and size over life, a flipbook, a ground plane.
constexpr const char* kSmall = R"({
  "version": 1, "name": "small", "seed": 5, "duration_s": 1.5,
  "emitters": [
    {"name": "a", "capacity": 64, "spawn": {"rate_per_s": 0, "bursts": [{"count": [20, 40]}]},
     "init": {"lifetime_s": [0.3, 0.9], "speed": [1, 4]},
     "update": [{"type": "gravity"}, {"type": "collision", "planes": [{}], "bounce": 0.5}]},
    {"name": "b", "capacity": 64, "spawn": {"rate_per_s": 30},
     "init": {"lifetime_s": [0.5, 1]}, "update": [{"type": "drag", "coefficient_per_s": 1},
       {"type": "color_over_life", "gradient": {"alpha_keys": [[0, 1], [1, 0]]}}]},
    {"name": "c", "capacity": 32, "spawn": {"rate_per_s": 0, "bursts": [{"time_s": 0.4, "count": 25}]},
     "init": {"lifetime_s": [0.2, 0.6], "speed": [0, 2]},
     "update": [{"type": "size_over_life", "curve": {"keys": [[0, 1], [1, 0]]}}],
     "render": {"flipbook": {"columns": 2, "rows": 2, "frames": 4, "frame_blend": true}}},
    {"name": "d", "capacity": 16, "spawn": {"rate_per_s": 0}, "init": {"lifetime_s": [1, 1]}},
    {"name": "e", "capacity": 128, "spawn": {"rate_per_s": 60}, "init": {"speed": [2, 3]},
     "update": [{"type": "curl_noise", "strength": 2}]},
    {"name": "f", "capacity": 64, "spawn": {"rate_per_s": 0, "bursts": [{"time_s": 1, "count": 50}]},
     "init": {"lifetime_s": [0.1, 0.4], "speed": [3, 6]}}
  ]
})";

// Large: enough live particles to be stepped alone with its chunks spread over the runner.
constexpr const char* kLarge = R"({
  "version": 1, "name": "large", "seed": 9, "duration_s": 2,
  "emitters": [
    {"name": "cloud", "capacity": 20000, "spawn": {"rate_per_s": 3000,
       "bursts": [{"count": 12000}]},
     "shape": {"type": "sphere", "radius": 2},
     "init": {"lifetime_s": [1, 3], "speed": [0, 1]},
     "update": [{"type": "gravity"}, {"type": "drag", "coefficient_per_s": 0.5}]}
  ]
})";

// A one-shot destroyed when it finishes.
constexpr const char* kPop = R"({
  "version": 1, "name": "pop", "looping": false, "duration_s": 0.1,
  "emitters": [{"name": "p", "capacity": 16,
     "spawn": {"rate_per_s": 0, "bursts": [{"count": 10}]},
     "init": {"lifetime_s": [0.2, 0.2], "speed": [1, 1]}}]
})";

// Runs every index on the calling thread, last to first, and checks the interface's promises.
class ReverseRunner final : public JobRunner {
public:
    void parallelFor(uint32_t count, JobFunction job, void* context) override {
        EXPECT_EQ(depth_, 0) << "parallelFor called from inside a job";
        ++depth_;
        ++calls_;
        largest_ = std::max(largest_, count);
        for (uint32_t i = count; i-- > 0;) job(context, i);
        --depth_;
    }
    uint32_t calls() const { return calls_; }
    uint32_t largest() const { return largest_; }

private:
    int depth_ = 0;
    uint32_t calls_ = 0;
    uint32_t largest_ = 0;
};

// Starts `threads` threads per batch that take indices from a counter: real concurrency, a
// different schedule every time.
class SpawningRunner final : public JobRunner {
public:
    explicit SpawningRunner(uint32_t threads) : threads_(threads) {}
    void parallelFor(uint32_t count, JobFunction job, void* context) override {
        std::atomic<uint32_t> next{0};
        std::vector<uint32_t> ran(count, 0);
        auto work = [&] {
            for (uint32_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
                job(context, i);
                ran[i] += 1;
            }
        };
        std::vector<std::thread> pool;
        for (uint32_t t = 1; t < threads_; ++t) pool.emplace_back(work);
        work();
        for (std::thread& t : pool) t.join();
        for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(ran[i], 1u) << "job " << i;
    }

private:
    uint32_t threads_;
};

class WorldThreadsTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("spindrift_world_threads_" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        write("small.json", kSmall);
        write("large.json", kLarge);
        write("pop.json", kPop);
    }
    void TearDown() override { fs::remove_all(dir_); }

    void write(const std::string& name, const char* text) { std::ofstream(dir_ / name) << text; }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    // What one run of the scene gave, frame by frame: each update's receipt and every
    // instance's particles.
    struct Run {
        std::vector<WorldUpdateReceipt> receipts;
        std::vector<std::vector<unsigned char>> particles; // per frame, all instances' bytes
        std::vector<uint64_t> draw_records;                // per frame
    };

    Run runScene(const WorldConfig& config) {
        EffectLibrary library;
        const EffectId small = library.add(path("small.json"));
        const EffectId large = library.add(path("large.json"));
        const EffectId pop = library.add(path("pop.json"));
        World world(library, config);
        std::vector<InstanceHandle> handles;
        for (uint32_t i = 0; i < 40; ++i) {
            InstanceDesc desc;
            desc.effect = small;
            desc.transform.position = {float(i) * 3.0f, 0, float(i % 7)};
            desc.time_scale = 0.5f + 0.05f * float(i % 10);
            InstanceHandle h;
            EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
            EXPECT_EQ(world.seek(h, 0.03 * i), RuntimeError::none);
            handles.push_back(h);
        }
        for (uint32_t i = 0; i < 2; ++i) {
            InstanceDesc desc;
            desc.effect = large;
            desc.transform.position = {0, 10.0f * float(i), 0};
            InstanceHandle h;
            EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
            handles.push_back(h);
        }
        Run run;
        std::vector<Particle> particles;
        for (int frame = 0; frame < 45; ++frame) {
            if (frame % 9 == 0) {
                InstanceDesc desc;
                desc.effect = pop;
                desc.flags = kPlayOnCreate | kDestroyOnFinish;
                InstanceHandle h;
                EXPECT_EQ(world.create(desc, h), RuntimeError::none);
            }
            if (frame == 5) {
                EXPECT_EQ(world.emit(handles[3], "d", 12), RuntimeError::none);
            }
            if (frame == 10) {
                EXPECT_EQ(world.stop(handles[4]), RuntimeError::none);
            }
            if (frame == 12) {
                EXPECT_EQ(world.pause(handles[5]), RuntimeError::none);
            }
            InstanceTransform moved;
            moved.position = {float(frame) * 0.1f, 1, 0};
            EXPECT_EQ(world.setTransform(handles[6], moved), RuntimeError::none);
            // Uneven frames, some of several steps.
            run.receipts.push_back(world.update(frame % 4 == 0 ? 0.05 : 1.0 / 60.0));
            run.draw_records.push_back(writeWorldDrawRecords(world));
            std::vector<unsigned char> bytes;
            std::vector<InstanceHandle> live;
            world.instances(live);
            for (InstanceHandle h : live) {
                EXPECT_EQ(world.readParticles(h, particles), RuntimeError::none);
                const auto* p = reinterpret_cast<const unsigned char*>(particles.data());
                bytes.insert(bytes.end(), p, p + particles.size() * sizeof(Particle));
            }
            run.particles.push_back(std::move(bytes));
        }
        return run;
    }

    static void expectSame(const Run& a, const Run& b, const char* what) {
        ASSERT_EQ(a.receipts.size(), b.receipts.size());
        for (size_t f = 0; f < a.receipts.size(); ++f) {
            const WorldUpdateReceipt& x = a.receipts[f];
            const WorldUpdateReceipt& y = b.receipts[f];
            EXPECT_EQ(x.instances, y.instances) << what << " frame " << f;
            EXPECT_EQ(x.instances_stepped, y.instances_stepped) << what << " frame " << f;
            EXPECT_EQ(x.steps, y.steps) << what << " frame " << f;
            EXPECT_EQ(x.live_particles, y.live_particles) << what << " frame " << f;
            EXPECT_EQ(x.finished, y.finished) << what << " frame " << f;
            EXPECT_EQ(x.destroyed_on_finish, y.destroyed_on_finish) << what << " frame " << f;
            EXPECT_EQ(a.draw_records[f], b.draw_records[f]) << what << " frame " << f;
            ASSERT_EQ(a.particles[f].size(), b.particles[f].size()) << what << " frame " << f;
            ASSERT_EQ(
                std::memcmp(a.particles[f].data(), b.particles[f].data(), a.particles[f].size()), 0)
                << what << ": particles differ at frame " << f;
        }
    }

    fs::path dir_;
};

TEST_F(WorldThreadsTest, OneTwoAndFourThreadsGiveTheSameParticles) {
    WorldConfig one;
    const Run reference = runScene(one);
    // The scene is not trivial: the large instances hold thousands, pops come and go.
    EXPECT_GT(reference.receipts.back().live_particles, 20000u);
    uint32_t destroyed = 0;
    for (const WorldUpdateReceipt& r : reference.receipts) destroyed += r.destroyed_on_finish;
    EXPECT_GT(destroyed, 2u);
    for (uint32_t threads : {2u, 4u}) {
        WorldConfig config;
        config.threads = threads;
        expectSame(reference, runScene(config), threads == 2 ? "2 threads" : "4 threads");
    }
}

TEST_F(WorldThreadsTest, AHostRunnerGivesTheSameParticlesAndIsNeverNested) {
    const Run reference = runScene(WorldConfig{});
    ReverseRunner reverse;
    WorldConfig config;
    config.job_runner = &reverse;
    config.threads = 3; // ignored: the runner is the host's
    expectSame(reference, runScene(config), "reverse-order runner");
    EXPECT_GT(reverse.calls(), 45u); // at least one batch per update
    // A batch of the large instances' chunks (12,000+ particles: 12 or more chunks) or of the
    // small instances (40 and more): the runner sees real batches, not one job at a time.
    EXPECT_GE(reverse.largest(), 12u);

    SpawningRunner spawning(3);
    config.job_runner = &spawning;
    expectSame(reference, runScene(config), "3-thread spawning runner");
}

} // namespace
} // namespace spindrift
