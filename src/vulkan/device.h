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
    // A host's device, borrowed (docs/host-vulkan.md): Spindrift creates its objects on it and
    // submits to `queue` (of `support.queue_family`), and never waits for it to be idle or
    // destroys it. The caller has checked what it needs (checkHostDevice).
    static std::unique_ptr<Device> borrow(const PhysicalDevice& physical, VkDevice device,
                                          VkQueue queue, const DeviceSupport& support);
    // Spindrift's own device: waits for it to be idle, then destroys it (everything made from it
    // must already be destroyed). A borrowed one is left as it is.
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
    bool owned() const { return owned_; }

private:
    Device() = default;
    void describe(const PhysicalDevice& physical, const DeviceSupport& support);
    bool owned_ = true;
    VkDevice device_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    DeviceSupport support_;
    VkPhysicalDeviceMemoryProperties memory_{};
    VkPhysicalDeviceLimits limits_{};
};

} // namespace spindrift::vk
