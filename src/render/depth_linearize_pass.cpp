#include "render/depth_linearize_pass.h"

#include "render/shader/depth_linearize.h"
#include "render/shader_code.h"
#include "vulkan/commands.h"
#include "vulkan/descriptors.h"
#include "vulkan/image.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

std::unique_ptr<DepthLinearizePass>
DepthLinearizePass::create(const vk::Device& device, uint32_t slots,
                           std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<DepthLinearizePass> pass(new DepthLinearizePass(device));
    VkDevice d = device.handle();
    // Read with texelFetch at the fragment's own pixel: no filtering.
    pass->sampler_ = vk::createSampler(device, vk::Filter::nearest, diagnostics);
    if (!pass->sampler_) return nullptr;
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kOitCompositeVert),
                                           shaders::kOitCompositeVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kDepthLinearizeFrag),
                                             shaders::kDepthLinearizeFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;

    VkDescriptorSetLayoutBinding binding{};
    binding.binding = kBindingHostDepth;
    binding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.descriptorCount = 1;
    binding.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    pass->set_layout_ =
        vk::createDescriptorSetLayout(d, {binding}, "the depth linearise set layout", diagnostics);
    if (!pass->set_layout_) return nullptr;
    static_assert(kSetDepthLinearize == 0);
    pass->layout_ = vk::createPipelineLayout(
        d, {pass->set_layout_.get()}, sizeof(DepthLinearizePushConstants),
        "the depth linearise pipeline layout", diagnostics, VK_SHADER_STAGE_FRAGMENT_BIT);
    if (!pass->layout_) return nullptr;

    vk::GraphicsPipelineDesc desc;
    desc.vertex = pass->vertex_.get();
    desc.fragment = pass->fragment_.get();
    desc.layout = pass->layout_.get();
    desc.color_formats = {kLinearDepthFormat};
    desc.blends = {vk::BlendState::none};
    desc.depth_test = false;
    desc.depth_write = false;
    pass->pipeline_ =
        vk::createGraphicsPipeline(d, desc, "the depth linearise pipeline", diagnostics);
    if (!pass->pipeline_) return nullptr;

    pass->pool_ = vk::createDescriptorPool(d, slots, 0, slots, diagnostics);
    if (!pass->pool_) return nullptr;
    for (uint32_t slot = 0; slot < slots; ++slot) {
        const VkDescriptorSet set =
            vk::allocateDescriptorSet(d, pass->pool_.get(), pass->set_layout_.get(), diagnostics);
        if (set == VK_NULL_HANDLE) return nullptr;
        pass->sets_.push_back(set);
    }
    return pass;
}

void DepthLinearizePass::setHostDepth(uint32_t slot, VkImageView host_depth) const {
    vk::writeCombinedImageSampler(device_.handle(), sets_[slot], kBindingHostDepth, host_depth,
                                  sampler_.get(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

void DepthLinearizePass::record(VkCommandBuffer cmd, uint32_t slot, const FrameTargets& targets,
                                float near_m, float far_m) const {
    VkRenderingAttachmentInfo linear{};
    linear.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    linear.imageView = targets.linear_depth.view.get();
    linear.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    // Every pixel is written by the full-screen triangle.
    linear.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    linear.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, targets.extent(), {linear}, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), kSetDepthLinearize,
                            1, &sets_[slot], 0, nullptr);
    DepthLinearizePushConstants push{};
    push.planes = vec4(near_m, far_m, 0.0f, 0.0f);
    vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push), &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
}

} // namespace spindrift::render
