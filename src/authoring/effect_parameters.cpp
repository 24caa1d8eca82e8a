#include "authoring/effect_parameters.h"

#include <cmath>
#include <map>
#include <variant>

#include "authoring/enum_names.h"
#include "authoring/parameter_slots.h"
#include "authoring/value_reader.h"
#include "compiler/parameter_bindings.h"
#include "io/json_writer.h"

namespace spindrift {

using namespace parameter_slots;

namespace {

// Calls on(node, element, component, path) for every {"param": ...} inside a slot's value.
template <typename V, typename On>
void visitValue(V& v, Shape shape, const std::string& path, On&& on) {
    if (isBindingObject(v)) {
        on(v, kWholeValue, kWholeValue, path);
        return;
    }
    if (v.kind != json::Kind::array) return;
    const size_t n = v.items.size();
    const bool components = (shape == Shape::float3 && n == 3) ||
                            (shape == Shape::float3_range && n == 3) ||
                            (shape == Shape::color && n == 4);
    const bool ends = (shape == Shape::float_range || shape == Shape::count ||
                       shape == Shape::float3_range || shape == Shape::color) &&
                      n == 2;
    for (size_t i = 0; i < n; ++i) {
        V& item = v.items[i];
        const std::string p = json::pathIndex(path, i);
        const auto index = static_cast<uint32_t>(i);
        if (components && isBindingObject(item)) on(item, kWholeValue, index, p);
        if (!ends) continue;
        if (isBindingObject(item)) {
            on(item, index, kWholeValue, p);
        } else if (item.kind == json::Kind::array &&
                   ((shape == Shape::float3_range && item.items.size() == 3) ||
                    (shape == Shape::color && item.items.size() == 4))) {
            for (size_t c = 0; c < item.items.size(); ++c) {
                if (isBindingObject(item.items[c])) {
                    on(item.items[c], index, static_cast<uint32_t>(c), json::pathIndex(p, c));
                }
            }
        }
    }
}

// Calls on(node, binding, path, shape) for every {"param": ...} at a bindable value of the
// document (binding.parameter left empty). Lists past their limits are not walked: the reader
// reports them.
template <typename V, typename On> void walkBindings(V& root, On&& on) {
    V* emitters = member(root, "emitters");
    if (emitters == nullptr || emitters->kind != json::Kind::array ||
        emitters->items.size() > kMaxEmitters) {
        return;
    }
    for (size_t e = 0; e < emitters->items.size(); ++e) {
        V& emitter = emitters->items[e];
        const std::string epath = json::pathIndex("$.emitters", e);
        auto slot = [&](V* object, const std::string& opath, const Slot& s, uint32_t item) {
            if (object == nullptr) return;
            V* value = member(*object, s.key);
            if (value == nullptr) return;
            ParameterBinding b;
            b.emitter = static_cast<uint32_t>(e);
            b.target = s.target;
            b.item = item;
            visitValue(*value, s.shape, json::pathKey(opath, s.key),
                       [&](V& node, uint32_t element, uint32_t component, const std::string& p) {
                           b.element = element;
                           b.component = component;
                           on(node, b, p, s.shape);
                       });
        };
        V* spawn = member(emitter, "spawn");
        V* init = member(emitter, "init");
        V* bursts = spawn != nullptr ? member(*spawn, "bursts") : nullptr;
        V* update = member(emitter, "update");
        for (const Slot& s : kSlots) {
            const std::string_view stage = s.stage;
            if (stage == "spawn") slot(spawn, json::pathKey(epath, "spawn"), s, 0);
            if (stage == "init") slot(init, json::pathKey(epath, "init"), s, 0);
            if (stage == "bursts" && bursts != nullptr && bursts->kind == json::Kind::array &&
                bursts->items.size() <= kMaxBursts) {
                for (size_t i = 0; i < bursts->items.size(); ++i) {
                    slot(&bursts->items[i],
                         json::pathIndex(json::pathKey(json::pathKey(epath, "spawn"), "bursts"), i),
                         s, static_cast<uint32_t>(i));
                }
            }
        }
        if (update == nullptr || update->kind != json::Kind::array ||
            update->items.size() > kMaxUpdateModules) {
            continue;
        }
        for (size_t i = 0; i < update->items.size(); ++i) {
            V& module = update->items[i];
            V* type = member(module, "type");
            if (type == nullptr || type->kind != json::Kind::string) continue;
            for (const Slot& s : kSlots) {
                if (isModuleSlot(s) && type->text == s.stage) {
                    slot(&module, json::pathIndex(json::pathKey(epath, "update"), i), s,
                         static_cast<uint32_t>(i));
                }
            }
        }
    }
}

std::string parameterNames(const std::vector<ParameterDesc>& parameters) {
    if (parameters.empty()) return "the effect declares no parameters";
    std::string list = "the effect's parameters are: ";
    for (size_t i = 0; i < parameters.size(); ++i) list += (i ? ", " : "") + parameters[i].name;
    return list;
}

const ParameterDesc* findParameter(const std::vector<ParameterDesc>& parameters,
                                   const std::string& name) {
    for (const ParameterDesc& p : parameters) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

// A number of the type's width, or an array of them: one parameter value as the reader reads it.
bool readComponents(ReadContext& ctx, const json::Value& v, const std::string& path,
                    ParameterType type, bool scalar_fills, Float4& out) {
    const uint32_t n = parameterComponents(type);
    if (v.kind == json::Kind::number && (n == 1 || scalar_fills)) {
        float f = 0;
        if (!readFloat(ctx, v, path, f)) return false;
        for (uint32_t c = 0; c < n; ++c) componentOf(out, c) = f;
        return true;
    }
    if (n == 1) return readFloat(ctx, v, path, out.x);
    float f[4] = {};
    if (!readFloats(ctx, v, path, f, n, n == 3 ? "[x, y, z]" : "[r, g, b, a]")) return false;
    for (uint32_t c = 0; c < n; ++c) componentOf(out, c) = f[c];
    return true;
}

void readParameter(ReadContext& ctx, const json::Value& v, const std::string& path,
                   ParameterDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"name", "type", "default", "range"});
    for (const char* key : {"name", "type", "default", "range"}) requireKey(in, key);
    readField(in, "name", out.name);
    if (const json::Value* t = in.member("type")) {
        std::string name;
        if (!readString(ctx, *t, in.childPath("type"), name)) return;
        if (name == "float") {
            out.type = ParameterType::float_;
        } else if (name == "float3") {
            out.type = ParameterType::float3;
        } else if (name == "color") {
            out.type = ParameterType::color;
        } else {
            ctx.error(in.childPath("type"), t->pos,
                      "unknown value '" + shownText(name) +
                          "'; expected one of: float, float3, "
                          "color");
            ctx.reported.insert(path);
            return;
        }
    }
    // A default or range that could not be read is the parameter's one mistake: the rules
    // comparing them say nothing more.
    bool ok = true;
    if (const json::Value* d = in.member("default")) {
        ok = readComponents(ctx, *d, in.childPath("default"), out.type, false, out.default_value);
    }
    if (const json::Value* r = in.member("range")) {
        const std::string rpath = in.childPath("range");
        ctx.record(rpath, r->pos);
        if (r->kind != json::Kind::array || r->items.size() != 2) {
            ctx.error(rpath, r->pos, "expected [min, max], found " + describe(*r));
            ok = false;
        } else {
            const bool lo = readComponents(ctx, r->items[0], json::pathIndex(rpath, 0), out.type,
                                           true, out.min);
            const bool hi = readComponents(ctx, r->items[1], json::pathIndex(rpath, 1), out.type,
                                           true, out.max);
            ok = ok && lo && hi;
        }
    }
    if (!ok) ctx.reported.insert(path);
}

} // namespace

