#include "render/half_res_pass.h"

#include <string>

#include "render/shader/frame_globals.h"
#include "render/shader/half_res.h"
#include "render/shader_code.h"
#include "vulkan/commands.h"
#include "vulkan/descriptors.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

VkDescriptorSetLayoutBinding sampledBinding(uint32_t binding) {
    VkDescriptorSetLayoutBinding b{};
    b.binding = binding;
    b.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    b.descriptorCount = 1;
    b.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    return b;
}

VkRenderingAttachmentInfo attachment(const vk::Image2D& image, VkImageLayout layout,
                                     VkAttachmentLoadOp load) {
    VkRenderingAttachmentInfo a{};
    a.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    a.imageView = image.view.get();
    a.imageLayout = layout;
    a.loadOp = load;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    return a;
}

// A half-size colour target written by a scope and then sampled by a fragment
// shader.
vk::ImageBarrier colorToSampled(VkImage image) {
    return {image,
            VK_IMAGE_ASPECT_COLOR_BIT,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
}

} // namespace

std::unique_ptr<HalfResPass> HalfResPass::create(const vk::Device& device,
                                                 const FrameTargets& targets,
                                                 std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<HalfResPass> pass(new HalfResPass());
    VkDevice d = device.handle();
    pass->full_width_ = targets.width;
    pass->full_height_ = targets.height;
    const VkExtent2D extent{(targets.width + 1) / 2, (targets.height + 1) / 2};
    const std::string size = std::to_string(extent.width) + "x" + std::to_string(extent.height);
    const VkImageUsageFlags sampled_target =
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    pass->color_ = vk::createImage2D(device, kColorFormat, extent, sampled_target,
                                     "the half-resolution particle colour " + size, diagnostics);
    if (!pass->color_) return nullptr;
    pass->linear_depth_ =
        vk::createImage2D(device, kLinearDepthFormat, extent, sampled_target,
                          "the half-resolution linear depth " + size, diagnostics);
    if (!pass->linear_depth_) return nullptr;
    pass->depth_ =
        vk::createImage2D(device, kDepthFormat, extent, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                          "the half-resolution depth " + size, diagnostics);
    if (!pass->depth_) return nullptr;
    // Every read is a texelFetch: no filtering.
    pass->sampler_ = vk::createSampler(device, vk::Filter::nearest, diagnostics);
    if (!pass->sampler_) return nullptr;

    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kOitCompositeVert),
                                           shaders::kOitCompositeVert.source, diagnostics);
    pass->downsample_fragment_ =
        vk::createShaderModule(d, spirvWords(shaders::kHalfResDownsampleFrag),
                               shaders::kHalfResDownsampleFrag.source, diagnostics);
    pass->upsample_fragment_ =
        vk::createShaderModule(d, spirvWords(shaders::kHalfResUpsampleFrag),
                               shaders::kHalfResUpsampleFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->downsample_fragment_ || !pass->upsample_fragment_) return nullptr;

    pass->downsample_set_layout_ =
        vk::createDescriptorSetLayout(d, {sampledBinding(kBindingHalfResFullDepth)},
                                      "the half-resolution downsample set layout", diagnostics);
    pass->upsample_set_layout_ = vk::createDescriptorSetLayout(
        d,
        {sampledBinding(kBindingHalfResFullDepth), sampledBinding(kBindingHalfResColor),
         sampledBinding(kBindingHalfResDepth)},
        "the half-resolution upsample set layout", diagnostics);
    if (!pass->downsample_set_layout_ || !pass->upsample_set_layout_) return nullptr;
    static_assert(kSetHalfRes == 0);
    pass->downsample_layout_ = vk::createPipelineLayout(
        d, {pass->downsample_set_layout_.get()}, sizeof(HalfResPushConstants),
        "the half-resolution downsample pipeline layout", diagnostics,
        VK_SHADER_STAGE_FRAGMENT_BIT);
    pass->upsample_layout_ = vk::createPipelineLayout(
        d, {pass->upsample_set_layout_.get()}, sizeof(HalfResPushConstants),
        "the half-resolution upsample pipeline layout", diagnostics, VK_SHADER_STAGE_FRAGMENT_BIT);
    if (!pass->downsample_layout_ || !pass->upsample_layout_) return nullptr;

    vk::GraphicsPipelineDesc desc;
    desc.vertex = pass->vertex_.get();
    desc.fragment = pass->downsample_fragment_.get();
    desc.layout = pass->downsample_layout_.get();
    desc.color_formats = {kLinearDepthFormat};
    desc.blends = {vk::BlendState::none};
    // The depth is cleared to 1 and written where less: every texel with a
    // surface (the background's 1 fails the test, and its texel keeps the cleared
    // values).
    desc.depth_format = kDepthFormat;
    desc.depth_test = true;
    desc.depth_write = true;
    pass->downsample_ =
        vk::createGraphicsPipeline(d, desc, "the half-resolution downsample pipeline", diagnostics);
    if (!pass->downsample_) return nullptr;
    desc.fragment = pass->upsample_fragment_.get();
    desc.layout = pass->upsample_layout_.get();
    desc.color_formats = {targets.formats.color};
    // The layer is premultiplied colour with its coverage: "over".
    desc.blends = {vk::BlendState::premultiplied};
    desc.depth_format = VK_FORMAT_UNDEFINED;
    desc.depth_test = false;
    desc.depth_write = false;
    pass->upsample_ =
        vk::createGraphicsPipeline(d, desc, "the half-resolution upsample pipeline", diagnostics);
    if (!pass->upsample_) return nullptr;

    pass->pool_ = vk::createDescriptorPool(d, 2, 0, 4, diagnostics);
    if (!pass->pool_) return nullptr;
    pass->downsample_set_ = vk::allocateDescriptorSet(
        d, pass->pool_.get(), pass->downsample_set_layout_.get(), diagnostics);
    pass->upsample_set_ = vk::allocateDescriptorSet(d, pass->pool_.get(),
                                                    pass->upsample_set_layout_.get(), diagnostics);
    if (pass->downsample_set_ == VK_NULL_HANDLE || pass->upsample_set_ == VK_NULL_HANDLE) {
        return nullptr;
    }
    const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    const VkSampler sampler = pass->sampler_.get();
    for (const VkDescriptorSet set : {pass->downsample_set_, pass->upsample_set_}) {
        vk::writeCombinedImageSampler(d, set, kBindingHalfResFullDepth,
                                      targets.linear_depth.view.get(), sampler, read);
    }
    vk::writeCombinedImageSampler(d, pass->upsample_set_, kBindingHalfResColor,
                                  pass->color_.view.get(), sampler, read);
    vk::writeCombinedImageSampler(d, pass->upsample_set_, kBindingHalfResDepth,
                                  pass->linear_depth_.view.get(), sampler, read);
    return pass;
}

