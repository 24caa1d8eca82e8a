// The checking walk over a field table (field_table.h): each field in table order against its
// rule, through the vocabulary of rule_checker.h, so the messages are those of the hand-written
// checks. A codec's checkCodec overload (found by argument-dependent lookup) replaces the
// ordinary check of a field.
#pragma once

#include <string>
#include <type_traits>

#include "authoring/field_table.h"
#include "authoring/rule_checker.h"
#include "io/json_value.h"

namespace spindrift {

template <HasFields T> void checkFields(const RuleChecker& c, const std::string& path, const T& v);

inline bool checkBounds(const RuleChecker& c, const std::string& path, const Rule& r, float v) {
    return c.number(path, v, float(r.lo), r.lo_open, float(r.hi), r.hi_open);
}

// One value against its rule; path is the value's own.
template <typename T>
void checkValue(const RuleChecker& c, const std::string& path, const Rule& r, bool required,
                const T& v) {
    if constexpr (ObjectList<T>) {
        if (r.counted) c.count(path, v.size(), r.list.min, r.list.max, r.list.what);
        for (size_t i = 0; i < v.size(); ++i) checkFields(c, json::pathIndex(path, i), v[i]);
    } else if constexpr (HasFields<T>) {
        checkFields(c, path, v);
    } else if constexpr (std::is_same_v<T, bool> || std::is_enum_v<T>) {
        return; // every value the reader accepts is valid
    } else if (r.kind == RuleKind::none) {
        return;
    } else if constexpr (std::is_same_v<T, float>) {
        checkBounds(c, path, r, v);
    } else if constexpr (std::is_same_v<T, uint32_t>) {
        c.integer(path, v, uint64_t(r.lo), uint64_t(r.hi));
    } else if constexpr (std::is_same_v<T, Float3>) {
        if (r.kind == RuleKind::direction) {
            c.unitDirection(path, v);
        } else if (r.kind == RuleKind::non_zero) {
            c.nonZero(path, v);
        } else {
            checkBounds(c, json::pathIndex(path, 0), r, v.x);
            checkBounds(c, json::pathIndex(path, 1), r, v.y);
            checkBounds(c, json::pathIndex(path, 2), r, v.z);
        }
    } else if constexpr (std::is_same_v<T, FloatRange>) {
        c.range(path, v, float(r.lo), r.lo_open);
    } else if constexpr (std::is_same_v<T, Float3Range>) {
        c.range3(path, v);
    } else if constexpr (std::is_same_v<T, CountRange>) {
        c.countRange(path, v, uint32_t(r.lo), uint32_t(r.hi));
    } else if constexpr (std::is_same_v<T, Curve>) {
        c.curve(path, v, float(r.lo), float(r.hi));
    } else if constexpr (std::is_same_v<T, Gradient>) {
        c.gradient(path, v, float(r.hi));
    } else if constexpr (std::is_same_v<T, std::string>) {
        c.filePath(path, v, required);
    } else {
        static_assert(!sizeof(T), "no rule for this value type");
    }
}

template <typename F, typename T, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, const T& v, const O&,
                PlainCodec) {
    checkValue(c, path, f.rule, f.required(), v);
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, uint32_t version,
                const O&, VersionCodec) {
    if (version != uint32_t(f.rule.lo)) {
        c.error(path, versionMessage(formatName(FieldsOf<O>{}), version, uint32_t(f.rule.lo)));
    }
}

template <typename F, typename O>
void checkOneField(const RuleChecker& c, const std::string& object_path, const F& f,
                   const O& object) {
    checkCodec(c, json::pathKey(object_path, f.key), f, object.*f.member, object,
               typename F::CodecType{});
}

template <HasFields T> void checkFields(const RuleChecker& c, const std::string& path, const T& v) {
    forEachField(fieldsOf(FieldsOf<T>{}), [&](const auto& f) { checkOneField(c, path, f, v); });
}

} // namespace spindrift
