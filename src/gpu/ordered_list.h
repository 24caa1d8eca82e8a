// Birth order on the GPU (docs/gpu-backend.md, "Birth order"): the emitters whose alive list is
// kept sorted by spawn ordinal (sdGpuKeepsBirthOrder: stable_order, replace_oldest) are compacted
// by their own pass, gpu_ordered_compact.comp, recorded here between the update and spawn passes.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

// Records the ordered compaction of every birth-order emitter with a non-zero live bound (one
// workgroup each). `step` is the step's push constants (addresses, alive list read); the emitter
// and the invocations needed are filled in per emitter. Returns the dispatches recorded; the
// caller barriers after any.
uint32_t recordOrderedCompaction(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step);

} // namespace spindrift::gpu
