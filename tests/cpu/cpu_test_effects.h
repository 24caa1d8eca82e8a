// Effects built in code for the CPU backend tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "compiler/compile_effect.h"
#include "cpu/cpu_effect.h"
#include "spindrift/effect_desc.h"

namespace spindrift::cpu::test {

inline std::shared_ptr<const CompiledEffect> compileOrFail(const EffectDesc& desc) {
    auto compiled = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    const bool ok = compileEffect(desc, *compiled, diagnostics);
    for (const Diagnostic& d : diagnostics) ADD_FAILURE() << formatDiagnostic(d);
    EXPECT_TRUE(ok);
    return compiled;
}

// One emitter, nothing spawning by default; tests fill in what they need.
inline EffectDesc singleEmitterEffect(uint32_t capacity = 1024) {
    EffectDesc effect;
    effect.name = "test";
    effect.seed = 1234;
    effect.duration_s = 10;
    effect.capacity = capacity;
    EmitterDesc emitter;
    emitter.name = "e";
    emitter.capacity = capacity;
    emitter.spawn.rate_per_s = 0;
    emitter.init.speed = {0, 0};
    emitter.init.lifetime_s = {100, 100};
    effect.emitters.push_back(emitter);
    return effect;
}

inline Burst burstAt(float time_s, uint32_t count) {
    Burst burst;
    burst.time_s = time_s;
    burst.count = {count, count};
    return burst;
}

// A busy effect: several chunks of particles, every kind of update op, sub-emitters.
inline EffectDesc busyEffect() {
    EffectDesc effect;
    effect.name = "busy";
    effect.seed = 99;
    effect.duration_s = 3;
    effect.capacity = 1u << 20;

    EmitterDesc main;
    main.name = "main";
    main.capacity = 40000;
    main.spawn.rate_per_s = 20000;
    main.spawn.bursts.push_back(burstAt(0.1f, 5000));
    main.shape.type = ShapeKind::sphere;
    main.shape.radius = 1;
    main.init.lifetime_s = {0.5f, 2.0f};
    main.init.speed = {1, 4};
    main.init.size = {0.05f, 0.2f};
    main.init.angular_velocity_deg_per_s = {-90, 90};
    main.init.color.mode = ColorMode::random_between;
    main.init.color.a = {1, 0, 0, 1};
    main.init.color.b = {0, 0, 1, 1};
    main.update.push_back({true, GravityModule{}});
    main.update.push_back({true, DragModule{0.5f}});
    main.update.push_back({true, CurlNoiseModule{2, 0.7f, 2, {0.1f, 0, 0}}});
    ForceFieldModule vortex;
    vortex.shape = ForceFieldKind::vortex;
    vortex.radius = 3;
    vortex.strength = 5;
    main.update.push_back({true, vortex});
    main.update.push_back({true, SpeedLimitModule{6, 3}});
    main.update.push_back({true, WindModule{{1, 0, 0}, 0.3f}});
    AttractorModule attractor;
    attractor.position = {0, 2, 0};
    attractor.strength = 3;
    attractor.kill_radius = 0.05f;
    main.update.push_back({true, attractor});
    CollisionModule ground;
    ground.planes.push_back({{0, -1, 0}, {0, 1, 0}});
    ground.bounce = 0.5f;
    ground.friction = 0.1f;
    main.update.push_back({true, ground});
    main.update.push_back({true, ColorOverLifeModule{}});
    main.sub_emitters.push_back({SubEmitterEvent::death, "child", 0.3f, {1, 3}, 0.5f});
    effect.emitters.push_back(main);

    EmitterDesc child;
    child.name = "child";
    child.capacity = 20000;
    child.spawn.rate_per_s = 0;
    child.init.lifetime_s = {0.2f, 0.6f};
    child.init.speed = {0.5f, 1};
    child.overflow = OverflowPolicy::replace_oldest;
    child.update.push_back({true, GravityModule{}});
    effect.emitters.push_back(child);
    return effect;
}

} // namespace spindrift::cpu::test
