// saveEffect: the canonical text. Keys in effect_desc.h field order (the tables of
// effect_fields.h); a key whose value equals the documented default is left out (required keys
// never are); a range with min == max is written as its one value, a constant curve as its
// number. Shape and render objects carry only the chosen type's keys (type_keys.h), which is why
// validateEffect requires the other types' fields to keep their defaults.
#include <array>

#include "authoring/effect_fields.h"
#include "authoring/effect_parameters.h"
#include "authoring/enum_names.h"
#include "authoring/field_writer.h"
#include "authoring/type_keys.h"
#include "spindrift/effect_json.h"

namespace spindrift {

// The effect format's codecs (effect_fields.h), writing half. Those that only read or check
// differently write as plain values.

template <typename F>
void writeCodec(json::DocumentWriter& out, const F& f, const Curve& value, const Curve&,
                const BuoyancyModule& module, OverLifeCodec) {
    // The key's presence is has_over_life, so it is written even when the curve is default.
    if (module.has_over_life) out.req(f.key, value);
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const std::vector<MeshPoint>& points,
                const std::vector<MeshPoint>&, const O&, MeshPointsCodec) {
    out.rows(f.key, points, [](const MeshPoint& p) {
        return std::array{p.position.x, p.position.y, p.position.z,
                          p.normal.x,   p.normal.y,   p.normal.z};
    });
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const ColorInit& c, const ColorInit&,
                const O&, ColorInitCodec) {
    if (c == ColorInit{}) return;
    out.key(f.key);
    switch (c.mode) {
    case ColorMode::constant:
        out.put(c.a);
        break;
    case ColorMode::random_between:
        out.beginArray();
        out.put(c.a);
        out.put(c.b);
        out.endArray();
        break;
    case ColorMode::gradient:
        out.beginObject();
        out.req("gradient", c.gradient);
        out.endObject();
        break;
    default:
        out.null();
        break; // only an invalid description; null makes it fail to load
    }
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const ShapeDesc& s, const ShapeDesc&,
                const O&, ShapeCodec) {
    out.object(f.key, s, [&](const ShapeDesc& v, const ShapeDesc& d) {
        forEachField(fieldsOf(FieldsOf<ShapeDesc>{}), [&](const auto& field) {
            if (shapeKeyApplies(v.type, field.key)) writeOneField(out, field, v, d);
        });
    });
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const RenderDesc& r, const RenderDesc&,
                const O&, RenderCodec) {
    out.object(f.key, r, [&](const RenderDesc& v, const RenderDesc& d) {
        // The object is flat: the common keys, then the chosen type's.
        writeFields(out, v, d);
        visitRenderSettings(v, [&](const auto& settings) {
            using Settings = std::decay_t<decltype(settings)>;
            writeFields(out, settings, Settings{});
        });
    });
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const std::vector<UpdateModule>& modules,
                const std::vector<UpdateModule>&, const O&, UpdateListCodec) {
    out.list(f.key, modules, [&](const UpdateModule& m) {
        out.beginObject();
        out.req("type", std::string(moduleTypeName(m.module.index())));
        out.opt("enabled", m.enabled, true);
        std::visit(
            [&](const auto& module) {
                using T = std::decay_t<decltype(module)>;
                writeFields(out, module, T{});
            },
            m.module);
        out.endObject();
    });
}

std::string saveEffect(const EffectDesc& effect) {
    // User parameters are written around the field tables' text (effect_parameters.h).
    return addParametersToText(effect, saveDocument(effect));
}

} // namespace spindrift
