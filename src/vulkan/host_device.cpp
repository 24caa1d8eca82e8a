#include "vulkan/host_device.h"

#include <string>

#include "vulkan/vk_error.h"

namespace spindrift::vk {

namespace {

std::string versionText(uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v));
}

// Appends `item` to a list separated by "; ".
void addTo(std::string& list, const std::string& item) {
    if (!list.empty()) list += "; ";
    list += item;
}

} // namespace

HostFeatures enabledFeatures(const VkDeviceCreateInfo& info) {
    HostFeatures f;
    // Walks the chain as the loader does: every structure starts with sType and pNext.
    for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s != nullptr; s = s->pNext) {
        switch (s->sType) {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
            auto* v = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
            f.buffer_device_address |= v->bufferDeviceAddress == VK_TRUE;
            f.timeline_semaphore |= v->timelineSemaphore == VK_TRUE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
            auto* v = reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(s);
            f.dynamic_rendering |= v->dynamicRendering == VK_TRUE;
            f.synchronization2 |= v->synchronization2 == VK_TRUE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
            f.buffer_device_address |=
                reinterpret_cast<const VkPhysicalDeviceBufferDeviceAddressFeatures*>(s)
                    ->bufferDeviceAddress == VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
            f.timeline_semaphore |=
                reinterpret_cast<const VkPhysicalDeviceTimelineSemaphoreFeatures*>(s)
                    ->timelineSemaphore == VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
            f.dynamic_rendering |=
                reinterpret_cast<const VkPhysicalDeviceDynamicRenderingFeatures*>(s)
                    ->dynamicRendering == VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
            f.synchronization2 |=
                reinterpret_cast<const VkPhysicalDeviceSynchronization2Features*>(s)
                    ->synchronization2 == VK_TRUE;
            break;
        default:
            break;
        }
    }
    return f;
}

bool checkHostDevice(const HostDevice& host, PhysicalDevice& physical, DeviceSupport& support,
                     std::vector<Diagnostic>& diagnostics) {
    std::string problems;
    if (host.instance == VK_NULL_HANDLE) addTo(problems, "the VkInstance is null");
    if (host.physical_device == VK_NULL_HANDLE) addTo(problems, "the VkPhysicalDevice is null");
    if (host.device == VK_NULL_HANDLE) addTo(problems, "the VkDevice is null");
    if (host.queue == VK_NULL_HANDLE) addTo(problems, "the VkQueue is null");
    if (host.device_create_info == nullptr) {
        addTo(problems,
              "device_create_info is null (Spindrift reads the enabled features from it)");
    }
    if (!problems.empty()) {
        diagnostics.push_back(vulkanSetupError("host device", problems));
        return false;
    }
    physical = describePhysicalDevice(host.physical_device, 0);
    if (host.instance_api_version < VK_API_VERSION_1_3) {
        addTo(problems, "the instance was created for Vulkan " +
                            versionText(host.instance_api_version) +
                            " (VkApplicationInfo::apiVersion); Spindrift needs 1.3");
    }
    if (physical.api_version < VK_API_VERSION_1_3) {
        addTo(problems, "the device supports Vulkan " + versionText(physical.api_version) +
                            "; Spindrift needs 1.3");
    }
    const HostFeatures f = enabledFeatures(*host.device_create_info);
    std::string missing;
    auto require = [&](bool enabled, const char* name) {
        if (!enabled) addTo(missing, name);
    };
    require(f.dynamic_rendering, "dynamicRendering (VkPhysicalDeviceVulkan13Features)");
    require(f.synchronization2, "synchronization2 (VkPhysicalDeviceVulkan13Features)");
    require(f.buffer_device_address, "bufferDeviceAddress (VkPhysicalDeviceVulkan12Features)");
    require(f.timeline_semaphore, "timelineSemaphore (VkPhysicalDeviceVulkan12Features)");
    if (!missing.empty()) {
        addTo(problems, "the device was created without features Spindrift needs: " + missing);
    }

    bool queue_created = false;
    const VkDeviceCreateInfo& info = *host.device_create_info;
    for (uint32_t i = 0; i < info.queueCreateInfoCount && info.pQueueCreateInfos != nullptr; ++i) {
        const VkDeviceQueueCreateInfo& q = info.pQueueCreateInfos[i];
        queue_created |= q.queueFamilyIndex == host.queue_family && q.queueCount > 0;
    }
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(host.physical_device, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(host.physical_device, &family_count, families.data());
    const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if (host.queue_family >= family_count) {
        addTo(problems, "queue family " + std::to_string(host.queue_family) +
                            " does not exist (the device has " + std::to_string(family_count) +
                            ")");
    } else if ((families[host.queue_family].queueFlags & needed) != needed) {
        addTo(problems, "queue family " + std::to_string(host.queue_family) +
                            " cannot do both graphics and compute");
    } else if (!queue_created) {
        addTo(problems, "queue family " + std::to_string(host.queue_family) +
                            " is not among the device's pQueueCreateInfos");
    }
    if (!problems.empty()) {
        diagnostics.push_back(vulkanSetupError("host device '" + physical.name + "'", problems));
        return false;
    }
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(host.physical_device, &properties);
    support.queue_family = host.queue_family;
    support.timestamps =
        families[host.queue_family].timestampValidBits > 0 && properties.limits.timestampPeriod > 0;
    support.timestamp_period_ns = properties.limits.timestampPeriod;
    return true;
}

} // namespace spindrift::vk
