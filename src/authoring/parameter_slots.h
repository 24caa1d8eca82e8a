// What the reader, the rules and the writer of user parameters share (effect_parameters.h): the
// values a parameter may stand in for, each once (the target, where it stands in an emitter, the
// form of its value), and the small JSON helpers both walks use.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <variant>

#include "io/json_value.h"
#include "io/json_writer.h"
#include "spindrift/effect_desc.h"

namespace spindrift::parameter_slots {

// The form of the value a target replaces.
enum class Shape : uint8_t { scalar, float_range, count, float3, float3_range, color };

// Where each target stands in an emitter: "spawn" / "init" keys, "bursts" (spawn.bursts[item]),
// or an update module's type name (update[item] of that type). One list: the reader finds
// bindings through it, bindingPath names them, the validator checks them.
struct Slot {
    ParameterTarget target;
    const char* stage;
    const char* key;
    Shape shape;
};

constexpr Slot kSlots[] = {
    {ParameterTarget::rate_per_s, "spawn", "rate_per_s", Shape::scalar},
    {ParameterTarget::rate_per_m, "spawn", "rate_per_m", Shape::scalar},
    {ParameterTarget::burst_count, "bursts", "count", Shape::count},
    {ParameterTarget::speed, "init", "speed", Shape::float_range},
    {ParameterTarget::size, "init", "size", Shape::float_range},
    {ParameterTarget::velocity, "init", "velocity", Shape::float3_range},
    {ParameterTarget::color, "init", "color", Shape::color},
    {ParameterTarget::gravity_acceleration, "gravity", "acceleration", Shape::float3},
    {ParameterTarget::force_acceleration, "force", "acceleration", Shape::float3},
    {ParameterTarget::wind_velocity, "wind", "velocity", Shape::float3},
    {ParameterTarget::wind_coefficient, "wind", "coefficient_per_s", Shape::scalar},
    {ParameterTarget::drag_coefficient, "drag", "coefficient_per_s", Shape::scalar},
    {ParameterTarget::buoyancy_acceleration, "buoyancy", "acceleration", Shape::scalar},
    {ParameterTarget::curl_strength, "curl_noise", "strength", Shape::scalar},
    {ParameterTarget::force_field_strength, "force_field", "strength", Shape::scalar},
    {ParameterTarget::attractor_strength, "attractor", "strength", Shape::scalar},
    {ParameterTarget::speed_limit_max_speed, "speed_limit", "max_speed", Shape::scalar},
};

inline const Slot* slotOf(ParameterTarget target) {
    for (const Slot& s : kSlots) {
        if (s.target == target) return &s;
    }
    return nullptr;
}

inline bool isModuleSlot(const Slot& s) {
    return std::string_view(s.stage) != "spawn" && std::string_view(s.stage) != "init" &&
           std::string_view(s.stage) != "bursts";
}

inline const char* typeName(ParameterType t) {
    switch (t) {
    case ParameterType::float_:
        return "float";
    case ParameterType::float3:
        return "float3";
    case ParameterType::color:
        return "color";
    }
    return "?";
}

// The type a binding's parameter must have: the value's own type for the whole value, the
// type of one end for an end of a range, float for one component.
inline bool partType(Shape shape, uint32_t element, uint32_t component, ParameterType& out) {
    if (component != kWholeValue) {
        out = ParameterType::float_;
        return true;
    }
    switch (shape) {
    case Shape::scalar:
    case Shape::float_range:
        out = ParameterType::float_;
        return true;
    case Shape::count:
        out = ParameterType::float_;
        return element == kWholeValue; // a count range takes one value for both ends
    case Shape::float3:
    case Shape::float3_range:
        out = ParameterType::float3;
        return true;
    case Shape::color:
        out = ParameterType::color;
        return true;
    }
    return false;
}

inline bool isBindingObject(const json::Value& v) {
    return v.kind == json::Kind::object && v.find("param") != nullptr;
}

template <typename V> V* member(V& object, std::string_view key) {
    if (object.kind != json::Kind::object) return nullptr;
    for (size_t i = 0; i < object.keys.size() && i < object.items.size(); ++i) {
        if (object.keys[i] == key) return &object.items[i];
    }
    return nullptr;
}

inline float& componentOf(Float4& v, uint32_t c) {
    return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}
inline float componentOf(const Float4& v, uint32_t c) {
    return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

inline json::Value valueOf(json::Kind kind) {
    json::Value v;
    v.kind = kind;
    return v;
}

inline json::Value numberValue(float f, const json::SourcePos& pos) {
    json::Value v;
    v.kind = json::Kind::number;
    v.text = json::formatFloat(f);
    v.pos = pos;
    return v;
}

} // namespace spindrift::parameter_slots
