// Birth order on the GPU (docs/gpu-backend.md, "Birth order"): the emitters whose alive list is
// kept sorted by spawn ordinal (sdGpuKeepsBirthOrder: stable_order, replace_oldest) are compacted
// by their own passes, gpu_ordered_compact.comp, recorded here between the update and spawn
// passes: a parallel stable compaction (count, scan, scatter over chunks of kGpuOrderedChunk).
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/birth_order.h"
#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

// Where each birth-order emitter's GpuOrderedScratch (a header and a uint per chunk of its
// capacity) lies in the instance's ordered-compaction buffer; kNoOrderedScratch for the others.
inline constexpr uint64_t kNoOrderedScratch = UINT64_MAX;
struct OrderedScratchLayout {
    std::vector<uint64_t> offsets; // per emitter, 16-byte aligned
    uint64_t bytes = 0;            // the buffer (0: no birth-order emitter)
};
OrderedScratchLayout orderedScratchLayout(const CompiledEffect& effect);

// Records the ordered compaction of every birth-order emitter with a non-zero live bound: the
// count passes, a barrier, the scans, a barrier, the scatter passes. `step` is the step's push
// constants (addresses, alive list read); the emitter, the entries bound and the mode are filled
// in per dispatch. Returns the dispatches recorded; the caller barriers after any.
uint32_t recordOrderedCompaction(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step);

} // namespace spindrift::gpu
