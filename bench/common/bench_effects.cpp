#include "bench_effects.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "compiler/compile_effect.h"

namespace spindrift::bench {
namespace {

UpdateModule module(UpdateModuleVariant m) {
    return UpdateModule{true, std::move(m)};
}

ForceFieldModule forceField(ForceFieldKind shape, Float3 position, float strength, float radius,
                            float falloff) {
    ForceFieldModule f;
    f.shape = shape;
    f.position = position;
    f.strength = strength;
    f.radius = radius;
    f.falloff = falloff;
    return f;
}

// The bursts that bring the pool to `particles` (see makeStackEffect).
void addFillBursts(EmitterDesc& e, uint32_t particles, float step_s) {
    if (uint64_t{particles} <= uint64_t{kMaxBursts} * kMaxBurstCount) {
        for (uint32_t left = particles; left > 0;) {
            Burst burst;
            burst.time_s = 0;
            const uint32_t count = std::min(left, kMaxBurstCount);
            burst.count = {count, count};
            e.spawn.bursts.push_back(burst);
            left -= count;
        }
        return;
    }
    // Whole bursts over kMaxBursts - 1 entries, each repeating once per step; the remainder in
    // the last entry at t = 0.
    const uint32_t whole = particles / kMaxBurstCount;
    const uint32_t rest = particles % kMaxBurstCount;
    const uint32_t entries = kMaxBursts - 1;
    for (uint32_t j = 0; j < entries && j < whole; ++j) {
        Burst burst;
        burst.time_s = 0;
        burst.count = {kMaxBurstCount, kMaxBurstCount};
        burst.cycles = whole / entries + (j < whole % entries ? 1u : 0u);
        burst.interval_s = step_s;
        e.spawn.bursts.push_back(burst);
    }
    if (rest > 0) {
        Burst burst;
        burst.time_s = 0;
        burst.count = {rest, rest};
        e.spawn.bursts.push_back(burst);
    }
}

} // namespace

const char* stackName(Stack stack) {
    switch (stack) {
    case Stack::basic:
        return "basic";
    case Stack::curl:
        return "curl";
    case Stack::fields:
        return "fields4";
    }
    return "?";
}

EffectDesc makeStackEffect(Stack stack, uint32_t particles) {
    EffectDesc fx;
    fx.name = std::string("bench_") + stackName(stack);
    fx.seed = 7;
    fx.duration_s = 3600;
    fx.looping = false;
    fx.bounds.half_extents = {100, 100, 100};
    fx.capacity = particles;

    EmitterDesc e;
    e.name = "pool";
    e.capacity = particles;
    e.spawn.rate_per_s = 0;
    addFillBursts(e, particles, fx.fixed_timestep_s);
    e.shape.type = ShapeKind::sphere;
    e.shape.radius = 4;
    e.init.lifetime_s = {1000, 1000};
    e.init.size = {0.05f, 0.2f};
    e.init.speed = {0.5f, 3.0f};

    e.update.push_back(module(GravityModule{}));
    DragModule drag;
    drag.coefficient_per_s = 0.5f;
    e.update.push_back(module(drag));
    if (stack == Stack::curl) {
        CurlNoiseModule curl;
        curl.strength = 4;
        curl.frequency = 0.5f;
        curl.octaves = 1;
        curl.scroll = {0, 0.5f, 0};
        e.update.push_back(module(curl));
    }
    if (stack == Stack::fields) {
        // Adjacent force_field modules compile to one kOpForceFields op over 4 records. One of
        // each kind, and non-integer falloffs, so every field pays its sdPow.
        e.update.push_back(module(forceField(ForceFieldKind::point, {0, 0, 0}, 6, 12, 1.5f)));
        ForceFieldModule vortex = forceField(ForceFieldKind::vortex, {0, 0, 0}, 4, 10, 0.5f);
        e.update.push_back(module(vortex));
        e.update.push_back(module(forceField(ForceFieldKind::drag, {2, 1, 0}, 0.8f, 6, 2.0f)));
        e.update.push_back(module(forceField(ForceFieldKind::point, {-3, 0, 2}, -3, 5, 1.0f)));
    }
    ColorOverLifeModule color;
    color.gradient.color_keys = {
        {0, {1, 0.9f, 0.6f}}, {0.5f, {1, 0.4f, 0.1f}}, {1, {0.2f, 0.2f, 0.2f}}};
    color.gradient.alpha_keys = {{0, 1}, {0.8f, 0.6f}, {1, 0}};
    e.update.push_back(module(color));
    SizeOverLifeModule size;
    size.curve.keys = {{0, 0.5f}, {0.2f, 1}, {1, 0}};
    e.update.push_back(module(size));

    fx.emitters.push_back(std::move(e));
    return fx;
}

std::shared_ptr<const CompiledEffect> compileOrNull(const EffectDesc& desc) {
    auto compiled = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    const bool ok = compileEffect(desc, *compiled, diagnostics);
    for (const Diagnostic& d : diagnostics) {
        std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
    }
    return ok ? compiled : nullptr;
}

std::vector<uint64_t> parseCounts(const std::string& list, uint64_t unit) {
    std::vector<uint64_t> counts;
    size_t at = 0;
    while (at <= list.size()) {
        size_t comma = list.find(',', at);
        if (comma == std::string::npos) comma = list.size();
        const std::string text = list.substr(at, comma - at);
        char* end = nullptr;
        uint64_t v = std::strtoull(text.c_str(), &end, 10);
        if (end != nullptr && (*end == 'K' || *end == 'k')) v *= unit;
        if (end != nullptr && (*end == 'M' || *end == 'm')) v *= unit * unit;
        counts.push_back(v);
        at = comma + 1;
    }
    return counts;
}

} // namespace spindrift::bench
