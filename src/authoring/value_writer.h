// The canonical JSON of the authoring model's value types, the writing half of value_reader.h:
// putValue overloads that json::DocumentWriter finds by argument-dependent lookup. A range with
// min == max is written as its one value, a constant curve as its number, vectors and pairs as
// one-line arrays. Non-finite numbers come out as null (json::Writer), so an invalid
// description's text fails to load instead of holding something JSON cannot.
#pragma once

#include <type_traits>

#include "authoring/enum_names.h"
#include "io/document_writer.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

void putValue(json::DocumentWriter& out, const Float3& v);
void putValue(json::DocumentWriter& out, const Float4& v);
void putValue(json::DocumentWriter& out, const FloatRange& r);
void putValue(json::DocumentWriter& out, const Float3Range& r);
void putValue(json::DocumentWriter& out, const CountRange& r);
void putValue(json::DocumentWriter& out, const Curve& c);
void putValue(json::DocumentWriter& out, const Gradient& g);

// Any enum with a name table (enum_names.h, scene_enum_names.h): its JSON spelling.
template <typename E>
requires std::is_enum_v<E>
void putValue(json::DocumentWriter& out, E value) {
    out.value(enumName(value));
}

} // namespace spindrift
