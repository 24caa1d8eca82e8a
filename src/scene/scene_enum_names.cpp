#include "scene/scene_enum_names.h"

namespace spindrift {

template <> std::span<const EnumName<PrimitiveKind>> enumNames() {
    static constexpr EnumName<PrimitiveKind> kNames[] = {
        {"box", PrimitiveKind::box},
        {"sphere", PrimitiveKind::sphere},
    };
    return kNames;
}

} // namespace spindrift
