// The view's one back-to-front order (runtime/draw_order.h, runtime/draw_list_order.h): what
// merging the per-emitter sorted runs costs per particle, against the per-emitter sort that
// precedes it, measured in the same run (DESIGN rule 8):
//   merge_vs_sort  the order's time (orderAcrossBatches: every record's key, each emitter's cone
//                  seen from the eye, the neighbours, the k-way merge, the batches rebuilt) divided
//                  by the per-emitter sorts' time (render::particleDrawOrder of each emitter):
//                  what the one order adds to the sorting the list already did. Refilling the
//                  per-emitter list before each iteration is timed apart (fill_ns_per_particle).
// Records: `instances` instances x `emitters` sorting alpha emitters x 64 particles, each emitter's
// particles in a 2 m ball around its instance (several emitters of one instance share the ball:
// their particles interleave one by one, the worst case within an effect); instances either 10 m
// apart on a grid (spread: emitters of one instance interleave; instances at like distances
// interleave in depth but not on the screen, so they are not neighbours) or all in one 6 m box
// (packed: everything interleaves, the exact order needs more than kMaxDrawOrderSegments batches
// and is coarsened). The view is fixed; the records do not move between iterations.
//
// Run: build/bin/draw_order_bench (bench/README.md); results: docs/benchmarks.md, "Draw order".
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "render/particle_sort.h"
#include "runtime/draw_list.h"
#include "runtime/draw_list_order.h"

namespace spindrift {
namespace {

constexpr uint32_t kParticles = 64;

struct Batches {
    std::vector<std::vector<DrawRecord>> records; // per emitter, sorted back to front
};

float unit(uint32_t& state) {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1u << 24);
}

Batches make(int instances, uint32_t emitters, bool packed, vec3 eye,
             render::SortScratch& scratch) {
    Batches b;
    uint32_t state = 7;
    std::vector<uint32_t> order;
    for (int i = 0; i < instances; ++i) {
        const vec3 origin = packed ? vec3(6 * unit(state) - 3, 6 * unit(state), 6 * unit(state) - 3)
                                   : vec3(float(i % 16) * 10, 0, -float(i / 16) * 10);
        for (uint32_t e = 0; e < emitters; ++e) {
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

// A list of one billboard batch per emitter, as buildDrawList leaves it before the order.
void fillList(const Batches& b, DrawList::Impl& list) {
    list.batches.clear();
    list.entries.clear();
    list.stats = DrawListStats{};
    for (const std::vector<DrawRecord>& r : b.records) {
        DrawEntry entry;
        entry.render_type = kRenderBillboard;
        entry.records = r;
        DrawBatch batch;
        batch.blend = DrawBlend::alpha;
        batch.sort = DrawSort::back_to_front;
        batch.sorted = true;
        batch.particles = {reinterpret_cast<const DrawParticle*>(r.data()), r.size()};
        batch.particle_count = r.size();
        list.entries.push_back(entry);
        list.batches.push_back(batch);
    }
}

void BM_DrawOrderMerge(benchmark::State& state) {
    const int instances = static_cast<int>(state.range(0));
    const auto emitters = static_cast<uint32_t>(state.range(1));
    const bool packed = state.range(2) != 0;
    const vec3 eye(-5, 20, 30);
    DrawView view;
    view.eye = {eye.x, eye.y, eye.z};
    render::SortScratch scratch;
    const Batches b = make(instances, emitters, packed, eye, scratch);
    std::vector<uint32_t> order(kParticles);
    DrawList list;
    double merge_s = 0, sort_s = 0, fill_s = 0;
    for (auto _ : state) {
        // The per-emitter sorts the list does first (the reference).
        const auto t0 = std::chrono::steady_clock::now();
        for (const std::vector<DrawRecord>& r : b.records)
            render::particleDrawOrder(r, kSortBackToFront, eye, scratch, order);
        benchmark::DoNotOptimize(order.data());
        const auto t1 = std::chrono::steady_clock::now();
        fillList(b, list.impl());
        const auto t2 = std::chrono::steady_clock::now();
        // The one order: keys, cones, neighbours, merge, the batches rebuilt.
        orderAcrossBatches(view, list.impl());
        benchmark::DoNotOptimize(list.impl().batches.data());
        const auto t3 = std::chrono::steady_clock::now();
        sort_s += std::chrono::duration<double>(t1 - t0).count();
        fill_s += std::chrono::duration<double>(t2 - t1).count();
        merge_s += std::chrono::duration<double>(t3 - t2).count();
    }
    const DrawListStats& stats = list.stats();
    const double n = double(kParticles) * double(b.records.size()) * double(state.iterations());
    state.counters["particles"] = double(kParticles) * double(b.records.size());
    state.counters["batches"] = double(stats.order_batches);
    state.counters["exact_batches"] = double(stats.order_exact_batches);
    state.counters["coarsened"] = double(stats.order_coarsened_items);
    state.counters["merge_ns_per_particle"] = merge_s * 1e9 / n;
    state.counters["sort_ns_per_particle"] = sort_s * 1e9 / n;
    state.counters["fill_ns_per_particle"] = fill_s * 1e9 / n;
    state.counters["merge_vs_sort"] = merge_s / sort_s;
}

BENCHMARK(BM_DrawOrderMerge)
    ->Args({200, 1, 0})
    ->Args({200, 3, 0})
    ->Args({200, 3, 1})
    ->Args({1000, 1, 0})
    ->Unit(benchmark::kMillisecond);

} // namespace
} // namespace spindrift

BENCHMARK_MAIN();
