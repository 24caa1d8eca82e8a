// User parameters of an effect instance (docs/runtime-api.md, "Parameters"): the values a host
// sets, written into the instance's own copy of the records (compiler/parameter_bindings.h), so
// both backends read ordinary records and nothing is recompiled.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"
#include "runtime/effect_instance.h"

namespace spindrift {

// The defaults of effect's parameters, in their order.
std::vector<vec4> defaultParameterValues(const CompiledEffect& effect);

// The parameter called name, or kNone.
uint32_t findParameter(const CompiledEffect& effect, std::string_view name);

// "the effect's parameters are: a, b" (or "the effect has no parameters"), for messages.
std::string parameterNameList(const CompiledEffect& effect);

// Why `value` (type `type`, the components it has) cannot be parameter p's value; empty when it
// can: every component finite and inside the parameter's range.
std::string parameterValueProblem(const CompiledEffect& effect, uint32_t p, ParameterType type,
                                  const vec4& value);

// Values for a new version of an effect from those of the old one: a parameter of the same name
// and type keeps its value when the new range holds it; every other takes its new default.
std::vector<vec4> carryParameterValues(const CompiledEffect& from, std::span<const vec4> values,
                                       const CompiledEffect& to);

// Sets the instance's parameter values (one per parameter of instance.effect) and writes them
// into every part's records: each part gets a patched copy of its records (the GPU part's are
// re-uploaded after its work in flight). Nothing happens when the values are those it has. False
// with errors appended when a GPU part fails (it is then stopped, as on any Vulkan failure).
bool setParameterValues(EffectInstance& instance, std::span<const vec4> values,
                        std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
