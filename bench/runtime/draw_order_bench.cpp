// The view's one back-to-front order (runtime/draw_order.h, runtime/draw_list_order.h): what
// merging the per-emitter sorted runs costs per particle, against the per-emitter sort that
// precedes it, measured in the same run (DESIGN rule 8):
//   merge_vs_sort  the merge's time (keys of every record, then the k-way merge) divided by the
//                  per-emitter sorts' time (render::particleDrawOrder of each emitter): what the
//                  one order adds to the sorting the list already did.
// Records: `instances` instances x 3 emitters x 64 particles, each emitter's particles in a 2 m
// ball around its instance; instances either 10 m apart on a grid (spread: emitters of one
// instance interleave, instances barely) or all in one 6 m box (packed: everything interleaves,
// the exact order needs more than kMaxDrawOrderSegments batches and is coarsened). The view is
// fixed; the records do not move between iterations.
//
// Run: build/bin/draw_order_bench (bench/README.md); results: docs/benchmarks.md, "Draw order".
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "kernels/sort_key.h"
#include "render/particle_sort.h"
#include "runtime/draw_list_order.h"
#include "runtime/draw_order.h"

namespace spindrift {
namespace {

constexpr uint32_t kEmitters = 3;
constexpr uint32_t kParticles = 64;

struct Batches {
    std::vector<std::vector<DrawRecord>> records; // per emitter, sorted back to front
};

float unit(uint32_t& state) {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1u << 24);
}

Batches make(int instances, bool packed, vec3 eye, render::SortScratch& scratch) {
    Batches b;
    uint32_t state = 7;
    std::vector<uint32_t> order;
    for (int i = 0; i < instances; ++i) {
        const vec3 origin = packed ? vec3(6 * unit(state) - 3, 6 * unit(state), 6 * unit(state) - 3)
                                   : vec3(float(i % 16) * 10, 0, -float(i / 16) * 10);
        for (uint32_t e = 0; e < kEmitters; ++e) {
            std::vector<DrawRecord> r(kParticles);
            for (DrawRecord& x : r) {
                const vec3 p = origin + 2.0f * vec3(unit(state), unit(state), unit(state)) - 1.0f;
                x.position_size = vec4(p, 0.5f);
            }
            render::sortDrawRecords(r, kSortBackToFront, eye, scratch);
            b.records.push_back(std::move(r));
        }
    }
    return b;
}

void BM_DrawOrderMerge(benchmark::State& state) {
    const int instances = static_cast<int>(state.range(0));
    const bool packed = state.range(1) != 0;
    const vec3 eye(-5, 20, 30);
    render::SortScratch scratch;
    const Batches b = make(instances, packed, eye, scratch);
    std::vector<uint32_t> keys, order(kParticles);
    std::vector<OrderRun> runs;
    std::vector<OrderSegment> segments;
    OrderMergeScratch merge_scratch;
    OrderMergeResult result;
    double merge_s = 0, sort_s = 0;
    uint64_t particles = 0;
    for (auto _ : state) {
        // The per-emitter sorts the list does first (the reference).
        auto t0 = std::chrono::steady_clock::now();
        for (const std::vector<DrawRecord>& r : b.records)
            render::particleDrawOrder(r, kSortBackToFront, eye, scratch, order);
        benchmark::DoNotOptimize(order.data());
        auto t1 = std::chrono::steady_clock::now();
        sort_s += std::chrono::duration<double>(t1 - t0).count();
        // The one order: every record's key, then the merge.
        keys.clear();
        runs.clear();
        for (const std::vector<DrawRecord>& r : b.records) {
            runs.push_back({uint32_t(keys.size()), uint32_t(r.size())});
            for (const DrawRecord& x : r)
                keys.push_back(sdDrawRecordSortKey(x, kSortBackToFront, eye));
        }
        result = mergeSortedRuns(keys, runs, kMaxDrawOrderSegments, merge_scratch, segments);
        benchmark::DoNotOptimize(segments.data());
        merge_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        particles = keys.size();
    }
    const double n = double(particles) * double(state.iterations());
    state.counters["particles"] = double(particles);
    state.counters["batches"] = double(segments.size());
    state.counters["exact_batches"] = double(result.exact_segments);
    state.counters["merge_ns_per_particle"] = merge_s * 1e9 / n;
    state.counters["sort_ns_per_particle"] = sort_s * 1e9 / n;
    state.counters["merge_vs_sort"] = merge_s / sort_s;
}

BENCHMARK(BM_DrawOrderMerge)
    ->Args({200, 0})
    ->Args({200, 1})
    ->Args({1000, 0})
    ->Unit(benchmark::kMillisecond);

} // namespace
} // namespace spindrift

BENCHMARK_MAIN();
