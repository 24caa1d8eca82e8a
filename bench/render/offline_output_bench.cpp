// Offline output (issue 17 item 9): what `spindrift render` spends writing a 1920x1080 PNG
// sequence, and the PNG compression settings it writes with. Two groups, each against a
// reference measured in the same run (DESIGN rule 8):
//
//   PngLevel/<level>/<filter>  encodePng of one rendered 1080p frame at a zlib level and row
//                              filter: ms per frame, the file's bytes, and both against level 9
//                              with adaptive filtering (the settings every frame was written
//                              with before: of_level9_time, of_level9_bytes);
//   RenderCommand/old|new      the whole `spindrift render` command (a child process: device,
//                              scene, simulation, drawing, readback, sRGB, PNG, files) writing N
//                              frames, frames per second; `old` is --png-level 9 --jobs 1 (each
//                              frame compressed at level 9 on the render thread before the next
//                              is drawn, as before), `new` the defaults (a lower level, frames
//                              compressed by writer threads while the next ones are drawn);
//                              new reports speedup = its frames/s over old's. Both sequences
//                              must decode to the same pixels, or the case fails.
//
// Scene: SPINDRIFT_OUTPUT_SCENE (default examples/scenes/campfire_night.json), frames:
// SPINDRIFT_OUTPUT_FRAMES (default 8; lavapipe draws a 1080p frame in a few hundred ms), device:
// SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`). Run:
//   build/bin/offline_output_bench          (docs/benchmarks.md, "Offline output")
#include <benchmark/benchmark.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "image/png_io.h"

extern char** environ;

namespace spindrift {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : fallback;
}

uint32_t frameCount() {
    return static_cast<uint32_t>(
        std::max(1ul, std::strtoul(env("SPINDRIFT_OUTPUT_FRAMES", "8").c_str(), nullptr, 10)));
}

fs::path workFolder() {
    static const fs::path folder = [] {
        fs::path p = fs::temp_directory_path() /
                     ("spindrift_offline_output_bench." + std::to_string(::getpid()));
        fs::create_directories(p);
        return p;
    }();
    return folder;
}

// Runs `spindrift render <scene> <extra...>` at 1920x1080; its wall time in seconds, or a
// negative number when it fails.
double runRender(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        SPINDRIFT_CLI_PATH,
        "render",
        env("SPINDRIFT_OUTPUT_SCENE", SPINDRIFT_SOURCE_DIR "/examples/scenes/campfire_night.json"),
        "--size",
        "1920x1080",
        "--quiet"};
    const std::string device = env("SPINDRIFT_BENCH_DEVICE", "");
    if (!device.empty()) {
        args.push_back("--device");
        args.push_back(device);
    }
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One rendered 1080p frame (the scene at 2 s), decoded: what the level table compresses.
const Image* sampleFrame() {
    static const Image frame = [] {
        const fs::path file = workFolder() / "sample.png";
        Image image;
        std::vector<Diagnostic> diagnostics;
        if (runRender({"--time", "2", "--png-level", "0", "-o", file.string()}) >= 0)
            readPng(file.string(), image, diagnostics);
        return image;
    }();
    return frame.rgba8.empty() ? nullptr : &frame;
}

struct Encoded {
    double seconds = 0; // per encode, the fastest of the repeats
    size_t bytes = 0;
};

