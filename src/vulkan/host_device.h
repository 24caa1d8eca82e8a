// A host's Vulkan instance, device and queue, which Spindrift borrows instead of creating its
// own (docs/host-vulkan.md): what the host hands over, and the check that the device was created
// with what Spindrift needs. Borrowed objects are used, never destroyed (Instance::borrow,
// Device::borrow; vk::borrowContext puts them together).
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/physical_device.h"

namespace spindrift::vk {

struct HostDevice {
    VkInstance instance = VK_NULL_HANDLE;
    uint32_t instance_api_version = 0; // VkApplicationInfo::apiVersion the instance was made with
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    // What the device was created with: its queues and the feature structures of its pNext
    // chain are what Spindrift checks (a device cannot be asked what was enabled on it).
    const VkDeviceCreateInfo* device_create_info = nullptr;
    uint32_t queue_family = 0;
    VkQueue queue = VK_NULL_HANDLE;
};

// The device features Spindrift needs enabled, by the names of their Vulkan structures.
// dynamicRendering, synchronization2 (VkPhysicalDeviceVulkan13Features), bufferDeviceAddress,
// timelineSemaphore (VkPhysicalDeviceVulkan12Features), or the same fields in their own feature
// structures.
struct HostFeatures {
    bool dynamic_rendering = false;
    bool synchronization2 = false;
    bool buffer_device_address = false;
    bool timeline_semaphore = false;
};

// The features a device create info enables, from its pNext chain.
HostFeatures enabledFeatures(const VkDeviceCreateInfo& info);

// Checks the host's objects: none null, instance and device at Vulkan 1.3 or later, the features
// above enabled, the queue family created with the device and able to do graphics and compute.
// Fills physical and support (the queue family, timestamps). False with one error naming every
// problem found (each missing feature by its Vulkan name) otherwise.
bool checkHostDevice(const HostDevice& host, PhysicalDevice& physical, DeviceSupport& support,
                     std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::vk
