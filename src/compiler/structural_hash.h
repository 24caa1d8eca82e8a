// The structural hash: a 64-bit fingerprint of what a compiled effect IS (its emitters and their
// order, ops and their order, which authored modules each op came from, shape type, emit_from,
// render type, alignment, blend, sort, flags, colour mode, force field shapes, collision response,
// sub-emitter wiring), blind to what its values are (rates, sizes, colours, LUT texels,
// capacities). Two effects with the same hash can share pipelines and pool layouts and be edited
// live by patching values. It is a function of the compiled records alone, so the loader of a
// cooked file recomputes it and compares it with the one the file states. The exact rules:
// docs/compiled-records.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "compiler/compiled_effect.h"

namespace spindrift {

inline constexpr uint64_t kFnv1a64Offset = 0xcbf29ce484222325ull;
inline constexpr uint64_t kFnv1a64Prime = 0x00000100000001b3ull;

// FNV-1a 64 of size bytes, continuing from state (start with kFnv1a64Offset).
uint64_t fnv1a64(const void* data, size_t size, uint64_t state = kFnv1a64Offset);

// The structural hash of a compiled effect (compileEffect stores it in structural_hash). Ranges
// into the record arrays (ops, force fields, sub-emitters) that fall outside them, which neither
// compileEffect nor a cooked file that loaded can hold, are hashed as empty.
uint64_t structuralHash(const CompiledEffect& effect);

} // namespace spindrift
