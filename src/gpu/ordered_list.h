// Birth order on the GPU (docs/gpu-backend.md, "Birth order"): the emitters whose alive list is
// kept sorted by spawn ordinal (sdGpuKeepsBirthOrder: stable_order, replace_oldest) are compacted
// by their own pass, gpu_ordered_compact.comp, recorded here between the update and spawn passes.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

// Whether emitter e's alive list is kept in birth order: sdGpuKeepsBirthOrder (stable_order,
// replace_oldest) or death or collision sub-emitter events (compiler/event_order.h, which the
// CPU keeps birth order for too). The host writes it into the step's kGpuStepKeepsBirthOrder.
bool gpuKeepsBirthOrder(const CompiledEffect& effect, uint32_t e);

// Records the ordered compaction of every birth-order emitter with a non-zero live bound (one
// workgroup each). `step` is the step's push constants (addresses, alive list read); the emitter
// and the invocations needed are filled in per emitter. Returns the dispatches recorded; the
// caller barriers after any.
uint32_t recordOrderedCompaction(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step);

} // namespace spindrift::gpu
