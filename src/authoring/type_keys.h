// Which shape and render keys apply to which type (derived from the field tables of
// effect_fields.h), and which emit_from values each shape supports. Read by the reader (a key of
// another type is an error), the validator (a field of another type must keep its default) and
// the writer (it writes only these keys).
#pragma once

#include <span>
#include <string_view>

#include "spindrift/effect_desc.h"

namespace spindrift {

// Every key a "shape" object may hold, for "unknown key" messages.
std::span<const std::string_view> allShapeKeys();
// type, emit_from and randomize_direction apply to every type.
bool shapeKeyApplies(ShapeKind type, std::string_view key);
bool emitFromApplies(ShapeKind type, EmitFrom emit_from);
std::string emitFromList(ShapeKind type); // "volume, shell" for messages

std::span<const std::string_view> allRenderKeys();
// type, blend, texture, soft_fade_distance, lit, sort and stable_order apply to every type.
bool renderKeyApplies(RenderType type, std::string_view key);

} // namespace spindrift
