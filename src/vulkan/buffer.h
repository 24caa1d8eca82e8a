// Buffers with their own memory: host-visible ones stay mapped for their whole life.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/memory.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

struct Buffer {
    OwnedMemory memory; // declared first: destroyed after the buffer bound to it
    OwnedBuffer buffer;
    VkDeviceSize size = 0;
    void* mapped = nullptr;      // upload and readback buffers: the whole range, coherent
    VkDeviceAddress address = 0; // with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, else 0

    Buffer() = default;
    Buffer(Buffer&&) = default;
    // Releases the buffer before its memory, then takes other's.
    Buffer& operator=(Buffer&& other) noexcept {
        if (this == &other) return *this;
        buffer.reset();
        memory = std::move(other.memory);
        buffer = std::move(other.buffer);
        size = other.size;
        mapped = other.mapped;
        address = other.address;
        return *this;
    }

    VkBuffer get() const { return buffer.get(); }
    explicit operator bool() const { return static_cast<bool>(buffer); }
};

// A buffer of `size` bytes (> 0) for `usage`, in memory for `use` (mapped unless
// device_local). On failure returns an empty Buffer and appends an error naming `what`.
Buffer createBuffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage,
                    MemoryUse use, std::string_view what, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::vk
