// The scene format's field lists (docs/scene-format.md): one table per object, in scene_desc.h
// field order, which is also the order the writer writes keys in and the rules check them in.
// The reader, the writer, the validator and the schema test walk these (authoring/field_table.h),
// as they walk the effect format's (authoring/effect_fields.h).
#pragma once

#include "authoring/field_table.h"
#include "spindrift/scene_desc.h"
#include "spindrift/scene_json.h"

namespace spindrift {

// Codecs of the scene format: overloads in scene_reader.cpp, scene_writer.cpp and
// scene_validate.cpp.
struct RgbCodec : PlainCodec {};          // [r, g, b]: the same Float3, named for messages
struct LookAtCodec {};                    // position and target: the look-at camera's
struct OrbitCodec {};                     // the key's presence is the orbit mode
struct FarCodec : PlainCodec {};          // > near
struct ResolutionCodec {};                // [width, height]
struct SunDirectionCodec : PlainCodec {}; // normalised on read; zero is an error
struct InstanceNameCodec : PlainCodec {}; // absent, or plain and unique (checked together)
struct InstanceListCodec : PlainCodec {}; // the instances, then their names together
struct MotionPathCodec {};                // optional object
struct MotionKeysCodec {};                // rows of [t, x, y, z], t strictly increasing
struct MaxEvCodec : PlainCodec {};        // > min_ev
struct HighPercentCodec : PlainCodec {};  // > low_percent
struct OuterConeCodec : PlainCodec {};    // > inner_deg

constexpr std::string_view formatName(FieldsOf<SceneDesc>) {
    return "scene format";
}

constexpr auto fieldsOf(FieldsOf<CameraOrbit>) {
    return std::tuple{field("center", &CameraOrbit::center, rule::finite()),
                      field("radius", &CameraOrbit::radius, rule::above(0)),
                      field("height", &CameraOrbit::height, rule::finite()),
                      field("period_s", &CameraOrbit::period_s, rule::above(0)),
                      field("start_deg", &CameraOrbit::start_deg, rule::finite())};
}

// Either position and target (both required once one is given) or orbit.
constexpr auto fieldsOf(FieldsOf<CameraDesc>) {
    return std::tuple{field<LookAtCodec>("position", &CameraDesc::position, rule::finite()),
                      field<LookAtCodec>("target", &CameraDesc::target, rule::finite()),
                      field<OrbitCodec>("orbit", &CameraDesc::orbit),
                      field("fov_deg", &CameraDesc::fov_deg, rule::within(1, 179)),
                      field("near", &CameraDesc::near, rule::above(0)),
                      field<FarCodec>("far", &CameraDesc::far, rule::above(0))};
}

constexpr auto fieldsOf(FieldsOf<GroundDesc>) {
    return std::tuple{field("enabled", &GroundDesc::enabled),
                      field("height", &GroundDesc::height, rule::finite()),
                      field<RgbCodec>("color", &GroundDesc::color, rule::atLeast(0)),
                      field("size", &GroundDesc::size, rule::above(0))};
}

constexpr auto fieldsOf(FieldsOf<PrimitiveDesc>) {
    using K = PrimitiveKind;
    const auto opt = Presence::optional;
    return std::tuple{
        field("type", &PrimitiveDesc::type, rule::any(), Presence::required),
        field("center", &PrimitiveDesc::center, rule::finite()),
        field("size", &PrimitiveDesc::size, rule::above(0), opt, typesOf(K::box)),
        field("radius", &PrimitiveDesc::radius, rule::above(0), opt, typesOf(K::sphere)),
        field<RgbCodec>("color", &PrimitiveDesc::color, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<SunDesc>) {
    return std::tuple{field<SunDirectionCodec>("direction", &SunDesc::direction, rule::direction()),
                      field<RgbCodec>("color", &SunDesc::color, rule::atLeast(0)),
                      field("intensity", &SunDesc::intensity, rule::atLeast(0))};
}

constexpr auto fieldsOf(FieldsOf<SkyDesc>) {
    return std::tuple{field<RgbCodec>("zenith", &SkyDesc::zenith, rule::atLeast(0)),
                      field<RgbCodec>("horizon", &SkyDesc::horizon, rule::atLeast(0)),
                      field<RgbCodec>("ground", &SkyDesc::ground, rule::atLeast(0)),
                      field("intensity", &SkyDesc::intensity, rule::within(0, kMaxSkyIntensity))};
}

constexpr auto fieldsOf(FieldsOf<ShadowDesc>) {
    return std::tuple{field("enabled", &ShadowDesc::enabled),
                      field("resolution", &ShadowDesc::resolution,
                            rule::within(kMinShadowResolution, kMaxShadowResolution)),
                      field("cascades", &ShadowDesc::cascades, rule::within(1, kMaxShadowCascades)),
                      field("max_distance", &ShadowDesc::max_distance,
                            rule::between(0, true, kMaxShadowDistance_m, false)),
                      field("bias", &ShadowDesc::bias, rule::within(0, kMaxShadowBias_m)),
                      field("opacity_resolution", &ShadowDesc::opacity_resolution,
                            rule::within(kMinShadowResolution, kMaxShadowResolution))};
}

// The type chooses the keys: direction and the cone angles are a spot's.
constexpr auto fieldsOf(FieldsOf<LightDesc>) {
    using K = LightKind;
    const auto opt = Presence::optional;
    return std::tuple{
        field("type", &LightDesc::type, rule::any(), Presence::required),
        field("position", &LightDesc::position, rule::finite()),
        field<RgbCodec>("color", &LightDesc::color, rule::atLeast(0)),
        field("intensity", &LightDesc::intensity, rule::within(0, kMaxLightIntensity)),
        field("range", &LightDesc::range, rule::between(0, true, kMaxLightRange_m, false)),
        field<SunDirectionCodec>("direction", &LightDesc::direction, rule::direction(), opt,
                                 typesOf(K::spot)),
        field("inner_deg", &LightDesc::inner_deg, rule::between(0, false, 90, true), opt,
              typesOf(K::spot)),
        field<OuterConeCodec>("outer_deg", &LightDesc::outer_deg, rule::between(0, true, 90, false),
                              opt, typesOf(K::spot)),
        field("shadows", &LightDesc::shadows)};
}

constexpr auto fieldsOf(FieldsOf<ExposureDesc>) {
    return std::tuple{
        field("mode", &ExposureDesc::mode),
        field("ev", &ExposureDesc::ev, rule::within(-kMaxExposureEv, kMaxExposureEv)),
        field("min_ev", &ExposureDesc::min_ev, rule::within(-kMaxExposureEv, kMaxExposureEv)),
        field<MaxEvCodec>("max_ev", &ExposureDesc::max_ev,
                          rule::within(-kMaxExposureEv, kMaxExposureEv)),
        field("low_percent", &ExposureDesc::low_percent, rule::between(0, false, 100, true)),
        field<HighPercentCodec>("high_percent", &ExposureDesc::high_percent,
                                rule::between(0, true, 100, false)),
        field("speed", &ExposureDesc::speed, rule::within(0, kMaxExposureSpeed))};
}

constexpr auto fieldsOf(FieldsOf<BloomDesc>) {
    return std::tuple{field("strength", &BloomDesc::strength, rule::unit()),
                      field("levels", &BloomDesc::levels, rule::within(1, kMaxBloomLevels))};
}

constexpr auto fieldsOf(FieldsOf<MotionPath>) {
    return std::tuple{field<MotionKeysCodec>("keys", &MotionPath::keys,
                                             rule::list({2, kMaxMotionPathKeys, "path keys"}, true),
                                             Presence::required),
                      field("loop", &MotionPath::loop)};
}

constexpr auto fieldsOf(FieldsOf<EffectInstanceDesc>) {
    return std::tuple{
        field("effect", &EffectInstanceDesc::effect, rule::filePath(), Presence::required),
        field<InstanceNameCodec>("name", &EffectInstanceDesc::name),
        field("position", &EffectInstanceDesc::position, rule::finite()),
        field("rotation_deg", &EffectInstanceDesc::rotation_deg, rule::finite()),
        field<MotionPathCodec>("path", &EffectInstanceDesc::path),
        field("start_s", &EffectInstanceDesc::start_s,
              rule::within(-kMaxScenePreRoll_s, kMaxSceneDuration_s)),
        field("time_scale", &EffectInstanceDesc::time_scale,
              rule::between(0, true, kMaxTimeScale, false))};
}

constexpr auto fieldsOf(FieldsOf<SceneDesc>) {
    return std::tuple{
        field<VersionCodec>("version", &SceneDesc::version,
                            rule::within(kSceneFormatVersion, kSceneFormatVersion),
                            Presence::required),
        field("camera", &SceneDesc::camera),
        field<ResolutionCodec>("resolution", &SceneDesc::resolution,
                               rule::within(kMinResolution, kMaxResolution)),
        field<RgbCodec>("background", &SceneDesc::background, rule::atLeast(0)),
        field("ground", &SceneDesc::ground),
        field("primitives", &SceneDesc::primitives,
              rule::list({0, kMaxScenePrimitives, "primitives"}, true)),
        field("sun", &SceneDesc::sun),
        field("shadows", &SceneDesc::shadows),
        field<RgbCodec>("ambient", &SceneDesc::ambient, rule::atLeast(0)),
        field("sky", &SceneDesc::sky),
        field("lights", &SceneDesc::lights, rule::list({0, kMaxSceneLights, "lights"}, true)),
        field("transparency", &SceneDesc::transparency),
        field("particle_resolution", &SceneDesc::particle_resolution),
        field("exposure", &SceneDesc::exposure),
        field("tonemap", &SceneDesc::tonemap),
        field("bloom", &SceneDesc::bloom),
        field<InstanceListCodec>("effects", &SceneDesc::effects,
                                 rule::list({0, kMaxSceneEffects, "effect instances"}, true)),
        field("duration_s", &SceneDesc::duration_s,
              rule::between(0, true, kMaxSceneDuration_s, false)),
        field("fps", &SceneDesc::fps, rule::within(1, kMaxSceneFps))};
}

} // namespace spindrift
