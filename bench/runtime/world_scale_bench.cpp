// A game-sized world (issue 15, point 7): 1,000 instances of the example effects spread over
// 2 x 2 km, with a camera flying through it, and what a sleeping or culled instance costs.
//
//   scale/world1000/moving   the 11 example effects (each given a scalability block: sleep past
//                            150 m, births fading over the last 30 m, fast-forward wake of at
//                            most 2 s, culled instances sleep) placed 1,000 times at pseudo-random
//                            points of a 2 km square; the camera flies a straight line across it
//                            at 20 m/s, looking ahead with a 60-degree cull view. One iteration =
//                            World::update(1/60 s) + World::drawList of that view (asleep and
//                            culled instances are not drawn). Counters: awake (instances stepped
//                            per frame, average), us_per_awake (frame time over the awake
//                            instances), live (particles).
//   scale/world1000/awake    the reference, same run: the same 1,000 instances of the examples as
//                            they are (no scalability block), camera and cull view as above:
//                            every instance awake and stepped, the drawn ones culled by nothing.
//   scale/sleepers1000       the same 1,000 instances with the camera 10 km away: every one asleep
//                            in a far bucket. ns_per_instance is the frame time over 1,000.
//   scale/culled1000         1,000 instances of one effect within 100 m, all behind the cull view
//                            (culled instances sleep). ns_per_instance as above.
//   Reference for both: vs_touch, the time over a loop that reads and writes one 64-byte line
//   of each of 1,000 heap objects (the least a per-instance visit could cost), same process.
//
// Run: build-bench/bin/world_scale_bench (bench/README.md); results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kInstances = 1000;
constexpr double kFrameSeconds = 1.0 / 60.0;
constexpr float kField = 2000.0f; // metres, each side
constexpr const char* kSamples[] = {"campfire",    "ember_gust", "fireworks",   "fountain",
                                    "lightning",   "magic_orb",  "portal_ring", "rockfall",
                                    "smoke_plume", "snowfall",   "spark_burst"};
constexpr const char* kScalability =
    R"("scalability": {"sleep_distance_m": 150, "fade_band_m": 30, "max_fast_forward_s": 2,
        "when_culled": "sleep"},)";

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The examples copied to a temporary folder (meshes and textures with them), each given the
// scalability block after its opening brace. Returns the folder.
const fs::path& sampleDir() {
    static const fs::path dir = [] {
        const fs::path source = fs::path(SPINDRIFT_SOURCE_DIR) / "examples/effects";
        const fs::path d = fs::temp_directory_path() /
                           ("spindrift_scale_bench_" + std::to_string(long(::getpid())));
        fs::create_directories(d);
        fs::copy(source / "meshes", d / "meshes", fs::copy_options::recursive);
        fs::copy(source / "textures", d / "textures", fs::copy_options::recursive);
        for (const char* name : kSamples) {
            std::ifstream in(source / (std::string(name) + ".json"));
            std::stringstream text;
            text << in.rdbuf();
            std::string s = text.str();
            s.insert(s.find('{') + 1, std::string("\n  ") + kScalability);
            std::ofstream(d / (std::string(name) + ".json")) << s;
        }
        return d;
    }();
    return dir;
}

// A small deterministic generator for the placements (the same world every run).
uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
float unit(uint32_t i, uint32_t salt) {
    return float(hash32(i * 2654435761u + salt) >> 8) / float(1u << 24);
}

struct ScaleWorld {
    EffectLibrary library;
    std::unique_ptr<World> world;
    DrawView view;
    DrawList list;

    // scalable: the examples with the scalability block; else the examples as they are.
    explicit ScaleWorld(bool scalable = true) {
        const fs::path dir =
            scalable ? sampleDir() : fs::path(SPINDRIFT_SOURCE_DIR) / "examples/effects";
        std::vector<EffectId> ids;
        for (const char* name : kSamples)
            ids.push_back(library.add((dir / (std::string(name) + ".json")).string()));
        world = std::make_unique<World>(library);
        for (uint32_t i = 0; i < kInstances; ++i) {
            InstanceDesc desc;
            desc.effect = ids[i % ids.size()];
            desc.transform.position = {(unit(i, 1) - 0.5f) * kField, 0,
                                       (unit(i, 2) - 0.5f) * kField};
            InstanceHandle h;
            if (world->create(desc, h) != RuntimeError::none) {
                std::fprintf(stderr, "world_scale_bench: %s\n", world->lastErrorMessage().c_str());
                std::abort();
            }
        }
    }

    // The camera at `eye` looking along +x (the flight's direction).
    void look(const Vec3& eye, const Vec3& forward) {
        world->setCameraPosition(eye);
        view.eye = eye;
        view.forward = forward;
        view.fov_y_deg = 60;
        view.far_m = 1000;
        world->setCullView(&view);
    }

