// The public runtime's world (issue 15, points 9 and 10): what a game's frame costs and what its
// handle calls cost, through the World API a game uses.
//
//   frame/burst200/threads:N   200 staggered instances of a 20-emitter burst effect (~110k live
//                              particles), one frame = World::update(1/60 s) + the host draw
//                              records of every instance (writeWorldDrawRecords: the CPU
//                              draw-record write the renderer uses). ns_per_particle is the frame
//                              time over the live particles; vs_copy is the frame time over the
//                              time std::memcpy takes to copy 64 B per live particle (one draw
//                              record's size), measured in the same process just before the case.
//                              cpus is the process's CPU time over wall time during the case, and
//                              cpu_ns_per_particle that CPU time over the live particles.
//   frame/burst200/runner:2    the same on 2 threads through a host JobRunner (a test runner
//                              written here, not the world's own pool).
//   handles/ops                10^6 handle operations on a world of 1,000 idle instances, in
//                              rounds of destroy, create, setTransform and isAlive (4 ops each);
//                              vs_map is the time over the same mix on a std::unordered_map of
//                              handle -> transform.
//   seek/back10s/1000          one instance of the burst effect sent back to t = 10 s from
//                              t = 11 s with World::seek: checkpoint_ms with seek checkpoints
//                              (WorldConfig defaults: every 60 steps), from_zero_ms in a world
//                              without (the replay of 600 steps from time 0), each the median
//                              over the iterations; speedup = from_zero_ms / checkpoint_ms. The
//                              seek forward to 11 s between is not timed.
//   seek/back10s/1025          the same to t = 10.25 s, between checkpoints (15 steps replayed
//                              after the checkpoint at 10 s).
//                              checkpoints and checkpoint_kb: those held and their mean size;
//                              taking_fresh: a replay from 0 to 11 s that takes them (660
//                              steps, 11 checkpoints) over the same replay without, minus 1, in
//                              fresh worlds; taking_again: the same after a change of input
//                              dropped the first ones (median of 5 each).
//   create/gpu_instance        a GPU world's first instance (device and pipelines: first_ms)
//                              against later ones created on it (later_ms) and the same on a CPU
//                              world (cpu_ms); later_vs_first, later_vs_cpu.
//
// Run: build-bench/bin/world_bench (bench/README.md); results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

#include "runtime/simulation_device.h"
#include "runtime/world_stepping.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

constexpr uint32_t kInstances = 200;
constexpr uint32_t kEmitters = 20;
constexpr double kFrameSeconds = 1.0 / 60.0;
constexpr double kEffectSeconds = 2.0; // one loop of the burst effect
constexpr double kRecordBytes = 64;    // sizeof(DrawRecord)

// A looping 2 s effect of 20 burst emitters, each firing 40-60 particles of 0.8-1.2 s life once
// per loop at its own time: about 25 live particles per emitter on average, ~500 per instance.
// The emitters mix what burst effects use: every one has gravity and drag; colour over life on
// even emitters, size over life on every third, a flipbook on every fourth, a ground plane on
// every fifth.
std::string burstEffectJson() {
    std::string s = R"({"version": 1, "name": "burst20", "seed": 7, "duration_s": 2,
        "looping": true, "bounds": {"center": [0, 1, 0], "half_extents": [4, 2, 4]},
        "emitters": [)";
    for (uint32_t e = 0; e < kEmitters; ++e) {
        if (e > 0) s += ",";
        s += R"({"name": "e)" + std::to_string(e) + R"(", "capacity": 64,
            "transform": {"position": [)" +
             std::to_string(0.1 * e) + R"(, 0.5, 0]},
            "spawn": {"rate_per_s": 0, "bursts": [{"time_s": )" +
             std::to_string(0.09 * e) + R"(, "count": [40, 60]}]},
            "shape": {"type": "sphere", "radius": 0.1},
            "init": {"lifetime_s": [0.8, 1.2], "size": [0.05, 0.1], "speed": [1, 3],
                     "color": [1, 0.7, 0.3, 1]},
            "update": [{"type": "gravity"}, {"type": "drag", "coefficient_per_s": 0.5})";
        if (e % 5 == 0) s += R"(, {"type": "collision", "planes": [{}], "bounce": 0.3})";
        if (e % 2 == 0) {
            s += R"(, {"type": "color_over_life", "gradient": {
                "color_keys": [[0, 1, 1, 1], [1, 1, 0.3, 0.1]],
                "alpha_keys": [[0, 1], [1, 0]]}})";
        }
        if (e % 3 == 0)
            s += R"(, {"type": "size_over_life", "curve": {"keys": [[0, 0.5], [1, 1.5]]}})";
        s += "]";
        if (e % 4 == 0) {
            s += R"(, "render": {"flipbook": {"columns": 4, "rows": 4, "frames": 16,
                "frame_blend": true}})";
        }
        s += "}";
    }
    return s + "]}";
}

