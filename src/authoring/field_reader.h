// The reading walk over a field table (field_table.h): an object's keys are checked against its
// table, then each present field is read in table order, strictly (value_reader.h). A codec's
// readCodec overload (found by argument-dependent lookup) replaces the ordinary read of a field.
#pragma once

#include <span>
#include <string>

#include "authoring/field_table.h"
#include "authoring/rule_checker.h"
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

// A document's root: its version first and alone (a document of another version is reported
// once, not as a list of keys this reader does not know), then every other key. False when
// reading stopped early (not an object, or another version).
template <HasFields Doc> bool readDocument(ReadContext& ctx, const json::Value& root, Doc& out) {
    const std::string path = "$";
    if (!expectObject(ctx, root, path)) return false;
    const ObjectIn in{ctx, root, path};
    bool other_version = false;
    forEachField(fieldsOf(FieldsOf<Doc>{}), [&](const auto& f) {
        using Codec = typename std::decay_t<decltype(f)>::CodecType;
        if constexpr (std::is_same_v<Codec, VersionCodec>) {
            const uint32_t expected = uint32_t(f.rule.lo);
            if (requireKey(in, f.key) && readField(in, f.key, out.*f.member) &&
                out.*f.member != expected) {
                ctx.error(in.childPath(f.key), root.find(f.key)->pos,
                          versionMessage(formatName(FieldsOf<Doc>{}), out.*f.member, expected));
                other_version = true;
            }
        }
    });
    if (other_version) return false;
    static constexpr auto kKeys = fieldKeys<Doc>();
    checkKeys(in, std::span<const std::string_view>(kKeys));
    forEachField(fieldsOf(FieldsOf<Doc>{}), [&](const auto& f) {
        using Codec = typename std::decay_t<decltype(f)>::CodecType;
        if constexpr (!std::is_same_v<Codec, VersionCodec>) readOneField(in, f, out);
    });
    return true;
}

} // namespace spindrift
