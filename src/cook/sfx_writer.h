// Writing a CompiledEffect as a cooked .sfx file (docs/sfx-format.md).
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/compiled_effect.h"

namespace spindrift {

// The canonical bytes of the effect: every section present, in id order, each at the next
// 16-byte boundary, padding zero, checksum filled in. Deterministic: the same effect always
// gives the same bytes, so loadCookedEffect followed by cookEffect reproduces a file exactly.
std::vector<uint8_t> cookEffect(const CompiledEffect& effect);

} // namespace spindrift
