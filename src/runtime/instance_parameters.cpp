#include "runtime/instance_parameters.h"

#include <cmath>
#include <cstring>

#include "compiler/structural_hash.h"
#include "gpu/gpu_buffers.h"
#include "io/json_writer.h"

namespace spindrift {

namespace {

float componentOf(const vec4& v, uint32_t c) {
    return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

const char* typeName(uint32_t type) {
    return type == 0 ? "float" : type == 1 ? "float3" : "color";
}

std::string nameOf(const CompiledEffect& effect, uint32_t p) {
    return std::string(
        stringAt(effect, effect.parameters[p].name_offset, effect.parameters[p].name_length));
}

std::string number(float f) {
    return std::isfinite(f) ? json::formatFloat(f) : std::isnan(f) ? "nan" : f > 0 ? "inf" : "-inf";
}

// The part's records with the values written: its own copy, made on the first set and patched
// in place after (neither backend reads the host records while the host is in this call).
std::shared_ptr<const CompiledEffect> patched(std::shared_ptr<CompiledEffect>& own,
                                              const std::shared_ptr<const CompiledEffect>& part,
                                              std::span<const vec4> values) {
    if (own == nullptr || own.get() != part.get()) own = std::make_shared<CompiledEffect>(*part);
    applyParameterValues(*own, values);
    return own;
}

} // namespace

std::vector<vec4> defaultParameterValues(const CompiledEffect& effect) {
    std::vector<vec4> values;
    values.reserve(effect.parameters.size());
    for (const ParameterRecord& p : effect.parameters) values.push_back(p.default_value);
    return values;
}

uint32_t findParameter(const CompiledEffect& effect, std::string_view name) {
    for (uint32_t p = 0; p < effect.parameters.size(); ++p) {
        if (nameOf(effect, p) == name) return p;
    }
    return kNone;
}

std::string parameterNameList(const CompiledEffect& effect) {
    if (effect.parameters.empty()) return "the effect has no parameters";
    std::string list = "the effect's parameters are: ";
    for (uint32_t p = 0; p < effect.parameters.size(); ++p) {
        if (p != 0) list += ", ";
        list += nameOf(effect, p) + " (" + typeName(effect.parameters[p].type) + ")";
    }
    return list;
}

std::string parameterValueProblem(const CompiledEffect& effect, uint32_t p, ParameterType type,
                                  const vec4& value) {
    const ParameterRecord& r = effect.parameters[p];
    const std::string name = "parameter '" + nameOf(effect, p) + "'";
    if (r.type != static_cast<uint32_t>(type)) {
        return name + " is a " + typeName(r.type) + ", not a " +
               typeName(static_cast<uint32_t>(type));
    }
    for (uint32_t c = 0; c < parameterComponents(type); ++c) {
        const float v = componentOf(value, c);
        const std::string where =
            type == ParameterType::float_ ? "" : " (component " + std::to_string(c) + ")";
        if (!std::isfinite(v)) return name + ": " + number(v) + where + " is not finite";
        const float lo = componentOf(r.min, c), hi = componentOf(r.max, c);
        if (v < lo || v > hi) {
            return name + ": " + number(v) + where + " is outside its range [" + number(lo) + ", " +
                   number(hi) + "]";
        }
    }
    return {};
}

std::vector<vec4> carryParameterValues(const CompiledEffect& from, std::span<const vec4> values,
                                       const CompiledEffect& to) {
    std::vector<vec4> out = defaultParameterValues(to);
    for (uint32_t p = 0; p < to.parameters.size(); ++p) {
        const uint32_t old = findParameter(from, nameOf(to, p));
        if (old == kNone || old >= values.size() ||
            from.parameters[old].type != to.parameters[p].type) {
            continue;
        }
        const auto type = static_cast<ParameterType>(to.parameters[p].type);
        if (parameterValueProblem(to, p, type, values[old]).empty()) out[p] = values[old];
    }
    return out;
}

bool setParameterValues(EffectInstance& instance, std::span<const vec4> values,
                        std::vector<Diagnostic>& diagnostics) {
    if (values.size() != instance.parameter_values.size()) return false;
    if (values.empty() ||
        std::memcmp(values.data(), instance.parameter_values.data(), values.size_bytes()) == 0) {
        return true;
    }
    instance.state_serial += 1; // the records the draw records were written from change
    instance.parameter_values.assign(values.begin(), values.end());
    if (instance.cpu) {
        if (instance.cpu_patched == nullptr || instance.cpu_patched != instance.cpu->effect) {
            instance.cpu_base_identity = instance.cpu->effect_identity;
        }
        // The defaults are the records as compiled: the identity of an instance never set.
        bool defaults = true;
        for (size_t p = 0; p < values.size(); ++p) {
            defaults =
                defaults && std::memcmp(&values[p], &instance.effect->parameters[p].default_value,
                                        sizeof(vec4)) == 0;
        }
        const uint64_t identity =
            defaults ? instance.cpu_base_identity
                     : fnv1a64(values.data(), values.size_bytes(), instance.cpu_base_identity);
        cpu::replaceRecords(*instance.cpu,
                            patched(instance.cpu_patched, instance.cpu->effect, values), identity);
    }
    if (instance.gpu &&
        !gpu::replaceRecords(*instance.gpu,
                             patched(instance.gpu_patched, instance.gpu->effect, values),
                             diagnostics)) {
        instance.failed = true;
        return false;
    }
    return true;
}

} // namespace spindrift
