#include "render/particle_bindings.h"

#include "kernels/effect_records.h"
#include "render/shader/frame_globals.h"
#include "vulkan/descriptors.h"
#include "vulkan/image.h"
#include "vulkan/pipeline.h"

namespace spindrift::render {

namespace {

vk::BlendState blendState(uint32_t blend) {
    switch (blend) {
    case kBlendPremultiplied:
        return vk::BlendState::premultiplied;
    case kBlendAlpha:
        return vk::BlendState::alpha;
    case kBlendOpaque:
        return vk::BlendState::none;
    default:
        return vk::BlendState::additive;
    }
}

// The blend state of a batch drawn into the half-resolution layer: as into the frame, but light
// (additive) keeps the layer's coverage as it is.
vk::BlendState halfResBlendState(uint32_t blend) {
    return blend == kBlendAdditive ? vk::BlendState::additive_keep_alpha : blendState(blend);
}

} // namespace

std::unique_ptr<ParticleBindings> ParticleBindings::create(const vk::Device& device,
                                                           const FrameTargets& targets,
                                                           const TextureStore& textures,
                                                           std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<ParticleBindings> b(new ParticleBindings(device));
    b->formats_ = targets.formats;
    VkDevice d = device.handle();
    // Linear depth is read with texelFetch at the fragment's own pixel: no filtering.
    b->depth_sampler_ = vk::createSampler(device, vk::Filter::nearest, diagnostics);
    if (!b->depth_sampler_) return nullptr;
    // The scene colour copy is read between pixels by distortion billboards: bilinear, clamped.
    b->color_sampler_ = vk::createSampler(device, vk::Filter::linear, diagnostics);
    if (!b->color_sampler_) return nullptr;

    VkDescriptorSetLayoutBinding bindings[2]{};
    bindings[0].binding = kBindingFrameGlobals;
    bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    bindings[0].descriptorCount = 1;
    bindings[0].stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    bindings[1].binding = kBindingSceneDepth;
    bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    bindings[1].descriptorCount = 1;
    bindings[1].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    std::vector<VkDescriptorSetLayoutBinding> set_bindings = {bindings[0], bindings[1]};
    // The vertex stage of billboards lit per particle reads the shadow maps (billboard_lit.vert).
    addShadowBindings(set_bindings, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);
    // Only the distortion pipelines read it. Until a frame draws one it holds the linear depth
    // (bindTargets): never read, but lavapipe reads every descriptor of a set as it is bound.
    VkDescriptorSetLayoutBinding scene_color = bindings[1];
    scene_color.binding = kBindingSceneColor;
    set_bindings.push_back(scene_color);
    b->set_layout_ = vk::createDescriptorSetLayout(d, set_bindings, "the particle frame set layout",
                                                   diagnostics);
    if (!b->set_layout_) return nullptr;
    // Set numbers are kSetFrame (0) and kSetTexture (1), in that order.
    static_assert(kSetFrame == 0 && kSetTexture == 1);
    b->layout_ = vk::createPipelineLayout(d, {b->set_layout_.get(), textures.layout()},
                                          kParticlePushConstantBytes,
                                          "the particle pipeline layout", diagnostics);
    if (!b->layout_) return nullptr;

    const auto slots = static_cast<uint32_t>(targets.globals.size());
    // Two sets a slot: the frame's and the half-resolution layer's, each with the scene depth,
    // the scene colour and the shadow maps.
    b->pool_ = vk::createDescriptorPool(d, 2 * slots, 2 * slots,
                                        2 * (2 + kShadowBindingCount) * slots, diagnostics);
    if (!b->pool_) return nullptr;
    for (std::vector<VkDescriptorSet>* sets : {&b->sets_, &b->half_sets_}) {
        for (uint32_t slot = 0; slot < slots; ++slot) {
            const VkDescriptorSet set =
                vk::allocateDescriptorSet(d, b->pool_.get(), b->set_layout_.get(), diagnostics);
            if (set == VK_NULL_HANDLE) return nullptr;
            sets->push_back(set);
        }
    }
    b->bindTargets(targets);
    return b;
}

void ParticleBindings::bindTargets(const FrameTargets& targets) const {
    VkDevice d = device_.handle();
    for (size_t slot = 0; slot < sets_.size(); ++slot) {
        for (const VkDescriptorSet set : {sets_[slot], half_sets_[slot]}) {
            const bool half = set == half_sets_[slot] && half_depth_ != VK_NULL_HANDLE;
            vk::writeUniformBuffer(d, set, kBindingFrameGlobals, targets.globals[slot].get(),
                                   sizeof(FrameGlobals));
            vk::writeCombinedImageSampler(
                d, set, kBindingSceneDepth, half ? half_depth_ : targets.linear_depth.view.get(),
                depth_sampler_.get(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            if (!scene_color_bound_) {
                vk::writeCombinedImageSampler(d, set, kBindingSceneColor,
                                              targets.linear_depth.view.get(), color_sampler_.get(),
                                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            }
        }
    }
}

void ParticleBindings::bindHalfResDepth(VkImageView half_depth) {
    half_depth_ = half_depth;
    for (const VkDescriptorSet set : half_sets_) {
        vk::writeCombinedImageSampler(device_.handle(), set, kBindingSceneDepth, half_depth,
                                      depth_sampler_.get(),
                                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }
}

void ParticleBindings::bindShadows(const ShadowMaps& maps) const {
    for (const VkDescriptorSet set : sets_) writeShadowBindings(device_.handle(), set, maps);
    for (const VkDescriptorSet set : half_sets_) writeShadowBindings(device_.handle(), set, maps);
}

void ParticleBindings::bindSceneColor(VkImageView view) {
    scene_color_bound_ = true;
    std::vector<VkDescriptorSet> all = sets_;
    all.insert(all.end(), half_sets_.begin(), half_sets_.end());
    for (const VkDescriptorSet set : all) {
        vk::writeCombinedImageSampler(device_.handle(), set, kBindingSceneColor, view,
                                      color_sampler_.get(),
                                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }
}

void ParticleBindings::bindFrame(VkCommandBuffer cmd, uint32_t slot, bool half_res) const {
    const VkDescriptorSet set = half_res ? half_sets_[slot] : sets_[slot];
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), kSetFrame, 1, &set,
                            0, nullptr);
}

void ParticleBindings::bindTexture(VkCommandBuffer cmd, VkDescriptorSet texture_set) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), kSetTexture, 1,
                            &texture_set, 0, nullptr);
}

void ParticleBindings::push(VkCommandBuffer cmd, const void* data, uint32_t bytes) const {
    vkCmdPushConstants(cmd, layout_.get(),
                       VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, bytes, data);
}

vk::OwnedPipeline ParticleBindings::createVariant(VkShaderModule vertex, VkShaderModule fragment,
                                                  std::span<const uint32_t> values, uint32_t blend,
                                                  ParticleOutput output, std::string_view what,
                                                  std::vector<Diagnostic>& diagnostics,
                                                  bool cull_back_faces) const {
    const vk::UintSpecialization specialization(values);

    vk::GraphicsPipelineDesc desc;
    desc.vertex = vertex;
    desc.fragment = fragment;
    desc.layout = layout_.get();
    if (output == ParticleOutput::oit) {
        // One blend state for both targets (render/shader/oit.h), so no independentBlend is needed.
        desc.color_formats = {kOitAccumulationFormat, kOitWeightFormat};
        desc.blends = {vk::BlendState::sum_color_product_alpha,
                       vk::BlendState::sum_color_product_alpha};
    } else if (output == ParticleOutput::motion) {
        desc.color_formats = {formats_.motion};
        desc.blends = {vk::BlendState::none};
    } else if (blend == kBlendOpaque) {
        // Opaque meshes draw in their own scope right after the opaque pass and write the linear
        // depth too, so soft particles fade against them as against the ground (renderer.cpp).
        desc.color_formats = {formats_.color, kLinearDepthFormat};
        desc.blends = {vk::BlendState::none, vk::BlendState::none};
    } else if (output == ParticleOutput::half_res) {
        desc.color_formats = {formats_.color};
        desc.blends = {halfResBlendState(blend)};
    } else {
        desc.color_formats = {formats_.color};
        desc.blends = {blendState(blend)};
    }
    desc.depth_format = formats_.depth;
    desc.depth_test = true;
    // Opaque meshes write depth, so they hide one another and every particle drawn after them
    // (the renderer draws them first); everything else only tests it.
    desc.depth_write = output == ParticleOutput::frame && blend == kBlendOpaque;
    // Motion draws: an opaque mesh's motion finds the depth its colour draw wrote (mesh.vert's
    // invariant position) where it is the visible surface.
    desc.depth_equal_passes = output == ParticleOutput::motion;
    desc.cull_back_faces = cull_back_faces;
    desc.specialization = &specialization.info;
    return vk::createGraphicsPipeline(device_.handle(), desc, what, diagnostics);
}

} // namespace spindrift::render
