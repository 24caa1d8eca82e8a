#include "authoring/enum_names.h"

#include <array>

namespace spindrift {

namespace {

// Spellings are part of format version 1: frozen, like the enum values they name.
constexpr EnumName<Interpolation> kInterpolation[] = {{"linear", Interpolation::linear},
                                                      {"smooth", Interpolation::smooth},
                                                      {"step", Interpolation::step}};
constexpr EnumName<SimulationSpace> kSpace[] = {{"world", SimulationSpace::world},
                                                {"local", SimulationSpace::local}};
constexpr EnumName<BackendPreference> kBackend[] = {{"auto", BackendPreference::auto_},
                                                    {"cpu", BackendPreference::cpu},
                                                    {"gpu", BackendPreference::gpu}};
constexpr EnumName<OverflowPolicy> kOverflow[] = {
    {"drop_new", OverflowPolicy::drop_new}, {"replace_oldest", OverflowPolicy::replace_oldest}};
constexpr EnumName<ShapeKind> kShape[] = {{"point", ShapeKind::point},
                                          {"line", ShapeKind::line},
                                          {"box", ShapeKind::box},
                                          {"sphere", ShapeKind::sphere},
                                          {"hemisphere", ShapeKind::hemisphere},
                                          {"cone", ShapeKind::cone},
                                          {"circle", ShapeKind::circle},
                                          {"torus", ShapeKind::torus},
                                          {"mesh", ShapeKind::mesh}};
constexpr EnumName<EmitFrom> kEmitFrom[] = {
    {"volume", EmitFrom::volume}, {"shell", EmitFrom::shell}, {"edge", EmitFrom::edge}};
constexpr EnumName<ColorMode> kColorMode[] = {{"constant", ColorMode::constant},
                                              {"random_between", ColorMode::random_between},
                                              {"gradient", ColorMode::gradient}};
constexpr EnumName<ForceFieldKind> kForceField[] = {{"point", ForceFieldKind::point},
                                                    {"vortex", ForceFieldKind::vortex},
                                                    {"drag", ForceFieldKind::drag}};
constexpr EnumName<CollisionResponse> kResponse[] = {{"bounce", CollisionResponse::bounce},
                                                     {"stick", CollisionResponse::stick},
                                                     {"kill", CollisionResponse::kill}};
constexpr EnumName<RenderType> kRender[] = {{"billboard", RenderType::billboard},
                                            {"ribbon", RenderType::ribbon},
                                            {"beam", RenderType::beam},
                                            {"mesh", RenderType::mesh}};
constexpr EnumName<BlendMode> kBlend[] = {{"additive", BlendMode::additive},
                                          {"premultiplied", BlendMode::premultiplied},
                                          {"alpha", BlendMode::alpha},
                                          {"opaque", BlendMode::opaque}};
constexpr EnumName<Alignment> kAlignment[] = {{"camera", Alignment::camera},
                                              {"velocity_stretch", Alignment::velocity_stretch},
                                              {"axis", Alignment::axis},
                                              {"fixed", Alignment::fixed}};
constexpr EnumName<SortMode> kSort[] = {{"none", SortMode::none},
                                        {"back_to_front", SortMode::back_to_front},
                                        {"front_to_back", SortMode::front_to_back},
                                        {"oldest_first", SortMode::oldest_first},
                                        {"newest_first", SortMode::newest_first}};
constexpr EnumName<BillboardLighting> kBillboardLighting[] = {
    {"per_pixel", BillboardLighting::per_pixel}, {"per_particle", BillboardLighting::per_particle}};
constexpr EnumName<ParticleLightSelect> kLightSelect[] = {
    {"brightest", ParticleLightSelect::brightest},
    {"oldest", ParticleLightSelect::oldest},
    {"every_kth", ParticleLightSelect::every_kth}};
constexpr EnumName<SubEmitterEvent> kEvent[] = {{"birth", SubEmitterEvent::birth},
                                                {"death", SubEmitterEvent::death},
                                                {"collision", SubEmitterEvent::collision},
                                                {"threshold", SubEmitterEvent::threshold}};
constexpr EnumName<ThresholdQuantity> kThresholdQuantity[] = {
    {"none", ThresholdQuantity::none},
    {"speed", ThresholdQuantity::speed},
    {"height", ThresholdQuantity::height},
    {"age_fraction", ThresholdQuantity::age_fraction}};
constexpr EnumName<ThresholdDirection> kThresholdDirection[] = {
    {"rising", ThresholdDirection::rising},
    {"falling", ThresholdDirection::falling},
    {"either", ThresholdDirection::either}};
constexpr EnumName<WakePolicy> kWake[] = {{"fast_forward", WakePolicy::fast_forward},
                                          {"restart", WakePolicy::restart}};
constexpr EnumName<CulledPolicy> kCulled[] = {{"simulate", CulledPolicy::simulate},
                                              {"sleep", CulledPolicy::sleep}};

// In UpdateModuleVariant order (effect_desc.h lists the same names).
constexpr std::array<const char*, kModuleTypeCount> kModuleTypes = {
    "gravity",          "buoyancy",           "drag",           "force",         "wind",
    "speed_limit",      "curl_noise",         "force_field",    "attractor",     "color_over_life",
    "size_over_life",   "rotation_over_life", "color_by_speed", "size_by_speed", "collision",
    "world_attractors", "blackbody"};

} // namespace

template <> std::span<const EnumName<Interpolation>> enumNames() {
    return kInterpolation;
}
template <> std::span<const EnumName<SimulationSpace>> enumNames() {
    return kSpace;
}
template <> std::span<const EnumName<BackendPreference>> enumNames() {
    return kBackend;
}
template <> std::span<const EnumName<OverflowPolicy>> enumNames() {
    return kOverflow;
}
template <> std::span<const EnumName<ShapeKind>> enumNames() {
    return kShape;
}
template <> std::span<const EnumName<EmitFrom>> enumNames() {
    return kEmitFrom;
}
template <> std::span<const EnumName<ColorMode>> enumNames() {
    return kColorMode;
}
template <> std::span<const EnumName<ForceFieldKind>> enumNames() {
    return kForceField;
}
template <> std::span<const EnumName<CollisionResponse>> enumNames() {
    return kResponse;
}
template <> std::span<const EnumName<RenderType>> enumNames() {
    return kRender;
}
template <> std::span<const EnumName<BlendMode>> enumNames() {
    return kBlend;
}
template <> std::span<const EnumName<Alignment>> enumNames() {
    return kAlignment;
}
template <> std::span<const EnumName<SortMode>> enumNames() {
    return kSort;
}
template <> std::span<const EnumName<BillboardLighting>> enumNames() {
    return kBillboardLighting;
}
template <> std::span<const EnumName<ParticleLightSelect>> enumNames() {
    return kLightSelect;
}
template <> std::span<const EnumName<SubEmitterEvent>> enumNames() {
    return kEvent;
}
template <> std::span<const EnumName<ThresholdQuantity>> enumNames() {
    return kThresholdQuantity;
}
template <> std::span<const EnumName<ThresholdDirection>> enumNames() {
    return kThresholdDirection;
}
template <> std::span<const EnumName<WakePolicy>> enumNames() {
    return kWake;
}
template <> std::span<const EnumName<CulledPolicy>> enumNames() {
    return kCulled;
}

const char* moduleTypeName(size_t variant_index) {
    return variant_index < kModuleTypes.size() ? kModuleTypes[variant_index] : "?";
}

bool moduleTypeFromName(std::string_view name, size_t& variant_index) {
    for (size_t i = 0; i < kModuleTypes.size(); ++i) {
        if (name == kModuleTypes[i]) {
            variant_index = i;
            return true;
        }
    }
    return false;
}

std::string moduleTypeNameList() {
    std::string list;
    for (const char* name : kModuleTypes) {
        if (!list.empty()) list += ", ";
        list += name;
    }
    return list;
}

} // namespace spindrift
