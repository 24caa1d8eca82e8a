#include "scene/scene_enum_names.h"

namespace spindrift {

template <> std::span<const EnumName<PrimitiveKind>> enumNames() {
    static constexpr EnumName<PrimitiveKind> kNames[] = {
        {"box", PrimitiveKind::box},
        {"sphere", PrimitiveKind::sphere},
    };
    return kNames;
}

template <> std::span<const EnumName<LightKind>> enumNames() {
    static constexpr EnumName<LightKind> kNames[] = {
        {"point", LightKind::point},
        {"spot", LightKind::spot},
    };
    return kNames;
}

template <> std::span<const EnumName<Transparency>> enumNames() {
    static constexpr EnumName<Transparency> kNames[] = {
        {"sorted", Transparency::sorted},
        {"weighted_oit", Transparency::weighted_oit},
    };
    return kNames;
}

template <> std::span<const EnumName<ParticleResolution>> enumNames() {
    static constexpr EnumName<ParticleResolution> kNames[] = {
        {"full", ParticleResolution::full},
        {"half", ParticleResolution::half},
    };
    return kNames;
}

template <> std::span<const EnumName<Tonemap>> enumNames() {
    static constexpr EnumName<Tonemap> kNames[] = {
        {"none", Tonemap::none},
        {"aces", Tonemap::aces},
        {"agx", Tonemap::agx},
        {"reinhard", Tonemap::reinhard},
    };
    return kNames;
}

template <> std::span<const EnumName<ExposureMode>> enumNames() {
    static constexpr EnumName<ExposureMode> kNames[] = {
        {"manual", ExposureMode::manual},
        {"auto", ExposureMode::automatic},
    };
    return kNames;
}

} // namespace spindrift
