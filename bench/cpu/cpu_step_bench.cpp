// The CPU backend's step (issue 3, item 7): particles per second for 1M and 16M live particles,
// three update stacks, 1 and 2 threads, and what a frame costs when colour and size over life are
// evaluated at draw time (writeDrawRecords alone, and step + writeDrawRecords); and the step
// with per-stage timing on (step_timed).
//
// Every case is reported against memory references measured in the same process, on the same
// thread pool, just before the case is timed (DESIGN rule 8: these machines are noisy):
//   vs_copy        std::memcpy of as many bytes as the case moves per particle (half of them
//                  read, half written);
//   vs_rmw         one fused in-place read-modify-write pass over copies of exactly the columns
//                  the step touches, laid out so they do not alias in the cache (step cases);
//   pool_rmw_GB/s  the same pass over the pool's own columns: below rmw_GB/s, the pool's layout
//                  itself costs bandwidth (docs/benchmarks.md).
// A ratio of 1 means the case runs at the speed of merely moving its bytes; below 1 it is bound
// by something else (arithmetic, LUT loads, loop overhead), above 1 its bytes partly stay in
// cache. cpus is the process's CPU time over wall time while the case ran.
//
// Run: build-bench/bin/cpu_step_bench (bench/README.md); results: docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "common/bench_effects.h"
#include "compiler/compile_effect.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "spindrift/effect_desc.h"

