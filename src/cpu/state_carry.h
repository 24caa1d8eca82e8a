// Hot reload on the CPU backend (docs/runtime-api.md, "Hot reload"): a fresh instance of a new
// version of an effect takes over the state of the old instance's matching emitters, so the
// simulation goes on where it was instead of restarting.
#pragma once

#include <cstdint>
#include <span>

#include "cpu/cpu_effect.h"

namespace spindrift::cpu {

// For every emitter e of `to` with old_emitter[e] >= 0, copies emitter old_emitter[e] of `from`
// into it: its live particles (every state column, forEachColumn), their ribbon trails, its
// statistics and its clock; the effect's clock (step, loop, accumulator, receipts) goes on
// (continueClock). Emitters of `to` without a match stay empty. The matches must come from
// matchForReload (compiler/reload_match.h): the same capacity and trail ring size, so every copy
// fits. `to` must have no particles (just created). Copies rather than swaps the pools, so each
// instance keeps its own work space (collision lists, event normals) sized by its own version.
// Allocates nothing.
void carryCpuState(CpuEffect& from, CpuEffect& to, std::span<const int32_t> old_emitter);

} // namespace spindrift::cpu
