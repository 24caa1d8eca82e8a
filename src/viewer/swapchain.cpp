#include "viewer/swapchain.h"

#include <algorithm>

#include "vulkan/vk_error.h"

namespace spindrift::viewer {

namespace {

void destroyViews(VkDevice device, Swapchain& swapchain) {
    for (VkFramebuffer f : swapchain.framebuffers) vkDestroyFramebuffer(device, f, nullptr);
    for (VkImageView v : swapchain.views) vkDestroyImageView(device, v, nullptr);
    swapchain.framebuffers.clear();
    swapchain.views.clear();
    swapchain.images.clear();
}

} // namespace

VkRenderPass createOverlayPass(VkDevice device, VkFormat format,
                               std::vector<Diagnostic>& diagnostics) {
    VkAttachmentDescription attachment{};
    attachment.format = format;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    attachment.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    VkAttachmentReference colour{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &colour;
    // The frame's copy into the image (transfer writes) comes before the overlay's blending.
    VkSubpassDependency dependency{};
    dependency.srcSubpass = VK_SUBPASS_EXTERNAL;
    dependency.dstSubpass = 0;
    dependency.srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependency.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    dependency.dstAccessMask =
        VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    VkRenderPassCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
    info.attachmentCount = 1;
    info.pAttachments = &attachment;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 1;
    info.pDependencies = &dependency;
    VkRenderPass pass = VK_NULL_HANDLE;
    if (!vk::check(vkCreateRenderPass(device, &info, nullptr, &pass), "vkCreateRenderPass",
                   diagnostics, "the overlay pass"))
        return VK_NULL_HANDLE;
    return pass;
}

VkFormat chooseSurfaceFormat(const PresentDevice& device, std::vector<Diagnostic>& diagnostics) {
    uint32_t count = 0;
    if (!vk::check(vkGetPhysicalDeviceSurfaceFormatsKHR(device.physical(), device.surface(), &count,
                                                        nullptr),
                   "vkGetPhysicalDeviceSurfaceFormatsKHR", diagnostics))
        return VK_FORMAT_UNDEFINED;
    std::vector<VkSurfaceFormatKHR> formats(count);
    if (!vk::check(vkGetPhysicalDeviceSurfaceFormatsKHR(device.physical(), device.surface(), &count,
                                                        formats.data()),
                   "vkGetPhysicalDeviceSurfaceFormatsKHR", diagnostics))
        return VK_FORMAT_UNDEFINED;
    for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
        for (const VkSurfaceFormatKHR& f : formats) {
            if (f.format == wanted && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
                return wanted;
        }
    }
    diagnostics.push_back(vk::vulkanSetupError(
        "vkGetPhysicalDeviceSurfaceFormatsKHR",
        "the window offers no 8-bit UNORM BGRA or RGBA format in the sRGB colour space"));
    return VK_FORMAT_UNDEFINED;
}

bool createSwapchain(const PresentDevice& device, VkFormat format, VkRenderPass pass,
                     uint32_t width, uint32_t height, Swapchain& swapchain,
                     std::vector<Diagnostic>& diagnostics) {
    VkSurfaceCapabilitiesKHR caps{};
    if (!vk::check(
            vkGetPhysicalDeviceSurfaceCapabilitiesKHR(device.physical(), device.surface(), &caps),
            "vkGetPhysicalDeviceSurfaceCapabilitiesKHR", diagnostics))
        return false;
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        extent.width = std::clamp(width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    uint32_t image_count = std::max(caps.minImageCount + 1, 2u);
    if (caps.maxImageCount != 0) image_count = std::min(image_count, caps.maxImageCount);

    VkSwapchainCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
    info.surface = device.surface();
    info.minImageCount = image_count;
    info.imageFormat = format;
    info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    // A transfer source too where the surface allows it: the window capture reads it back.
    if ((caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0)
        info.imageUsage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if ((caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) == 0)
        info.compositeAlpha = VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR; // always supported
    info.clipped = VK_TRUE;
    info.oldSwapchain = swapchain.handle;
    VkSwapchainKHR handle = VK_NULL_HANDLE;
    const bool ok = vk::check(vkCreateSwapchainKHR(device.device(), &info, nullptr, &handle),
                              "vkCreateSwapchainKHR", diagnostics);
    destroySwapchain(device.device(), swapchain);
    if (!ok) return false;
    swapchain.handle = handle;
    swapchain.format = format;
    swapchain.extent = extent;
    swapchain.min_image_count = image_count;
    swapchain.readable = (info.imageUsage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;

    uint32_t count = 0;
    if (!vk::check(vkGetSwapchainImagesKHR(device.device(), handle, &count, nullptr),
                   "vkGetSwapchainImagesKHR", diagnostics))
        return false;
    swapchain.images.resize(count);
    if (!vk::check(
            vkGetSwapchainImagesKHR(device.device(), handle, &count, swapchain.images.data()),
            "vkGetSwapchainImagesKHR", diagnostics))
        return false;
    for (VkImage image : swapchain.images) {
        VkImageViewCreateInfo view_info{};
        view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
        view_info.image = image;
        view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view_info.format = format;
        view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView view = VK_NULL_HANDLE;
        if (!vk::check(vkCreateImageView(device.device(), &view_info, nullptr, &view),
                       "vkCreateImageView", diagnostics, "a swapchain image"))
            return false;
        swapchain.views.push_back(view);
        VkFramebufferCreateInfo fb{};
        fb.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
        fb.renderPass = pass;
        fb.attachmentCount = 1;
        fb.pAttachments = &view;
        fb.width = extent.width;
        fb.height = extent.height;
        fb.layers = 1;
        VkFramebuffer framebuffer = VK_NULL_HANDLE;
        if (!vk::check(vkCreateFramebuffer(device.device(), &fb, nullptr, &framebuffer),
                       "vkCreateFramebuffer", diagnostics, "a swapchain image"))
            return false;
        swapchain.framebuffers.push_back(framebuffer);
    }
    return true;
}

void destroySwapchain(VkDevice device, Swapchain& swapchain) {
    destroyViews(device, swapchain);
    if (swapchain.handle != VK_NULL_HANDLE)
        vkDestroySwapchainKHR(device, swapchain.handle, nullptr);
    swapchain.handle = VK_NULL_HANDLE;
}

} // namespace spindrift::viewer
