// User parameters in the effect format (docs/effect-format.md, "Parameters"): the top-level
// "parameters" block and the {"param": NAME} values that stand where a module takes a constant.
// readEffect reads them before the rest of the document and hands the field walker a copy in
// which every {"param": NAME} is replaced by the parameter's default, so each bound value is also
// held to its field's own rules; validateEffect checks the parameters and bindings semantically.
#pragma once

#include <string>

#include "authoring/rule_checker.h"
#include "io/json_value.h"
#include "io/read_context.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

// Reads root's "parameters" and every binding into out. Returns true when the document uses
// parameters: substituted is then root without "parameters" and with every binding replaced by
// a value (its parameter's default, or zeros when the binding was reported), to be read instead
// of root.
bool readParameters(ReadContext& ctx, const json::Value& root, EffectDesc& out,
                    json::Value& substituted);

// The parameters (names, types, ranges, defaults) and the bindings (a parameter that exists, of
// the value's type, whose range stays inside what the value accepts).
void validateParameters(const RuleChecker& c, const EffectDesc& effect);

// The JSON path of the value a binding stands at ("$.emitters[0].spawn.rate_per_s").
std::string bindingPath(const ParameterBinding& binding);

// The canonical text of an effect with parameters, from text (saveEffect's text of the effect
// without them): the "parameters" block before "emitters", and each binding written as
// {"param": NAME} in place of its value (a range or vector is written out in full when only one
// end or component is bound). text unchanged for an effect without parameters.
std::string addParametersToText(const EffectDesc& effect, const std::string& text);

} // namespace spindrift
