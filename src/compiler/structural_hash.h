// The structural hash: a 64-bit fingerprint of what an effect IS (its emitters and their order,
// module kinds/order/enabled, shape type, emit_from, render type, alignment, blend, sort, flags,
// colour mode, sub-emitter wiring), blind to what its values are (rates, sizes, colours, curve
// keys, capacities). Two effects with the same hash can share pipelines and pool layouts and be
// edited live by patching values. The exact rules: docs/compiled-records.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spindrift/effect_desc.h"

namespace spindrift {

inline constexpr uint64_t kFnv1a64Offset = 0xcbf29ce484222325ull;
inline constexpr uint64_t kFnv1a64Prime = 0x00000100000001b3ull;

// FNV-1a 64 of size bytes, continuing from state (start with kFnv1a64Offset).
uint64_t fnv1a64(const void* data, size_t size, uint64_t state = kFnv1a64Offset);

// The structural hash of an effect description (disabled emitters and modules included: enabling
// or disabling one is a structural change).
uint64_t structuralHash(const EffectDesc& effect);

} // namespace spindrift
