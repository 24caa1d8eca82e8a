// The semantic rules of the update stage (per-module ranges and per-emitter limits).
#pragma once

#include <string>
#include <vector>

#include "authoring/rule_checker.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

// path: the emitter's "update" list, e.g. "$.emitters[0].update".
void validateUpdateModules(const RuleChecker& c, const std::string& path,
                           const std::vector<UpdateModule>& modules);

} // namespace spindrift