// The effect file, written once per process into the temporary directory.
const std::string& burstEffectPath() {
    static const std::string path = [] {
        const std::filesystem::path p =
            std::filesystem::temp_directory_path() /
            ("spindrift_world_bench_" + std::to_string(static_cast<long>(::getpid())) + ".json");
        std::ofstream(p) << burstEffectJson();
        return p.string();
    }();
    return path;
}

double processCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Seconds per byte of std::memcpy of `bytes` bytes (one warm-up, median of 5).
double copySecondsPerByte(size_t bytes) {
    std::vector<unsigned char> a(bytes, 1), b(bytes, 2);
    std::vector<double> runs;
    for (int i = 0; i < 6; ++i) {
        const double t0 = wallSeconds();
        std::memcpy(b.data(), a.data(), bytes);
        benchmark::DoNotOptimize(b.data());
        benchmark::ClobberMemory();
        const double t = wallSeconds() - t0;
        if (i > 0) runs.push_back(t);
        std::swap(a, b);
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2] / double(bytes);
}

// ---------------------------------------------------------------------------------------------
// Frames

// 200 instances of the burst effect, instance i sought to i/200 of a loop, then played a loop.
struct Scene {
    EffectLibrary library;
    std::unique_ptr<World> world;

    explicit Scene(const WorldConfig& config) {
        const EffectId id = library.add(burstEffectPath());
        world = std::make_unique<World>(library, config);
        for (uint32_t i = 0; i < kInstances; ++i) {
            InstanceDesc desc;
            desc.effect = id;
            desc.transform.position = {float(i % 20) * 5.0f, 0, float(i / 20) * 5.0f};
            InstanceHandle h;
            if (world->create(desc, h) != RuntimeError::none ||
                world->seek(h, kEffectSeconds * i / kInstances) != RuntimeError::none) {
                std::fprintf(stderr, "world_bench: %s\n", world->lastErrorMessage().c_str());
                std::abort();
            }
        }
        for (int f = 0; f < int(kEffectSeconds / kFrameSeconds); ++f) frame();
    }

    uint64_t frame() {
        const WorldUpdateReceipt r = world->update(kFrameSeconds);
        benchmark::DoNotOptimize(writeWorldDrawRecords(*world));
        return r.live_particles;
    }
};

