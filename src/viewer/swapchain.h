// The window's swapchain: its images, their views, the overlay's render pass and a framebuffer
// per image. Recreated when the window's size changes or the surface says it is out of date.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "viewer/present_device.h"

namespace spindrift::viewer {

struct Swapchain {
    VkSwapchainKHR handle = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{};
    uint32_t min_image_count = 2;
    bool readable = false; // the images are transfer sources (a window capture can read them)
    std::vector<VkImage> images;
    std::vector<VkImageView> views;
    std::vector<VkFramebuffer> framebuffers;
};

// The overlay's render pass over a swapchain image of `format`: the image arrives holding the
// scene frame (TRANSFER_DST_OPTIMAL, loaded, not cleared) and leaves ready to present. It
// depends only on the format, which a recreated swapchain keeps.
VkRenderPass createOverlayPass(VkDevice device, VkFormat format,
                               std::vector<Diagnostic>& diagnostics);

// The surface format the frame is copied into: 8-bit UNORM BGRA or RGBA in the sRGB colour space
// (the frame's bytes are already sRGB-encoded, so an _SRGB format would encode them twice).
// VK_FORMAT_UNDEFINED with an error when the surface offers none.
VkFormat chooseSurfaceFormat(const PresentDevice& device, std::vector<Diagnostic>& diagnostics);

// (Re)creates the swapchain for a window of width x height (clamped to what the surface allows),
// FIFO presentation, images usable as transfer destinations and colour attachments. The old one,
// if any, is handed to the new one and then destroyed. False with the error on failure.
bool createSwapchain(const PresentDevice& device, VkFormat format, VkRenderPass pass,
                     uint32_t width, uint32_t height, Swapchain& swapchain,
                     std::vector<Diagnostic>& diagnostics);

void destroySwapchain(VkDevice device, Swapchain& swapchain);

} // namespace spindrift::viewer
