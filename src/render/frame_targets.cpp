#include "render/frame_targets.h"

#include <string>

#include "render/shader/frame_globals.h"

namespace spindrift::render {

namespace {

// What both kinds of frame own: the linear depth and the frame globals.
std::unique_ptr<FrameTargets> createShared(const vk::Device& device, uint32_t width,
                                           uint32_t height, TargetFormats formats, uint32_t slots,
                                           std::vector<Diagnostic>& diagnostics) {
    auto t = std::make_unique<FrameTargets>();
    t->width = width;
    t->height = height;
    t->formats = formats;
    VkExtent2D extent{width, height};
    std::string size = std::to_string(width) + "x" + std::to_string(height);
    t->linear_depth =
        vk::createImage2D(device, kLinearDepthFormat, extent,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT, // scene_depth_export.h
                          "the linear depth target " + size, diagnostics);
    if (!t->linear_depth) return nullptr;
    t->globals.resize(slots);
    for (vk::Buffer& globals : t->globals) {
        globals = vk::createBuffer(device, sizeof(FrameGlobals), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                   vk::MemoryUse::upload, "the frame uniform buffer", diagnostics);
        if (!globals) return nullptr;
    }
    return t;
}

} // namespace

std::unique_ptr<FrameTargets> createHostFrameTargets(const vk::Device& device, uint32_t width,
                                                     uint32_t height, TargetFormats formats,
                                                     uint32_t slots,
                                                     std::vector<Diagnostic>& diagnostics) {
    return createShared(device, width, height, formats, slots, diagnostics);
}

std::unique_ptr<FrameTargets> createFrameTargets(const vk::Device& device, uint32_t width,
                                                 uint32_t height,
                                                 std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<FrameTargets> t =
        createShared(device, width, height, TargetFormats{}, 1, diagnostics);
    if (!t) return nullptr;
    VkExtent2D extent{width, height};
    std::string size = std::to_string(width) + "x" + std::to_string(height);

    t->own_color =
        vk::createImage2D(device, kColorFormat, extent,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                              VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                          "the colour target " + size, diagnostics);
    if (!t->own_color) return nullptr;
    t->own_depth =
        vk::createImage2D(device, kDepthFormat, extent, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                          "the depth target " + size, diagnostics);
    if (!t->own_depth) return nullptr;
    t->color = {t->own_color.get(), t->own_color.view.get()};
    t->depth = {t->own_depth.get(), t->own_depth.view.get()};

    VkDeviceSize readback_bytes = VkDeviceSize{width} * height * kColorBytesPerPixel;
    t->readback =
        vk::createBuffer(device, readback_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::readback, "the readback buffer " + size, diagnostics);
    if (!t->readback) return nullptr;
    return t;
}

vk::ImageBarrier colorAttachmentAgain(const FrameTargets& targets) {
    return {targets.color.image,
            VK_IMAGE_ASPECT_COLOR_BIT,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
}

bool hasStencil(VkFormat depth_format) {
    return depth_format == VK_FORMAT_D24_UNORM_S8_UINT ||
           depth_format == VK_FORMAT_D32_SFLOAT_S8_UINT ||
           depth_format == VK_FORMAT_D16_UNORM_S8_UINT;
}

VkImageAspectFlags depthBarrierAspect(VkFormat depth_format) {
    return hasStencil(depth_format) ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                                    : VK_IMAGE_ASPECT_DEPTH_BIT;
}

VkImageLayout depthAttachmentLayout(VkFormat depth_format) {
    return hasStencil(depth_format) ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                                    : VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
}

vk::ImageBarrier depthAttachmentAgain(const FrameTargets& targets) {
    const VkFormat format = targets.formats.depth;
    return {targets.depth.image,
            depthBarrierAspect(format),
            depthAttachmentLayout(format),
            depthAttachmentLayout(format),
            VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
}

} // namespace spindrift::render
