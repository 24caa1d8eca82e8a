// Random but valid effect descriptions, covering every module type, shape type and render type,
// for the round-trip property tests.
#pragma once

#include <cstdint>

#include "spindrift/effect_desc.h"

namespace spindrift::test {

// The same seed gives the same effect. validateEffect accepts every result.
EffectDesc randomEffect(uint32_t seed);

} // namespace spindrift::test
