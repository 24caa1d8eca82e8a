// Update modules: {"type": NAME, "enabled": bool, ...that module's fields}.
#include <algorithm>
#include <array>
#include <utility>

#include "authoring/direction.h"
#include "authoring/effect_fields.h"
#include "authoring/effect_reader.h"
#include "authoring/field_reader.h"

namespace spindrift {

template <size_t... I>
static UpdateModuleVariant makeModule(size_t index, std::index_sequence<I...>) {
    UpdateModuleVariant module;
    ((index == I ? (void)module.emplace<I>() : (void)0), ...);
    return module;
}

// An axis or normal, normalised; a zero vector is reported and not stored.
template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, Float3& out, O&,
               DirectionCodec) {
    Float3 direction;
    if (!readFloat3(in.ctx, v, in.childPath(f.key), direction)) return;
    if (!normalizeDirection(direction)) {
        in.ctx.error(in.childPath(f.key), v.pos,
                     "expected a non-zero direction, found [" + describe(v.items[0]) + ", " +
                         describe(v.items[1]) + ", " + describe(v.items[2]) + "]");
        return;
    }
    out = direction;
}

// The key's presence is has_over_life.
template <typename F>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, Curve& out,
               BuoyancyModule& module, OverLifeCodec) {
    if (readValue(in.ctx, v, in.childPath(f.key), out)) module.has_over_life = true;
}

// "type" and "enabled", then the keys of the module's table.
template <typename M> static void readModuleFields(const ObjectIn& in, M& module) {
    static constexpr auto kFields = fieldKeys<M>();
    std::array<std::string_view, kFields.size() + 2> keys{"type", "enabled"};
    std::copy(kFields.begin(), kFields.end(), keys.begin() + 2);
    checkKeys(in, std::span<const std::string_view>(keys));
    readFields(in, module);
}

void readUpdateModule(ReadContext& ctx, const json::Value& v, const std::string& path,
                      UpdateModule& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    if (!requireKey(in, "type")) {
        ctx.reported.insert(path);
        return;
    }
    std::string type;
    size_t index = 0;
    const json::Value* type_value = in.member("type");
    if (!readString(ctx, *type_value, in.childPath("type"), type)) {
        ctx.reported.insert(path);
        return;
    }
    if (!moduleTypeFromName(type, index)) {
        ctx.error(in.childPath("type"), type_value->pos,
                  "unknown module type '" + type + "'; expected one of: " + moduleTypeNameList());
        // The module's other keys mean nothing without a type; this is its one mistake.
        ctx.reported.insert(path);
        return;
    }
    UpdateModule module;
    module.module = makeModule(index, std::make_index_sequence<kModuleTypeCount>{});
    readField(in, "enabled", module.enabled);
    std::visit([&](auto& m) { readModuleFields(in, m); }, module.module);
    out = std::move(module);
}

} // namespace spindrift
