// Choosing a memory type and allocating memory for one buffer or image. The renderer owns few,
// long-lived resources, so each gets its own allocation (no sub-allocator).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

// What the memory is for, which decides its properties.
enum class MemoryUse : uint8_t {
    device_local, // GPU only: images, targets
    upload,       // host-visible + coherent, written by the CPU (prefers device-local too)
    readback,     // host-visible + coherent, read by the CPU (prefers host-cached)
};

// The first memory type allowed by type_bits with all of `required`, preferring one that also
// has `preferred`. std::nullopt when none has `required`.
std::optional<uint32_t> findMemoryType(const VkPhysicalDeviceMemoryProperties& memory,
                                       uint32_t type_bits, VkMemoryPropertyFlags required,
                                       VkMemoryPropertyFlags preferred);

// Allocates memory meeting `requirements` for `use`; device_address adds
// VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT (buffers read through buffer device addresses). An empty
// owner and an error naming `what` on failure.
OwnedMemory allocateMemory(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory,
                           const VkMemoryRequirements& requirements, MemoryUse use,
                           bool device_address, std::string_view what,
                           std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::vk