namespace spindrift::cpu {
namespace {

// ---------------------------------------------------------------------------------------------
// Bytes per particle. Counted from src/cpu/update_loops.inl for the three stacks benchmarked here
// (no spin, no collision, no attractor, so rotation, angular velocity and size are not touched):
//   ops (acceleration, drag, curl noise, force fields) read position and velocity, write
//   velocity; integrate rewrites position and age; collectDead reads age and lifetime. Flags are
//   read only by emitters with a collision or attractor op (none here). Each column is one
//   float or uint32.
// Colour and size over life are not step ops: writeDrawRecords evaluates them.
constexpr double kStepReadBytes = 8 * 4;    // position xyz, velocity xyz, age, lifetime
constexpr double kStepWrittenBytes = 7 * 4; // position xyz, velocity xyz, age
constexpr double kStepBytes = kStepReadBytes + kStepWrittenBytes;
// src/cpu/draw_records.cpp: reads position, velocity, age, lifetime, colour rgba, size,
// rotation and key (15 columns), writes one 64-byte DrawRecord.
constexpr double kDrawReadBytes = 15 * 4;
constexpr double kDrawWrittenBytes = sizeof(DrawRecord);
constexpr double kDrawBytes = kDrawReadBytes + kDrawWrittenBytes;

constexpr uint32_t k1M = 1u << 20;
constexpr uint32_t k16M = 1u << 24;
static_assert(k16M <= uint64_t(kMaxBursts) * kMaxBurstCount, "16M must fill in one step");
// 16M cases allocate ~1.4 GB per instance and run one fixed, small number of steps.
constexpr benchmark::IterationCount kIterations16M = 3;
// Reference passes: one warm-up, then the median of this many.
constexpr int kReferenceRuns = 5;
// Particles per thread-pool job in the reference loops: large, so the reference is the
// bandwidth ceiling and not the pool's per-job cost.
constexpr uint32_t kReferenceChunk = 1u << 16;

using bench::compileOrNull;
using bench::Stack;
using bench::stackName;

// One instance per case, kept while Google Benchmark re-runs the case to pick an iteration
// count, and freed when the next case starts (so at most one 16M pool is alive at a time).
struct CaseKey {
    Stack stack = Stack::basic;
    uint32_t particles = 0;
    uint32_t threads = 0;
    bool operator==(const CaseKey&) const = default;
};

CpuEffect* filledEffect(const CaseKey& key) {
    static CaseKey cached_key;
    static std::unique_ptr<CpuEffect> cached;
    if (cached && cached_key == key) return cached.get();
    cached.reset();
    const std::shared_ptr<const CompiledEffect> compiled =
        compileOrNull(bench::makeStackEffect(key.stack, key.particles));
    if (!compiled) return nullptr;
    CpuConfig config;
    config.threads = key.threads;
    std::unique_ptr<CpuEffect> fx = createCpuEffect(compiled, config);
    stepOnce(*fx);
    if (liveCount(*fx) != key.particles) return nullptr;
    cached_key = key;
    cached = std::move(fx);
    return cached.get();
}

// ---------------------------------------------------------------------------------------------
// Memory references.

template <typename Fn> double medianSeconds(Fn&& fn) {
    fn(); // warm-up: page faults, cache state
    std::vector<double> seconds;
    for (int r = 0; r < kReferenceRuns; ++r) {
        const auto start = std::chrono::steady_clock::now();
        fn();
        const auto stop = std::chrono::steady_clock::now();
        seconds.push_back(std::chrono::duration<double>(stop - start).count());
    }
    std::nth_element(seconds.begin(), seconds.begin() + kReferenceRuns / 2, seconds.end());
    return seconds[kReferenceRuns / 2];
}

// Runs fn(begin, end) over [0, count) in kReferenceChunk jobs on the case's own thread pool.
template <typename Fn> void parallelRanges(ThreadPool& threads, uint64_t count, Fn&& fn) {
    const auto jobs = static_cast<uint32_t>((count + kReferenceChunk - 1) / kReferenceChunk);
    auto job = [&](uint32_t j) {
        const uint64_t begin = uint64_t(j) * kReferenceChunk;
        fn(begin, std::min<uint64_t>(begin + kReferenceChunk, count));
    };
    threads.run(jobs, job);
}

// Opaque zero, so the compiler must load and store every element of the reference pass.
volatile float g_zero = 0.0f;

// The columns the step touches (see kStepReadBytes).
struct StepColumns {
    float* px;
    float* py;
    float* pz;
    float* vx;
    float* vy;
    float* vz;
    float* age;
    const float* lifetime;
};

// One fused in-place pass over the step's bytes: position, velocity and age read and written,
// lifetime read.
// Adds an opaque 0, so values are unchanged (except -0 -> +0). Restrict parameters, so GCC
// vectorises it without run-time alias checks.
void rmwRange(float* __restrict px, float* __restrict py, float* __restrict pz,
              float* __restrict vx, float* __restrict vy, float* __restrict vz,
              float* __restrict age, const float* __restrict lifetime, float k, uint64_t begin,
              uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
        const float d = k * lifetime[i];
        px[i] += d;
        py[i] += d;
        pz[i] += d;
        vx[i] += d;
        vy[i] += d;
        vz[i] += d;
        age[i] += d;
    }
}

double rmwSecondsPerParticle(ThreadPool& threads, const StepColumns& c, uint64_t count) {
    const float k = g_zero;
    const double s = medianSeconds([&] {
        parallelRanges(threads, count, [&](uint64_t begin, uint64_t end) {
            rmwRange(c.px, c.py, c.pz, c.vx, c.vy, c.vz, c.age, c.lifetime, k, begin, end);
        });
    });
    return s / static_cast<double>(count);
}

StepColumns poolColumns(ParticlePool& pool) {
    return StepColumns{pool.position_x.get(), pool.position_y.get(), pool.position_z.get(),
                       pool.velocity_x.get(), pool.velocity_y.get(), pool.velocity_z.get(),
                       pool.age_s.get(),      pool.lifetime_s.get()};
}

struct AlignedBytes {
    struct Free {
        void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(64)); }
    };
    std::unique_ptr<std::byte[], Free> data;
    explicit AlignedBytes(size_t bytes)
        : data(static_cast<std::byte*>(::operator new[](bytes, std::align_val_t(64)))) {
        std::memset(data.get(), 1, bytes); // touch every page before timing
    }
};

// The reference's own columns: one block, column k starting k * 64 bytes further into its
// 4 KiB page than column 0, so the eight streams fall in different L1 sets and never 4K-alias.
// This is the ceiling the step's bytes could reach; the pool's own layout is measured too
// (pool_rmw_GB/s) because it may not reach it.
double staggeredRmwSecondsPerParticle(ThreadPool& threads, uint64_t count) {
    const uint64_t column_bytes = (count * 4 + 4095) / 4096 * 4096 + 64;
    AlignedBytes block(column_bytes * 8);
    std::byte* base = block.data.get();
    auto column = [&](int k) { return reinterpret_cast<float*>(base + k * column_bytes); };
    const StepColumns c{column(0), column(1), column(2), column(3),
                        column(4), column(5), column(6), column(7)};
    return rmwSecondsPerParticle(threads, c, count);
}

