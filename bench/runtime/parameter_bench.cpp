// The cost of World::setParameter (docs/runtime-api.md, "Parameters"): one call that changes a
// value copies the instance's compiled records and patches the bound words. Reported against a
// reference measured in the same run (DESIGN rule 8): a memcpy of the same number of record
// bytes, and one World::update of the same instance (a 60 Hz frame).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "spindrift/runtime.h"

namespace {

// A fire whose rate, colour, wind and curl strength are parameters (examples/effects/ember_gust
// with three emitters, so the records are those of a typical multi-emitter effect).
const char* kEffect = R"({
  "version": 1, "name": "bench", "duration_s": 4,
  "parameters": [
    {"name": "intensity", "type": "float", "default": 80, "range": [0, 400]},
    {"name": "tint", "type": "color", "default": [4, 1.6, 0.4, 1], "range": [0, [16, 16, 16, 1]]},
    {"name": "wind", "type": "float3", "default": [0.6, 0, 0], "range": [-8, 8]}
  ],
  "emitters": [
    {"name": "a", "spawn": {"rate_per_s": {"param": "intensity"}},
     "init": {"lifetime_s": 2, "color": {"param": "tint"}},
     "update": [{"type": "force", "acceleration": {"param": "wind"}}, {"type": "drag"},
                {"type": "curl_noise"}, {"type": "color_over_life"}, {"type": "size_over_life"}]},
    {"name": "b", "spawn": {"rate_per_s": {"param": "intensity"}},
     "update": [{"type": "gravity"}, {"type": "color_over_life"}]},
    {"name": "c", "spawn": {"rate_per_s": 40},
     "update": [{"type": "wind", "velocity": {"param": "wind"}}, {"type": "size_over_life"}]}
  ]
})";

struct Fixture {
    std::string path;
    spindrift::EffectLibrary library;
    std::unique_ptr<spindrift::World> world;
    spindrift::InstanceHandle h;

    Fixture() {
        path = (std::filesystem::temp_directory_path() / "spindrift_parameter_bench.json").string();
        std::ofstream(path, std::ios::binary | std::ios::trunc) << kEffect;
        world = std::make_unique<spindrift::World>(library);
        spindrift::InstanceDesc desc;
        desc.effect = library.add(path);
        if (world->create(desc, h) != spindrift::RuntimeError::none) {
            std::fprintf(stderr, "%s\n", world->lastErrorMessage().c_str());
            std::abort();
        }
        for (int i = 0; i < 120; ++i) world->update(1.0 / 60.0); // ~300 live particles
    }
};

Fixture& fixture() {
    static Fixture f;
    return f;
}

// Alternates two values, so every call changes the value and patches.
void setParameter(benchmark::State& state) {
    Fixture& f = fixture();
    float value = 100;
    for (auto _ : state) {
        value = value == 100 ? 200 : 100;
        benchmark::DoNotOptimize(f.world->setParameter(f.h, "intensity", value));
    }
}
BENCHMARK(setParameter);

// The same value again: no patch.
void setParameterUnchanged(benchmark::State& state) {
    Fixture& f = fixture();
    for (auto _ : state) {
        benchmark::DoNotOptimize(f.world->setParameter(f.h, "intensity", 100.0f));
    }
}
BENCHMARK(setParameterUnchanged);

// Reference: a memcpy of the bytes of the effect's records (4 KiB covers its emitter, op,
// burst and LUT records: 3 x 464 + 9 x 64 + 4 rows x 1024).
void recordCopyReference(benchmark::State& state) {
    std::vector<unsigned char> from(6 * 1024, 1), to(from.size());
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), from.size());
        benchmark::DoNotOptimize(to.data());
        benchmark::ClobberMemory();
    }
}
BENCHMARK(recordCopyReference);

// Reference: one 60 Hz frame of the same world.
void updateReference(benchmark::State& state) {
    Fixture& f = fixture();
    for (auto _ : state) benchmark::DoNotOptimize(f.world->update(1.0 / 60.0));
}
BENCHMARK(updateReference);

} // namespace

BENCHMARK_MAIN();