std::string bindingPath(const ParameterBinding& b) {
    const Slot* s = slotOf(b.target);
    std::string path = json::pathIndex("$.emitters", b.emitter);
    if (s == nullptr) return path;
    const std::string_view stage = s->stage;
    if (stage == "spawn" || stage == "init") {
        path = json::pathKey(path, stage);
    } else if (stage == "bursts") {
        path = json::pathIndex(json::pathKey(json::pathKey(path, "spawn"), "bursts"), b.item);
    } else {
        path = json::pathIndex(json::pathKey(path, "update"), b.item);
    }
    path = json::pathKey(path, s->key);
    if (b.element != kWholeValue) path = json::pathIndex(path, b.element);
    if (b.component != kWholeValue) path = json::pathIndex(path, b.component);
    return path;
}

bool readParameters(ReadContext& ctx, const json::Value& root, EffectDesc& out,
                    json::Value& substituted) {
    if (root.kind != json::Kind::object) return false;
    const json::Value* list = root.find("parameters");
    if (list != nullptr) {
        readList(ctx, *list, "$.parameters", {0, kMaxParameters, "parameters"}, out.parameters,
                 [&](const json::Value& item, const std::string& p, ParameterDesc& parameter) {
                     readParameter(ctx, item, p, parameter);
                 });
    }
    bool any = false;
    bool too_many = false;
    walkBindings(root, [&](const json::Value& node, ParameterBinding b, const std::string& path,
                           Shape shape) {
        any = true;
        ctx.record(path, node.pos);
        const ObjectIn in{ctx, node, path};
        checkKeys(in, {"param"});
        std::string name;
        bool ok = readString(ctx, *node.find("param"), json::pathKey(path, "param"), name);
        ParameterType expected = ParameterType::float_;
        const ParameterDesc* p = ok ? findParameter(out.parameters, name) : nullptr;
        if (ok && !partType(shape, b.element, b.component, expected)) {
            ctx.error(path, node.pos,
                      "a burst count takes one parameter for both ends: write \"count\": "
                      "{\"param\": \"" +
                          shownText(name) + "\"}");
            ok = false;
        } else if (ok && p == nullptr) {
            ctx.error(path, node.pos,
                      "unknown parameter '" + shownText(name) + "'; " +
                          parameterNames(out.parameters));
            ok = false;
        } else if (ok && p->type != expected) {
            ctx.error(path, node.pos,
                      "parameter '" + name + "' is a " + typeName(p->type) +
                          "; this value takes a " + typeName(expected));
            ok = false;
        }
        if (ok && out.parameter_bindings.size() >= kMaxParameterBindings) {
            if (!too_many) {
                ctx.error(path, node.pos,
                          "more than " + std::to_string(kMaxParameterBindings) +
                              " values bound to parameters");
            }
            too_many = true;
            ok = false;
        }
        if (!ok) {
            ctx.reported.insert(path);
            return;
        }
        b.parameter = name;
        out.parameter_bindings.push_back(b);
    });
    if (list == nullptr && !any) return false;

    // The document the field walker reads: no "parameters", each binding a plain value.
    substituted = root;
    for (size_t i = 0; i < substituted.keys.size(); ++i) {
        if (substituted.keys[i] != "parameters") continue;
        substituted.keys.erase(substituted.keys.begin() + static_cast<std::ptrdiff_t>(i));
        substituted.items.erase(substituted.items.begin() + static_cast<std::ptrdiff_t>(i));
        if (i < substituted.key_positions.size()) {
            substituted.key_positions.erase(substituted.key_positions.begin() +
                                            static_cast<std::ptrdiff_t>(i));
        }
        break;
    }
    walkBindings(substituted, [&](json::Value& node, const ParameterBinding& b, const std::string&,
                                  Shape shape) {
        ParameterType type = ParameterType::float_;
        partType(shape, b.element, b.component, type);
        Float4 value;
        std::string name;
        const json::Value* param = node.find("param");
        if (param != nullptr && param->kind == json::Kind::string) name = param->text;
        if (const ParameterDesc* p = findParameter(out.parameters, name); p && p->type == type) {
            value = p->default_value;
        }
        const json::SourcePos pos = node.pos;
        const uint32_t n = parameterComponents(type);
        if (n == 1) {
            node = numberValue(value.x, pos);
            return;
        }
        json::Value array;
        array.kind = json::Kind::array;
        array.pos = pos;
        for (uint32_t c = 0; c < n; ++c)
            array.items.push_back(numberValue(componentOf(value, c), pos));
        node = std::move(array);
    });
    return true;
}

