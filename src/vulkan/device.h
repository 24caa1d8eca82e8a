// The logical device with one graphics queue (graphics implies compute and transfer), created
// with the Vulkan 1.3 features the renderer uses enabled.
#pragma once

#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/physical_device.h"

namespace spindrift::vk {

class Device {
public:
    // Enables dynamicRendering, synchronization2 and bufferDeviceAddress (checked by
    // checkDeviceSupport first). nullptr with an error when vkCreateDevice fails.
    static std::unique_ptr<Device> create(const PhysicalDevice& physical,
                                          const DeviceSupport& support,
                                          std::vector<Diagnostic>& diagnostics);
    // Waits for the device to be idle, then destroys it: everything made from it must already
    // be destroyed.
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkDevice handle() const { return device_; }
    VkPhysicalDevice physical() const { return physical_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return support_.queue_family; }
    const DeviceSupport& support() const { return support_; }
    const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
    const VkPhysicalDeviceLimits& limits() const { return limits_; }

private:
    Device() = default;
    VkDevice device_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    DeviceSupport support_;
    VkPhysicalDeviceMemoryProperties memory_{};
    VkPhysicalDeviceLimits limits_{};
};

} // namespace spindrift::vk