// Seconds per particle to memcpy bytes_per_particle / 2 per particle (so bytes_per_particle
// are moved: half read, half written), split over the given thread pool.
double copySecondsPerParticle(ThreadPool& threads, uint64_t particles, double bytes_per_particle) {
    const auto half = static_cast<uint64_t>(bytes_per_particle / 2);
    const uint64_t bytes = particles * half;
    AlignedBytes src(bytes);
    AlignedBytes dst(bytes);
    const double s = medianSeconds([&] {
        parallelRanges(threads, particles, [&](uint64_t begin, uint64_t end) {
            std::memcpy(dst.data.get() + begin * half, src.data.get() + begin * half,
                        (end - begin) * half);
        });
    });
    return s / static_cast<double>(particles);
}

// ---------------------------------------------------------------------------------------------
// Counters.

// The case's own wall time over its timing loop, so the ratios are plain numbers (a rate counter
// would print them as "per second"), and the process's CPU time over the same loop: cpus =
// CPU / wall says how many cores the case really had (these 2-core machines are shared; a
// 2-thread case that shows cpus ~1 was not given its second core).
class LoopClock {
public:
    LoopClock() : wall_start_(std::chrono::steady_clock::now()), cpu_start_(processCpuSeconds()) {}
    double wallSeconds() const {
        const auto elapsed = std::chrono::steady_clock::now() - wall_start_;
        return std::chrono::duration<double>(elapsed).count();
    }
    double cpuSeconds() const { return processCpuSeconds() - cpu_start_; }

private:
    static double processCpuSeconds() {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
    }
    std::chrono::steady_clock::time_point wall_start_;
    double cpu_start_;
};

// Reference seconds per particle, measured just before a case (0 = not measured).
struct References {
    double copy_s = 0;     // memcpy of the case's bytes
    double rmw_s = 0;      // fused in-place pass over staggered copies of the step's columns
    double pool_rmw_s = 0; // the same pass over the pool's own columns
};

// ratio = reference seconds per particle / case seconds per particle.
void report(benchmark::State& state, const LoopClock& clock, uint64_t live,
            double bytes_per_particle, const References& ref) {
    const double loop_s = clock.wallSeconds();
    const double particles = static_cast<double>(state.iterations()) * static_cast<double>(live);
    const double case_s = loop_s / particles;
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(live));
    state.counters["live"] = static_cast<double>(live);
    state.counters["cpus"] = clock.cpuSeconds() / loop_s;
    state.counters["B/particle"] = bytes_per_particle;
    state.counters["vs_copy"] = ref.copy_s / case_s;
    state.counters["copy_GB/s"] = bytes_per_particle / ref.copy_s * 1e-9;
    if (ref.rmw_s > 0) {
        state.counters["vs_rmw"] = ref.rmw_s / case_s;
        state.counters["rmw_GB/s"] = bytes_per_particle / ref.rmw_s * 1e-9;
    }
    if (ref.pool_rmw_s > 0) {
        state.counters["pool_rmw_GB/s"] = bytes_per_particle / ref.pool_rmw_s * 1e-9;
    }
}

// ---------------------------------------------------------------------------------------------
// Cases.

void benchStep(benchmark::State& state, CaseKey key) {
    CpuEffect* fx = filledEffect(key);
    if (!fx) {
        state.SkipWithError("could not build and fill the effect");
        return;
    }
    const uint64_t live = liveCount(*fx);
    References ref;
    ref.pool_rmw_s = rmwSecondsPerParticle(*fx->threads, poolColumns(fx->pools[0]), live);
    ref.rmw_s = staggeredRmwSecondsPerParticle(*fx->threads, live);
    ref.copy_s = copySecondsPerParticle(*fx->threads, live, kStepBytes);
    const LoopClock clock;
    for (auto _ : state) stepOnce(*fx);
    if (liveCount(*fx) != live) {
        state.SkipWithError("the live count changed while timing");
        return;
    }
    report(state, clock, live, kStepBytes, ref);
}

