// The renderer's frame time: 100k billboards at 1280x720, against an empty frame (clear, ground,
// readback) measured in the same run (DESIGN rule 8). Wall time per frame is what a caller of
// renderFrame waits (record upload, draw, readback of the image); gpu_ms is the device time of
// the passes alone (timestamp queries), which excludes the upload and readback.
//
// Device: SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`; empty picks the first GPU,
// else lavapipe). Run: build/bin/render_bench  (docs/benchmarks.md has the figures).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/random.h"
#include "render/billboard_params.h"
#include "render/particle_sort.h"
#include "render/renderer.h"

namespace spindrift::render {
namespace {

constexpr uint32_t kWidth = 1280, kHeight = 720;

Renderer* sharedRenderer() {
    static RendererPtr renderer = [] {
        RendererConfig config;
        config.width = kWidth;
        config.height = kHeight;
        const char* device = std::getenv("SPINDRIFT_BENCH_DEVICE");
        config.device = device != nullptr ? device : "";
        std::vector<Diagnostic> diagnostics;
        RendererPtr r = createRenderer(config, diagnostics);
        for (const Diagnostic& d : diagnostics)
            std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
        if (r) std::fprintf(stderr, "render_bench: device %s\n", rendererDevice(*r).name.c_str());
        return r;
    }();
    return renderer.get();
}

FrameView benchView() {
    FrameView view;
    view.camera.eye = {0, 2, 9};
    view.camera.target = {0, 1.5f, 0};
    view.camera.up = {0, 1, 0};
    return view;
}

BillboardParams paramsFor(uint32_t blend) {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.axis = vec4(0, 1, 0, 0);
    e.blend = blend;
    e.alignment = kAlignCamera;
    return billboardParams(e, Rows3x4{});
}

// count particles spread through a 8 x 4 x 4 m box in front of the camera, edge `size` metres,
// colours and ages varied; the same every run.
std::vector<DrawRecord> particles(size_t count, float size) {
    std::vector<DrawRecord> records(count);
    for (size_t i = 0; i < count; ++i) {
        const uint key = sdParticleKey(1u, 0u, static_cast<uint>(i), 0u);
        const vec3 p(8.0f * sdRandom01(key, 0u) - 4.0f, 4.0f * sdRandom01(key, 1u) - 0.5f,
                     4.0f * sdRandom01(key, 2u) - 2.0f);
        const vec4 color(sdRandom01(key, 3u), 0.5f, sdRandom01(key, 4u), 0.6f);
        records[i] = sdDrawRecord(p, size, color, vec3(0), 6.28f * sdRandom01(key, 5u),
                                  sdRandom01(key, 6u), 0.0f, 0u, key);
    }
    return records;
}

void runFrames(benchmark::State& state, std::span<const DrawBatch> batches,
               std::vector<DrawRecord>* sort_records) {
    Renderer* renderer = sharedRenderer();
    if (renderer == nullptr) {
        state.SkipWithError("no Vulkan device (see stderr)");
        return;
    }
    const FrameView view = benchView();
    Image image;
    FrameStats stats;
    SortScratch scratch;
    std::vector<Diagnostic> diagnostics;
    double gpu_ms = 0;
    for (auto _ : state) {
        if (sort_records != nullptr) {
            sortDrawRecords(*sort_records, kSortBackToFront, vec3(0, 2, 9), scratch);
        }
        if (!renderFrame(*renderer, view, batches, image, stats, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return;
        }
        gpu_ms += stats.gpu_ms;
    }
    state.counters["gpu_ms"] = gpu_ms / static_cast<double>(state.iterations());
    state.counters["particles"] = static_cast<double>(stats.particles_drawn);
}

// The reference: a frame with nothing but the background, ground and readback.
void BM_EmptyFrame(benchmark::State& state) {
    runFrames(state, {}, nullptr);
}

// 100k additive soft discs: no sorting, order-independent blending.
void BM_Additive100k(benchmark::State& state) {
    const std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100.0f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAdditive), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, nullptr);
}

// 100k alpha-blended soft discs sorted back to front on the CPU every frame (radix sort).
void BM_AlphaSorted100k(benchmark::State& state) {
    std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100.0f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, &records);
}

// Size in centimetres: 8 cm is about 4 pixels across at this distance, 40 cm about 20.
BENCHMARK(BM_EmptyFrame)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Additive100k)->Arg(8)->Arg(40)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AlphaSorted100k)->Arg(8)->Arg(40)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
} // namespace spindrift::render

BENCHMARK_MAIN();
