#include "scene/scene_enum_names.h"

namespace spindrift {

template <> std::span<const EnumName<PrimitiveKind>> enumNames() {
    static constexpr EnumName<PrimitiveKind> kNames[] = {
        {"box", PrimitiveKind::box},
        {"sphere", PrimitiveKind::sphere},
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

} // namespace spindrift
