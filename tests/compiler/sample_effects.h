// Effect descriptions built in code for the compiler and cook tests.
#pragma once

#include "spindrift/effect_desc.h"

namespace spindrift::test {

inline EmitterDesc namedEmitter(const char* name) {
    EmitterDesc e;
    e.name = name;
    return e;
}

inline UpdateModule module(UpdateModuleVariant m, bool enabled = true) {
    UpdateModule u;
    u.enabled = enabled;
    u.module = std::move(m);
    return u;
}

inline Curve curve(Interpolation interpolation, std::vector<CurveKey> keys) {
    Curve c;
    c.interpolation = interpolation;
    c.keys = std::move(keys);
    return c;
}

inline Gradient gradient(std::vector<ColorKey> colors, std::vector<AlphaKey> alphas) {
    Gradient g;
    g.color_keys = std::move(colors);
    g.alpha_keys = std::move(alphas);
    return g;
}

// One emitter, every default.
inline EffectDesc minimalEffect() {
    EffectDesc fx;
    fx.name = "minimal";
    fx.emitters.push_back(namedEmitter("only"));
    return fx;
}

// The campfire of the format documentation: flames with a death sub-emitter into sparks.
inline EffectDesc campfireEffect() {
    EffectDesc fx;
    fx.name = "campfire";
    fx.seed = 7;
    fx.bounds = {{0, 1, 0}, {1, 2, 1}};
    EmitterDesc flames = namedEmitter("flames");
    flames.capacity = 2048;
    flames.spawn.rate_per_s = 60;
    flames.spawn.bursts.push_back({0, {10, 20}, 1, 1, 1});
    flames.shape.type = ShapeKind::cone;
    flames.shape.radius = 0.3f;
    flames.shape.length = 0.5f;
    flames.shape.angle_deg = 15;
    flames.init.lifetime_s = {0.6f, 1.2f};
    flames.init.size = {0.2f, 0.4f};
    flames.init.rotation_deg = {0, 360};
    flames.init.speed = {1, 2};
    flames.init.color.a = {1, 0.5f, 0.1f, 1};
    flames.update.push_back(module(GravityModule{}));
    flames.update.push_back(module(DragModule{1.5f}, false));
    BuoyancyModule buoyancy;
    buoyancy.acceleration = 2;
    buoyancy.has_over_life = true;
    buoyancy.over_life = curve(Interpolation::smooth, {{0, 1}, {1, 0}});
    flames.update.push_back(module(buoyancy));
    flames.update.push_back(module(
        ColorOverLifeModule{gradient({{0, {1, 1, 1}}, {1, {1, 0.2f, 0}}}, {{0, 1}, {1, 0}})}));
    flames.update.push_back(
        module(SizeOverLifeModule{curve(Interpolation::linear, {{0, 0.5f}, {0.3f, 1}, {1, 0}})}));
    ForceFieldModule vortex;
    vortex.shape = ForceFieldKind::vortex;
    vortex.position = {0, 1, 0};
    vortex.strength = 4;
    vortex.radius = 2;
    flames.update.push_back(module(vortex));
    CollisionModule collision;
    collision.planes.push_back({{0, 0, 0}, {0, 1, 0}});
    collision.spheres.push_back({{0, 1, 0}, 0.5f, false});
    collision.boxes.push_back({{2, 0, 0}, {1, 1, 1}});
    collision.bounce = 0.4f;
    collision.friction = 0.2f;
    flames.update.push_back(module(collision));
    flames.render.texture = "textures/flame.png";
    flames.render.soft_fade_distance = 0.2f;
    flames.render.billboard.flipbook = {4, 4, 16, 1, true, false};
    flames.sub_emitters.push_back({SubEmitterEvent::death, "sparks", 1, {20, 30}, 0.5f});
    fx.emitters.push_back(flames);

    EmitterDesc sparks = namedEmitter("sparks");
    sparks.capacity = 4096;
    sparks.spawn.rate_per_s = 0;
    sparks.shape.type = ShapeKind::sphere;
    sparks.shape.emit_from = EmitFrom::shell;
    sparks.init.color.mode = ColorMode::random_between;
    sparks.init.color.a = {1, 0.8f, 0.2f, 1};
    sparks.init.color.b = {1, 0.3f, 0, 1};
    sparks.update.push_back(module(GravityModule{}));
    sparks.update.push_back(module(DragModule{0.5f}));
    sparks.render.billboard.alignment = Alignment::velocity_stretch;
    fx.emitters.push_back(sparks);
    return fx;
}

// The campfire with user parameters: every kind of parameter and binding (whole values, one end
// of a range, one component, a burst count, a module value, a force field strength).
inline EffectDesc parametersEffect() {
    EffectDesc fx = campfireEffect();
    fx.name = "campfire_parameters";
    fx.parameters = {
        {"intensity", ParameterType::float_, {60, 0, 0, 0}, {0, 0, 0, 0}, {500, 0, 0, 0}},
        {"tint", ParameterType::color, {1, 0.5f, 0.1f, 1}, {0, 0, 0, 0}, {4, 4, 4, 1}},
        {"wind", ParameterType::float3, {0, -9.81f, 0}, {-20, -20, -20, 0}, {20, 20, 20, 0}},
        {"swirl", ParameterType::float_, {4, 0, 0, 0}, {-10, 0, 0, 0}, {10, 0, 0, 0}},
        {"burst", ParameterType::float_, {15, 0, 0, 0}, {0, 0, 0, 0}, {100, 0, 0, 0}},
        {"spark_green", ParameterType::float_, {0.8f, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}},
    };
    fx.emitters[0].spawn.bursts[0].count = {15, 15};
    fx.emitters[0].init.speed = {1, 2};
    fx.parameter_bindings = {
        {"intensity", 0, ParameterTarget::rate_per_s, 0, kWholeValue, kWholeValue},
        {"tint", 0, ParameterTarget::color, 0, kWholeValue, kWholeValue},
        {"burst", 0, ParameterTarget::burst_count, 0, kWholeValue, kWholeValue},
        {"wind", 0, ParameterTarget::gravity_acceleration, 0, kWholeValue, kWholeValue},
        {"swirl", 0, ParameterTarget::force_field_strength, 5, kWholeValue, kWholeValue},
        {"swirl", 0, ParameterTarget::speed, 0, 1, kWholeValue},
        {"spark_green", 1, ParameterTarget::color, 0, 0, 1},
    };
    return fx;
}

// Every render type, the mesh shape, gradient colour init and the remaining module kinds.
inline EffectDesc everythingEffect() {
    EffectDesc fx;
    fx.name = "everything";
    fx.space = SimulationSpace::local;
    fx.looping = false;
    fx.capacity = 1 << 20;

    EmitterDesc trail = namedEmitter("trail");
    trail.transform = {{1, 2, 3}, {10, 20, 30}};
    trail.backend = BackendPreference::cpu;
    trail.overflow = OverflowPolicy::replace_oldest;
    trail.shape.type = ShapeKind::mesh;
    trail.shape.points = {{{0, 0, 0}, {0, 1, 0}}, {{1, 0, 0}, {1, 0, 0}}, {{0, 0, 1}, {0, 0, 1}}};
    trail.init.color.mode = ColorMode::gradient;
    trail.init.color.gradient = gradient({{0, {1, 0, 0}}, {1, {0, 0, 1}}}, {{0, 1}});
    trail.update.push_back(module(WindModule{{2, 0, 0}, 0.5f}));
    trail.update.push_back(module(SpeedLimitModule{5, 2}));
    trail.update.push_back(module(CurlNoiseModule{2, 0.5f, 3, {0, 1, 0}}));
    trail.update.push_back(module(AttractorModule{{0, 1, 0}, 3, 0.2f, 0.05f}));
    ColorBySpeedModule cbs;
    cbs.gradient = gradient({{0, {0, 0, 1}}, {1, {1, 0, 0}}}, {{0, 1}});
    cbs.min_speed = 1;
    cbs.max_speed = 5;
    trail.update.push_back(module(cbs));
    SizeBySpeedModule sbs;
    sbs.curve = curve(Interpolation::step, {{0, 1}, {0.5f, 2}});
    trail.update.push_back(module(sbs));
    trail.render.type = RenderType::ribbon;
    trail.render.ribbon = {0.3f, 2, 0.5f, 0.1f, 64};
    trail.render.sort = SortMode::oldest_first;
    trail.render.stable_order = true;
    fx.emitters.push_back(trail);

    EmitterDesc beam = namedEmitter("beam");
    beam.backend = BackendPreference::gpu;
    beam.render.type = RenderType::beam;
    beam.render.blend = BlendMode::premultiplied;
    beam.render.beam.segments = 32;
    beam.render.beam.sag = 0.5f;
    beam.render.beam.jitter = 0.1f;
    CollisionModule depth;
    depth.depth_buffer = true;
    depth.world_colliders = true; // the cooked records carry the world flag and group mask
    depth.collision_mask = 5;
    depth.response = CollisionResponse::kill;
    beam.update.push_back(module(depth));
    beam.update.push_back(
        module(BlackbodyModule{curve(Interpolation::linear, {{0, 6000}, {1, 1500}}), 4}));
    beam.render.emissive = 3;
    beam.render.emissive_share = 0.25f;
    fx.emitters.push_back(beam);

    EmitterDesc rocks = namedEmitter("rocks");
    rocks.render.type = RenderType::mesh;
    rocks.render.mesh.mesh = "meshes/rock.obj";
    rocks.render.mesh.tumble_deg_per_s = 90;
    rocks.render.lit = true;
    rocks.render.blend = BlendMode::opaque;
    rocks.render.lights = {3, ParticleLightSelect::oldest, 8, 2.5f,
                           4}; // the particle_lights section
    rocks.update.push_back(
        module(RotationOverLifeModule{curve(Interpolation::linear, {{0, 180}})}));
    rocks.sub_emitters.push_back({SubEmitterEvent::collision, "beam", 0.5f, {1, 2}, 0});
    fx.emitters.push_back(rocks);
    return fx;
}

} // namespace spindrift::test
