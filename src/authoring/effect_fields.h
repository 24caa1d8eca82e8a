// The effect format's field lists (docs/effect-format.md): one table per object, in
// effect_desc.h field order, which is also the order the writer writes keys in and the rules
// check them in. The reader, the writer, the validator and the schema test all walk these
// (field_table.h); a field added here is read, written, checked and held against
// schema/effect.schema.json without another list to update.
#pragma once

#include "authoring/field_table.h"
#include "spindrift/effect_desc.h"
#include "spindrift/effect_json.h"

namespace spindrift {

// Codecs of the effect format (field_table.h): each names a field whose treatment is more than
// its value type's. Their overloads live beside the walker they serve: readCodec in
// effect_reader.cpp / module_reader.cpp, writeCodec in effect_writer.cpp, checkCodec in
// effect_validate.cpp / module_validate.cpp.
struct EffectNameCodec : PlainCodec {};  // UTF-8, 1..kMaxNameBytes bytes, no control characters
struct DirectionCodec : PlainCodec {};   // normalised on read; zero is an error
struct IntervalCodec : PlainCodec {};    // > 0 when cycles != 1
struct SpeedWindowCodec : PlainCodec {}; // max_speed > min_speed
struct FramesCodec : PlainCodec {};      // frames in [1, columns * rows]
struct OverLifeCodec {};                 // present exactly when has_over_life
struct ColorInitCodec {};                // a colour, two colours or a gradient
struct MeshPointsCodec {};               // rows of [px, py, pz, nx, ny, nz]
struct ShapeCodec {};                    // keys of the chosen shape type only
struct RenderCodec {};                   // common keys, then the chosen render type's
struct UpdateListCodec {};               // {"type": NAME, "enabled": bool, ...the module's table}

constexpr std::string_view formatName(FieldsOf<EffectDesc>) {
    return "format";
}

// The settings of the chosen render type: the render object is flat, its common keys (the
// RenderDesc table) and then these.
template <typename Render, typename F> void visitRenderSettings(Render& render, F&& f) {
    switch (render.type) {
    case RenderType::billboard:
        f(render.billboard);
        break;
    case RenderType::ribbon:
        f(render.ribbon);
        break;
    case RenderType::beam:
        f(render.beam);
        break;
    case RenderType::mesh:
        f(render.mesh);
        break;
    }
}

constexpr auto fieldsOf(FieldsOf<Transform>) {
    return std::tuple{field("position", &Transform::position, rule::finite()),
                      field("rotation_deg", &Transform::rotation_deg, rule::finite())};
}

constexpr auto fieldsOf(FieldsOf<Bounds>) {
    return std::tuple{
        field("center", &Bounds::center, rule::within(-kMaxBoundsExtent, kMaxBoundsExtent)),
        field("half_extents", &Bounds::half_extents, rule::within(0, kMaxBoundsExtent))};
}

constexpr auto fieldsOf(FieldsOf<Burst>) {
    return std::tuple{field("time_s", &Burst::time_s, rule::atLeast(0)),
                      field("count", &Burst::count, rule::within(0, kMaxBurstCount)),
                      field("cycles", &Burst::cycles, rule::within(0, kMaxBurstCycles)),
                      field<IntervalCodec>("interval_s", &Burst::interval_s, rule::atLeast(0)),
                      field("probability", &Burst::probability, rule::unit())};
}

constexpr auto fieldsOf(FieldsOf<SpawnDesc>) {
    return std::tuple{
        field("rate_per_s", &SpawnDesc::rate_per_s, rule::atLeast(0)),
        field("rate_per_m", &SpawnDesc::rate_per_m, rule::atLeast(0)),
        field("delay_s", &SpawnDesc::delay_s, rule::atLeast(0)),
        field("bursts", &SpawnDesc::bursts, rule::list({0, kMaxBursts, "bursts"}, true))};
}

// The shape types each key applies to; type, emit_from and randomize_direction apply to all.
constexpr auto fieldsOf(FieldsOf<ShapeDesc>) {
    using K = ShapeKind;
    const auto opt = Presence::optional;
    return std::tuple{
        field("type", &ShapeDesc::type), field("emit_from", &ShapeDesc::emit_from),
        field("radius", &ShapeDesc::radius, rule::atLeast(0), opt,
              typesOf(K::sphere, K::hemisphere, K::cone, K::circle, K::torus)),
        field("tube_radius", &ShapeDesc::tube_radius, rule::atLeast(0), opt, typesOf(K::torus)),
        field("length", &ShapeDesc::length, rule::atLeast(0), opt, typesOf(K::line, K::cone)),
        field("size", &ShapeDesc::size, rule::atLeast(0), opt, typesOf(K::box)),
        field("angle_deg", &ShapeDesc::angle_deg, rule::between(0, false, 90, true), opt,
              typesOf(K::cone)),
        field("arc_deg", &ShapeDesc::arc_deg, rule::between(0, true, 360, false), opt,
              typesOf(K::cone, K::circle, K::torus)),
        field("randomize_direction", &ShapeDesc::randomize_direction, rule::unit()),
        // Required of a mesh shape (and only of one: it applies to no other).
        field<MeshPointsCodec>("points", &ShapeDesc::points,
                               rule::list({1, kMaxMeshPoints, "mesh points"}, true),
                               Presence::required, typesOf(K::mesh))};
}

constexpr auto fieldsOf(FieldsOf<InitDesc>) {
    const double inf = std::numeric_limits<double>::infinity();
    return std::tuple{field("lifetime_s", &InitDesc::lifetime_s, rule::above(0)),
                      field("size", &InitDesc::size, rule::atLeast(0)),
                      field("rotation_deg", &InitDesc::rotation_deg, rule::atLeast(-inf)),
                      field("angular_velocity_deg_per_s", &InitDesc::angular_velocity_deg_per_s,
                            rule::atLeast(-inf)),
                      field("speed", &InitDesc::speed, rule::atLeast(-inf)),
                      field("velocity", &InitDesc::velocity, rule::finite()),
                      field<ColorInitCodec>("color", &InitDesc::color),
                      field("mass", &InitDesc::mass, rule::above(0))};
}

constexpr auto fieldsOf(FieldsOf<Flipbook>) {
    return std::tuple{
        field("columns", &Flipbook::columns, rule::within(1, kMaxFlipbookCells)),
        field("rows", &Flipbook::rows, rule::within(1, kMaxFlipbookCells)),
        field<FramesCodec>("frames", &Flipbook::frames, rule::within(1, kMaxFlipbookCells)),
        field("cycles", &Flipbook::cycles, rule::above(0)),
        field("frame_blend", &Flipbook::frame_blend),
        field("random_start", &Flipbook::random_start)};
}

// render.lights: particles as point lights (docs/effect-format.md).
constexpr auto fieldsOf(FieldsOf<ParticleLightsDesc>) {
    return std::tuple{
        field("count", &ParticleLightsDesc::count, rule::within(0, kMaxParticleLights)),
        field("select", &ParticleLightsDesc::select),
        field("every_k", &ParticleLightsDesc::every_k, rule::within(1, kMaxParticleLightStride)),
        field("intensity", &ParticleLightsDesc::intensity,
              rule::within(0, kMaxParticleLightIntensity)),
        field("range", &ParticleLightsDesc::range,
              rule::between(0, true, kMaxParticleLightRange_m, false))};
}

// The render object is flat: these common keys, then those of the chosen type's table.
constexpr auto fieldsOf(FieldsOf<RenderDesc>) {
    return std::tuple{
        field("type", &RenderDesc::type),
        field("blend", &RenderDesc::blend),
        field("texture", &RenderDesc::texture, rule::filePath()),
        field("soft_fade_distance", &RenderDesc::soft_fade_distance, rule::atLeast(0)),
        field("lit", &RenderDesc::lit),
        field("sort", &RenderDesc::sort),
        field("stable_order", &RenderDesc::stable_order),
        field("emissive", &RenderDesc::emissive, rule::within(0, kMaxEmissive)),
        field("emissive_share", &RenderDesc::emissive_share, rule::unit()),
        field("shadow_cutout", &RenderDesc::shadow_cutout),
        field("lights", &RenderDesc::lights)};
}

constexpr auto fieldsOf(FieldsOf<BillboardDesc>) {
    return std::tuple{
        field("alignment", &BillboardDesc::alignment),
        field("axis", &BillboardDesc::axis, rule::nonZero()),
        field("stretch", &BillboardDesc::stretch, rule::atLeast(0)),
        field("flipbook", &BillboardDesc::flipbook),
        field("distortion", &BillboardDesc::distortion, rule::within(0, kMaxDistortion)),
        field("lighting", &BillboardDesc::lighting)};
}

constexpr auto fieldsOf(FieldsOf<RibbonDesc>) {
    return std::tuple{
        field("width", &RibbonDesc::width, rule::above(0)),
        field("uv_tiling", &RibbonDesc::uv_tiling, rule::atLeast(0)),
        field("taper", &RibbonDesc::taper, rule::unit()),
        field("min_sample_distance", &RibbonDesc::min_sample_distance, rule::above(0)),
        field("max_points", &RibbonDesc::max_points, rule::within(2, kMaxRibbonPoints))};
}

constexpr auto fieldsOf(FieldsOf<BeamDesc>) {
    return std::tuple{field("start", &BeamDesc::start, rule::finite()),
                      field("end", &BeamDesc::end, rule::finite()),
                      field("start_tangent", &BeamDesc::start_tangent, rule::finite()),
                      field("end_tangent", &BeamDesc::end_tangent, rule::finite()),
                      field("segments", &BeamDesc::segments, rule::within(1, kMaxBeamSegments)),
                      field("width", &BeamDesc::width, rule::above(0)),
                      field("sag", &BeamDesc::sag, rule::atLeast(0)),
                      field("jitter", &BeamDesc::jitter, rule::atLeast(0)),
                      field("jitter_frequency", &BeamDesc::jitter_frequency, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<MeshRenderDesc>) {
    return std::tuple{
        field("mesh", &MeshRenderDesc::mesh, rule::filePath(), Presence::required),
        field("scale", &MeshRenderDesc::scale, rule::above(0)),
        field("tumble_deg_per_s", &MeshRenderDesc::tumble_deg_per_s, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<SubEmitterDesc>) {
    return std::tuple{
        field("event", &SubEmitterDesc::event),
        // Resolved against the emitters' names by the rules (validateSubEmitterGraph).
        field("emitter", &SubEmitterDesc::emitter, rule::any(), Presence::required),
        field("probability", &SubEmitterDesc::probability, rule::unit()),
        field("count", &SubEmitterDesc::count, rule::within(1, kMaxSubEmitterCount)),
        field("inherit_velocity", &SubEmitterDesc::inherit_velocity, rule::unit())};
}

// The threshold's value range depends on its quantity: a rule of the emitter
// (validateEventBlocks in effect_validate.cpp); here only finite.
constexpr auto fieldsOf(FieldsOf<ThresholdDesc>) {
    return std::tuple{field("quantity", &ThresholdDesc::quantity),
                      field("value", &ThresholdDesc::value, rule::finite(), Presence::required),
                      field("direction", &ThresholdDesc::direction)};
}

constexpr auto fieldsOf(FieldsOf<EventsDesc>) {
    return std::tuple{field("birth", &EventsDesc::birth),
                      field("death", &EventsDesc::death),
                      field("collision", &EventsDesc::collision),
                      field("threshold", &EventsDesc::threshold),
                      field("max_per_step", &EventsDesc::max_per_step,
                            rule::within(1, kMaxGameplayEventsPerStep)),
                      field("threshold_at", &EventsDesc::threshold_at)};
}

constexpr auto fieldsOf(FieldsOf<EmitterDesc>) {
    return std::tuple{
        // Plain and unique across the effect: the rules check names together (validateNames).
        field("name", &EmitterDesc::name, rule::any(), Presence::required),
        field("enabled", &EmitterDesc::enabled),
        field("capacity", &EmitterDesc::capacity, rule::within(1, kMaxEmitterCapacity)),
        field("overflow", &EmitterDesc::overflow),
        field("transform", &EmitterDesc::transform),
        field("backend", &EmitterDesc::backend),
        field("spawn", &EmitterDesc::spawn),
        field<ShapeCodec>("shape", &EmitterDesc::shape),
        field("init", &EmitterDesc::init),
        field<UpdateListCodec>("update", &EmitterDesc::update,
                               rule::list({0, kMaxUpdateModules, "update modules"}, true)),
        field<RenderCodec>("render", &EmitterDesc::render),
        field("sub_emitters", &EmitterDesc::sub_emitters,
              rule::list({0, kMaxSubEmitters, "sub-emitters"}, true)),
        field("events", &EmitterDesc::events),
        field("cosmetic", &EmitterDesc::cosmetic)};
}

// fade_band_m <= sleep_distance_m is a rule of the effect (validateScalability).
constexpr auto fieldsOf(FieldsOf<ScalabilityDesc>) {
    return std::tuple{
        field("sleep_distance_m", &ScalabilityDesc::sleep_distance_m,
              rule::within(0, kMaxSleepDistance)),
        field("fade_band_m", &ScalabilityDesc::fade_band_m, rule::within(0, kMaxSleepDistance)),
        field("wake", &ScalabilityDesc::wake),
        field("max_fast_forward_s", &ScalabilityDesc::max_fast_forward_s,
              rule::within(0, kMaxFastForwardSeconds)),
        field("when_culled", &ScalabilityDesc::when_culled)};
}

constexpr auto fieldsOf(FieldsOf<EffectDesc>) {
    return std::tuple{
        field<VersionCodec>("version", &EffectDesc::version,
                            rule::within(kEffectFormatVersion, kEffectFormatVersion),
                            Presence::required),
        field<EffectNameCodec>("name", &EffectDesc::name, rule::any(), Presence::required),
        field("seed", &EffectDesc::seed),
        field("duration_s", &EffectDesc::duration_s, rule::between(0, true, 3600, false)),
        field("looping", &EffectDesc::looping),
        field("space", &EffectDesc::space),
        field("fixed_timestep_s", &EffectDesc::fixed_timestep_s, rule::within(0.001f, 0.1f)),
        field("bounds", &EffectDesc::bounds),
        field("capacity", &EffectDesc::capacity, rule::within(1, kMaxEffectCapacity)),
        field("emitters", &EffectDesc::emitters, rule::list({1, kMaxEmitters, "emitters"}, true),
              Presence::required),
        field("scalability", &EffectDesc::scalability)};
}

// Update modules: each table holds the module's own keys; "type" and "enabled" belong to every
// module (readUpdateModule, writeModule).
constexpr auto fieldsOf(FieldsOf<GravityModule>) {
    return std::tuple{field("acceleration", &GravityModule::acceleration, rule::finite())};
}

constexpr auto fieldsOf(FieldsOf<BuoyancyModule>) {
    const double inf = std::numeric_limits<double>::infinity();
    return std::tuple{
        field("acceleration", &BuoyancyModule::acceleration, rule::finite()),
        field<OverLifeCodec>("over_life", &BuoyancyModule::over_life, rule::atLeast(-inf))};
}

constexpr auto fieldsOf(FieldsOf<DragModule>) {
    return std::tuple{field("coefficient_per_s", &DragModule::coefficient_per_s, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<ForceModule>) {
    return std::tuple{field("acceleration", &ForceModule::acceleration, rule::finite())};
}

constexpr auto fieldsOf(FieldsOf<WindModule>) {
    return std::tuple{field("velocity", &WindModule::velocity, rule::finite()),
                      field("coefficient_per_s", &WindModule::coefficient_per_s, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<SpeedLimitModule>) {
    return std::tuple{field("max_speed", &SpeedLimitModule::max_speed, rule::atLeast(0)),
                      field("damping_per_s", &SpeedLimitModule::damping_per_s, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<CurlNoiseModule>) {
    return std::tuple{field("strength", &CurlNoiseModule::strength, rule::finite()),
                      field("frequency", &CurlNoiseModule::frequency, rule::above(0)),
                      field("octaves", &CurlNoiseModule::octaves, rule::within(1, kMaxCurlOctaves)),
                      field("scroll", &CurlNoiseModule::scroll, rule::finite())};
}

constexpr auto fieldsOf(FieldsOf<ForceFieldModule>) {
    return std::tuple{field("shape", &ForceFieldModule::shape),
                      field("position", &ForceFieldModule::position, rule::finite()),
                      field<DirectionCodec>("axis", &ForceFieldModule::axis, rule::direction()),
                      field("strength", &ForceFieldModule::strength, rule::finite()),
                      field("radius", &ForceFieldModule::radius, rule::above(0)),
                      field("falloff", &ForceFieldModule::falloff, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<AttractorModule>) {
    return std::tuple{field("position", &AttractorModule::position, rule::finite()),
                      field("strength", &AttractorModule::strength, rule::finite()),
                      field("radius", &AttractorModule::radius, rule::above(0)),
                      field("kill_radius", &AttractorModule::kill_radius, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<ColorOverLifeModule>) {
    return std::tuple{
        field("gradient", &ColorOverLifeModule::gradient, rule::within(0, kMaxColorValue))};
}

constexpr auto fieldsOf(FieldsOf<SizeOverLifeModule>) {
    return std::tuple{field("curve", &SizeOverLifeModule::curve, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<RotationOverLifeModule>) {
    const double inf = std::numeric_limits<double>::infinity();
    return std::tuple{field("angular_velocity_deg_per_s",
                            &RotationOverLifeModule::angular_velocity_deg_per_s,
                            rule::atLeast(-inf))};
}

constexpr auto fieldsOf(FieldsOf<ColorBySpeedModule>) {
    return std::tuple{
        field("gradient", &ColorBySpeedModule::gradient, rule::within(0, kMaxColorValue)),
        field("min_speed", &ColorBySpeedModule::min_speed, rule::atLeast(0)),
        field<SpeedWindowCodec>("max_speed", &ColorBySpeedModule::max_speed, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<SizeBySpeedModule>) {
    return std::tuple{
        field("curve", &SizeBySpeedModule::curve, rule::atLeast(0)),
        field("min_speed", &SizeBySpeedModule::min_speed, rule::atLeast(0)),
        field<SpeedWindowCodec>("max_speed", &SizeBySpeedModule::max_speed, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<CollisionPlane>) {
    return std::tuple{field("point", &CollisionPlane::point, rule::finite()),
                      field<DirectionCodec>("normal", &CollisionPlane::normal, rule::direction())};
}

constexpr auto fieldsOf(FieldsOf<CollisionSphere>) {
    return std::tuple{field("center", &CollisionSphere::center, rule::finite()),
                      field("radius", &CollisionSphere::radius, rule::above(0)),
                      field("inside", &CollisionSphere::inside)};
}

constexpr auto fieldsOf(FieldsOf<CollisionBox>) {
    return std::tuple{field("center", &CollisionBox::center, rule::finite()),
                      field("size", &CollisionBox::size, rule::above(0))};
}

constexpr auto fieldsOf(FieldsOf<BlackbodyModule>) {
    return std::tuple{
        field("temperature_k", &BlackbodyModule::temperature_k,
              rule::within(kMinBlackbodyKelvin, kMaxBlackbodyKelvin)),
        field("intensity", &BlackbodyModule::intensity, rule::within(0, kMaxColorValue))};
}

constexpr auto fieldsOf(FieldsOf<WorldAttractorsModule>) {
    return std::tuple{
        field("attractor_mask", &WorldAttractorsModule::attractor_mask,
              rule::within(1, kAllCollisionGroupsMask)),
        field("strength_scale", &WorldAttractorsModule::strength_scale, rule::finite())};
}

// Each collider list alone is held to kMaxColliders while reading; planes + spheres + boxes
// together is a rule of the module (validateUpdateModules).
constexpr auto fieldsOf(FieldsOf<CollisionModule>) {
    return std::tuple{
        field("planes", &CollisionModule::planes, rule::list({0, kMaxColliders, "planes"}, false)),
        field("spheres", &CollisionModule::spheres,
              rule::list({0, kMaxColliders, "spheres"}, false)),
        field("boxes", &CollisionModule::boxes, rule::list({0, kMaxColliders, "boxes"}, false)),
        field("depth_buffer", &CollisionModule::depth_buffer),
        field("depth_thickness", &CollisionModule::depth_thickness,
              rule::between(0, true, kMaxSceneDepthThickness, false)),
        field("world_colliders", &CollisionModule::world_colliders),
        field("collision_mask", &CollisionModule::collision_mask,
              rule::within(1, kAllCollisionGroupsMask)),
        field("response", &CollisionModule::response),
        field("bounce", &CollisionModule::bounce, rule::unit()),
        field("friction", &CollisionModule::friction, rule::unit()),
        field("lifetime_loss", &CollisionModule::lifetime_loss, rule::unit()),
        field("radius_scale", &CollisionModule::radius_scale, rule::atLeast(0))};
}

} // namespace spindrift
