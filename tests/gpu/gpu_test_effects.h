// Effects the GPU backend's tests build in code, and the samples they load: one builder for the
// busy little emitters they share (a rate, an optional burst, a sphere, varied lifetimes, speeds
// and sizes), so each test states only what it varies. Every field left out keeps the authoring
// default (effect_desc.h).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cook/effect_file.h"
#include "cpu/cpu_test_effects.h"
#include "spindrift/effect_desc.h"

namespace spindrift::gpu::test {

using cpu::test::compileOrFail;

// One emitter; designated initialisers name what a test sets.
struct SprayDesc {
    const char* name = "e";
    uint32_t capacity = EmitterDesc{}.capacity;
    float rate_per_s = SpawnDesc{}.rate_per_s;
    float burst_time_s = 0;
    CountRange burst_count{0, 0}; // no burst when max is 0
    float sphere_radius = 0;      // > 0: a sphere of this radius; 0 keeps the default shape
    FloatRange lifetime_s = InitDesc{}.lifetime_s;
    FloatRange speed = InitDesc{}.speed;
    FloatRange size = InitDesc{}.size;
};

inline EmitterDesc sprayEmitter(const SprayDesc& s) {
    EmitterDesc e;
    e.name = s.name;
    e.capacity = s.capacity;
    e.spawn.rate_per_s = s.rate_per_s;
    if (s.burst_count.max > 0) {
        Burst burst;
        burst.time_s = s.burst_time_s;
        burst.count = s.burst_count;
        e.spawn.bursts.push_back(burst);
    }
    if (s.sphere_radius > 0) {
        e.shape.type = ShapeKind::sphere;
        e.shape.radius = s.sphere_radius;
    }
    e.init.lifetime_s = s.lifetime_s;
    e.init.speed = s.speed;
    e.init.size = s.size;
    return e;
}

// The effect's own fields.
struct TestEffectDesc {
    const char* name = "test";
    uint32_t seed = EffectDesc{}.seed;
    float duration_s = EffectDesc{}.duration_s;
    uint32_t capacity = EffectDesc{}.capacity;
};

inline EffectDesc testEffect(const TestEffectDesc& t, std::vector<EmitterDesc> emitters) {
    EffectDesc fx;
    fx.name = t.name;
    fx.seed = t.seed;
    fx.duration_s = t.duration_s;
    fx.capacity = t.capacity;
    fx.emitters = std::move(emitters);
    return fx;
}

// examples/effects/<name>, compiled (a failure fails the test).
inline std::shared_ptr<const CompiledEffect> loadSample(const std::string& name) {
    auto effect = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    const std::string path = std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/" + name;
    const bool ok = loadCompiledEffect(path, *effect, diagnostics);
    std::string text;
    for (const Diagnostic& d : diagnostics) text += formatDiagnostic(d) + "\n";
    EXPECT_TRUE(ok) << text;
    return effect;
}

} // namespace spindrift::gpu::test
