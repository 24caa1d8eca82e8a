#include "authoring/type_keys.h"

#include <algorithm>
#include <string>

#include "authoring/effect_fields.h"
#include "authoring/enum_names.h"

namespace spindrift {

namespace {

// Every render key once, in table order: the common keys, then each type's new ones ("width" is
// both a ribbon's and a beam's).
template <typename... Tables> constexpr auto unionOfKeys(const Tables&... tables) {
    constexpr size_t kTotal = (std::tuple_size_v<Tables> + ...);
    std::array<std::string_view, kTotal> all{};
    size_t count = 0;
    auto add = [&](const auto& table) {
        for (std::string_view key : tableKeys(table)) {
            bool seen = false;
            for (size_t i = 0; i < count; ++i) seen = seen || all[i] == key;
            if (!seen) all[count++] = key;
        }
    };
    (add(tables), ...);
    return std::pair{all, count};
}

constexpr auto kShapeKeys = fieldKeys<ShapeDesc>();
constexpr auto kRenderKeys =
    unionOfKeys(fieldsOf(FieldsOf<RenderDesc>{}), fieldsOf(FieldsOf<BillboardDesc>{}),
                fieldsOf(FieldsOf<RibbonDesc>{}), fieldsOf(FieldsOf<BeamDesc>{}),
                fieldsOf(FieldsOf<MeshRenderDesc>{}));

template <typename T> bool tableHas(std::string_view key) {
    static constexpr auto kKeys = fieldKeys<T>();
    return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

} // namespace

std::span<const std::string_view> allShapeKeys() {
    return kShapeKeys;
}
std::span<const std::string_view> allRenderKeys() {
    return std::span<const std::string_view>(kRenderKeys.first.data(), kRenderKeys.second);
}

bool shapeKeyApplies(ShapeKind type, std::string_view key) {
    bool applies = false;
    forEachField(fieldsOf(FieldsOf<ShapeDesc>{}), [&](const auto& f) {
        if (f.key == key) applies = f.appliesTo(type);
    });
    return applies;
}

bool emitFromApplies(ShapeKind type, EmitFrom emit_from) {
    switch (type) {
    case ShapeKind::point:
    case ShapeKind::mesh:
        return emit_from == EmitFrom::volume;
    case ShapeKind::line:
    case ShapeKind::circle:
        return emit_from != EmitFrom::shell;
    case ShapeKind::sphere:
    case ShapeKind::torus:
        return emit_from != EmitFrom::edge;
    case ShapeKind::box:
    case ShapeKind::hemisphere:
    case ShapeKind::cone:
        return true;
    }
    return false;
}

std::string emitFromList(ShapeKind type) {
    std::string list;
    for (const EnumName<EmitFrom>& entry : enumNames<EmitFrom>()) {
        if (!emitFromApplies(type, entry.value)) continue;
        if (!list.empty()) list += ", ";
        list += entry.name;
    }
    return list;
}

bool renderKeyApplies(RenderType type, std::string_view key) {
    if (tableHas<RenderDesc>(key)) return true;
    switch (type) {
    case RenderType::billboard:
        return tableHas<BillboardDesc>(key);
    case RenderType::ribbon:
        return tableHas<RibbonDesc>(key);
    case RenderType::beam:
        return tableHas<BeamDesc>(key);
    case RenderType::mesh:
        return tableHas<MeshRenderDesc>(key);
    }
    return false;
}

} // namespace spindrift