    WorldUpdateReceipt frame() {
        const WorldUpdateReceipt r = world->update(kFrameSeconds);
        world->drawList(view, list);
        benchmark::DoNotOptimize(list.batches().data());
        return r;
    }
};

// The least a per-instance visit could cost: read and write one cache line of each of 1,000
// separately allocated objects (median of 5 passes).
double touchSecondsPerInstance() {
    struct alignas(64) Line {
        uint64_t words[8];
    };
    std::vector<std::unique_ptr<Line>> lines;
    for (uint32_t i = 0; i < kInstances; ++i) {
        lines.push_back(std::make_unique<Line>());
        // Keep the objects apart, as instances are.
        std::vector<char> gap(4096);
        benchmark::DoNotOptimize(gap.data());
    }
    std::vector<double> runs;
    for (int pass = 0; pass < 6; ++pass) {
        const double t0 = wallSeconds();
        for (auto& l : lines) l->words[0] += l->words[1] + 1;
        benchmark::ClobberMemory();
        if (pass > 0) runs.push_back(wallSeconds() - t0);
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2] / kInstances;
}

void BM_Moving(benchmark::State& state) {
    ScaleWorld s(state.range(0) != 0);
    // Fly from the west edge eastwards at 20 m/s, 1.7 m up; warm up over 2 s of flight.
    Vec3 eye{-900, 1.7f, 37};
    const Vec3 forward{1, 0, 0};
    auto advance = [&] {
        eye.x += float(20.0 * kFrameSeconds);
        if (eye.x > 900) eye.x = -900;
        s.look(eye, forward);
        return s.frame();
    };
    for (int i = 0; i < 120; ++i) advance();
    uint64_t awake = 0, live = 0, frames = 0;
    const double t0 = wallSeconds();
    for (auto _ : state) {
        const WorldUpdateReceipt r = advance();
        awake += r.instances_stepped;
        live += r.live_particles;
        frames += 1;
    }
    const double per_frame = (wallSeconds() - t0) / double(std::max<uint64_t>(frames, 1));
    const double avg_awake = double(awake) / double(std::max<uint64_t>(frames, 1));
    state.counters["awake"] = avg_awake;
    state.counters["live"] = double(live) / double(std::max<uint64_t>(frames, 1));
    state.counters["us_per_awake"] = avg_awake > 0 ? per_frame / avg_awake * 1e6 : 0;
    state.counters["us_per_frame"] = per_frame * 1e6;
}
BENCHMARK(BM_Moving)->Name("scale/world1000/moving")->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Moving)->Name("scale/world1000/awake")->Arg(0)->Unit(benchmark::kMillisecond);

void reportPerInstance(benchmark::State& state, double seconds, uint64_t frames, uint64_t asleep) {
    const double per_instance = seconds / double(std::max<uint64_t>(frames, 1)) / kInstances;
    state.counters["ns_per_instance"] = per_instance * 1e9;
    state.counters["vs_touch"] = per_instance / touchSecondsPerInstance();
    state.counters["asleep"] = double(asleep) / double(std::max<uint64_t>(frames, 1));
}

void BM_Sleepers(benchmark::State& state) {
    ScaleWorld s;
    s.world->setCameraPosition({10000, 0, 10000});
    for (int i = 0; i < 10; ++i) s.frame();
    uint64_t frames = 0, asleep = 0;
    const double t0 = wallSeconds();
    for (auto _ : state) {
        asleep += s.world->update(kFrameSeconds).instances_asleep;
        frames += 1;
    }
    reportPerInstance(state, wallSeconds() - t0, frames, asleep);
}
BENCHMARK(BM_Sleepers)->Name("scale/sleepers1000")->Unit(benchmark::kMicrosecond);

void BM_Culled(benchmark::State& state) {
    EffectLibrary library;
    const EffectId id = library.add((sampleDir() / "campfire.json").string());
    World world(library);
    for (uint32_t i = 0; i < kInstances; ++i) {
        InstanceDesc desc;
        desc.effect = id;
        desc.transform.position = {(unit(i, 3) - 0.5f) * 100.0f, 0, 20 + unit(i, 4) * 80.0f};
        InstanceHandle h;
        world.create(desc, h);
    }
    DrawView view; // at the origin looking along -z: everything at z > 20 is behind it
    view.forward = {0, 0, -1};
    world.setCullView(&view);
    for (int i = 0; i < 10; ++i) world.update(kFrameSeconds);
    uint64_t frames = 0, asleep = 0;
    const double t0 = wallSeconds();
    for (auto _ : state) {
        asleep += world.update(kFrameSeconds).instances_asleep;
        frames += 1;
    }
    reportPerInstance(state, wallSeconds() - t0, frames, asleep);
}
BENCHMARK(BM_Culled)->Name("scale/culled1000")->Unit(benchmark::kMicrosecond);

} // namespace
} // namespace spindrift

BENCHMARK_MAIN();
