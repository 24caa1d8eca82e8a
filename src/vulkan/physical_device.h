// Listing the Vulkan devices, choosing one (RendererConfig::device rules) and checking that it
// has what the renderer needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"

namespace spindrift::vk {

struct PhysicalDevice {
    VkPhysicalDevice handle = VK_NULL_HANDLE;
    uint32_t index = 0; // in vkEnumeratePhysicalDevices order
    std::string name;
    std::string type;   // "discrete", "integrated", "virtual", "cpu" or "other"
    std::string driver; // "<driverName> (<driverInfo>)" when reported
    uint32_t api_version = 0;
};

// What a device is (name, type, driver, API version); index is its place in enumeration order,
// 0 when unknown (a host's device).
PhysicalDevice describePhysicalDevice(VkPhysicalDevice handle, uint32_t index);

// The devices in enumeration order. An error (and an empty list) when there are none.
std::vector<PhysicalDevice> enumeratePhysicalDevices(VkInstance instance,
                                                     std::vector<Diagnostic>& diagnostics);

// The device a request names: "" the first discrete GPU, else the first integrated GPU, else the
// first device; a decimal number an index into devices; anything else a case-insensitive
// substring of the name (the first match). std::nullopt with an error listing the devices when
// nothing matches. Pure: needs no Vulkan.
std::optional<size_t> selectPhysicalDevice(const std::vector<PhysicalDevice>& devices,
                                           const std::string& request,
                                           std::vector<Diagnostic>& diagnostics);

// Whether the device is a CPU implementation (lavapipe): slower than the CPU backend, and with
// per-invocation loop budgets the GPU passes split their work for.
bool isCpuDevice(VkPhysicalDevice device);

// What the renderer needs of a device: Vulkan 1.3, dynamicRendering, synchronization2,
// bufferDeviceAddress, a queue family with graphics (and so transfer). Appends an error naming
// each missing feature and returns false when one is missing.
struct DeviceSupport {
    uint32_t queue_family = 0;
    bool timestamps = false; // the queue family writes timestamps (timestampValidBits > 0)
    float timestamp_period_ns = 0;
};
bool checkDeviceSupport(const PhysicalDevice& device, DeviceSupport& support,
                        std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::vk
