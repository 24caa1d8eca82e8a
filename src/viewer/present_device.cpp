#include "viewer/present_device.h"

#include <cstdint>

#define GLFW_INCLUDE_NONE
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include "vulkan/vk_error.h"

namespace spindrift::viewer {

namespace {

// The first queue family of `device` that draws and presents to `surface`, or UINT32_MAX.
uint32_t presentFamily(VkPhysicalDevice device, VkSurfaceKHR surface) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (uint32_t i = 0; i < count; ++i) {
        VkBool32 present = VK_FALSE;
        if (vkGetPhysicalDeviceSurfaceSupportKHR(device, i, surface, &present) != VK_SUCCESS)
            continue;
        if (present == VK_TRUE && (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0) return i;
    }
    return UINT32_MAX;
}

} // namespace

std::unique_ptr<PresentDevice> PresentDevice::create(GLFWwindow* window,
                                                     const std::string& prefer_name,
                                                     std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<PresentDevice> p(new PresentDevice());
    uint32_t extension_count = 0;
    const char** extensions = glfwGetRequiredInstanceExtensions(&extension_count);
    if (extensions == nullptr) {
        diagnostics.push_back(vk::vulkanSetupError(
            "glfwGetRequiredInstanceExtensions", "this window system cannot present with Vulkan"));
        return nullptr;
    }
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "spindrift view";
    app.pEngineName = "spindrift";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = extension_count;
    info.ppEnabledExtensionNames = extensions;
    if (!vk::check(vkCreateInstance(&info, nullptr, &p->instance_), "vkCreateInstance", diagnostics,
                   "the window's instance")) {
        p->instance_ = VK_NULL_HANDLE;
        return nullptr;
    }
    if (!vk::check(glfwCreateWindowSurface(p->instance_, window, nullptr, &p->surface_),
                   "glfwCreateWindowSurface", diagnostics)) {
        p->surface_ = VK_NULL_HANDLE;
        return nullptr;
    }

    uint32_t count = 0;
    if (!vk::check(vkEnumeratePhysicalDevices(p->instance_, &count, nullptr),
                   "vkEnumeratePhysicalDevices", diagnostics))
        return nullptr;
    std::vector<VkPhysicalDevice> devices(count);
    if (!vk::check(vkEnumeratePhysicalDevices(p->instance_, &count, devices.data()),
                   "vkEnumeratePhysicalDevices", diagnostics))
        return nullptr;
    for (int pass = 0; pass < 2 && p->physical_ == VK_NULL_HANDLE; ++pass) {
        for (VkPhysicalDevice d : devices) {
            VkPhysicalDeviceProperties properties;
            vkGetPhysicalDeviceProperties(d, &properties);
            if (pass == 0 && prefer_name != properties.deviceName) continue;
            const uint32_t family = presentFamily(d, p->surface_);
            if (family == UINT32_MAX) continue;
            p->physical_ = d;
            p->queue_family_ = family;
            break;
        }
    }
    if (p->physical_ == VK_NULL_HANDLE) {
        diagnostics.push_back(vk::vulkanSetupError("vkGetPhysicalDeviceSurfaceSupportKHR",
                                                   "no Vulkan device can present to the window"));
        return nullptr;
    }
    vkGetPhysicalDeviceMemoryProperties(p->physical_, &p->memory_);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = p->queue_family_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    const char* device_extensions[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    VkDeviceCreateInfo device_info{};
    device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = device_extensions;
    if (!vk::check(vkCreateDevice(p->physical_, &device_info, nullptr, &p->device_),
                   "vkCreateDevice", diagnostics, "the window's device")) {
        p->device_ = VK_NULL_HANDLE;
        return nullptr;
    }
    vkGetDeviceQueue(p->device_, p->queue_family_, 0, &p->queue_);
    return p;
}

PresentDevice::~PresentDevice() {
    if (device_ != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(device_);
        vkDestroyDevice(device_, nullptr);
    }
    if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

uint32_t PresentDevice::memoryType(uint32_t type_bits, VkMemoryPropertyFlags properties) const {
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if ((type_bits & (1u << i)) != 0 &&
            (memory_.memoryTypes[i].propertyFlags & properties) == properties)
            return i;
    }
    return UINT32_MAX;
}

} // namespace spindrift::viewer
