// addParametersToText: the writing half of user parameters (effect_parameters.h). The field
// tables' text is parsed back, each bound value replaced by {"param": NAME} (written out in full
// around a bound part), the "parameters" block added before "emitters", and the tree written.
#include <vector>

#include "authoring/effect_parameters.h"
#include "authoring/parameter_slots.h"
#include "io/json_writer.h"

namespace spindrift {

using namespace parameter_slots;

namespace {

// The two ends of a slot's value in the description (the same for a value that is not a range).
struct SlotValue {
    Float4 end0, end1;
};

Float4 four(const Float3& v) {
    return {v.x, v.y, v.z, 0};
}

template <typename M> const M* moduleOf(const EmitterDesc& e, uint32_t item) {
    return item < e.update.size() ? std::get_if<M>(&e.update[item].module) : nullptr;
}

SlotValue slotValue(const EffectDesc& effect, const ParameterBinding& b) {
    SlotValue v;
    if (b.emitter >= effect.emitters.size()) return v;
    const EmitterDesc& e = effect.emitters[b.emitter];
    auto one = [&](float f) { v.end0 = v.end1 = {f, 0, 0, 0}; };
    auto one3 = [&](const Float3& f) { v.end0 = v.end1 = four(f); };
    switch (b.target) {
    case ParameterTarget::rate_per_s:
        one(e.spawn.rate_per_s);
        break;
    case ParameterTarget::rate_per_m:
        one(e.spawn.rate_per_m);
        break;
    case ParameterTarget::burst_count:
        if (b.item < e.spawn.bursts.size()) {
            v.end0 = {float(e.spawn.bursts[b.item].count.min), 0, 0, 0};
            v.end1 = {float(e.spawn.bursts[b.item].count.max), 0, 0, 0};
        }
        break;
    case ParameterTarget::speed:
        v = {{e.init.speed.min, 0, 0, 0}, {e.init.speed.max, 0, 0, 0}};
        break;
    case ParameterTarget::size:
        v = {{e.init.size.min, 0, 0, 0}, {e.init.size.max, 0, 0, 0}};
        break;
    case ParameterTarget::velocity:
        v = {four(e.init.velocity.min), four(e.init.velocity.max)};
        break;
    case ParameterTarget::color:
        v = {e.init.color.a, e.init.color.b};
        break;
    case ParameterTarget::gravity_acceleration:
        if (auto* m = moduleOf<GravityModule>(e, b.item)) one3(m->acceleration);
        break;
    case ParameterTarget::force_acceleration:
        if (auto* m = moduleOf<ForceModule>(e, b.item)) one3(m->acceleration);
        break;
    case ParameterTarget::wind_velocity:
        if (auto* m = moduleOf<WindModule>(e, b.item)) one3(m->velocity);
        break;
    case ParameterTarget::wind_coefficient:
        if (auto* m = moduleOf<WindModule>(e, b.item)) one(m->coefficient_per_s);
        break;
    case ParameterTarget::drag_coefficient:
        if (auto* m = moduleOf<DragModule>(e, b.item)) one(m->coefficient_per_s);
        break;
    case ParameterTarget::buoyancy_acceleration:
        if (auto* m = moduleOf<BuoyancyModule>(e, b.item)) one(m->acceleration);
        break;
    case ParameterTarget::curl_strength:
        if (auto* m = moduleOf<CurlNoiseModule>(e, b.item)) one(m->strength);
        break;
    case ParameterTarget::force_field_strength:
        if (auto* m = moduleOf<ForceFieldModule>(e, b.item)) one(m->strength);
        break;
    case ParameterTarget::attractor_strength:
        if (auto* m = moduleOf<AttractorModule>(e, b.item)) one(m->strength);
        break;
    case ParameterTarget::speed_limit_max_speed:
        if (auto* m = moduleOf<SpeedLimitModule>(e, b.item)) one(m->max_speed);
        break;
    }
    return v;
}

json::Value arrayValue(const Float4& v, uint32_t n) {
    json::Value a;
    a.kind = json::Kind::array;
    for (uint32_t c = 0; c < n; ++c) a.items.push_back(numberValue(componentOf(v, c), {}));
    return a;
}

json::Value& memberOrAdd(json::Value& object, std::string_view key) {
    if (json::Value* v = member(object, key)) return *v;
    if (object.kind != json::Kind::object) object = valueOf(json::Kind::object);
    object.keys.emplace_back(key);
    object.key_positions.emplace_back();
    object.items.emplace_back();
    return object.items.back();
}

// The value a binding stands in: its slot's object created when the writer left it out (all
// defaults), the value itself written out in full when only a part of it is bound.
json::Value* slotNode(json::Value& root, const EffectDesc& effect, const ParameterBinding& b) {
    const Slot* s = slotOf(b.target);
    json::Value* emitters = member(root, "emitters");
    if (s == nullptr || emitters == nullptr || b.emitter >= emitters->items.size()) return nullptr;
    json::Value& emitter = emitters->items[b.emitter];
    const std::string_view stage = s->stage;
    json::Value* container = nullptr;
    if (stage == "spawn" || stage == "init") {
        container = &memberOrAdd(emitter, stage);
    } else if (stage == "bursts") {
        json::Value* bursts = member(memberOrAdd(emitter, "spawn"), "bursts");
        if (bursts == nullptr || b.item >= bursts->items.size()) return nullptr;
        container = &bursts->items[b.item];
    } else {
        json::Value* update = member(emitter, "update");
        if (update == nullptr || b.item >= update->items.size()) return nullptr;
        container = &update->items[b.item];
    }
    if (container->kind != json::Kind::object) *container = valueOf(json::Kind::object);
    json::Value& node = memberOrAdd(*container, s->key);
    if (b.element == kWholeValue && b.component == kWholeValue) return &node;
    const SlotValue v = slotValue(effect, b);
    const uint32_t width = s->shape == Shape::float3 || s->shape == Shape::float3_range ? 3u
                           : s->shape == Shape::color                                   ? 4u
                                                                                        : 1u;
    const bool ends = b.element != kWholeValue;
    // Already written out by another part's binding: its ends are arrays or bindings then.
    const bool full = ends ? node.kind == json::Kind::array && node.items.size() == 2 &&
                                 (width == 1 || node.items[0].kind != json::Kind::number)
                           : node.kind == json::Kind::array && node.items.size() == width;
    if (!full) {
        if (!ends) {
            node = arrayValue(v.end0, width);
        } else if (width == 1) {
            node = valueOf(json::Kind::array);
            node.items = {numberValue(v.end0.x, {}), numberValue(v.end1.x, {})};
        } else {
            node = valueOf(json::Kind::array);
            node.items = {arrayValue(v.end0, width), arrayValue(v.end1, width)};
        }
    }
    json::Value* part = &node;
    if (ends && b.element < part->items.size()) part = &part->items[b.element];
    if (b.component != kWholeValue) {
        if (part->kind != json::Kind::array || b.component >= part->items.size()) return nullptr;
        part = &part->items[b.component];
    }
    return part;
}

void writeValue(json::Writer& out, const json::Value& v) {
    switch (v.kind) {
    case json::Kind::null:
        out.null();
        return;
    case json::Kind::boolean:
        out.value(v.boolean);
        return;
    case json::Kind::string:
        out.value(std::string_view(v.text));
        return;
    case json::Kind::number: {
        uint32_t u = 0;
        int64_t i = 0;
        float f = 0;
        if (json::toUint32(v, u)) {
            out.value(u);
        } else if (json::toInt64(v, i)) {
            out.value(i);
        } else if (json::toFloat(v, f)) {
            out.value(f);
        }
        return;
    }
    case json::Kind::array: {
        bool numbers = !v.items.empty();
        std::vector<float> floats;
        for (const json::Value& item : v.items) {
            float f = 0;
            numbers = numbers && item.kind == json::Kind::number && json::toFloat(item, f);
            floats.push_back(f);
        }
        if (numbers) {
            out.inlineArray(floats.data(), floats.size());
            return;
        }
        out.beginArray();
        for (const json::Value& item : v.items) writeValue(out, item);
        out.endArray();
        return;
    }
    case json::Kind::object:
        out.beginObject();
        for (size_t i = 0; i < v.keys.size() && i < v.items.size(); ++i) {
            out.key(v.keys[i]);
            writeValue(out, v.items[i]);
        }
        out.endObject();
        return;
    }
}

// One end of a range: a number when every component is the same, else the components.
json::Value rangeEnd(const Float4& v, uint32_t n) {
    bool same = true;
    for (uint32_t c = 1; c < n; ++c) same = same && componentOf(v, c) == v.x;
    return same ? numberValue(v.x, {}) : arrayValue(v, n);
}

json::Value parametersValue(const std::vector<ParameterDesc>& parameters) {
    json::Value list = valueOf(json::Kind::array);
    for (const ParameterDesc& p : parameters) {
        const uint32_t n = parameterComponents(p.type);
        json::Value o = valueOf(json::Kind::object);
        auto add = [&](const char* key, json::Value value) {
            o.keys.emplace_back(key);
            o.key_positions.emplace_back();
            o.items.push_back(std::move(value));
        };
        json::Value name = valueOf(json::Kind::string);
        name.text = p.name;
        add("name", name);
        json::Value type = valueOf(json::Kind::string);
        type.text = typeName(p.type);
        add("type", type);
        add("default",
            n == 1 ? numberValue(p.default_value.x, {}) : arrayValue(p.default_value, n));
        json::Value range = valueOf(json::Kind::array);
        range.items = {rangeEnd(p.min, n), rangeEnd(p.max, n)};
        add("range", range);
        list.items.push_back(std::move(o));
    }
    return list;
}

} // namespace

std::string addParametersToText(const EffectDesc& effect, const std::string& text) {
    if (effect.parameters.empty() && effect.parameter_bindings.empty()) return text;
    json::Value root;
    std::vector<Diagnostic> ignored;
    if (!json::parse(text, "", root, ignored) || root.kind != json::Kind::object) return text;
    // Full forms first, then the binding objects, so a second part of one value finds the first.
    for (const ParameterBinding& b : effect.parameter_bindings) slotNode(root, effect, b);
    for (const ParameterBinding& b : effect.parameter_bindings) {
        json::Value* node = slotNode(root, effect, b);
        if (node == nullptr) continue;
        json::Value binding = valueOf(json::Kind::object);
        json::Value name = valueOf(json::Kind::string);
        name.text = b.parameter;
        binding.keys = {"param"};
        binding.key_positions.resize(1);
        binding.items = {name};
        *node = std::move(binding);
    }
    // "parameters" before "emitters" (or last when there is none).
    size_t at = root.keys.size();
    for (size_t i = 0; i < root.keys.size(); ++i) {
        if (root.keys[i] == "emitters") at = i;
    }
    root.keys.insert(root.keys.begin() + static_cast<std::ptrdiff_t>(at), "parameters");
    root.key_positions.insert(root.key_positions.begin() + static_cast<std::ptrdiff_t>(at), {});
    root.items.insert(root.items.begin() + static_cast<std::ptrdiff_t>(at),
                      parametersValue(effect.parameters));
    json::Writer out;
    writeValue(out, root);
    return out.text();
}

} // namespace spindrift