void HalfResPass::recordDownsample(VkCommandBuffer cmd, float near_m, float far_m) const {
    // Last frame's contents are discarded; their last readers were last frame's
    // particle scope (the soft fade) and upsample.
    vk::ImageBarrier color{color_.get(),
                           VK_IMAGE_ASPECT_COLOR_BIT,
                           VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                           VK_ACCESS_2_NONE,
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                           VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                               VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    vk::ImageBarrier linear = color;
    linear.image = linear_depth_.get();
    vk::imageBarriers(cmd, {color, linear, vk::depthAttachmentDiscarded(depth_.get())});

    // Both cleared to "no surface": a texel of the background fails the depth
    // test (1 is not less than 1) and keeps them; every other texel is written by
    // the full-screen triangle.
    VkRenderingAttachmentInfo depth_attachment =
        attachment(depth_, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR);
    depth_attachment.clearValue.depthStencil = {1.0f, 0};
    VkRenderingAttachmentInfo linear_attachment = attachment(
        linear_depth_, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR);
    linear_attachment.clearValue.color = {{kSceneDepthCleared, 0.0f, 0.0f, 0.0f}};
    vk::beginRendering(cmd, color_.extent, {linear_attachment}, &depth_attachment);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, downsample_.get());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, downsample_layout_.get(),
                            kSetHalfRes, 1, &downsample_set_, 0, nullptr);
    HalfResPushConstants push{};
    push.planes = vec4(near_m, far_m, 0.0f, 0.0f);
    push.size = uvec4(full_width_, full_height_, color_.extent.width, color_.extent.height);
    vkCmdPushConstants(cmd, downsample_layout_.get(), VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push),
                       &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);

    const vk::ImageBarrier depth_again{depth_.get(),
                                       VK_IMAGE_ASPECT_DEPTH_BIT,
                                       VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                       VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                       VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                           VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT};
    vk::imageBarriers(cmd, {colorToSampled(linear_depth_.get()), depth_again});
}

void HalfResPass::beginParticles(VkCommandBuffer cmd) const {
    VkRenderingAttachmentInfo layer =
        attachment(color_, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR);
    layer.clearValue.color = {{0.0f, 0.0f, 0.0f, 0.0f}};
    VkRenderingAttachmentInfo depth =
        attachment(depth_, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_LOAD);
    depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE; // not read again
    vk::beginRendering(cmd, color_.extent, {layer}, &depth);
    // Half the frame's size exactly: the frame's projection maps onto the layer
    // with one texel per 2 x 2 block; an odd side's last column (row) of texels
    // is half outside the viewport.
    VkViewport viewport{};
    viewport.width = 0.5f * static_cast<float>(full_width_);
    viewport.height = 0.5f * static_cast<float>(full_height_);
    viewport.maxDepth = 1.0f;
    vkCmdSetViewport(cmd, 0, 1, &viewport);
}

void HalfResPass::composite(VkCommandBuffer cmd, const FrameTargets& targets) const {
    vk::imageBarriers(cmd, {colorToSampled(color_.get()), colorAttachmentAgain(targets)});
    VkRenderingAttachmentInfo frame{};
    frame.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    frame.imageView = targets.color.view;
    frame.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    frame.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    frame.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, targets.extent(), {frame}, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, upsample_.get());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, upsample_layout_.get(),
                            kSetHalfRes, 1, &upsample_set_, 0, nullptr);
    HalfResPushConstants push{};
    push.size = uvec4(full_width_, full_height_, color_.extent.width, color_.extent.height);
    vkCmdPushConstants(cmd, upsample_layout_.get(), VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push),
                       &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
}

} // namespace spindrift::render
