#include "render/motion_pass.h"

#include <string>

#include "embedded_shaders.h"
#include "render/readback.h"
#include "render/shader_code.h"
#include "vulkan/commands.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

std::unique_ptr<MotionPass> MotionPass::create(const vk::Device& device,
                                               const ParticleBindings& bindings, uint32_t width,
                                               uint32_t height,
                                               std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<MotionPass> pass(new MotionPass());
    pass->width_ = width;
    pass->height_ = height;
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    pass->target_ =
        vk::createImage2D(device, kMotionFormat, {width, height},
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                          "the motion-vector target " + size, diagnostics);
    if (!pass->target_) return nullptr;
    pass->readback_ = vk::createBuffer(device, VkDeviceSize{width} * height * kMotionBytesPerPixel,
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUse::readback,
                                       "the motion-vector readback buffer " + size, diagnostics);
    if (!pass->readback_) return nullptr;

    VkDevice d = device.handle();
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kOitCompositeVert),
                                           shaders::kOitCompositeVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kMotionCameraFrag),
                                             shaders::kMotionCameraFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;
    // The particle layout: the camera pass reads the frame set (globals, linear depth) only.
    vk::GraphicsPipelineDesc desc;
    desc.vertex = pass->vertex_.get();
    desc.fragment = pass->fragment_.get();
    desc.layout = bindings.layout();
    desc.color_formats = {kMotionFormat};
    desc.blends = {vk::BlendState::none};
    desc.depth_test = false;
    desc.depth_write = false;
    pass->camera_ = vk::createGraphicsPipeline(d, desc, "the camera motion pipeline", diagnostics);
    if (!pass->camera_) return nullptr;
    return pass;
}

void MotionPass::recordCameraAndBeginParticles(VkCommandBuffer cmd,
                                               const ParticleBindings& bindings, uint32_t slot,
                                               const FrameTargets& t) const {
    // The previous frame's copy out of the target finished before this frame overwrites it.
    const vk::ImageBarrier to_attachment{target_.image.get(),
                                         VK_IMAGE_ASPECT_COLOR_BIT,
                                         VK_IMAGE_LAYOUT_UNDEFINED,
                                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                         VK_PIPELINE_STAGE_2_COPY_BIT,
                                         VK_ACCESS_2_NONE,
                                         VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                         VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    vk::imageBarriers(cmd, {to_attachment});
    VkRenderingAttachmentInfo motion{};
    motion.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    motion.imageView = target_.view.get();
    motion.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    motion.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE; // the full-screen triangle writes every pixel
    motion.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, t.extent(), {motion}, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, camera_.get());
    bindings.bindFrame(cmd, slot);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);

    // The camera's motion is loaded and overwritten by the particles; the frame's depth, stored
    // by the colour phases, is tested.
    const vk::ImageBarrier motion_again{target_.image.get(),
                                        VK_IMAGE_ASPECT_COLOR_BIT,
                                        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                        VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    vk::imageBarriers(cmd, {motion_again, depthAttachmentAgain(t)});
    beginMotionParticles(cmd, target_.view.get(), t);
}

void beginMotionParticles(VkCommandBuffer cmd, VkImageView motion_view, const FrameTargets& t) {
    VkRenderingAttachmentInfo motion{};
    motion.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    motion.imageView = motion_view;
    motion.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    motion.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    motion.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingAttachmentInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    depth.imageView = t.depth.view;
    depth.imageLayout = depthAttachmentLayout(t.formats.depth);
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, t.extent(), {motion}, &depth);
}

void MotionPass::recordReadback(VkCommandBuffer cmd) const {
    vk::imageBarriers(cmd, {vk::colorAttachmentToCopySource(target_.image.get())});
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width_, height_, 1};
    vkCmdCopyImageToBuffer(cmd, target_.image.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           readback_.get(), 1, &region);
}

void MotionPass::read(MotionImage& out) const {
    out.width = width_;
    out.height = height_;
    const size_t count = size_t{width_} * height_ * 2;
    out.xy.resize(count);
    const auto* halves = static_cast<const uint16_t*>(readback_.mapped);
    for (size_t i = 0; i < count; ++i) out.xy[i] = halfToFloat(halves[i]);
}

} // namespace spindrift::render
