// Strict conversion of JSON values into the authoring model's value types. Each reader reports
// a wrong kind, a non-integer, a number that does not fit, an unknown enum spelling or a
// malformed array at the value, with its JSON path and position, and then leaves its output
// untouched (so the default stays and nothing downstream reports the same mistake again).
// Every value read is recorded (path -> position) so later semantic diagnostics can be placed.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "authoring/enum_names.h"
#include "authoring/field_table.h"
#include "io/json_value.h"
#include "io/read_context.h"
#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

// "1.5", "the string \"fast\"", "an array of 2 elements": what was found, for messages.
std::string describe(const json::Value& value);
// Text from the document as a message shows it: at most 40 bytes ("..." after), control
// characters as '?', so one diagnostic stays one printable line.
std::string shownText(std::string_view text);

// An object being read: the value, its path, and the context that collects diagnostics.
struct ObjectIn {
    ReadContext& ctx;
    const json::Value& value;
    std::string path;

    // The member, recorded; nullptr when absent.
    const json::Value* member(std::string_view key) const;
    std::string childPath(std::string_view key) const { return json::pathKey(path, key); }
};

// Reports a value that is not an object. Records the object's position.
bool expectObject(ReadContext& ctx, const json::Value& value, const std::string& path);
// Reports every key not in allowed ("unknown key 'x'; expected one of: ...").
void checkKeys(const ObjectIn& in, std::span<const std::string_view> allowed);
void checkKeys(const ObjectIn& in, std::initializer_list<std::string_view> allowed);
// Reports a missing required key (at the object's position, with the key's path).
bool requireKey(const ObjectIn& in, std::string_view key);

bool readFloat(ReadContext& ctx, const json::Value& v, const std::string& path, float& out);
bool readUint(ReadContext& ctx, const json::Value& v, const std::string& path, uint32_t& out);
bool readBool(ReadContext& ctx, const json::Value& v, const std::string& path, bool& out);
// Refuses a string holding a control character (U+0000..U+001F, U+007F), escaped or not: every
// string of the formats is a name, a path or an enum spelling, and a NUL would cut a path.
bool readString(ReadContext& ctx, const json::Value& v, const std::string& path, std::string& out);
bool readFloat3(ReadContext& ctx, const json::Value& v, const std::string& path, Float3& out);
bool readFloat4(ReadContext& ctx, const json::Value& v, const std::string& path, Float4& out);
bool readRange(ReadContext& ctx, const json::Value& v, const std::string& path, FloatRange& out);
bool readRange(ReadContext& ctx, const json::Value& v, const std::string& path, Float3Range& out);
bool readRange(ReadContext& ctx, const json::Value& v, const std::string& path, CountRange& out);
bool readCurve(ReadContext& ctx, const json::Value& v, const std::string& path, Curve& out);
bool readGradient(ReadContext& ctx, const json::Value& v, const std::string& path, Gradient& out);
// An array of exactly count numbers, as floats. record_elements = false records only the
// array's position: for long lists (mesh points) whose rules name the row, not the number, it
// keeps the position map from growing by one entry per number.
bool readFloats(ReadContext& ctx, const json::Value& v, const std::string& path, float* out,
                size_t count, const char* form, bool record_elements = true);

template <typename E>
bool readEnum(ReadContext& ctx, const json::Value& v, const std::string& path, E& out) {
    std::string name;
    if (!readString(ctx, v, path, name)) return false;
    if (!enumFromName(name, out)) {
        ctx.error(path, v.pos,
                  "unknown value '" + name + "'; expected one of: " + enumNameList<E>());
        return false;
    }
    return true;
}

// The value types of the formats, each read by its reader above.
template <typename T>
concept PlainValue = std::is_enum_v<T> || std::is_same_v<T, float> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, bool> || std::is_same_v<T, std::string> || std::is_same_v<T, Float3> ||
    std::is_same_v<T, Float4> || std::is_same_v<T, FloatRange> || std::is_same_v<T, Float3Range> ||
    std::is_same_v<T, CountRange> || std::is_same_v<T, Curve> || std::is_same_v<T, Gradient>;

// A value by its type (objects with a field table: field_reader.h).
template <PlainValue T>
bool readValue(ReadContext& c, const json::Value& v, const std::string& p, T& o) {
    if constexpr (std::is_enum_v<T>) return readEnum(c, v, p, o);
    if constexpr (std::is_same_v<T, float>) return readFloat(c, v, p, o);
    if constexpr (std::is_same_v<T, uint32_t>) return readUint(c, v, p, o);
    if constexpr (std::is_same_v<T, bool>) return readBool(c, v, p, o);
    if constexpr (std::is_same_v<T, std::string>) return readString(c, v, p, o);
    if constexpr (std::is_same_v<T, Float3>) return readFloat3(c, v, p, o);
    if constexpr (std::is_same_v<T, Float4>) return readFloat4(c, v, p, o);
    if constexpr (std::is_same_v<T, FloatRange> || std::is_same_v<T, Float3Range> ||
                  std::is_same_v<T, CountRange>) {
        return readRange(c, v, p, o);
    }
    if constexpr (std::is_same_v<T, Curve>) return readCurve(c, v, p, o);
    if constexpr (std::is_same_v<T, Gradient>) return readGradient(c, v, p, o);
}

// readField(in, "key", field): reads the member into field when present.
template <typename T> bool readField(const ObjectIn& in, std::string_view key, T& out) {
    const json::Value* v = in.member(key);
    return v != nullptr && readValue(in.ctx, *v, in.childPath(key), out);
}

// For an array already known to be one: false, with one diagnostic at the list ("expected 1 to
// 64 emitters, found 4000000"), when it holds more than limit.max elements. Such a list is the
// one mistake: its reader reads none of its elements (none is converted, recorded or reported),
// so a hostile list costs one diagnostic and no memory whatever its length, and the rules, which
// then see the list's default, report nothing at or below it (its path is reported).
bool checkListLength(ReadContext& ctx, const json::Value& v, const std::string& path,
                     const ListLimit& limit);

// An array whose every element becomes one T through read_one(element, path, t). A failed
// element still takes its place (as a default T) so the indices of later elements, and the
// paths the validator reports for them, stay those of the document. A list longer than
// limit.max is not read (checkListLength) and out keeps its value.
template <typename T, typename ReadOne>
bool readList(ReadContext& ctx, const json::Value& v, const std::string& path,
              const ListLimit& limit, std::vector<T>& out, ReadOne read_one) {
    ctx.record(path, v.pos);
    if (v.kind != json::Kind::array) {
        ctx.error(path, v.pos, "expected an array, found " + describe(v));
        return false;
    }
    if (!checkListLength(ctx, v, path, limit)) return false;
    std::vector<T> items(v.items.size());
    for (size_t i = 0; i < v.items.size(); ++i) {
        read_one(v.items[i], json::pathIndex(path, i), items[i]);
    }
    out = std::move(items);
    return true;
}

} // namespace spindrift
