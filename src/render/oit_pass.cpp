#include "render/oit_pass.h"

#include <string>

#include "render/shader/oit.h"
#include "render/shader_code.h"
#include "vulkan/commands.h"
#include "vulkan/descriptors.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

VkRenderingAttachmentInfo clearedColor(const vk::Image2D& image, VkClearColorValue value) {
    VkRenderingAttachmentInfo a{};
    a.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    a.imageView = image.view.get();
    a.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.clearValue.color = value;
    return a;
}

} // namespace

std::unique_ptr<OitPass> OitPass::create(const vk::Device& device, uint32_t width, uint32_t height,
                                         VkFormat color_format,
                                         std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<OitPass> pass(new OitPass());
    VkDevice d = device.handle();
    const VkExtent2D extent{width, height};
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    const VkImageUsageFlags usage =
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    pass->accumulation_ = vk::createImage2D(device, kOitAccumulationFormat, extent, usage,
                                            "the OIT accumulation target " + size, diagnostics);
    if (!pass->accumulation_) return nullptr;
    pass->weight_ = vk::createImage2D(device, kOitWeightFormat, extent, usage,
                                      "the OIT weight target " + size, diagnostics);
    if (!pass->weight_) return nullptr;
    // Read with texelFetch at the fragment's own pixel: no filtering.
    pass->sampler_ = vk::createSampler(device, vk::Filter::nearest, diagnostics);
    if (!pass->sampler_) return nullptr;

    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kOitCompositeVert),
                                           shaders::kOitCompositeVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kOitCompositeFrag),
                                             shaders::kOitCompositeFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;

    VkDescriptorSetLayoutBinding bindings[2]{};
    bindings[0].binding = kBindingOitAccumulation;
    bindings[1].binding = kBindingOitWeight;
    for (VkDescriptorSetLayoutBinding& b : bindings) {
        b.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        b.descriptorCount = 1;
        b.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    }
    pass->set_layout_ = vk::createDescriptorSetLayout(d, {bindings[0], bindings[1]},
                                                      "the OIT composite set layout", diagnostics);
    if (!pass->set_layout_) return nullptr;
    static_assert(kSetOitComposite == 0);
    pass->layout_ = vk::createPipelineLayout(d, {pass->set_layout_.get()}, 0,
                                             "the OIT composite pipeline layout", diagnostics);
    if (!pass->layout_) return nullptr;

    vk::GraphicsPipelineDesc desc;
    desc.vertex = pass->vertex_.get();
    desc.fragment = pass->fragment_.get();
    desc.layout = pass->layout_.get();
    desc.color_formats = {color_format};
    // sdOitResolve writes average * coverage and coverage: "over" with a premultiplied colour.
    desc.blends = {vk::BlendState::premultiplied};
    desc.depth_test = false;
    desc.depth_write = false;
    pass->pipeline_ =
        vk::createGraphicsPipeline(d, desc, "the OIT composite pipeline", diagnostics);
    if (!pass->pipeline_) return nullptr;

    pass->pool_ = vk::createDescriptorPool(d, 1, 0, 2, diagnostics);
    if (!pass->pool_) return nullptr;
    pass->set_ =
        vk::allocateDescriptorSet(d, pass->pool_.get(), pass->set_layout_.get(), diagnostics);
    if (pass->set_ == VK_NULL_HANDLE) return nullptr;
    vk::writeCombinedImageSampler(d, pass->set_, kBindingOitAccumulation,
                                  pass->accumulation_.view.get(), pass->sampler_.get(),
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    vk::writeCombinedImageSampler(d, pass->set_, kBindingOitWeight, pass->weight_.view.get(),
                                  pass->sampler_.get(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    return pass;
}

void OitPass::beginAccumulation(VkCommandBuffer cmd, const FrameTargets& targets) const {
    // Last frame's contents are discarded; the previous reader was last frame's composite.
    vk::ImageBarrier accumulation{accumulation_.get(),
                                  VK_IMAGE_ASPECT_COLOR_BIT,
                                  VK_IMAGE_LAYOUT_UNDEFINED,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                  VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                  VK_ACCESS_2_NONE,
                                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                  VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    vk::ImageBarrier weight = accumulation;
    weight.image = weight_.get();
    vk::imageBarriers(cmd, {accumulation, weight});

    const std::vector<VkRenderingAttachmentInfo> colors = {
        clearedColor(accumulation_, {{0.0f, 0.0f, 0.0f, 1.0f}}),
        clearedColor(weight_, {{0.0f, 0.0f, 0.0f, 0.0f}})};
    VkRenderingAttachmentInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    depth.imageView = targets.depth.view;
    depth.imageLayout = depthAttachmentLayout(targets.formats.depth);
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, accumulation_.extent, colors, &depth);
}

void OitPass::composite(VkCommandBuffer cmd, const FrameTargets& targets) const {
    vk::ImageBarrier accumulation{accumulation_.get(),
                                  VK_IMAGE_ASPECT_COLOR_BIT,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                  VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                  VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    vk::ImageBarrier weight = accumulation;
    weight.image = weight_.get();
    // The frame colour was written by the particle scope; the composite's blend reads it.
    const vk::ImageBarrier color = colorAttachmentAgain(targets);
    vk::imageBarriers(cmd, {accumulation, weight, color});

    VkRenderingAttachmentInfo frame{};
    frame.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    frame.imageView = targets.color.view;
    frame.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    frame.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    frame.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, targets.extent(), {frame}, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), kSetOitComposite,
                            1, &set_, 0, nullptr);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
}

} // namespace spindrift::render
