#include "vulkan/device.h"

#include "vulkan/vk_error.h"

namespace spindrift::vk {

std::unique_ptr<Device> Device::create(const PhysicalDevice& physical, const DeviceSupport& support,
                                       std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<Device> device(new Device());
    device->describe(physical, support);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{};
    queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue_info.queueFamilyIndex = support.queue_family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;

    VkPhysicalDeviceVulkan13Features features13{};
    features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    features13.dynamicRendering = VK_TRUE;
    features13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12{};
    features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    features12.pNext = &features13;
    features12.bufferDeviceAddress = VK_TRUE;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &features12;

    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.pNext = &features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue_info;
    if (!check(vkCreateDevice(physical.handle, &info, nullptr, &device->device_), "vkCreateDevice",
               diagnostics, physical.name)) {
        device->device_ = VK_NULL_HANDLE;
        return nullptr;
    }
    vkGetDeviceQueue(device->device_, support.queue_family, 0, &device->queue_);
    return device;
}

std::unique_ptr<Device> Device::borrow(const PhysicalDevice& physical, VkDevice handle,
                                       VkQueue queue, const DeviceSupport& support) {
    std::unique_ptr<Device> device(new Device());
    device->describe(physical, support);
    device->device_ = handle;
    device->queue_ = queue;
    device->owned_ = false;
    return device;
}

void Device::describe(const PhysicalDevice& physical, const DeviceSupport& support) {
    physical_ = physical.handle;
    support_ = support;
    vkGetPhysicalDeviceMemoryProperties(physical.handle, &memory_);
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(physical.handle, &properties);
    limits_ = properties.limits;
}

Device::~Device() {
    if (device_ == VK_NULL_HANDLE || !owned_) return; // a borrowed device is the host's
    // A failure here (device lost) leaves nothing better to do than destroy it anyway.
    (void)vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
}

} // namespace spindrift::vk