// benchStep with per-stage step timing on (cpu/step_timing.h, World::setStepTiming): what the
// clock reads cost. Timing off runs the same branches without the reads, so this bounds it too.
void benchStepTimed(benchmark::State& state, CaseKey key) {
    CpuEffect* fx = filledEffect(key);
    if (!fx) {
        state.SkipWithError("could not build and fill the effect");
        return;
    }
    const uint64_t live = liveCount(*fx);
    References ref;
    ref.copy_s = copySecondsPerParticle(*fx->threads, live, kStepBytes);
    fx->timing = {};
    fx->timing.on = true;
    const LoopClock clock;
    for (auto _ : state) stepOnce(*fx);
    const double stages_ns =
        static_cast<double>(fx->timing.plan_ns + fx->timing.update_ns + fx->timing.collision_ns +
                            fx->timing.deaths_ns + fx->timing.births_ns);
    state.counters["update_share"] = static_cast<double>(fx->timing.update_ns) / stages_ns;
    fx->timing = {}; // the effect is shared with the other cases of its key
    if (liveCount(*fx) != live) {
        state.SkipWithError("the live count changed while timing");
        return;
    }
    report(state, clock, live, kStepBytes, ref);
}

struct DrawBuffer {
    struct Free {
        void operator()(DrawRecord* p) const { ::operator delete[](p, std::align_val_t(64)); }
    };
    std::unique_ptr<DrawRecord[], Free> records;
    explicit DrawBuffer(uint64_t count)
        : records(static_cast<DrawRecord*>(
              ::operator new[](count * sizeof(DrawRecord), std::align_val_t(64)))) {
        std::memset(static_cast<void*>(records.get()), 0, count * sizeof(DrawRecord));
    }
};

// writeDrawRecords alone (single-threaded by design: it has no thread parameter).
void benchDraw(benchmark::State& state, CaseKey key) {
    CpuEffect* fx = filledEffect(key);
    if (!fx) {
        state.SkipWithError("could not build and fill the effect");
        return;
    }
    const uint64_t live = liveCount(*fx);
    DrawBuffer out(live);
    References ref;
    ref.copy_s = copySecondsPerParticle(*fx->threads, live, kDrawBytes);
    const LoopClock clock;
    for (auto _ : state) {
        benchmark::DoNotOptimize(writeDrawRecords(*fx, out.records.get()));
        benchmark::ClobberMemory();
    }
    report(state, clock, live, kDrawBytes, ref);
}

// One frame's CPU work: a step, then the draw records.
void benchFrame(benchmark::State& state, CaseKey key) {
    CpuEffect* fx = filledEffect(key);
    if (!fx) {
        state.SkipWithError("could not build and fill the effect");
        return;
    }
    const uint64_t live = liveCount(*fx);
    DrawBuffer out(live);
    References ref;
    ref.copy_s = copySecondsPerParticle(*fx->threads, live, kStepBytes + kDrawBytes);
    const LoopClock clock;
    for (auto _ : state) {
        stepOnce(*fx);
        benchmark::DoNotOptimize(writeDrawRecords(*fx, out.records.get()));
        benchmark::ClobberMemory();
    }
    if (liveCount(*fx) != live) {
        state.SkipWithError("the live count changed while timing");
        return;
    }
    report(state, clock, live, kStepBytes + kDrawBytes, ref);
}

// ---------------------------------------------------------------------------------------------
// Births (src/cpu/spawn.cpp). Both effects are warmed up to a steady state before timing.

// births/churn: every particle lives one step, so each step removes kChurnParticles and plans as
// many births (newbornOf, storeBirth). Its reference is a memcpy of the bytes a birth writes.
constexpr uint32_t kChurnParticles = 1u << 17;
// The columns a birth writes: position, velocity (3 each), age, lifetime, rotation, flags,
// angular velocity, size, mass, colour (4), key (4 bytes each) and the 8-byte ordinal.
constexpr double kBirthWrittenBytes = 19 * 4 + 8;
// Steps run before timing, so pools are full and ordinals interleaved as in a long run.
constexpr int kBirthWarmupSteps = 120;

