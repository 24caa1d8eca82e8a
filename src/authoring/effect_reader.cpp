// readEffect: the document walked through the field tables of effect_fields.h (field_reader.h),
// with the reading half of the effect format's codecs: mesh points, the colour forms, the
// type-tagged shape and render objects, the update-module list.
#include "authoring/effect_reader.h"

#include "authoring/direction.h"
#include "authoring/effect_fields.h"
#include "authoring/effect_parameters.h"
#include "authoring/field_reader.h"
#include "authoring/type_keys.h"
#include "spindrift/effect_json.h"

namespace spindrift {

// Helpers are static, not in an unnamed namespace: the codec overloads below must be found by
// argument-dependent lookup from the field walker (field_reader.h).

static void readMeshPoint(ReadContext& ctx, const json::Value& v, const std::string& path,
                          MeshPoint& out) {
    float f[6];
    if (!readFloats(ctx, v, path, f, 6, "[px, py, pz, nx, ny, nz]", false)) return;
    Float3 normal{f[3], f[4], f[5]};
    if (!normalizeDirection(normal)) {
        ctx.error(path, v.pos,
                  "expected a non-zero normal, found [" + describe(v.items[3]) + ", " +
                      describe(v.items[4]) + ", " + describe(v.items[5]) + "]");
        return;
    }
    out = MeshPoint{{f[0], f[1], f[2]}, normal};
}

// Reports each present key that exists for some type but not for the chosen one. Such a key is
// then not read, so it cannot also fail a range check.
template <typename Applies>
static void rejectForeignKeys(const ObjectIn& in, Applies applies, const std::string& what) {
    for (size_t i = 0; i < in.value.keys.size(); ++i) {
        if (applies(in.value.keys[i])) continue;
        const json::SourcePos pos =
            i < in.value.key_positions.size() ? in.value.key_positions[i] : in.value.pos;
        in.ctx.error(in.childPath(in.value.keys[i]), pos,
                     "'" + in.value.keys[i] + "' does not apply to " + what);
    }
}

static bool isOneOf(std::span<const std::string_view> keys, std::string_view key) {
    for (std::string_view k : keys) {
        if (k == key) return true;
    }
    return false;
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, std::vector<MeshPoint>& out,
               O&, MeshPointsCodec) {
    readList(in.ctx, v, in.childPath(f.key), f.rule.list, out,
             [&](const json::Value& item, const std::string& p, MeshPoint& point) {
                 readMeshPoint(in.ctx, item, p, point);
             });
}

// A type-tagged object (shape, render): its type first, then only the keys of that type; a key
// of another type is an error, and with an unknown type nothing can be said about the other keys:
// the whole object is the one mistake. read_chosen(read_table) reads the tables that apply, each
// with read_table(settings).
template <typename Desc, typename KeyApplies, typename ReadChosen>
static void readTypedObject(ReadContext& ctx, const json::Value& v, const std::string& path,
                            Desc& out, std::span<const std::string_view> all_keys, const char* what,
                            KeyApplies key_applies, ReadChosen read_chosen) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, all_keys);
    const json::Value* type = in.member("type");
    const bool type_ok = type == nullptr || readEnum(ctx, *type, in.childPath("type"), out.type);
    if (!type_ok) ctx.reported.insert(path);
    auto applies = [&](std::string_view key) {
        return !type_ok || !isOneOf(all_keys, key) || key_applies(out.type, key);
    };
    if (type_ok) {
        rejectForeignKeys(in, applies, std::string(what) + " type '" + enumName(out.type) + "'");
    }
    // A required key of the chosen type (a mesh's points) is missing only when the type is known.
    read_chosen([&](auto& settings) {
        using Settings = std::decay_t<decltype(settings)>;
        forEachField(fieldsOf(FieldsOf<Settings>{}), [&](const auto& f) {
            if (f.key != "type" && applies(f.key)) readOneField(in, f, settings, type_ok);
        });
    });
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, ShapeDesc& out, O&,
               ShapeCodec) {
    readTypedObject(in.ctx, v, in.childPath(f.key), out, allShapeKeys(), "shape", shapeKeyApplies,
                    [&](auto read_table) { read_table(out); });
}

static void readColor(ReadContext& ctx, const json::Value& v, const std::string& path,
                      ColorInit& out) {
    ctx.record(path, v.pos);
    if (v.kind == json::Kind::array && v.items.size() == 4) {
        Float4 a;
        if (readFloat4(ctx, v, path, a)) out = ColorInit{ColorMode::constant, a, {1, 1, 1, 1}, {}};
        return;
    }
    if (v.kind == json::Kind::array && v.items.size() == 2) {
        Float4 a, b;
        const bool ok_a = readFloat4(ctx, v.items[0], json::pathIndex(path, 0), a);
        const bool ok_b = readFloat4(ctx, v.items[1], json::pathIndex(path, 1), b);
        if (ok_a && ok_b) out = ColorInit{ColorMode::random_between, a, b, {}};
        return;
    }
    if (v.kind == json::Kind::object) {
        const ObjectIn in{ctx, v, path};
        checkKeys(in, {"gradient"});
        if (!requireKey(in, "gradient")) return;
        Gradient gradient;
        if (readField(in, "gradient", gradient)) {
            out = ColorInit{ColorMode::gradient, {1, 1, 1, 1}, {1, 1, 1, 1}, std::move(gradient)};
        }
        return;
    }
    ctx.error(path, v.pos,
              "expected [r, g, b, a], [[r, g, b, a], [r, g, b, a]] or {\"gradient\": {...}}, "
              "found " +
                  describe(v));
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, ColorInit& out, O&,
               ColorInitCodec) {
    readColor(in.ctx, v, in.childPath(f.key), out);
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, RenderDesc& out, O&,
               RenderCodec) {
    // The common keys, then the chosen type's: the object is flat.
    readTypedObject(in.ctx, v, in.childPath(f.key), out, allRenderKeys(), "render",
                    renderKeyApplies, [&](auto read_table) {
                        read_table(out);
                        visitRenderSettings(out, read_table);
                    });
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, std::vector<UpdateModule>& out,
               O&, UpdateListCodec) {
    readList(in.ctx, v, in.childPath(f.key), f.rule.list, out,
             [&](const json::Value& item, const std::string& p, UpdateModule& module) {
                 readUpdateModule(in.ctx, item, p, module);
             });
}

bool readEffect(ReadContext& ctx, const json::Value& root, EffectDesc& out) {
    // Parameters first: a document that uses them is read with each {"param": NAME} replaced by
    // the parameter's default (effect_parameters.h).
    json::Value substituted;
    if (readParameters(ctx, root, out, substituted)) {
        std::vector<ParameterDesc> parameters = std::move(out.parameters);
        std::vector<ParameterBinding> bindings = std::move(out.parameter_bindings);
        const bool read = readDocument(ctx, substituted, out);
        out.parameters = std::move(parameters);
        out.parameter_bindings = std::move(bindings);
        return read;
    }
    return readDocument(ctx, root, out);
}

} // namespace spindrift
