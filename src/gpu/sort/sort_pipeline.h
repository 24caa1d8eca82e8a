// Compute pipelines for the sort kernels: a layout with only a push-constant range (the kernels
// reach their buffers by device address, so there are no descriptor sets) and a pipeline from
// embedded SPIR-V. The Vulkan layer (src/vulkan/pipeline.h) has graphics pipelines only; these
// helpers (named for the sort, apart from the GPU backend's own) can move there and merge with
// the backend's once the two settle.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/owned.h"

namespace spindrift::gpu {

// A layout with push_constant_bytes (> 0) of compute-stage push constants and no sets.
vk::OwnedPipelineLayout createSortLayout(VkDevice device, uint32_t push_constant_bytes,
                                         std::string_view what,
                                         std::vector<Diagnostic>& diagnostics);

// A compute pipeline running `main` of the SPIR-V code (named `name` in errors), with optional
// specialisation constants. An empty owner and an error on failure.
vk::OwnedPipeline createSortPipeline(VkDevice device, VkPipelineLayout layout,
                                     std::span<const uint32_t> code, std::string_view name,
                                     const VkSpecializationInfo* specialization,
                                     std::vector<Diagnostic>& diagnostics);

// A compute-to-compute memory dependency: shader writes before, shader reads and writes after.
void sortBarrier(VkCommandBuffer cmd);

} // namespace spindrift::gpu
