// The structural half of loading an effect: walks the JSON DOM into an EffectDesc, converting
// every value strictly (value_reader.h). Semantic rules are left to validateEffect.
#pragma once

#include <string>

#include "authoring/value_reader.h"
#include "io/json_value.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

// False when reading stopped early (an unsupported format version: nothing else is read).
bool readEffect(ReadContext& ctx, const json::Value& root, EffectDesc& out);

void readUpdateModule(ReadContext& ctx, const json::Value& v, const std::string& path,
                      UpdateModule& out);

} // namespace spindrift
