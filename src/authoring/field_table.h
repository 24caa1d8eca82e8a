// One field list per object of the document formats. Each object of the effect and scene formats
// (effect_fields.h, scene/scene_fields.h) lists its members once: JSON key, the struct member, the
// rule its value obeys, whether the key is required. From that one list the reader reads
// (field_reader.h), the writer writes (field_writer.h), the validator checks (field_rules.h) and a
// test holds the JSON Schemas in schema/ to the same keys, types and ranges
// (tests/schema/schema_fields_test.cpp). A field that needs more than its value's ordinary
// treatment names a codec: a tag type the three walkers overload on (a direction normalised on
// read, a rule that compares siblings, an object whose keys depend on its type).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <tuple>
#include <vector>

namespace spindrift {

// How many elements a list of the format may hold: its limit from include/spindrift/
// effect_desc.h or scene_desc.h, and what the elements are called in messages ("emitters").
// The reader enforces only max; a list shorter than min is reported by the format's rules.
struct ListLimit {
    size_t min = 0;
    size_t max = 0;
    const char* what = "";
};

enum class RuleKind : uint8_t {
    none,      // any value the type holds (booleans, enums, names checked elsewhere)
    bounds,    // numbers (each component, each end of a range, each curve value) in [lo, hi]
    direction, // a unit-length Float3 (the reader normalises)
    non_zero,  // a non-zero Float3
    file_path, // a path in a document (RuleChecker::filePath)
};

// What the rules hold a field's value to, and so what the schema must say of it.
struct Rule {
    RuleKind kind = RuleKind::none;
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    bool lo_open = false;
    bool hi_open = false;
    // Lists: their length limit; counted: the rules check the length too (the reader always
    // stops at max).
    ListLimit list{};
    bool counted = false;
};

namespace rule {
constexpr Rule any() {
    return {};
}
constexpr Rule between(double lo, bool lo_open, double hi, bool hi_open) {
    return {RuleKind::bounds, lo, hi, lo_open, hi_open};
}
constexpr Rule finite() {
    return between(-std::numeric_limits<double>::infinity(), false,
                   std::numeric_limits<double>::infinity(), false);
}
constexpr Rule atLeast(double lo) {
    return between(lo, false, std::numeric_limits<double>::infinity(), false);
}
constexpr Rule above(double lo) {
    return between(lo, true, std::numeric_limits<double>::infinity(), false);
}
constexpr Rule unit() {
    return between(0, false, 1, false);
}
constexpr Rule within(double lo, double hi) {
    return between(lo, false, hi, false);
}
constexpr Rule direction() {
    return {RuleKind::direction};
}
constexpr Rule nonZero() {
    return {RuleKind::non_zero};
}
constexpr Rule filePath() {
    return {RuleKind::file_path};
}
// A list the reader stops at limit.max; counted: the rules report a length outside
// [limit.min, limit.max] as well.
constexpr Rule list(ListLimit limit, bool counted) {
    Rule r;
    r.list = limit;
    r.counted = counted;
    return r;
}
} // namespace rule

// The ordinary treatment of a value: read by its type, written when it differs from the default,
// checked against its rule. Codecs that change only one of the three derive from it.
struct PlainCodec {};

// A document's format version (its rule: the one version this build reads). Read first and alone,
// since it decides what every other key means (readDocument); the writer writes it as a plain
// required value. formatName(FieldsOf<Doc>{}) names the format in messages ("scene format").
struct VersionCodec : PlainCodec {};

enum class Presence : uint8_t { optional, required };

// A bit per enum value of a type-tagged object (shape, primitive): the types a key applies to.
inline constexpr uint32_t kAllTypes = ~0u;
template <typename E, typename... Es> constexpr uint32_t typesOf(E first, Es... rest) {
    return (1u << static_cast<uint32_t>(first)) | ((1u << static_cast<uint32_t>(rest)) | ... | 0u);
}

template <typename Object, typename T, typename Codec> struct Field {
    using ObjectType = Object;
    using ValueType = T;
    using CodecType = Codec;
    std::string_view key;
    T Object::*member;
    Rule rule;
    Presence presence;
    uint32_t types;

    constexpr bool required() const { return presence == Presence::required; }
    template <typename E> constexpr bool appliesTo(E type) const {
        return (types >> static_cast<uint32_t>(type)) & 1u;
    }
};

template <typename Codec = PlainCodec, typename Object, typename T>
constexpr Field<Object, T, Codec>
field(std::string_view key, T Object::*member, Rule rule = rule::any(),
      Presence presence = Presence::optional, uint32_t types = kAllTypes) {
    return {key, member, rule, presence, types};
}

// fieldsOf(FieldsOf<T>{}) returns T's table (a std::tuple of Field); found by argument-dependent
// lookup, so a format declares its tables in namespace spindrift.
template <typename T> struct FieldsOf {};

template <typename T>
concept HasFields = requires {
    fieldsOf(FieldsOf<T>{});
};

template <typename T> struct IsVector : std::false_type {};
template <typename T> struct IsVector<std::vector<T>> : std::true_type { using Element = T; };

// A list of objects that have a table of their own.
template <typename T>
concept ObjectList = IsVector<T>::value && HasFields<typename IsVector<T>::Element>;

template <typename Table, typename F> constexpr void forEachField(const Table& table, F&& f) {
    std::apply([&](const auto&... each) { (f(each), ...); }, table);
}

// The table's keys in order, for "unknown key" messages.
template <typename Table> constexpr auto tableKeys(const Table& table) {
    std::array<std::string_view, std::tuple_size_v<Table>> keys{};
    size_t i = 0;
    forEachField(table, [&](const auto& f) { keys[i++] = f.key; });
    return keys;
}

template <typename T> constexpr auto fieldKeys() {
    return tableKeys(fieldsOf(FieldsOf<T>{}));
}

} // namespace spindrift
