// Which emitters keep their alive list in birth order on the GPU, and which of those also move
// their particles so that slot order is birth order (docs/gpu-backend.md, "Birth order"). Both
// are decided from the compiled effect alone, so the pool layout, the step uniforms and the
// ordered compaction ask the same functions.
#pragma once

#include <cstdint>

#include "compiler/compiled_effect.h"

namespace spindrift::gpu {

// Whether emitter e's alive list is kept in birth order: sdGpuKeepsBirthOrder (stable_order,
// replace_oldest) or death, collision or threshold sub-emitter events (compiler/event_order.h,
// which the
// CPU keeps birth order for too). The host writes it into the step's kGpuStepKeepsBirthOrder.
bool gpuKeepsBirthOrder(const CompiledEffect& effect, uint32_t e);

// Whether the ordered compaction moves emitter e's survivors to the front of a second copy of
// its state columns each step, so its slots stay in birth order and every pass reads them in
// ascending runs (kGpuStepRelocates). Birth-order emitters without ribbon trails: a trail is a
// ring per slot (up to max_points points), which would have to move with its particle and cost
// several times the particle's own bytes per step; those emitters keep their slots.
bool gpuRelocatesParticles(const CompiledEffect& effect, uint32_t e);

} // namespace spindrift::gpu