void validateParameters(const RuleChecker& c, const EffectDesc& effect) {
    const std::string base = "$.parameters";
    c.count(base, effect.parameters.size(), 0, kMaxParameters, "parameters");
    std::map<std::string, size_t> first;
    for (size_t i = 0; i < effect.parameters.size(); ++i) {
        const ParameterDesc& p = effect.parameters[i];
        const std::string path = json::pathIndex(base, i);
        if (!isPlainName(p.name)) {
            c.error(json::pathKey(path, "name"),
                    "expected a name of 1 to " + std::to_string(kMaxNameBytes) +
                        " characters from A-Z a-z 0-9 _ -, found '" + p.name + "'");
        } else if (auto [it, inserted] = first.emplace(p.name, i); !inserted) {
            c.error(json::pathKey(path, "name"), "parameter name '" + p.name +
                                                     "' is used twice (first at parameters[" +
                                                     std::to_string(it->second) + "])");
        }
        if (p.type != ParameterType::float_ && p.type != ParameterType::float3 &&
            p.type != ParameterType::color) {
            c.error(json::pathKey(path, "type"), "expected float, float3 or color");
            continue;
        }
        const std::string range = json::pathKey(path, "range");
        const std::string def = json::pathKey(path, "default");
        bool range_ok = true;
        for (uint32_t k = 0; k < parameterComponents(p.type); ++k) {
            const float lo = componentOf(p.min, k), hi = componentOf(p.max, k);
            const bool finite =
                c.finite(json::pathIndex(range, 0), lo) && c.finite(json::pathIndex(range, 1), hi);
            if (finite && !(lo <= hi)) {
                c.error(range, "expected min <= max, found min " + formatNumber(lo) + " > max " +
                                   formatNumber(hi) +
                                   (p.type == ParameterType::float_
                                        ? std::string()
                                        : " in component " + std::to_string(k)));
            }
            range_ok = range_ok && finite && lo <= hi;
            if (range_ok && !c.finite(def, componentOf(p.default_value, k))) range_ok = false;
        }
        if (!range_ok) continue;
        for (uint32_t k = 0; k < parameterComponents(p.type); ++k) {
            const float d = componentOf(p.default_value, k);
            const float lo = componentOf(p.min, k), hi = componentOf(p.max, k);
            if (d < lo || d > hi) {
                c.error(def, "expected the default within the range [" + formatNumber(lo) + ", " +
                                 formatNumber(hi) + "], found " + formatNumber(d) +
                                 (p.type == ParameterType::float_
                                      ? std::string()
                                      : " in component " + std::to_string(k)));
                break;
            }
        }
    }
    c.count("$", effect.parameter_bindings.size(), 0, kMaxParameterBindings,
            "values bound to parameters");
    for (const ParameterBinding& b : effect.parameter_bindings) {
        const std::string path = bindingPath(b);
        const Slot* s = slotOf(b.target);
        if (s == nullptr || b.emitter >= effect.emitters.size()) {
            c.error(path, "binds a value that does not exist");
            continue;
        }
        const EmitterDesc& e = effect.emitters[b.emitter];
        const std::string_view stage = s->stage;
        bool exists = true;
        if (stage == "bursts") exists = b.item < e.spawn.bursts.size();
        if (isModuleSlot(*s)) {
            exists = b.item < e.update.size() &&
                     stage == moduleTypeName(e.update[b.item].module.index());
        }
        if (s->target == ParameterTarget::color) {
            const ColorMode mode = e.init.color.mode;
            exists = mode != ColorMode::gradient &&
                     (b.element == kWholeValue || mode == ColorMode::random_between);
        }
        const bool ends = s->shape != Shape::scalar && s->shape != Shape::float3;
        const uint32_t width = s->shape == Shape::float3 || s->shape == Shape::float3_range ? 3u
                               : s->shape == Shape::color                                   ? 4u
                                                                                            : 1u;
        ParameterType expected = ParameterType::float_;
        if (!exists || (b.element != kWholeValue && (!ends || b.element > 1)) ||
            (b.component != kWholeValue && b.component >= width) ||
            !partType(s->shape, b.element, b.component, expected)) {
            c.error(path, "binds a value that does not exist");
            continue;
        }
        const ParameterDesc* p = findParameter(effect.parameters, b.parameter);
        if (p == nullptr) {
            c.error(path, "unknown parameter '" + b.parameter + "'; " +
                              parameterNames(effect.parameters));
            continue;
        }
        if (p->type != expected) {
            c.error(path, "parameter '" + p->name + "' is a " + typeName(p->type) +
                              "; this value takes a " + typeName(expected));
            continue;
        }
        for (uint32_t k = 0; k < parameterComponents(p->type); ++k) {
            float lo = 0, hi = 0;
            const uint32_t slot_component = b.component != kWholeValue ? b.component : k;
            targetBounds(b.target, slot_component, lo, hi);
            const float pmin = componentOf(p->min, k), pmax = componentOf(p->max, k);
            if (!(pmin >= lo && pmax <= hi)) {
                const std::string accepts =
                    std::isinf(hi) ? ">= " + formatNumber(lo)
                                   : "in [" + formatNumber(lo) + ", " + formatNumber(hi) + "]";
                c.error(path, "parameter '" + p->name + "' ranges over [" + formatNumber(pmin) +
                                  ", " + formatNumber(pmax) + "], but this value must be " +
                                  accepts);
                break;
            }
        }
    }
}

} // namespace spindrift
