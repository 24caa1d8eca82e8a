// Birth order on the GPU (docs/gpu-backend.md, "Birth order"): the emitters whose alive list is
// kept sorted by spawn ordinal (sdGpuKeepsBirthOrder: stable_order, replace_oldest) are compacted
// by their own pass, gpu_ordered_compact.comp, recorded here between the update and spawn passes.
#pragma once

#include <cstdint>
#include <functional>

#include <vulkan/vulkan.h>

#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

// The push constants of a pass over emitter `emitter` with `invocations` needed.
using PassPush = std::function<GpuPushConstants(uint32_t emitter, uint32_t invocations)>;

// Records the ordered compaction of every birth-order emitter with a non-zero live bound (one
// workgroup each). Returns the dispatches recorded; the caller barriers after any.
uint32_t recordOrderedCompaction(GpuEffect& fx, VkCommandBuffer cmd, const PassPush& push);

} // namespace spindrift::gpu
