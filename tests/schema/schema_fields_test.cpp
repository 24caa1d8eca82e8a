// The JSON Schemas in schema/ say what the field tables say (authoring/effect_fields.h,
// scene/scene_fields.h): every object lists exactly the table's keys, requires the table's
// required keys, and gives each value the table's type, enum spellings, range and list limits.
// A field added to a table and not to the schema (or the other way round) fails here.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "authoring/effect_fields.h"
#include "authoring/enum_names.h"
#include "io/json_value.h"
#include "scene/scene_enum_names.h"
#include "scene/scene_fields.h"

namespace spindrift {
namespace {

constexpr double kFloatMax = std::numeric_limits<float>::max();

json::Value loadSchema(const std::string& name) {
    std::ifstream file(std::string(SPINDRIFT_SOURCE_DIR) + "/schema/" + name);
    std::stringstream text;
    text << file.rdbuf();
    json::Value root;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(json::parse(text.str(), name, root, diagnostics)) << name;
    return root;
}

// Walks a schema beside the tables and collects every disagreement, named by its place in the
// schema ("$defs/spawn: ...").
struct SchemaCheck {
    const json::Value& root;
    std::vector<std::string> failures;

    void fail(const std::string& where, const std::string& what) {
        failures.push_back(where + ": " + what);
    }

    // Follows "$ref": "#/$defs/NAME", and a value that may also be {"param": NAME}
    // ("anyOf": [its form, param_ref]) to its form.
    const json::Value& resolve(const json::Value& node) const {
        if (const json::Value* any_of = node.find("anyOf");
            any_of != nullptr && any_of->items.size() == 2 &&
            refName(any_of->items[1]) == "param_ref") {
            return resolve(any_of->items[0]);
        }
        const json::Value* ref = node.find("$ref");
        if (ref == nullptr) return node;
        const std::string prefix = "#/$defs/";
        const json::Value* target = root.find("$defs")->find(ref->text.substr(prefix.size()));
        return target == nullptr ? node : resolve(*target);
    }

    static std::string refName(const json::Value& node) {
        const json::Value* ref = node.find("$ref");
        return ref == nullptr ? "" : ref->text.substr(std::string("#/$defs/").size());
    }

    static std::optional<double> number(const json::Value& node, std::string_view key) {
        const json::Value* v = node.find(key);
        double d = 0;
        if (v == nullptr || !json::toDouble(*v, d)) return std::nullopt;
        return d;
    }

    void expectType(const json::Value& node, const std::string& where, const char* type) {
        const json::Value* t = node.find("type");
        if (t == nullptr || t->text != type) fail(where, std::string("expected \"type\": ") + type);
    }

    // One end of a range: an infinite end is the largest float (numbers) or the uint32 range
    // (integers); an open end is exclusive*.
    void expectEnd(const json::Value& node, const std::string& where, bool integer, double bound,
                   bool open, const char* inclusive, const char* exclusive, double infinite) {
        const bool is_infinite = std::isinf(bound);
        const double want = is_infinite ? infinite : bound;
        const char* key = open && !is_infinite ? exclusive : inclusive;
        const std::optional<double> got = number(node, key);
        const bool same = got && (integer ? *got == want : float(*got) == float(want));
        if (!same) {
            fail(where, std::string("expected \"") + key + "\": " + std::to_string(want) +
                            (got ? ", found " + std::to_string(*got) : ", found none"));
        }
        if (node.find(open && !is_infinite ? inclusive : exclusive) != nullptr) {
            fail(where, std::string("unexpected \"") + (open ? inclusive : exclusive) + "\"");
        }
    }

    void expectBounds(const json::Value& node, const std::string& where, const Rule& r,
                      bool integer) {
        expectType(node, where, integer ? "integer" : "number");
        if (integer) {
            const bool bounded = r.kind == RuleKind::bounds;
            expectEnd(node, where, true, bounded ? r.lo : 0, false, "minimum", "exclusiveMinimum",
                      0);
            expectEnd(node, where, true, bounded ? r.hi : 4294967295.0, false, "maximum",
                      "exclusiveMaximum", 4294967295.0);
            return;
        }
        const bool bounded = r.kind == RuleKind::bounds;
        expectEnd(node, where, false, bounded ? r.lo : -INFINITY, r.lo_open, "minimum",
                  "exclusiveMinimum", -kFloatMax);
        expectEnd(node, where, false, bounded ? r.hi : INFINITY, r.hi_open, "maximum",
                  "exclusiveMaximum", kFloatMax);
    }

