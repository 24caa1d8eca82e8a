#include "vulkan/buffer.h"

#include <string>

#include "vulkan/vk_error.h"

namespace spindrift::vk {

Buffer createBuffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage,
                    MemoryUse use, std::string_view what, std::vector<Diagnostic>& diagnostics) {
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer handle = VK_NULL_HANDLE;
    if (!check(vkCreateBuffer(device.handle(), &info, nullptr, &handle), "vkCreateBuffer",
               diagnostics, what)) {
        return {};
    }
    Buffer b;
    b.buffer = OwnedBuffer(device.handle(), handle);
    b.size = size;

    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device.handle(), handle, &requirements);
    bool device_address = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0;
    b.memory = allocateMemory(device.handle(), device.memory(), requirements, use, device_address,
                              what, diagnostics);
    if (!b.memory) return {};
    if (!check(vkBindBufferMemory(device.handle(), handle, b.memory.get(), 0), "vkBindBufferMemory",
               diagnostics, what)) {
        return {};
    }
    if (use != MemoryUse::device_local) {
        if (!check(vkMapMemory(device.handle(), b.memory.get(), 0, VK_WHOLE_SIZE, 0, &b.mapped),
                   "vkMapMemory", diagnostics, what)) {
            return {};
        }
    }
    if (device_address) {
        VkBufferDeviceAddressInfo address{};
        address.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO;
        address.buffer = handle;
        b.address = vkGetBufferDeviceAddress(device.handle(), &address);
    }
    return b;
}

} // namespace spindrift::vk