EffectDesc churnEffect() {
    EffectDesc effect;
    effect.name = "churn";
    effect.seed = 5;
    effect.duration_s = 10;
    effect.capacity = kChurnParticles;
    EmitterDesc e;
    e.name = "churn";
    e.capacity = kChurnParticles;
    e.spawn.rate_per_s = 60.0f * kChurnParticles;
    e.shape.type = ShapeKind::sphere;
    e.init.lifetime_s = {0.001f, 0.001f};
    e.init.speed = {1, 2};
    effect.emitters.push_back(e);
    return effect;
}

// events/fanout: the hostile case of issue 13: parents of capacity 2048 die young (about 1 700 a
// step), each death asks for `count` children of a child of capacity `capacity`, so a step asks
// for about 1 700 x count children. Timed against the reference path (every event's children
// written at once, planSlots per event: CpuConfig::reference_event_births) in the same process:
// vs_reference is the median of rounds that alternate the two (reference / planned).
EffectDesc fanOutEffect(uint32_t count, uint32_t capacity, OverflowPolicy overflow) {
    EffectDesc effect;
    effect.name = "fan_out";
    effect.seed = 7;
    effect.duration_s = 10;
    effect.capacity = 2048 + capacity;
    EmitterDesc parent;
    parent.name = "parents";
    parent.capacity = 2048;
    parent.spawn.rate_per_s = 102400;
    parent.init.lifetime_s = {0.01f, 0.02f};
    parent.init.speed = {1, 2};
    parent.sub_emitters.push_back({SubEmitterEvent::death, "children", 1, {count, count}, 0});
    effect.emitters.push_back(parent);
    EmitterDesc child;
    child.name = "children";
    child.capacity = capacity;
    child.overflow = overflow;
    child.spawn.rate_per_s = 0;
    child.init.lifetime_s = {0.5f, 1};
    child.init.speed = {1, 3};
    effect.emitters.push_back(child);
    return effect;
}

std::unique_ptr<CpuEffect> warmedEffect(const EffectDesc& desc, bool reference) {
    const std::shared_ptr<const CompiledEffect> compiled = compileOrNull(desc);
    if (!compiled) return nullptr;
    CpuConfig config;
    config.reference_event_births = reference;
    std::unique_ptr<CpuEffect> fx = createCpuEffect(compiled, config);
    for (int i = 0; i < kBirthWarmupSteps; ++i) stepOnce(*fx);
    return fx;
}

void benchChurn(benchmark::State& state) {
    std::unique_ptr<CpuEffect> fx = warmedEffect(churnEffect(), false);
    if (!fx) {
        state.SkipWithError("could not build the effect");
        return;
    }
    References ref;
    ref.copy_s = copySecondsPerParticle(*fx->threads, kChurnParticles, 2 * kBirthWrittenBytes);
    const uint64_t births_before = fx->stats[0].births;
    const LoopClock clock;
    for (auto _ : state) stepOnce(*fx);
    const uint64_t births = fx->stats[0].births - births_before;
    if (births != static_cast<uint64_t>(state.iterations()) * kChurnParticles) {
        state.SkipWithError("not every step bore the whole pool");
        return;
    }
    report(state, clock, kChurnParticles, 2 * kBirthWrittenBytes, ref);
}

// Seconds per step of `steps` steps of fx.
double secondsPerStep(CpuEffect& fx, int steps) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) stepOnce(fx);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / steps;
}