    // An array of min..max elements: maxItems, or as many "prefixItems" as "items": false allows.
    void expectArray(const json::Value& node, const std::string& where, size_t min, size_t max) {
        expectType(node, where, "array");
        const std::optional<double> lo = number(node, "minItems");
        std::optional<double> hi = number(node, "maxItems");
        const json::Value* items = node.find("items");
        const json::Value* prefix = node.find("prefixItems");
        if (!hi && prefix != nullptr && items != nullptr && items->kind == json::Kind::boolean &&
            !items->boolean) {
            hi = double(prefix->items.size());
        }
        if (min > 0 && (!lo || *lo != double(min))) {
            fail(where, "expected \"minItems\": " + std::to_string(min));
        }
        if (!hi || *hi != double(max)) fail(where, "expected \"maxItems\": " + std::to_string(max));
    }

    // The bounds of every element of a fixed-length array ("items" or each of "prefixItems").
    void expectElements(const json::Value& node, const std::string& where, const Rule& r,
                        bool integer) {
        const json::Value* items = node.find("items");
        if (items != nullptr && items->kind == json::Kind::object) {
            return expectBounds(resolve(*items), where + "/items", r, integer);
        }
        const json::Value* prefix = node.find("prefixItems");
        if (prefix == nullptr) return fail(where, "expected \"items\" or \"prefixItems\"");
        for (size_t i = 0; i < prefix->items.size(); ++i) {
            expectBounds(prefix->items[i], where + "/prefixItems/" + std::to_string(i), r, integer);
        }
    }

    template <typename E> void expectEnum(const json::Value& node, const std::string& where) {
        expectType(node, where, "string");
        std::vector<std::string> want, got;
        for (const EnumName<E>& entry : enumNames<E>()) want.emplace_back(entry.name);
        if (const json::Value* values = node.find("enum")) {
            for (const json::Value& v : values->items) got.push_back(v.text);
        } else if (const json::Value* one = node.find("const")) {
            got.push_back(one->text); // a module's "type" names itself
            want = got;
        }
        if (got != want) fail(where, "the enum spellings differ from enum_names");
    }

    // A value of type T under rule r.
    template <typename T>
    void value(const json::Value& raw, const std::string& where, const Rule& r, bool required) {
        const json::Value& node = resolve(raw);
        if constexpr (ObjectList<T>) {
            expectArray(node, where, r.list.min, r.list.max);
            if (const json::Value* items = node.find("items")) {
                object<typename IsVector<T>::Element>(*items, where + "/items");
            } else {
                fail(where, "expected \"items\"");
            }
        } else if constexpr (HasFields<T>) {
            object<T>(raw, where);
        } else if constexpr (std::is_same_v<T, float>) {
            expectBounds(node, where, r, false);
        } else if constexpr (std::is_same_v<T, uint32_t>) {
            if (node.find("const") != nullptr) {
                const std::optional<double> c = number(node, "const");
                if (!c || *c != r.lo || r.lo != r.hi) fail(where, "const differs from the rule");
            } else {
                expectBounds(node, where, r, true);
            }
        } else if constexpr (std::is_same_v<T, bool>) {
            expectType(node, where, "boolean");
        } else if constexpr (std::is_enum_v<T>) {
            expectEnum<T>(node, where);
        } else if constexpr (std::is_same_v<T, std::string>) {
            expectType(node, where, "string");
            if (r.kind == RuleKind::file_path) {
                const std::optional<double> max = number(node, "maxLength");
                const std::optional<double> min = number(node, "minLength");
                if (!max || *max != kMaxPathBytes) fail(where, "expected the kMaxPathBytes limit");
                if (required && (!min || *min != 1)) fail(where, "expected \"minLength\": 1");
            }
        } else if constexpr (std::is_same_v<T, Float3>) {
            expectArray(node, where, 3, 3);
            expectElements(node, where, r.kind == RuleKind::bounds ? r : rule::finite(), false);
        } else if constexpr (std::is_same_v<T, FloatRange> || std::is_same_v<T, CountRange>) {
            const json::Value* one_of = node.find("oneOf");
            if (one_of == nullptr || one_of->items.size() != 2) {
                return fail(where, "expected \"oneOf\": [a number, [min, max]]");
            }
            const bool integer = std::is_same_v<T, CountRange>;
            expectBounds(one_of->items[0], where + "/oneOf/0", r, integer);
            expectArray(one_of->items[1], where + "/oneOf/1", 2, 2);
            if (const json::Value* items = one_of->items[1].find("items")) {
                expectBounds(*items, where + "/oneOf/1/items", r, integer);
            }
        } else if constexpr (std::is_same_v<T, Float3Range>) {
            if (node.find("oneOf") == nullptr) fail(where, "expected \"oneOf\"");
        } else if constexpr (std::is_same_v<T, Curve>) {
            // A curve bounded above is a blackbody's temperatures: its own form, whose value
            // bounds must be the rule's.
            const std::string want = !std::isinf(r.hi) ? "curve_temperature_k"
                                     : r.lo == 0       ? "curve_nonnegative"
                                                       : "curve";
            if (refName(raw) != want) fail(where, "expected a $ref to " + want);
            if (want == "curve_temperature_k") {
                const json::Value& form = resolve(raw);
                if (const json::Value* one_of = form.find("oneOf");
                    one_of != nullptr && one_of->items.size() == 2) {
                    expectBounds(one_of->items[0], where + "/oneOf/0", r, false);
                } else {
                    fail(where, "expected a \"oneOf\" of a number and a keyed curve");
                }
            }
        } else if constexpr (std::is_same_v<T, Gradient>) {
            if (refName(raw) != "gradient") fail(where, "expected a $ref to gradient");
        } else {
            static_assert(!sizeof(T), "no schema form for this value type");
        }
    }