void runFrames(benchmark::State& state, const WorldConfig& config) {
    Scene scene(config);
    // Reference: copying one draw record's bytes per live particle of this scene.
    const uint64_t live_now = scene.frame();
    const double copy_s_per_byte = copySecondsPerByte(size_t(double(live_now) * kRecordBytes));

    uint64_t particles = 0;
    const double cpu0 = processCpuSeconds();
    const double wall0 = wallSeconds();
    for (auto _ : state) particles += scene.frame();
    const double wall = wallSeconds() - wall0;
    const double cpu = processCpuSeconds() - cpu0;

    const double per_particle_s = wall / double(std::max<uint64_t>(particles, 1));
    state.counters["live"] = double(particles) / double(std::max<int64_t>(state.iterations(), 1));
    state.counters["ns_per_particle"] = per_particle_s * 1e9;
    state.counters["vs_copy"] = per_particle_s / (copy_s_per_byte * kRecordBytes);
    state.counters["cpus"] = wall > 0 ? cpu / wall : 0;
    // The process's CPU time per particle: on one thread, the figure that other processes
    // sharing the machine disturb least (they take wall time, not this process's CPU time).
    state.counters["cpu_ns_per_particle"] = cpu / double(std::max<uint64_t>(particles, 1)) * 1e9;
    state.SetItemsProcessed(int64_t(particles));
}

void BM_FrameThreads(benchmark::State& state) {
    WorldConfig config;
    config.threads = uint32_t(state.range(0));
    runFrames(state, config);
}
BENCHMARK(BM_FrameThreads)
    ->Name("frame/burst200/threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// A host's job system as a game might have one: worker threads that take job indices from an
// atomic counter, the calling thread working too.
class HostRunner final : public JobRunner {
public:
    explicit HostRunner(uint32_t threads) {
        for (uint32_t i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
    }
    ~HostRunner() override {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }
    void parallelFor(uint32_t count, JobFunction job, void* context) override {
        {
            std::lock_guard lock(mutex_);
            job_ = job;
            context_ = context;
            count_ = count;
            next_.store(0);
            pending_ = count;
            ++batch_;
        }
        wake_.notify_all();
        drain();
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return pending_ == 0; });
    }

private:
    void drain() {
        uint32_t finished = 0;
        for (uint32_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) {
            job_(context_, i);
            ++finished;
        }
        if (finished == 0) return;
        std::lock_guard lock(mutex_);
        pending_ -= finished;
        if (pending_ == 0) done_.notify_all();
    }
    void work() {
        uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || batch_ != seen; });
                if (stop_) return;
                seen = batch_;
            }
            drain();
        }
    }
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    JobFunction job_ = nullptr;
    void* context_ = nullptr;
    uint32_t count_ = 0;
    std::atomic<uint32_t> next_{0};
    uint32_t pending_ = 0;
    uint64_t batch_ = 0;
    bool stop_ = false;
};

void BM_FrameRunner(benchmark::State& state) {
    HostRunner runner(uint32_t(state.range(0)));
    WorldConfig config;
    config.job_runner = &runner;
    runFrames(state, config);
}
BENCHMARK(BM_FrameRunner)
    ->Name("frame/burst200/runner")
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---------------------------------------------------------------------------------------------
// Handle operations

constexpr uint32_t kLiveHandles = 1000;
constexpr uint32_t kRounds = 250000; // x 4 ops = 10^6

