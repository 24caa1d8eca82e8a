// A whole GPU frame, nothing read back but the image (issue 5 item 6, "update + sort + draw at
// 1920x1080"): N particles of the basic stack simulated by the GPU backend on the renderer's
// device, their draw records and (alpha) back-to-front order written on the device
// (gpu::submitDrawOutput), and drawn by the renderer with indirect draws from the device at
// 1920x1080 — the path `spindrift render --backend gpu` takes. Cases:
//
//   additive    additive soft discs, no sort: update + draw records + draw;
//   sorted      alpha soft discs: update + draw records + keys + radix sort + draw;
//   oit         alpha soft discs through weighted-blended OIT: no sort, accumulate + composite;
//   sorted_compute, additive_compute
//               the sorted and additive cases drawn by the compute rasteriser
//               (FrameView::raster compute, docs/rendering.md "Compute rasteriser"): its binning
//               submission (projection, scan) before the frame, then emit + tile sort + ranges +
//               per-tile blend in the frame; raster_bin_ms is the binning submission's GPU time
//               (included in draw_gpu_ms), raster_pairs its (tile, particle) pairs.
//
// Figures per frame, each against the empty frame (background, ground, readback) of the same
// size measured in the same run (DESIGN rule 8):
//   wall_ms / of_empty   host wall time of a whole frame (simulation submitted without waiting,
//                        then the renderer's synchronous frame with its image readback and sRGB
//                        conversion on the host) and its ratio to the empty frame's;
//   draw_gpu_ms          the render submission's GPU time (timestamps): draw-argument pass,
//                        opaque pass, the particles, readback copy;
//   draw_of_empty        draw_gpu_ms over the empty frame's GPU time.
// The simulation's own device time (update, draw records, keys, sort) is gpu_sim_bench's.
//
// Particles are 1-2 cm discs in the stack's 4 m sphere, seen from 14 m: about 1-2 pixels each
// at 1080 lines, so N particles cost about N fragments (the H200's raster pipeline is weak:
// ../shared/gpu-facts.md). Device: SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`).
// Sizes: SPINDRIFT_FRAME_SIZES (default "1M,10M"; decimal M), frames: SPINDRIFT_FRAME_ITERATIONS
// (default 10). After timing the live count must still be N.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/bench_effects.h"
#include "gpu/gpu_effect.h"
#include "render/billboard_params.h"
#include "render/device_records.h"
#include "render/renderer.h"