    // A field: its codec decides when its value is more than its type.
    template <typename F>
    void field(const F& f, const json::Value& node, const std::string& where) {
        using T = typename F::ValueType;
        using Codec = typename F::CodecType;
        if constexpr (std::is_same_v<Codec, ShapeCodec>) {
            object<ShapeDesc>(node, where);
        } else if constexpr (std::is_same_v<Codec, RenderCodec>) {
            object<RenderDesc, BillboardDesc, RibbonDesc, BeamDesc, MeshRenderDesc>(node, where);
        } else if constexpr (std::is_same_v<Codec, UpdateListCodec>) {
            updateModules(resolve(node), where, f.rule);
        } else if constexpr (std::is_same_v<Codec, ColorInitCodec>) {
            // A colour, two colours or a gradient: checked by check_schema.py's documents.
        } else if constexpr (std::is_same_v<Codec, MeshPointsCodec> ||
                             std::is_same_v<Codec, MotionKeysCodec>) {
            expectArray(resolve(node), where, f.rule.list.min, f.rule.list.max);
        } else if constexpr (std::is_same_v<Codec, MotionPathCodec>) {
            object<MotionPath>(node, where);
        } else if constexpr (std::is_same_v<Codec, OrbitCodec>) {
            object<CameraOrbit>(node, where);
        } else if constexpr (std::is_same_v<Codec, LookAtCodec>) {
            value<Float3>(node, where, f.rule, false);
        } else if constexpr (std::is_same_v<Codec, OverLifeCodec>) {
            value<Curve>(node, where, f.rule, false);
        } else if constexpr (std::is_same_v<Codec, ResolutionCodec>) {
            const json::Value& n = resolve(node);
            expectArray(n, where, 2, 2);
            expectElements(n, where, f.rule, true);
        } else {
            static_assert(std::is_base_of_v<PlainCodec, Codec>, "a codec without a schema form");
            value<T>(node, where, f.rule, f.required());
        }
    }

