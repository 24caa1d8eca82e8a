// The same-run reference of the GPU benchmarks (DESIGN rule 8): shaders/sort_copy.comp, a compute
// copy (not vkCmdCopyBuffer, which runs far below the memory's bandwidth on the H200:
// gpu-facts.md), of `count` uints from each of two arrays — 8 bytes read and 8 written per count.
// The arrays are split into pieces of at most kGpuMaxBufferBytes per buffer, as the pool's are, so
// any size a benchmark times can be copied. gpu_sim_bench copies the bytes its update moves,
// gpu_strip_bench the bytes its strip pass writes.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::bench {

struct GpuCopyReference {
    vk::OwnedPipelineLayout layout;
    vk::OwnedPipeline pipeline;
    std::vector<vk::Buffer> src, dst; // one pair per piece
    uint64_t count = 0;               // uints copied from each of the two arrays
    uint64_t piece_count = 0;         // the most of them one piece holds
};

// The bytes a copy of `bytes` moves (read + written) is a copy of count = ceil(bytes / 8).
uint64_t copyCountFor(uint64_t bytes);

// Makes the pipeline and the buffers of a copy of `count` (> 0) uints per array. False with an
// error when the device cannot.
bool createGpuCopyReference(const vk::Device& device, uint64_t count, GpuCopyReference& copy,
                            std::vector<Diagnostic>& diagnostics);

// Records the copy into cmd, piece by piece (one dispatch each, no barrier between them: they
// touch distinct buffers). The caller stamps and barriers around it.
void recordGpuCopyReference(VkCommandBuffer cmd, const GpuCopyReference& copy);

} // namespace spindrift::bench
