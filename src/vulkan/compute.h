// Compute pipelines as every compute user here makes them (the GPU simulation passes, the GPU
// sort, the renderer's draw-argument pass): a layout with only a push-constant range — the
// kernels reach their buffers by device address, so there are no descriptor sets — and a
// pipeline from embedded SPIR-V.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

// A layout with push_constant_bytes (> 0) of compute-stage push constants and no sets.
OwnedPipelineLayout createComputeLayout(VkDevice device, uint32_t push_constant_bytes,
                                        std::string_view what,
                                        std::vector<Diagnostic>& diagnostics);

// A compute pipeline running `main` of the SPIR-V code (named `name` in errors), with optional
// specialisation constants. An empty owner and an error on failure.
OwnedPipeline createComputePipeline(VkDevice device, VkPipelineLayout layout,
                                    std::span<const uint32_t> code, std::string_view name,
                                    const VkSpecializationInfo* specialization,
                                    std::vector<Diagnostic>& diagnostics);

// A compute-to-compute memory dependency: shader writes before, shader reads and writes after.
void computeBarrier(VkCommandBuffer cmd);

} // namespace spindrift::vk
