// Shader modules from SPIR-V embedded in the binary (shaders/, compiled by glslc at build time).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

// An empty owner and an error naming `name` (the shader's file) when the code is not SPIR-V
// (empty, or the magic number is wrong) or vkCreateShaderModule fails.
OwnedShaderModule createShaderModule(VkDevice device, std::span<const uint32_t> code,
                                     std::string_view name, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::vk