void BM_HandleOps(benchmark::State& state) {
    EffectLibrary library;
    const EffectId id = library.add(burstEffectPath());
    World world(library);
    InstanceDesc desc;
    desc.effect = id;
    desc.flags = 0; // idle: the world's update never touches them
    std::vector<InstanceHandle> handles(kLiveHandles);
    for (InstanceHandle& h : handles) world.create(desc, h);
    InstanceTransform moved;
    moved.position = {1, 2, 3};

    // Reference: the same mix on a hash map of handle -> transform.
    std::unordered_map<uint64_t, InstanceTransform> map;
    for (uint32_t i = 0; i < kLiveHandles; ++i) map[i] = {};
    uint64_t next_key = kLiveHandles;
    std::vector<uint64_t> keys(kLiveHandles);
    for (uint32_t i = 0; i < kLiveHandles; ++i) keys[i] = i;
    auto mapRounds = [&] {
        uint64_t alive = 0;
        for (uint32_t r = 0; r < kRounds; ++r) {
            const uint32_t k = r % kLiveHandles;
            map.erase(keys[k]);
            keys[k] = next_key++;
            map.emplace(keys[k], InstanceTransform{});
            map.find(keys[k])->second = moved;
            alive += map.count(keys[(k * 7919u) % kLiveHandles]);
        }
        return alive;
    };
    mapRounds(); // warm-up
    const double m0 = wallSeconds();
    benchmark::DoNotOptimize(mapRounds());
    const double map_s = wallSeconds() - m0;

    double world_s = 0;
    for (auto _ : state) {
        const double t0 = wallSeconds();
        uint64_t alive = 0;
        for (uint32_t r = 0; r < kRounds; ++r) {
            const uint32_t k = r % kLiveHandles;
            world.destroy(handles[k]);
            world.create(desc, handles[k]);
            world.setTransform(handles[k], moved);
            alive += world.isAlive(handles[(k * 7919u) % kLiveHandles]) ? 1 : 0;
        }
        benchmark::DoNotOptimize(alive);
        world_s += wallSeconds() - t0;
    }
    const double ops = 4.0 * kRounds * double(state.iterations());
    state.counters["ns_per_op"] = world_s / ops * 1e9;
    state.counters["map_ns_per_op"] = map_s / (4.0 * kRounds) * 1e9;
    state.counters["vs_map"] = (world_s / double(state.iterations())) / map_s;
    state.SetItemsProcessed(int64_t(ops));
}
BENCHMARK(BM_HandleOps)->Name("handles/ops")->Unit(benchmark::kMillisecond)->Iterations(3);

// ---------------------------------------------------------------------------------------------
// Seek backwards: checkpoints against the replay from time 0, in the same run.

