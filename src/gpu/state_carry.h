// Hot reload on the GPU backend (docs/runtime-api.md, "Hot reload"): a fresh instance of a new
// version of an effect takes over the device state of the old instance's matching emitters, so
// the simulation goes on where it was instead of restarting.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpu/gpu_effect.h"
#include "spindrift/diagnostic.h"

namespace spindrift::gpu {

// For every emitter e of `to` with old_emitter[e] >= 0 (matchForReload, compiler/reload_match.h),
// copies emitter old_emitter[e] of `from` into it:
// - its pool region: every column (the state columns, both alive lists and the free list) and,
//   for an emitter that relocates, the second copy of its state columns (pool_layout.h);
// - its counters (GpuEmitterCounters: alive counts, free count, totals) and sub-emitter counters
//   (GpuEventCounters: the ordinals event births took, the replace_oldest ring head);
// - its ribbon trail rings (gpu_trails.h);
// - on the host, its live bound (continueLiveWindow) and, through the counters, its statistics.
// The alive list the next step reads (list_in) and the clock (continueClock: step, carries,
// ordinals) go on, so the steps that follow are those the old instance would have run on the
// new records. Emitters of `to` without a match stay empty.
//
// How the bytes travel: both instances run on one Vulkan device (a world's GPU instances share
// one: the renderer's or the world's own), so one vkCmdCopyBuffer per range in one submission of
// `to`, after `from`'s submissions in flight are waited for; the host waits for the copy. A
// reload is rare; nothing here runs per frame. Instances on different devices are refused.
//
// False with nothing changed and an error appended when a matched pair's regions differ
// (capacity, relocation, trail rings: what the layouts a match promises would give) or `from`
// has failed; false with the Vulkan error appended when a copy fails, after which `to` holds
// partial state and the caller restarts it. `to` must be freshly created (empty, no frame run).
bool carryGpuState(GpuEffect& from, GpuEffect& to, std::span<const int32_t> old_emitter,
                   std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::gpu
