#include "render/distortion_pass.h"

#include <string>

#include "vulkan/commands.h"

namespace spindrift::render {

std::unique_ptr<DistortionCopy> DistortionCopy::create(const vk::Device& device, uint32_t width,
                                                       uint32_t height, VkFormat color_format,
                                                       std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<DistortionCopy> pass(new DistortionCopy());
    pass->copy_ = vk::createImage2D(device, color_format, {width, height},
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                    "the distortion phase's copy of the frame " +
                                        std::to_string(width) + "x" + std::to_string(height),
                                    diagnostics);
    if (!pass->copy_) return nullptr;
    return pass;
}

void DistortionCopy::record(VkCommandBuffer cmd, const FrameTargets& t) const {
    const vk::ImageBarrier color_out = vk::colorAttachmentToCopySource(t.color.image);
    // The previous frame's readers (the fragment stage) finish before the copy overwrites it.
    const vk::ImageBarrier copy_in{copy_.image.get(),
                                   VK_IMAGE_ASPECT_COLOR_BIT,
                                   VK_IMAGE_LAYOUT_UNDEFINED,
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                   VK_ACCESS_2_NONE,
                                   VK_PIPELINE_STAGE_2_COPY_BIT,
                                   VK_ACCESS_2_TRANSFER_WRITE_BIT};
    vk::imageBarriers(cmd, {color_out, copy_in});
    VkImageCopy region{};
    region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.dstSubresource = region.srcSubresource;
    region.extent = {t.width, t.height, 1};
    vkCmdCopyImage(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy_.image.get(),
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    const vk::ImageBarrier color_back{t.color.image,
                                      VK_IMAGE_ASPECT_COLOR_BIT,
                                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                      VK_PIPELINE_STAGE_2_COPY_BIT,
                                      VK_ACCESS_2_TRANSFER_READ_BIT,
                                      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                      VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                          VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    const vk::ImageBarrier copy_read{copy_.image.get(),
                                     VK_IMAGE_ASPECT_COLOR_BIT,
                                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                     VK_PIPELINE_STAGE_2_COPY_BIT,
                                     VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                     VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                     VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    vk::imageBarriers(cmd, {color_back, copy_read});
}

} // namespace spindrift::render
