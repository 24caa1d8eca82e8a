// The Vulkan instance, window surface and device the viewer presents with. They are the viewer's
// own, beside the renderer's context: the renderer draws offscreen on its device and the frame is
// uploaded into the swapchain image here (a staging copy per frame, cheap at viewer sizes). That
// keeps src/vulkan and src/render free of window-system code; when the renderer can record into a
// host's device (the host-device path), the presenter can hand its device to the renderer
// instead, and Presenter::present is the one place that changes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"

struct GLFWwindow;

namespace spindrift::viewer {

class PresentDevice {
public:
    // An instance with the window system's surface extensions, the window's surface, and a device
    // with VK_KHR_swapchain and one queue that draws and presents. prefer_name picks the device
    // of that name (the renderer's) when it can present; otherwise the first one that can.
    // nullptr with the reason on failure.
    static std::unique_ptr<PresentDevice> create(GLFWwindow* window, const std::string& prefer_name,
                                                 std::vector<Diagnostic>& diagnostics);
    ~PresentDevice();
    PresentDevice(const PresentDevice&) = delete;
    PresentDevice& operator=(const PresentDevice&) = delete;

    VkInstance instance() const { return instance_; }
    VkSurfaceKHR surface() const { return surface_; }
    VkPhysicalDevice physical() const { return physical_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queue_family_; }
    // A memory type index with `properties` among `type_bits`, or UINT32_MAX.
    uint32_t memoryType(uint32_t type_bits, VkMemoryPropertyFlags properties) const;

private:
    PresentDevice() = default;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queue_family_ = 0;
    VkPhysicalDeviceMemoryProperties memory_{};
};

} // namespace spindrift::viewer
