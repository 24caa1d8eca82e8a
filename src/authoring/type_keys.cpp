#include "authoring/type_keys.h"

#include <algorithm>
#include <string>

#include "authoring/enum_names.h"

namespace spindrift {

namespace {

using namespace std::string_view_literals;

constexpr std::string_view kShapeKeys[] = {
    "type"sv, "emit_from"sv, "radius"sv,  "tube_radius"sv,         "length"sv,
    "size"sv, "angle_deg"sv, "arc_deg"sv, "randomize_direction"sv, "points"sv};

constexpr std::string_view kRenderKeys[] = {"type"sv,
                                            "blend"sv,
                                            "texture"sv,
                                            "soft_fade_distance"sv,
                                            "lit"sv,
                                            "sort"sv,
                                            "stable_order"sv,
                                            "alignment"sv,
                                            "axis"sv,
                                            "stretch"sv,
                                            "flipbook"sv,
                                            "width"sv,
                                            "uv_tiling"sv,
                                            "taper"sv,
                                            "min_sample_distance"sv,
                                            "max_points"sv,
                                            "start"sv,
                                            "end"sv,
                                            "start_tangent"sv,
                                            "end_tangent"sv,
                                            "segments"sv,
                                            "sag"sv,
                                            "jitter"sv,
                                            "jitter_frequency"sv,
                                            "mesh"sv,
                                            "scale"sv,
                                            "tumble_deg_per_s"sv};

bool contains(std::initializer_list<std::string_view> keys, std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

} // namespace

std::span<const std::string_view> allShapeKeys() {
    return kShapeKeys;
}
std::span<const std::string_view> allRenderKeys() {
    return kRenderKeys;
}

bool shapeKeyApplies(ShapeKind type, std::string_view key) {
    if (contains({"type", "emit_from", "randomize_direction"}, key)) return true;
    switch (type) {
    case ShapeKind::point:
        return false;
    case ShapeKind::line:
        return key == "length";
    case ShapeKind::box:
        return key == "size";
    case ShapeKind::sphere:
    case ShapeKind::hemisphere:
        return key == "radius";
    case ShapeKind::cone:
        return contains({"radius", "length", "angle_deg", "arc_deg"}, key);
    case ShapeKind::circle:
        return contains({"radius", "arc_deg"}, key);
    case ShapeKind::torus:
        return contains({"radius", "tube_radius", "arc_deg"}, key);
    case ShapeKind::mesh:
        return key == "points";
    }
    return false;
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
    if (contains({"type", "blend", "texture", "soft_fade_distance", "lit", "sort", "stable_order"},
                 key)) {
        return true;
    }
    switch (type) {
    case RenderType::billboard:
        return contains({"alignment", "axis", "stretch", "flipbook"}, key);
    case RenderType::ribbon:
        return contains({"width", "uv_tiling", "taper", "min_sample_distance", "max_points"}, key);
    case RenderType::beam:
        return contains({"start", "end", "start_tangent", "end_tangent", "segments", "width", "sag",
                         "jitter", "jitter_frequency"},
                        key);
    case RenderType::mesh:
        return contains({"mesh", "scale", "tumble_deg_per_s"}, key);
    }
    return false;
}

} // namespace spindrift
