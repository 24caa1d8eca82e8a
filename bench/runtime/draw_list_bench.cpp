// The draw list (include/spindrift/draw_list.h): what World::drawList costs per particle, for one
// view and for two views of the same state (split screen, stereo), on a CPU world of sample
// effects, reported against a memcpy of the records' bytes measured in the same run (DESIGN
// rule 8):
//   vs_copy  the time of copying live_particles x 64 bytes (one DrawRecord each) divided by the
//            case's time: 1 means a view costs what merely copying its records does.
// The world is stepped once, before timing: drawList simulates nothing, so the cases time the
// record writing, the per-view sort of sorting emitters, strips and the batch list alone.
//
// Run: build/bin/draw_list_bench (bench/README.md); results: docs/benchmarks.md, "Draw list".
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

// Sample effects with sorted alpha, additive, ribbons and flipbooks among them.
const char* const kEffects[] = {"campfire.json", "smoke_plume.json", "magic_orb.json",
                                "sword_trail.json"};

struct Scene {
    EffectLibrary library;
    World world{library};
    uint64_t live = 0;
};

// `instances` instances spread on a 10 m grid, run for 3 s.
Scene& scene(int instances) {
    static std::vector<std::unique_ptr<Scene>> made(4096);
    std::unique_ptr<Scene>& s = made[static_cast<size_t>(instances)];
    if (s) return *s;
    s = std::make_unique<Scene>();
    for (int i = 0; i < instances; ++i) {
        const std::string path =
            std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/" + kEffects[i % 4];
        InstanceDesc desc;
        desc.effect = s->library.add(path);
        desc.transform.position = {float(i % 16) * 10, 0, -float(i / 16) * 10};
        InstanceHandle h;
        if (s->world.create(desc, h) != RuntimeError::none) {
            std::fprintf(stderr, "%s\n", s->world.lastErrorMessage().c_str());
            std::abort();
        }
    }
    for (int f = 0; f < 180; ++f) s->live = s->world.update(1.0 / 60.0).live_particles;
    return *s;
}

// Seconds to copy `bytes` once (best of a few), the same-run reference.
double copySeconds(size_t bytes) {
    std::vector<char> a(bytes, 1), b(bytes);
    double best = 1e30;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        std::memcpy(b.data(), a.data(), bytes);
        benchmark::DoNotOptimize(b.data());
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

DrawView viewFrom(Vec3 eye) {
    DrawView v;
    v.eye = eye;
    v.forward = {0.3f, -0.3f, -1};
    return v;
}

void BM_DrawList(benchmark::State& state) {
    const int instances = static_cast<int>(state.range(0));
    const int views = static_cast<int>(state.range(1));
    Scene& s = scene(instances);
    std::vector<DrawList> lists(static_cast<size_t>(views));
    const DrawView eyes[2] = {viewFrom({-5, 20, 30}), viewFrom({-4.9f, 20, 30})};
    for (int v = 0; v < views; ++v) s.world.drawList(eyes[v], lists[size_t(v)]); // warm
    double total_s = 0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int v = 0; v < views; ++v) s.world.drawList(eyes[v], lists[size_t(v)]);
        benchmark::ClobberMemory();
        total_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    const double mean_s = total_s / double(state.iterations());
    const double copy_s = copySeconds(s.live * 64) * views;
    state.counters["particles"] = double(s.live);
    state.counters["ns_per_particle_view"] = mean_s * 1e9 / (double(s.live) * views);
    state.counters["vs_copy"] = copy_s / mean_s;
}

BENCHMARK(BM_DrawList)
    ->Args({64, 1})
    ->Args({64, 2})
    ->Args({256, 1})
    ->Args({256, 2})
    ->Unit(benchmark::kMillisecond);

} // namespace
} // namespace spindrift

BENCHMARK_MAIN();
