// The editor's live preview (src/editor/preview_session.h): one frame as `spindrift edit` serves
// it — the instance advanced by the wall time since the last frame, drawn at 640x360 by the
// renderer, read back and encoded as PNG — for the sample effects, on the CPU and the GPU backend.
// The frame rate is the figure issue 18 asks for (at least 30 fps on a GPU machine); the reference
// in the same run is the same session showing an effect with no particles (the empty frame: the
// ground, the read-back and the PNG), so each ratio is what the effect adds.
//
//   build/bin/preview_bench --benchmark_min_time=2
//
// Counters: fps (frames per second of wall time), simulate_ms, render_ms and encode_ms (the
// session's own per-stage figures for the last frame, as the page shows them).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "editor/file_root.h"
#include "editor/preview_session.h"

namespace {

using namespace spindrift;

const char* const kEffects[] = {"campfire", "spark_burst", "smoke_plume", "magic_orb"};

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// An effect whose one emitter never spawns: the frame without particles.
constexpr const char* kEmptyEffect = R"({
  "version": 1,
  "name": "empty",
  "emitters": [{
    "name": "nothing",
    "capacity": 16,
    "spawn": {"rate_per_s": 0},
    "render": {"type": "billboard"}
  }]
})";

void previewFrames(benchmark::State& state, const std::string& name, BackendRequest backend) {
    editor::FileRoot root;
    std::string error;
    if (!root.open(SPINDRIFT_SOURCE_DIR "/examples/effects", error)) {
        state.SkipWithError(error.c_str());
        return;
    }
    auto session = editor::PreviewSession::create(root, editor::PreviewConfig{}, error);
    if (!session) {
        state.SkipWithError(error.c_str());
        return;
    }
    if (!session->setBackend(backend, error)) {
        state.SkipWithError(error.c_str());
        return;
    }
    const std::string file = name.empty() ? "empty.json" : name + ".json";
    const std::string text =
        name.empty() ? std::string(kEmptyEffect) : readText(root.root() / file);
    const nlohmann::json answer = session->setDocument(text, file);
    if (!answer.value("valid", false)) {
        state.SkipWithError(("document refused: " + answer.dump()).c_str());
        return;
    }
    std::vector<uint8_t> png;
    nlohmann::json stats;
    // Warm up: the first frames build pipelines and upload textures.
    for (int i = 0; i < 10; ++i) {
        if (!session->frame(png, stats, error)) {
            state.SkipWithError(error.c_str());
            return;
        }
    }
    for (auto _ : state) {
        if (!session->frame(png, stats, error)) {
            state.SkipWithError(error.c_str());
            return;
        }
        benchmark::DoNotOptimize(png.data());
    }
    state.counters["fps"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    const nlohmann::json ms = stats.value("ms", nlohmann::json::object());
    state.counters["simulate_ms"] = ms.value("simulate", 0.0);
    state.counters["render_ms"] = ms.value("render", 0.0);
    state.counters["encode_ms"] = ms.value("encode", 0.0);
    state.counters["png_kb"] = static_cast<double>(png.size()) / 1024.0;
}

void registerAll() {
    for (BackendRequest backend : {BackendRequest::cpu, BackendRequest::gpu}) {
        const std::string suffix = backend == BackendRequest::cpu ? "/cpu" : "/gpu";
        benchmark::RegisterBenchmark(("preview/empty" + suffix).c_str(), previewFrames,
                                     std::string(), backend)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
        for (const char* effect : kEffects) {
            benchmark::RegisterBenchmark(("preview/" + std::string(effect) + suffix).c_str(),
                                         previewFrames, std::string(effect), backend)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    registerAll();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