    // An object whose keys are those of the tables Ts (a render object joins several) plus
    // extra_keys, requiring the tables' required keys of every type plus extra_required.
    template <typename... Ts>
    void object(const json::Value& raw, const std::string& where,
                std::vector<std::string_view> extra_keys = {},
                std::vector<std::string_view> extra_required = {}) {
        const json::Value& node = resolve(raw);
        const std::string here = refName(raw).empty() ? where : "$defs/" + refName(raw);
        const json::Value* properties = node.find("properties");
        if (properties == nullptr) return fail(here, "expected \"properties\"");
        // No other key: said once, or in both branches of a type's if/then/else (a primitive).
        auto closed = [](const json::Value* n) {
            const json::Value* additional =
                n == nullptr ? nullptr : n->find("additionalProperties");
            return additional != nullptr && additional->kind == json::Kind::boolean &&
                   !additional->boolean;
        };
        if (!closed(&node) && !(closed(node.find("then")) && closed(node.find("else")))) {
            fail(here, "expected \"additionalProperties\": false");
        }
        std::set<std::string> table(extra_keys.begin(), extra_keys.end());
        std::set<std::string> required(extra_required.begin(), extra_required.end());
        // Keys the first table requires are required of every object; those of the others (a
        // render type's settings) only of their type.
        bool first_table = true;
        auto walk = [&](const auto& fields) {
            forEachField(fields, [&](const auto& f) {
                table.emplace(f.key);
                if (first_table && f.required() && f.types == kAllTypes) required.emplace(f.key);
                const json::Value* property = properties->find(f.key);
                if (property == nullptr) {
                    fail(here,
                         "'" + std::string(f.key) + "' is in the field table, not the schema");
                } else {
                    field(f, *property, here + "/" + std::string(f.key));
                }
            });
            first_table = false;
        };
        (walk(fieldsOf(FieldsOf<Ts>{})), ...);
        for (const std::string& key : properties->keys) {
            if (table.count(key) == 0) fail(here, "'" + key + "' is in the schema, not the table");
        }
        std::set<std::string> schema_required;
        if (const json::Value* list = node.find("required")) {
            for (const json::Value& key : list->items) schema_required.insert(key.text);
        }
        if (schema_required != required) fail(here, "the required keys differ from the table's");
    }

    template <size_t I = 0>
    void updateModules(const json::Value& node, const std::string& where, const Rule& r) {
        if constexpr (I == 0) expectArray(node, where, r.list.min, r.list.max);
        if constexpr (I < kModuleTypeCount) {
            using M = std::variant_alternative_t<I, UpdateModuleVariant>;
            const std::string name = "module_" + std::string(moduleTypeName(I));
            const json::Value* module = root.find("$defs")->find(name);
            if (module == nullptr) {
                fail("$defs", "expected " + name);
            } else {
                object<M>(*module, "$defs/" + name, {"type", "enabled"}, {"type"});
            }
            updateModules<I + 1>(node, where, r);
        }
    }
};

TEST(SchemaFields, EffectSchemaListsExactlyTheTablesKeysTypesAndRanges) {
    const json::Value schema = loadSchema("effect.schema.json");
    SchemaCheck check{schema, {}};
    // "parameters" is read beside the field tables (authoring/effect_parameters.h).
    check.object<EffectDesc>(schema, "$", {"parameters"});
    for (const std::string& failure : check.failures) ADD_FAILURE() << failure;
}

TEST(SchemaFields, SceneSchemaListsExactlyTheTablesKeysTypesAndRanges) {
    const json::Value schema = loadSchema("scene.schema.json");
    SchemaCheck check{schema, {}};
    check.object<SceneDesc>(schema, "$");
    for (const std::string& failure : check.failures) ADD_FAILURE() << failure;
}

// The check itself: a key the schema lacks, and one only the schema has, are both caught.
TEST(SchemaFields, CatchesAKeyMissingFromEitherSide) {
    json::Value schema = loadSchema("effect.schema.json");
    json::Value* spawn = nullptr;
    json::Value& defs = schema.items[size_t(
        std::find(schema.keys.begin(), schema.keys.end(), "$defs") - schema.keys.begin())];
    for (size_t i = 0; i < defs.keys.size(); ++i) {
        if (defs.keys[i] == "spawn") spawn = &defs.items[i];
    }
    ASSERT_NE(spawn, nullptr);
    json::Value& properties = spawn->items[size_t(
        std::find(spawn->keys.begin(), spawn->keys.end(), "properties") - spawn->keys.begin())];
    properties.keys[2] = "delay_ms"; // was delay_s

    SchemaCheck check{schema, {}};
    // "parameters" is read beside the field tables (authoring/effect_parameters.h).
    check.object<EffectDesc>(schema, "$", {"parameters"});
    ASSERT_EQ(check.failures.size(), 2u);
    EXPECT_EQ(check.failures[0], "$defs/spawn: 'delay_s' is in the field table, not the schema");
    EXPECT_EQ(check.failures[1], "$defs/spawn: 'delay_ms' is in the schema, not the table");
}

} // namespace
} // namespace spindrift