Encoded encodeTimed(const Image& image, const PngEncoding& encoding, int repeats) {
    Encoded out{1e30, 0};
    std::vector<uint8_t> bytes;
    std::vector<Diagnostic> diagnostics;
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        encodePng(image, "bench.png", bytes, diagnostics, encoding);
        out.seconds = std::min(
            out.seconds,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    out.bytes = bytes.size();
    return out;
}

// The reference: level 9, adaptive filters, measured once in the run.
const Encoded& level9() {
    static const Encoded reference = encodeTimed(*sampleFrame(), PngEncoding{}, 2);
    return reference;
}

const char* filterName(PngFilter f) {
    switch (f) {
    case PngFilter::none:
        return "none";
    case PngFilter::sub:
        return "sub";
    case PngFilter::up:
        return "up";
    case PngFilter::paeth:
        return "paeth";
    case PngFilter::adaptive:
        return "adaptive";
    }
    return "?";
}

void pngLevel(benchmark::State& state, int level, PngFilter filter) {
    const Image* frame = sampleFrame();
    if (frame == nullptr) {
        state.SkipWithError("the sample frame did not render (see stderr)");
        return;
    }
    const Encoded& reference = level9();
    Encoded e;
    for (auto _ : state) {
        e = encodeTimed(*frame, PngEncoding{level, filter}, 1);
        state.SetIterationTime(e.seconds);
    }
    state.counters["bytes"] = static_cast<double>(e.bytes);
    state.counters["of_level9_time"] = e.seconds / reference.seconds;
    state.counters["of_level9_bytes"] = double(e.bytes) / double(reference.bytes);
}

// The frames of a sequence decode, and to the same pixels as the other sequence's.
bool samePixels(const fs::path& a, const fs::path& b, uint32_t frames, std::string& error) {
    for (uint32_t i = 0; i < frames; ++i) {
        char name[32];
        std::snprintf(name, sizeof(name), "f_%04u.png", i);
        Image x, y;
        std::vector<Diagnostic> diagnostics;
        if (!readPng((a / name).string(), x, diagnostics) ||
            !readPng((b / name).string(), y, diagnostics)) {
            error = formatDiagnostic(diagnostics.back());
            return false;
        }
        if (x.width != y.width || x.height != y.height || x.rgba8 != y.rgba8) {
            error = std::string("frame ") + name + " differs between the old and new paths";
            return false;
        }
    }
    return true;
}

// Seconds of one render of the sequence with the old settings, measured once in the run.
double oldSeconds() {
    static const double seconds = [] {
        const fs::path folder = workFolder() / "old";
        fs::create_directories(folder);
        return runRender({"--frames", std::to_string(frameCount()), "--png-level", "9", "--jobs",
                          "1", "-o", (folder / "f_%04d.png").string()});
    }();
    return seconds;
}

void renderCommand(benchmark::State& state, bool new_settings) {
    const uint32_t frames = frameCount();
    const double old_s = oldSeconds();
    if (old_s < 0) {
        state.SkipWithError("spindrift render failed (see stderr)");
        return;
    }
    double seconds = old_s;
    for (auto _ : state) {
        if (new_settings) {
            const fs::path folder = workFolder() / "new";
            fs::create_directories(folder);
            seconds = runRender(
                {"--frames", std::to_string(frames), "-o", (folder / "f_%04d.png").string()});
            if (seconds < 0) {
                state.SkipWithError("spindrift render failed (see stderr)");
                return;
            }
        }
        state.SetIterationTime(seconds);
    }
    if (new_settings) {
        std::string error;
        if (!samePixels(workFolder() / "old", workFolder() / "new", frames, error)) {
            state.SkipWithError(error.c_str());
            return;
        }
        state.counters["speedup"] = old_s / seconds;
    }
    state.counters["frames_per_s"] = frames / seconds;
    state.counters["frames"] = frames;
}

void registerCases() {
    for (int level = 1; level <= 9; ++level) {
        benchmark::RegisterBenchmark(
            ("PngLevel/" + std::to_string(level) + "/adaptive").c_str(),
            [level](benchmark::State& s) { pngLevel(s, level, PngFilter::adaptive); })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(2);
    }
    for (const int level : {1, 3, 6}) {
        for (const PngFilter f :
             {PngFilter::none, PngFilter::sub, PngFilter::up, PngFilter::paeth}) {
            benchmark::RegisterBenchmark(
                ("PngLevel/" + std::to_string(level) + "/" + filterName(f)).c_str(),
                [level, f](benchmark::State& s) { pngLevel(s, level, f); })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond)
                ->Iterations(2);
        }
    }
    benchmark::RegisterBenchmark("RenderCommand/old",
                                 [](benchmark::State& s) { renderCommand(s, false); })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
    benchmark::RegisterBenchmark("RenderCommand/new",
                                 [](benchmark::State& s) { renderCommand(s, true); })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
}

} // namespace
} // namespace spindrift

int main(int argc, char** argv) {
    spindrift::registerCases();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::error_code ignored;
    std::filesystem::remove_all(spindrift::workFolder(), ignored);
    return 0;
}