void BM_SeekBack(benchmark::State& state) {
    const double target_s = double(state.range(0)) / 100.0;
    EffectLibrary library;
    WorldConfig with_config;
    WorldConfig without_config;
    without_config.seek_checkpoint_interval_steps = 0;
    World with(library, with_config);
    World without(library, without_config);
    InstanceDesc desc;
    desc.effect = library.add(burstEffectPath());
    desc.flags = 0;
    InstanceHandle a, b;
    if (with.create(desc, a) != RuntimeError::none ||
        without.create(desc, b) != RuntimeError::none) {
        std::fprintf(stderr, "world_bench: %s\n", with.lastErrorMessage().c_str());
        std::abort();
    }
    auto timedSeek = [&](World& world, InstanceHandle h) {
        if (world.seek(h, 11.0) != RuntimeError::none) std::abort(); // forward, not timed
        const double t0 = wallSeconds();
        if (world.seek(h, target_s) != RuntimeError::none) std::abort();
        return wallSeconds() - t0;
    };
    // What taking the checkpoints costs: a replay from 0 to 11 s that takes them against the same
    // replay in a world without (fresh worlds each time, median of 5, alternately first). First
    // in a fresh world (the new memory's pages are touched for the first time), then again after
    // a change of input dropped them (the allocator hands the same memory back).
    std::vector<double> fresh_s[2], again_s[2];
    for (int r = 0; r < 5; ++r) {
        World w0(library, without_config), w1(library, with_config);
        World* worlds[2] = {&w0, &w1};
        InstanceHandle hs[2];
        for (int k = 0; k < 2; ++k)
            if (worlds[k]->create(desc, hs[k]) != RuntimeError::none) std::abort();
        auto timed = [&](int k, std::vector<double>* out) {
            const double t0 = wallSeconds();
            if (worlds[k]->seek(hs[k], 11.0) != RuntimeError::none) std::abort();
            out[k].push_back(wallSeconds() - t0);
        };
        for (int k : {r % 2, 1 - r % 2}) timed(k, fresh_s);
        for (int k = 0; k < 2; ++k) {
            worlds[k]->setTint(hs[k], Color{}); // an input change: the checkpoints go
            worlds[k]->seek(hs[k], 0.0);
        }
        for (int k : {r % 2, 1 - r % 2}) timed(k, again_s);
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::vector<double> with_s, without_s;
    uint64_t replayed = 0;
    SeekCost held;
    for (auto _ : state) {
        with_s.push_back(timedSeek(with, a));
        without_s.push_back(timedSeek(without, b));
        SeekCost cost;
        with.lastSeekCost(a, cost);
        replayed = cost.steps_replayed;
        held = cost;
        state.SetIterationTime(with_s.back());
    }
    std::sort(with_s.begin(), with_s.end());
    std::sort(without_s.begin(), without_s.end());
    const double with_ms = with_s[with_s.size() / 2] * 1e3;
    const double without_ms = without_s[without_s.size() / 2] * 1e3;
    state.counters["checkpoint_ms"] = with_ms;
    state.counters["from_zero_ms"] = without_ms;
    state.counters["speedup"] = with_ms > 0 ? without_ms / with_ms : 0;
    state.counters["steps_replayed"] = double(replayed);
    state.counters["checkpoints"] = double(held.checkpoint_count);
    state.counters["checkpoint_kb"] =
        held.checkpoint_count ? double(held.checkpoint_bytes) / held.checkpoint_count / 1024 : 0;
    state.counters["taking_fresh"] = median(fresh_s[1]) / median(fresh_s[0]) - 1;
    state.counters["taking_again"] = median(again_s[1]) / median(again_s[0]) - 1;
}
BENCHMARK(BM_SeekBack)
    ->Name("seek/back10s")
    ->Arg(1000)
    ->Arg(1025)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(7);

// ---------------------------------------------------------------------------------------------
// GPU instance creation

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// A world's first GPU instance opens the device and compiles the passes it records; a later one,
// of the same or another effect, finds both made (gpu/pass_pipelines.h). Each iteration: a fresh
// GPU world, its first instance (first_ms), then kLater instances created (later_ms: the median
// create; each destroyed untimed); cpu_ms is the same in a CPU world (the reference),
// later_vs_first = later_ms / first_ms.
constexpr int kLater = 9;

void BM_CreateGpuInstance(benchmark::State& state) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) {
        state.SkipWithError(("no Vulkan device: " + device.why_none).c_str());
        return;
    }
    EffectLibrary library;
    const EffectId id = library.add(burstEffectPath());
    InstanceDesc desc;
    desc.effect = id;
    std::vector<double> first_s, later_s, cpu_s;
    for (auto _ : state) {
        WorldConfig config;
        config.backend = SimulationBackend::gpu;
        World world(library, config);
        InstanceHandle h;
        double t0 = wallSeconds();
        if (world.create(desc, h) != RuntimeError::none) {
            state.SkipWithError(world.lastErrorMessage().c_str());
            return;
        }
        first_s.push_back(wallSeconds() - t0);
        // The median seconds of kLater creates of one instance on w (each destroyed after the
        // clock stops: destroying one waits for its work on the device).
        auto createAndDestroy = [&](World& w) {
            std::vector<double> seconds;
            for (int i = 0; i < kLater; ++i) {
                InstanceHandle g;
                const double start = wallSeconds();
                w.create(desc, g);
                seconds.push_back(wallSeconds() - start);
                w.destroy(g);
            }
            return medianOf(seconds);
        };
        later_s.push_back(createAndDestroy(world));
        World cpu_world(library);
        cpu_s.push_back(createAndDestroy(cpu_world));
        state.SetIterationTime(first_s.back());
    }
    state.counters["first_ms"] = medianOf(first_s) * 1e3;
    state.counters["later_ms"] = medianOf(later_s) * 1e3;
    state.counters["cpu_ms"] = medianOf(cpu_s) * 1e3;
    state.counters["later_vs_first"] = medianOf(later_s) / medianOf(first_s);
    state.counters["later_vs_cpu"] = medianOf(later_s) / medianOf(cpu_s);
}
BENCHMARK(BM_CreateGpuInstance)
    ->Name("create/gpu_instance")
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(3);

} // namespace
} // namespace spindrift

BENCHMARK_MAIN();
