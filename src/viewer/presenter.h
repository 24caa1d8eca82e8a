// Puts a rendered frame on the window: the frame (an sRGB RGBA8 image from the renderer) is
// copied through a staging buffer into an image of the viewer's device, scaled into the
// swapchain image with its aspect kept (bars in the background colour), the overlay is drawn over
// it, and the image is presented. One frame in flight: present() waits for the previous frame's
// fence before it reuses the staging buffer, which at viewer sizes costs nothing measurable
// beside rendering the frame.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "image/image.h"
#include "spindrift/diagnostic.h"
#include "viewer/present_device.h"
#include "viewer/swapchain.h"

namespace spindrift::viewer {

// Where a frame of frame_w x frame_h lands in a window of window_w x window_h: the largest
// centred rectangle of the frame's aspect (x, y, width, height; at least 1 x 1).
struct FitRect {
    int32_t x = 0, y = 0;
    uint32_t width = 1, height = 1;
};
FitRect fitFrame(uint32_t frame_w, uint32_t frame_h, uint32_t window_w, uint32_t window_h);

// Records the overlay's draws into a command buffer inside the overlay render pass.
using OverlayRecorder = std::function<void(VkCommandBuffer)>;

class Presenter {
public:
    // Frames of frame_width x frame_height, a swapchain for a window of window_w x window_h.
    static std::unique_ptr<Presenter> create(const PresentDevice& device, uint32_t frame_width,
                                             uint32_t frame_height, uint32_t window_w,
                                             uint32_t window_h,
                                             std::vector<Diagnostic>& diagnostics);
    ~Presenter();
    Presenter(const Presenter&) = delete;
    Presenter& operator=(const Presenter&) = delete;

    VkRenderPass overlayPass() const { return pass_; }
    uint32_t minImageCount() const { return swapchain_.min_image_count; }
    uint32_t imageCount() const { return uint32_t(swapchain_.images.size()); }

    // Presents frame (frame_width x frame_height) with the overlay over it in a window now
    // window_w x window_h. A window of 0 x 0 (minimised) presents nothing. A swapchain the
    // surface reports out of date or of another size is recreated (the frame is then skipped).
    // False with the error when a Vulkan call fails. With capture, the presented image (frame
    // and overlay, the window's size) is also read back into it, sRGB RGBA8 like a frame;
    // captured says whether this call presented (false when it skipped the frame).
    bool present(const Image& frame, uint32_t window_w, uint32_t window_h,
                 const OverlayRecorder& overlay, std::vector<Diagnostic>& diagnostics,
                 Image* capture = nullptr, bool* captured = nullptr);

    // Records work with `record` into a command buffer, submits it and waits (the overlay's font
    // upload).
    bool runOnce(const std::function<void(VkCommandBuffer)>& record,
                 std::vector<Diagnostic>& diagnostics);

    // A swapchain was recreated since the last call (the overlay must learn the image count).
    bool takeRecreated();

private:
    Presenter(const PresentDevice& device) : device_(device) {}
    bool recreate(uint32_t window_w, uint32_t window_h, std::vector<Diagnostic>& diagnostics);
    bool recordFrame(const Image& frame, uint32_t image_index, const OverlayRecorder& overlay,
                     bool capture, std::vector<Diagnostic>& diagnostics);
    bool prepareCapture(std::vector<Diagnostic>& diagnostics);
    void copyCapture(Image& out) const;

    const PresentDevice& device_;
    VkRenderPass pass_ = VK_NULL_HANDLE;
    Swapchain swapchain_;
    bool recreated_ = false;
    uint32_t frame_width_ = 0;
    uint32_t frame_height_ = 0;
    VkBuffer staging_ = VK_NULL_HANDLE;
    VkDeviceMemory staging_memory_ = VK_NULL_HANDLE;
    void* staging_map_ = nullptr;
    VkImage frame_image_ = VK_NULL_HANDLE;
    VkDeviceMemory frame_memory_ = VK_NULL_HANDLE;
    // The window capture's readback buffer, made on the first capture (the window's size).
    VkBuffer capture_ = VK_NULL_HANDLE;
    VkDeviceMemory capture_memory_ = VK_NULL_HANDLE;
    void* capture_map_ = nullptr;
    VkDeviceSize capture_bytes_ = 0;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkSemaphore acquired_ = VK_NULL_HANDLE;
    VkSemaphore rendered_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

} // namespace spindrift::viewer
