// The compiler: EffectDesc -> CompiledEffect (docs/compiled-records.md).
#pragma once

#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

// Validates the description (validateEffect), then compiles it: disabled emitters and modules
// removed, compatible adjacent modules fused, curves and gradients baked into the LUT atlas,
// degrees converted to radians, enums resolved, the emitter rotation turned into a matrix,
// sub-emitter names resolved to compiled indices, the structural hash computed, and each
// emitter's backend preference checked against that backend's capabilities.
//
// Diagnostics are appended (errors carry the JSON path; a sub-emitter link to a disabled emitter
// is dropped with a warning). Returns true when no error was found; out then holds the result.
// On error out is left empty (default constructed).
bool compileEffect(const EffectDesc& effect, CompiledEffect& out,
                   std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