void benchFanOut(benchmark::State& state, uint32_t count, uint32_t capacity,
                 OverflowPolicy overflow) {
    const EffectDesc desc = fanOutEffect(count, capacity, overflow);
    std::unique_ptr<CpuEffect> reference = warmedEffect(desc, true);
    std::unique_ptr<CpuEffect> fx = warmedEffect(desc, false);
    if (!reference || !fx) {
        state.SkipWithError("could not build the effect");
        return;
    }
    // The ratio: medians of rounds that alternate the two paths, so both see the same load; a
    // round runs about 20 ms of steps of each.
    const auto roundSteps = [](CpuEffect& effect) {
        const double step_s = secondsPerStep(effect, 1);
        return static_cast<int>(std::clamp(0.02 / std::max(step_s, 1e-9), 1.0, 200.0));
    };
    const int reference_steps = roundSteps(*reference);
    const int planned_steps = roundSteps(*fx);
    std::vector<double> reference_s;
    std::vector<double> planned_s;
    for (int round = 0; round < kReferenceRuns; ++round) {
        reference_s.push_back(secondsPerStep(*reference, reference_steps));
        planned_s.push_back(secondsPerStep(*fx, planned_steps));
    }
    std::sort(reference_s.begin(), reference_s.end());
    std::sort(planned_s.begin(), planned_s.end());
    const double median_reference_s = reference_s[reference_s.size() / 2];
    const double median_planned_s = planned_s[planned_s.size() / 2];
    const EmitterStats before = fx->stats[1];
    const LoopClock clock;
    for (auto _ : state) stepOnce(*fx);
    const double loop_s = clock.wallSeconds();
    const double steps = static_cast<double>(state.iterations());
    const EmitterStats& after = fx->stats[1];
    const double requested = static_cast<double>(
        (after.births - before.births) + (after.overflow_dropped - before.overflow_dropped));
    state.counters["ms/step"] = loop_s / steps * 1e3;
    state.counters["children/step"] = requested / steps;
    state.counters["written/step"] = static_cast<double>(fx->work.event_births_written);
    state.counters["reference_ms/step"] = median_reference_s * 1e3;
    state.counters["vs_reference"] = median_reference_s / median_planned_s;
    state.counters["cpus"] = clock.cpuSeconds() / loop_s;
}

std::string countName(uint32_t particles) {
    return std::to_string(particles >> 20) + "M";
}

void registerStepCases(uint32_t particles) {
    for (const Stack stack : {Stack::basic, Stack::curl, Stack::fields}) {
        for (const uint32_t threads : {1u, 2u}) {
            const CaseKey key{stack, particles, threads};
            const std::string name = std::string("step/") + stackName(stack) + "/" +
                                     countName(particles) + "/threads:" + std::to_string(threads);
            auto* b = benchmark::RegisterBenchmark(name.c_str(), benchStep, key);
            b->UseRealTime()->Unit(benchmark::kMillisecond);
            if (particles == k16M) b->Iterations(kIterations16M);
        }
    }
}

void registerCases() {
    registerStepCases(k1M);
    for (const uint32_t threads : {1u, 2u}) {
        const std::string name = "step_timed/basic/1M/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), benchStepTimed,
                                     CaseKey{Stack::basic, k1M, threads})
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    // A frame at 1M when colour and size over life are evaluated at draw time.
    const CaseKey draw_key{Stack::basic, k1M, 1};
    benchmark::RegisterBenchmark("draw/basic/1M/threads:1", benchDraw, draw_key)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    for (const uint32_t threads : {1u, 2u}) {
        const std::string name = "step+draw/basic/1M/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), benchFrame, CaseKey{Stack::basic, k1M, threads})
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark("births/churn/128K/threads:1", benchChurn)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    struct FanOut {
        const char* name;
        uint32_t count;
        uint32_t capacity;
        OverflowPolicy overflow;
    };
    for (const FanOut& f :
         {FanOut{"events/fanout/1024x/2048/replace_oldest", 1024, 2048,
                 OverflowPolicy::replace_oldest},
          FanOut{"events/fanout/64x/1024/replace_oldest", 64, 1024, OverflowPolicy::replace_oldest},
          FanOut{"events/fanout/1024x/2048/drop_new", 1024, 2048, OverflowPolicy::drop_new}}) {
        benchmark::RegisterBenchmark(f.name, benchFanOut, f.count, f.capacity, f.overflow)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    registerStepCases(k16M);
}

} // namespace
} // namespace spindrift::cpu

int main(int argc, char** argv) {
    // Where the pools' columns land decides how fast the step runs (docs/benchmarks.md: the
    // columns of a fresh pool share their offset within a 4 KiB page). glibc raises its mmap
    // threshold after the first large free, so later cases of one run would get heap memory
    // while the first gets fresh mmaps. A fixed threshold (glibc's default value) gives every
    // case the layout a fresh process gets, whatever ran before it.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    spindrift::cpu::registerCases();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
