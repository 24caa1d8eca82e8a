#include "vulkan/memory.h"

#include <string>

#include "vulkan/vk_error.h"

namespace spindrift::vk {

std::optional<uint32_t> findMemoryType(const VkPhysicalDeviceMemoryProperties& memory,
                                       uint32_t type_bits, VkMemoryPropertyFlags required,
                                       VkMemoryPropertyFlags preferred) {
    std::optional<uint32_t> fallback;
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if ((type_bits & (1u << i)) == 0) continue;
        VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
        if ((flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (!fallback) fallback = i;
    }
    return fallback;
}

OwnedMemory allocateMemory(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory,
                           const VkMemoryRequirements& requirements, MemoryUse use,
                           bool device_address, std::string_view what,
                           std::vector<Diagnostic>& diagnostics) {
    VkMemoryPropertyFlags required = 0;
    VkMemoryPropertyFlags preferred = 0;
    switch (use) {
    case MemoryUse::device_local:
        required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        break;
    case MemoryUse::upload:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = required | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        break;
    case MemoryUse::readback:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = required | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    }
    std::optional<uint32_t> type =
        findMemoryType(memory, requirements.memoryTypeBits, required, preferred);
    if (!type && use == MemoryUse::device_local) {
        // Some devices expose no device-local type a resource accepts; any type will do.
        type = findMemoryType(memory, requirements.memoryTypeBits, 0, 0);
    }
    if (!type) {
        diagnostics.push_back(
            vulkanSetupError("vkAllocateMemory", "no memory type suits " + std::string(what)));
        return {};
    }

    VkMemoryAllocateFlagsInfo flags{};
    flags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    info.pNext = device_address ? &flags : nullptr;
    info.allocationSize = requirements.size;
    info.memoryTypeIndex = *type;
    VkDeviceMemory handle = VK_NULL_HANDLE;
    std::string context = std::string(what) + ", " + std::to_string(requirements.size) + " bytes";
    if (!check(vkAllocateMemory(device, &info, nullptr, &handle), "vkAllocateMemory", diagnostics,
               context)) {
        return {};
    }
    return OwnedMemory(device, handle);
}

} // namespace spindrift::vk
