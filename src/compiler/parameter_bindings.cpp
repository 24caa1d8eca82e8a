#include "compiler/parameter_bindings.h"

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "compiler/compiled_effect.h"

namespace spindrift {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

template <typename Record> constexpr uint32_t wordOf(size_t offset) {
    return static_cast<uint32_t>(offset / sizeof(uint32_t));
}
#define SD_WORD(Record, member) wordOf<Record>(offsetof(Record, member))

// What each ParameterTarget binds: the record array (and op code), the word of the value's first
// end and of its second (the same word for a value that is not a range), its width in words, and
// the values it accepts (the authoring rule of the field it replaces).
struct TargetWords {
    ParameterTarget target;
    uint32_t array;
    uint32_t op;
    uint32_t end0, end1;
    uint32_t width;
    uint32_t conversion;
    float lo, hi; // component 3 of a colour (alpha): [lo, 1]
};

float hiOf(const TargetWords& t, uint32_t component) {
    return t.target == ParameterTarget::color && component == 3 ? 1.0f : t.hi;
}

constexpr uint32_t kParams0 = SD_WORD(OpRecord, params0);

const TargetWords kTargets[] = {
    {ParameterTarget::rate_per_s, kParamArrayEmitters, 0, SD_WORD(EmitterRecord, rate_per_s),
     SD_WORD(EmitterRecord, rate_per_s), 1, kParamConvertFloat, 0, kInf},
    {ParameterTarget::rate_per_m, kParamArrayEmitters, 0, SD_WORD(EmitterRecord, rate_per_m),
     SD_WORD(EmitterRecord, rate_per_m), 1, kParamConvertFloat, 0, kInf},
    {ParameterTarget::burst_count, kParamArrayBursts, 0, SD_WORD(BurstRecord, count_min),
     SD_WORD(BurstRecord, count_max), 1, kParamConvertCount, 0, float(kMaxBurstCount)},
    {ParameterTarget::speed, kParamArrayEmitters, 0, SD_WORD(EmitterRecord, speed_min),
     SD_WORD(EmitterRecord, speed_max), 1, kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::size, kParamArrayEmitters, 0, SD_WORD(EmitterRecord, size_min),
     SD_WORD(EmitterRecord, size_max), 1, kParamConvertFloat, 0, kInf},
    {ParameterTarget::velocity, kParamArrayEmitters, 0, SD_WORD(EmitterRecord, velocity_min),
     SD_WORD(EmitterRecord, velocity_max), 3, kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::color, kParamArrayEmitters, 0, SD_WORD(EmitterRecord, color_a),
     SD_WORD(EmitterRecord, color_b), 4, kParamConvertFloat, 0, kInf},
    {ParameterTarget::gravity_acceleration, kParamArrayOps, kOpAcceleration, kParams0, kParams0, 3,
     kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::force_acceleration, kParamArrayOps, kOpAcceleration, kParams0, kParams0, 3,
     kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::wind_velocity, kParamArrayOps, kOpWind, kParams0, kParams0, 3,
     kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::wind_coefficient, kParamArrayOps, kOpWind, kParams0 + 3, kParams0 + 3, 1,
     kParamConvertFloat, 0, kInf},
    {ParameterTarget::drag_coefficient, kParamArrayOps, kOpDrag, kParams0, kParams0, 1,
     kParamConvertFloat, 0, kInf},
    {ParameterTarget::buoyancy_acceleration, kParamArrayOps, kOpBuoyancy, kParams0, kParams0, 1,
     kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::curl_strength, kParamArrayOps, kOpCurlNoise, kParams0, kParams0, 1,
     kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::force_field_strength, kParamArrayForceFields, 0,
     SD_WORD(ForceFieldRecord, strength), SD_WORD(ForceFieldRecord, strength), 1,
     kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::attractor_strength, kParamArrayOps, kOpAttractor, kParams0 + 3, kParams0 + 3,
     1, kParamConvertFloat, -FLT_MAX, FLT_MAX},
    {ParameterTarget::speed_limit_max_speed, kParamArrayOps, kOpSpeedLimit, kParams0, kParams0, 1,
     kParamConvertFloat, 0, kInf},
};

// Every word of kTargets, one entry each (the loader's allow-list).
std::vector<BindableWord> makeBindableWords() {
    std::vector<BindableWord> words;
    auto add = [&](const BindableWord& w) {
        for (const BindableWord& have : words) {
            if (have.array == w.array && have.op == w.op && have.word == w.word) return;
        }
        words.push_back(w);
    };
    for (const TargetWords& t : kTargets) {
        for (uint32_t k = 0; k < t.width; ++k) {
            add({t.array, t.op, t.end0 + k, t.conversion, t.lo, hiOf(t, k)});
            add({t.array, t.op, t.end1 + k, t.conversion, t.lo, hiOf(t, k)});
        }
    }
    return words;
}

const TargetWords* targetWords(ParameterTarget target) {
    for (const TargetWords& t : kTargets) {
        if (t.target == target) return &t;
    }
    return nullptr;
}

size_t arraySize(const CompiledEffect& e, uint32_t array) {
    switch (array) {
    case kParamArrayEmitters:
        return e.emitters.size();
    case kParamArrayOps:
        return e.ops.size();
    case kParamArrayBursts:
        return e.bursts.size();
    case kParamArrayForceFields:
        return e.force_fields.size();
    default:
        return 0;
    }
}

// The record's words; the caller checked record < arraySize.
uint32_t* recordWords(CompiledEffect& e, uint32_t array, uint32_t record) {
    switch (array) {
    case kParamArrayEmitters:
        return reinterpret_cast<uint32_t*>(&e.emitters[record]);
    case kParamArrayOps:
        return reinterpret_cast<uint32_t*>(&e.ops[record]);
    case kParamArrayBursts:
        return reinterpret_cast<uint32_t*>(&e.bursts[record]);
    default:
        return reinterpret_cast<uint32_t*>(&e.force_fields[record]);
    }
}

uint32_t recordWordCount(uint32_t array) {
    switch (array) {
    case kParamArrayEmitters:
        return sizeof(EmitterRecord) / 4;
    case kParamArrayOps:
        return sizeof(OpRecord) / 4;
    case kParamArrayBursts:
        return sizeof(BurstRecord) / 4;
    default:
        return sizeof(ForceFieldRecord) / 4;
    }
}

float component(const vec4& v, uint32_t c) {
    return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

vec4 vec4Of(const Float4& f) {
    return vec4(f.x, f.y, f.z, f.w);
}

// The compiled record a binding's value lives in, or kNone (a disabled emitter or module).
uint32_t bindingRecord(const CompiledEffect& out, const TargetWords& t, const ParameterBinding& b,
                       uint32_t emitter) {
    const EmitterRecord& r = out.emitters[emitter];
    if (t.array == kParamArrayEmitters) return emitter;
    if (t.array == kParamArrayBursts) {
        return b.item < r.burst_count ? r.burst_first + b.item : kNone;
    }
    for (uint32_t k = 0; k < r.op_count; ++k) {
        const OpRecord& op = out.ops[r.op_first + k];
        // A bound module is never fused (compile_effect.cpp), so it is its op's only module.
        if (op.source_module != b.item || op.source_count != 1) continue;
        if (t.array == kParamArrayOps) return op.op == t.op ? r.op_first + k : kNone;
        return op.op == kOpForceFields && op.count == 1 ? op.first : kNone;
    }
    return kNone;
}

} // namespace

bool targetBounds(ParameterTarget target, uint32_t component, float& lo, float& hi) {
    const TargetWords* t = targetWords(target);
    if (t == nullptr) return false;
    lo = t->lo;
    hi = hiOf(*t, component);
    return true;
}

std::span<const BindableWord> bindableWords() {
    static const std::vector<BindableWord> words = makeBindableWords();
    return words;
}

const BindableWord* findBindableWord(uint32_t array, uint32_t op, uint32_t word) {
    for (const BindableWord& w : bindableWords()) {
        if (w.array == array && w.op == op && w.word == word) return &w;
    }
    return nullptr;
}

void compileParameters(const EffectDesc& effect, const std::vector<uint32_t>& compiled_index,
                       CompiledEffect& out) {
    std::vector<vec4> defaults;
    for (const ParameterDesc& p : effect.parameters) {
        ParameterRecord r{};
        r.name_offset = static_cast<uint32_t>(out.strings.size());
        r.name_length = static_cast<uint32_t>(p.name.size());
        out.strings += p.name;
        r.type = static_cast<uint32_t>(p.type);
        r.default_value = vec4Of(p.default_value);
        r.min = vec4Of(p.min);
        r.max = vec4Of(p.max);
        out.parameters.push_back(r);
        defaults.push_back(r.default_value);
    }
    for (const ParameterBinding& b : effect.parameter_bindings) {
        uint32_t parameter = kNone;
        for (uint32_t i = 0; i < effect.parameters.size(); ++i) {
            if (effect.parameters[i].name == b.parameter) parameter = i;
        }
        const TargetWords* t = targetWords(b.target);
        if (parameter == kNone || t == nullptr || b.emitter >= compiled_index.size()) continue;
        const uint32_t emitter = compiled_index[b.emitter];
        if (emitter == kNone) continue;
        const uint32_t record = bindingRecord(out, *t, b, emitter);
        if (record == kNone) continue;
        uint32_t ends[2] = {t->end0, t->end1};
        uint32_t end_count = t->end1 != t->end0 ? 2u : 1u;
        if (b.element != kWholeValue) {
            ends[0] = b.element == 0 ? t->end0 : t->end1;
            end_count = 1;
        }
        for (uint32_t e = 0; e < end_count; ++e) {
            if (b.component != kWholeValue) {
                out.parameter_bindings.push_back(
                    {parameter, t->array, record, ends[e] + b.component, 0, t->conversion, 0, 0});
                continue;
            }
            // The parameter has the value's type: one word per component.
            for (uint32_t k = 0; k < t->width; ++k) {
                out.parameter_bindings.push_back(
                    {parameter, t->array, record, ends[e] + k, k, t->conversion, 0, 0});
            }
        }
    }
    applyParameterValues(out, defaults);
}

void applyParameterValues(CompiledEffect& effect, std::span<const vec4> values) {
    for (const ParameterBindingRecord& b : effect.parameter_bindings) {
        if (b.parameter >= values.size()) continue; // validated: cannot happen
        const float v = component(values[b.parameter], b.component);
        uint32_t bits = 0;
        if (b.conversion == kParamConvertCount) {
            const double clamped = std::fmin(std::fmax(double{v}, 0.0), double{kMaxBurstCount});
            bits = static_cast<uint32_t>(std::nearbyint(clamped));
        } else {
            std::memcpy(&bits, &v, sizeof bits);
        }
        recordWords(effect, b.array, b.record)[b.word] = bits;
    }
}

bool validateParameterRecords(const CompiledEffect& e, std::vector<Diagnostic>& diagnostics) {
    const size_t before = diagnostics.size();
    auto fail = [&](const std::string& what, size_t index, const std::string& message) {
        diagnostics.push_back({Severity::error, "", 0, 0, 0, "",
                               what + " " + std::to_string(index) + ": " + message});
    };
    if (e.parameters.size() > kMaxParameters) {
        fail("parameters", e.parameters.size(), "more than " + std::to_string(kMaxParameters));
        return false;
    }
    if (e.parameter_bindings.size() > kMaxParameterWords) {
        fail("parameter bindings", e.parameter_bindings.size(),
             "more than " + std::to_string(kMaxParameterWords));
        return false;
    }
    for (size_t i = 0; i < e.parameters.size(); ++i) {
        const ParameterRecord& p = e.parameters[i];
        if (p.type > static_cast<uint32_t>(ParameterType::color)) {
            fail("parameter", i, "unknown type " + std::to_string(p.type));
            continue;
        }
        if (p.name_length == 0 || stringAt(e, p.name_offset, p.name_length).empty()) {
            fail("parameter", i, "name outside the string table");
        }
        // Like every record's padding, and the components past the type's width, which the
        // compiler writes as 0: a file that loads cooks back to the same bytes.
        bool zeros = p.pad0 == 0;
        for (uint32_t c = parameterComponents(static_cast<ParameterType>(p.type)); c < 4; ++c) {
            zeros = zeros && component(p.default_value, c) == 0 && component(p.min, c) == 0 &&
                    component(p.max, c) == 0;
        }
        if (!zeros) fail("parameter", i, "padding or a component past its type is not 0");
        for (uint32_t c = 0; c < 4; ++c) {
            const float lo = component(p.min, c), hi = component(p.max, c);
            const float d = component(p.default_value, c);
            if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(d) || !(lo <= hi) ||
                !(d >= lo && d <= hi)) {
                fail("parameter", i, "range or default not finite, or default outside the range");
                break;
            }
        }
    }
    for (size_t i = 0; i < e.parameter_bindings.size(); ++i) {
        const ParameterBindingRecord& b = e.parameter_bindings[i];
        if (b.parameter >= e.parameters.size() || b.array >= kParamArrayCount ||
            b.record >= arraySize(e, b.array) || b.word >= recordWordCount(b.array) ||
            b.component >= 4 || b.conversion >= kParamConvertKinds || b.pad0 != 0 || b.pad1 != 0) {
            fail("parameter binding", i, "index out of range or padding not 0");
            continue;
        }
        const ParameterRecord& p = e.parameters[b.parameter];
        if (p.type <= static_cast<uint32_t>(ParameterType::color) &&
            b.component >= parameterComponents(static_cast<ParameterType>(p.type))) {
            fail("parameter binding", i, "component past the parameter's type");
            continue;
        }
        const uint32_t op = b.array == kParamArrayOps ? e.ops[b.record].op : 0u;
        const BindableWord* w = findBindableWord(b.array, op, b.word);
        if (w == nullptr || w->conversion != b.conversion) {
            fail("parameter binding", i, "the word is not one a parameter may set");
            continue;
        }
        if (!(component(p.min, b.component) >= w->lo && component(p.max, b.component) <= w->hi)) {
            fail("parameter binding", i, "the parameter's range exceeds what the value accepts");
        }
    }
    return diagnostics.size() == before;
}

} // namespace spindrift
