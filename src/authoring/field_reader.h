// The reading walk over a field table (field_table.h): an object's keys are checked against its
// table, then each present field is read in table order, strictly (value_reader.h). A codec's
// readCodec overload (found by argument-dependent lookup) replaces the ordinary read of a field.
#pragma once

#include <span>
#include <string>

#include "authoring/field_table.h"
#include "authoring/value_reader.h"

namespace spindrift {

template <HasFields T> void readFields(const ObjectIn& in, T& out);

// An object with a table of its own: {"key": value, ...}, no key outside the table.
template <HasFields T>
bool readValue(ReadContext& ctx, const json::Value& v, const std::string& path, T& out) {
    if (!expectObject(ctx, v, path)) return false;
    const ObjectIn in{ctx, v, path};
    static constexpr auto kKeys = fieldKeys<T>();
    checkKeys(in, std::span<const std::string_view>(kKeys));
    readFields(in, out);
    return true;
}

// The ordinary read: by the value's type; a list of objects element by element, held to its
// limit.
template <typename F, typename T, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, T& value, O&, PlainCodec) {
    const std::string path = in.childPath(f.key);
    if constexpr (ObjectList<T>) {
        readList(in.ctx, v, path, f.rule.list, value,
                 [&](const json::Value& item, const std::string& p, auto& element) {
                     readValue(in.ctx, item, p, element);
                 });
    } else {
        readValue(in.ctx, v, path, value);
    }
}

// One field of object: a missing required key is reported (when require), an absent optional
// one keeps its default.
template <typename F, typename O>
void readOneField(const ObjectIn& in, const F& f, O& object, bool require = true) {
    if (f.required() && require && !requireKey(in, f.key)) return;
    const json::Value* v = in.member(f.key);
    if (v == nullptr) return;
    readCodec(in, f, *v, object.*f.member, object, typename F::CodecType{});
}

template <HasFields T> void readFields(const ObjectIn& in, T& out) {
    forEachField(fieldsOf(FieldsOf<T>{}), [&](const auto& f) { readOneField(in, f, out); });
}

} // namespace spindrift