namespace spindrift::render {
namespace {

constexpr uint32_t kWidth = 1920;
constexpr uint32_t kHeight = 1080;

std::string env(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : fallback;
}

// Each case gets a renderer (and so a Vulkan device) of its own, destroyed with the case, after
// its GPU instance. With one renderer shared by every case, the 1M frames' draw time depended on
// which cases ran before them (H200: 6.5-8.4 ms when first, 12-14 ms after others): what an
// earlier case leaves on a shared device (device memory its larger pools freed in pieces, the
// buffers and pipeline variants grown for it) is then measured in the later cases. Now each case
// starts from the state it has when run alone, whatever the order.
RendererPtr makeRenderer() {
    RendererConfig config;
    config.width = kWidth;
    config.height = kHeight;
    config.device = env("SPINDRIFT_BENCH_DEVICE", "");
    std::vector<Diagnostic> diagnostics;
    RendererPtr r = createRenderer(config, diagnostics);
    for (const Diagnostic& d : diagnostics) {
        std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
    }
    static bool named = false;
    if (r && !named) {
        std::fprintf(stderr, "device: %s\n", rendererDevice(*r).name.c_str());
        named = true;
    }
    return r;
}

FrameView frameBenchView() {
    FrameView view;
    view.camera.eye = {0, 1, 14};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 1, 0};
    view.ground.enabled = false;
    return view;
}

enum class Case { empty, additive, sorted, oit, sorted_compute, additive_compute };

bool sortsOnDevice(Case c) {
    return c == Case::sorted || c == Case::sorted_compute;
}

bool additive(Case c) {
    return c == Case::additive || c == Case::additive_compute;
}

const char* caseName(Case c) {
    switch (c) {
    case Case::empty:
        return "empty";
    case Case::additive:
        return "additive";
    case Case::sorted:
        return "sorted";
    case Case::oit:
        return "oit";
    case Case::sorted_compute:
        return "sorted_compute";
    case Case::additive_compute:
        return "additive_compute";
    }
    return "?";
}

// The GPU instance of N particles on the renderer's device, filled (its bursts fire in the first
// steps) and ready to draw.
std::unique_ptr<gpu::GpuEffect> makeInstance(Renderer& renderer, Case c, uint32_t particles,
                                             std::string& error) {
    EffectDesc desc = bench::makeStackEffect(bench::Stack::basic, particles);
    EmitterDesc& e = desc.emitters[0];
    e.init.size = {0.01f, 0.02f};
    e.render.blend = additive(c) ? BlendMode::additive : BlendMode::alpha;
    e.render.sort = sortsOnDevice(c) ? SortMode::back_to_front : SortMode::none;
    auto compiled = bench::compileOrNull(desc);
    if (!compiled) {
        error = "the benchmark effect does not compile";
        return nullptr;
    }
    gpu::GpuConfig config;
    config.shared_device = rendererContext(renderer);
    config.async_statistics = true;
    std::vector<Diagnostic> diagnostics;
    auto fx = gpu::createGpuEffect(compiled, config, diagnostics);
    if (!fx) {
        error = diagnostics.empty() ? "createGpuEffect failed" : formatDiagnostic(diagnostics[0]);
        return nullptr;
    }
    const double dt = compiled->effect.fixed_timestep_s;
    for (int i = 0; i < 8 && fx->errors.empty(); ++i) gpu::advanceFrame(*fx, dt);
    gpu::waitForStatistics(*fx);
    if (gpu::liveCount(*fx) != particles) {
        error = "the pool holds " + std::to_string(gpu::liveCount(*fx)) + " particles, not " +
                std::to_string(particles);
        return nullptr;
    }
    return fx;
}

void runCase(benchmark::State& state, Case c, uint32_t particles) {
    // Declared before the instance: the instance, which lives on the renderer's device, goes
    // first.
    const RendererPtr renderer = makeRenderer();
    if (renderer == nullptr) {
        state.SkipWithError("no Vulkan device (see stderr)");
        return;
    }
    std::string error;
    std::unique_ptr<gpu::GpuEffect> fx;
    if (c != Case::empty) {
        fx = makeInstance(*renderer, c, particles, error);
        if (!fx) {
            state.SkipWithError(error.c_str());
            return;
        }
    }
    FrameView view = frameBenchView();
    view.transparency = c == Case::oit ? Transparency::weighted_oit : Transparency::sorted;
    const bool compute = c == Case::sorted_compute || c == Case::additive_compute;
    view.raster = compute ? RasterPath::compute : RasterPath::graphics;
    gpu::GpuDrawRequest request;
    request.eye = vec3(view.camera.eye.x, view.camera.eye.y, view.camera.eye.z);
    request.sort_modes = {sortsOnDevice(c) ? kSortBackToFront : kSortNone};
    std::vector<DrawBatch> batches;
    Image image;
    FrameStats stats;
    std::vector<Diagnostic> diagnostics;
    // One frame: step, draw output, draw. False after reporting the error.
    auto frame = [&] {
        batches.clear();
        if (fx) {
            gpu::advanceFrame(*fx, fx->effect->effect.fixed_timestep_s);
            if (!gpu::submitDrawOutput(*fx, request, diagnostics)) {
                state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
                return false;
            }
            BillboardBatch batch;
            batch.params = billboardParams(fx->effect->emitters[0], fx->world_from_effect);
            batch.device = deviceRecords(gpu::drawSource(*fx, 0));
            batches.push_back(batch);
        }
        if (!renderFrame(*renderer, view, batches, image, stats, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return false;
        }
        return true;
    };
    // Untimed: the first frame makes the pipeline variants this case draws with.
    if (!frame()) return;
    double gpu_ms = 0;
    double bin_ms = 0;
    for (auto _ : state) {
        if (!frame()) return;
        gpu_ms += stats.gpu_ms;
        bin_ms += stats.gpu_raster_bin_ms;
    }
    if (compute && stats.raster_batches != 1) {
        state.SkipWithError("the compute rasteriser did not draw the batch");
        return;
    }
    if (fx) {
        gpu::waitForStatistics(*fx);
        if (!fx->errors.empty() || gpu::liveCount(*fx) != particles) {
            state.SkipWithError("the pool lost particles or failed while timed");
            return;
        }
    }
    state.counters["draw_gpu_ms"] = gpu_ms / static_cast<double>(state.iterations());
    if (compute) {
        state.counters["raster_bin_ms"] = bin_ms / static_cast<double>(state.iterations());
        state.counters["raster_pairs"] = static_cast<double>(stats.raster_pairs);
    }
    state.counters["particles"] = c == Case::empty ? 0.0 : static_cast<double>(particles);
    state.SetLabel(caseName(c));
}

void registerCases() {
    const uint32_t iterations = static_cast<uint32_t>(
        std::strtoul(env("SPINDRIFT_FRAME_ITERATIONS", "10").c_str(), nullptr, 10));
    benchmark::RegisterBenchmark("GpuFrame/empty",
                                 [](benchmark::State& s) { runCase(s, Case::empty, 0); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(iterations);
    for (const uint64_t n : bench::parseCounts(env("SPINDRIFT_FRAME_SIZES", "1M,10M"), 1000)) {
        if (n == 0 || n > UINT32_MAX) continue;
        const auto particles = static_cast<uint32_t>(n);
        for (const Case c : {Case::additive, Case::sorted, Case::oit, Case::sorted_compute,
                             Case::additive_compute}) {
            const std::string name =
                std::string("GpuFrame/") + caseName(c) + "/" + std::to_string(particles);
            benchmark::RegisterBenchmark(
                name.c_str(), [c, particles](benchmark::State& s) { runCase(s, c, particles); })
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime()
                ->Iterations(iterations);
        }
    }
}

} // namespace
} // namespace spindrift::render

int main(int argc, char** argv) {
    spindrift::render::registerCases();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
