// The JSON spelling of every authoring enum and of the update-module types: one table each, read
// by the effect reader, the validator's messages and the writer, so the three cannot disagree.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "spindrift/effect_desc.h"

namespace spindrift {

template <typename E> struct EnumName {
    const char* name;
    E value;
};

// Specialised in enum_names.cpp for every enum of effect_desc.h that appears in JSON.
template <typename E> std::span<const EnumName<E>> enumNames();

template <> std::span<const EnumName<Interpolation>> enumNames();
template <> std::span<const EnumName<SimulationSpace>> enumNames();
template <> std::span<const EnumName<BackendPreference>> enumNames();
template <> std::span<const EnumName<OverflowPolicy>> enumNames();
template <> std::span<const EnumName<ShapeKind>> enumNames();
template <> std::span<const EnumName<EmitFrom>> enumNames();
template <> std::span<const EnumName<ColorMode>> enumNames();
template <> std::span<const EnumName<ForceFieldKind>> enumNames();
template <> std::span<const EnumName<CollisionResponse>> enumNames();
template <> std::span<const EnumName<RenderType>> enumNames();
template <> std::span<const EnumName<BlendMode>> enumNames();
template <> std::span<const EnumName<Alignment>> enumNames();
template <> std::span<const EnumName<SortMode>> enumNames();
template <> std::span<const EnumName<BillboardLighting>> enumNames();
template <> std::span<const EnumName<ParticleLightSelect>> enumNames();
template <> std::span<const EnumName<SubEmitterEvent>> enumNames();
template <> std::span<const EnumName<ThresholdQuantity>> enumNames();
template <> std::span<const EnumName<ThresholdDirection>> enumNames();
template <> std::span<const EnumName<WakePolicy>> enumNames();
template <> std::span<const EnumName<CulledPolicy>> enumNames();

// The JSON string of value; "?" for a value outside the enum (only a corrupt description).
template <typename E> const char* enumName(E value) {
    for (const EnumName<E>& entry : enumNames<E>()) {
        if (entry.value == value) return entry.name;
    }
    return "?";
}

template <typename E> bool enumFromName(std::string_view name, E& out) {
    for (const EnumName<E>& entry : enumNames<E>()) {
        if (name == entry.name) {
            out = entry.value;
            return true;
        }
    }
    return false;
}

// "a, b, c": the accepted spellings, for "expected one of" messages.
template <typename E> std::string enumNameList() {
    std::string list;
    for (const EnumName<E>& entry : enumNames<E>()) {
        if (!list.empty()) list += ", ";
        list += entry.name;
    }
    return list;
}

// Update-module "type" names, indexed like UpdateModuleVariant's alternatives.
inline constexpr size_t kModuleTypeCount = std::variant_size_v<UpdateModuleVariant>;
const char* moduleTypeName(size_t variant_index);
bool moduleTypeFromName(std::string_view name, size_t& variant_index);
std::string moduleTypeNameList();

} // namespace spindrift
