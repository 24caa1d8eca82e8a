#include "render/billboard_pass.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "kernels/billboard.h"
#include "kernels/frame_globals.h"
#include "render/shader_code.h"
#include "vulkan/commands.h"
#include "vulkan/descriptors.h"
#include "vulkan/image.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

// The smallest draw buffer, in records: small frames never reallocate.
constexpr uint64_t kMinDrawBufferRecords = 4096;

vk::BlendState blendState(uint32_t blend) {
    switch (blend) {
    case kBlendPremultiplied:
        return vk::BlendState::premultiplied;
    case kBlendAlpha:
        return vk::BlendState::alpha;
    default:
        return vk::BlendState::additive;
    }
}

// The values of the kSpecBillboard* constants for a batch, in id order.
std::array<uint32_t, kSpecBillboardCount> variantOf(const BillboardBatch& batch) {
    const BillboardParams& p = batch.params;
    uint32_t textured = batch.texture == kNoTexture ? 0u : 1u;
    std::array<uint32_t, kSpecBillboardCount> v{};
    v[kSpecBillboardBlend] = p.blend;
    v[kSpecBillboardAlignment] = p.alignment;
    v[kSpecBillboardTextured] = textured;
    v[kSpecBillboardLit] = (p.render_flags & kRenderFlagLit) != 0 ? 1u : 0u;
    v[kSpecBillboardSoftFade] = p.soft_fade_distance > 0.0f ? 1u : 0u;
    v[kSpecBillboardFrameBlend] =
        textured & ((p.render_flags & kRenderFlagFrameBlend) != 0 ? 1u : 0u);
    return v;
}

// One number per variant: 2 bits of blend, 2 of alignment, one per feature.
uint32_t variantKey(const std::array<uint32_t, kSpecBillboardCount>& v) {
    return v[kSpecBillboardBlend] | v[kSpecBillboardAlignment] << 2 |
           v[kSpecBillboardTextured] << 4 | v[kSpecBillboardLit] << 5 |
           v[kSpecBillboardSoftFade] << 6 | v[kSpecBillboardFrameBlend] << 7;
}

} // namespace

std::unique_ptr<BillboardPass> BillboardPass::create(const vk::Device& device,
                                                     const FrameTargets& targets,
                                                     const TextureStore& textures,
                                                     std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<BillboardPass> pass(new BillboardPass(device));
    VkDevice d = device.handle();
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kBillboardVert),
                                           shaders::kBillboardVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kBillboardFrag),
                                             shaders::kBillboardFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;
    // Linear depth is read with texelFetch at the fragment's own pixel: no filtering.
    pass->depth_sampler_ = vk::createSampler(device, vk::Filter::nearest, diagnostics);
    if (!pass->depth_sampler_) return nullptr;

    VkDescriptorSetLayoutBinding bindings[2]{};
    bindings[0].binding = kBindingFrameGlobals;
    bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    bindings[0].descriptorCount = 1;
    bindings[0].stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    bindings[1].binding = kBindingSceneDepth;
    bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    bindings[1].descriptorCount = 1;
    bindings[1].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    pass->set_layout_ = vk::createDescriptorSetLayout(
        d, {bindings[0], bindings[1]}, "the billboard frame set layout", diagnostics);
    if (!pass->set_layout_) return nullptr;
    // Set numbers are kSetFrame (0) and kSetTexture (1), in that order.
    static_assert(kSetFrame == 0 && kSetTexture == 1);
    pass->layout_ = vk::createPipelineLayout(d, {pass->set_layout_.get(), textures.layout()},
                                             sizeof(BillboardPushConstants),
                                             "the billboard pipeline layout", diagnostics);
    if (!pass->layout_) return nullptr;

    pass->pool_ = vk::createDescriptorPool(d, 1, 1, 1, diagnostics);
    if (!pass->pool_) return nullptr;
    pass->set_ =
        vk::allocateDescriptorSet(d, pass->pool_.get(), pass->set_layout_.get(), diagnostics);
    if (pass->set_ == VK_NULL_HANDLE) return nullptr;
    vk::writeUniformBuffer(d, pass->set_, kBindingFrameGlobals, targets.globals.get(),
                           sizeof(FrameGlobals));
    vk::writeCombinedImageSampler(d, pass->set_, kBindingSceneDepth,
                                  targets.linear_depth.view.get(), pass->depth_sampler_.get(),
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    return pass;
}

bool BillboardPass::preparePipelines(std::span<const BillboardBatch> batches,
                                     std::vector<Diagnostic>& diagnostics) {
    for (const BillboardBatch& batch : batches) {
        if (batch.records.empty()) continue;
        std::array<uint32_t, kSpecBillboardCount> values = variantOf(batch);
        uint32_t key = variantKey(values);
        if (pipelines_.count(key) != 0) continue;

        std::array<VkSpecializationMapEntry, kSpecBillboardCount> entries{};
        for (uint32_t id = 0; id < kSpecBillboardCount; ++id) {
            entries[id] = {id, id * 4u, 4u};
        }
        VkSpecializationInfo specialization{};
        specialization.mapEntryCount = kSpecBillboardCount;
        specialization.pMapEntries = entries.data();
        specialization.dataSize = sizeof(values);
        specialization.pData = values.data();

        vk::GraphicsPipelineDesc desc;
        desc.vertex = vertex_.get();
        desc.fragment = fragment_.get();
        desc.layout = layout_.get();
        desc.color_formats = {kColorFormat};
        desc.blends = {blendState(values[kSpecBillboardBlend])};
        desc.depth_format = kDepthFormat;
        desc.depth_test = true;
        desc.depth_write = false;
        desc.specialization = &specialization;
        std::string what = "the billboard pipeline variant " + std::to_string(key);
        vk::OwnedPipeline pipeline =
            vk::createGraphicsPipeline(device_.handle(), desc, what, diagnostics);
        if (!pipeline) return false;
        pipelines_.emplace(key, std::move(pipeline));
    }
    return true;
}

bool BillboardPass::upload(std::span<const BillboardBatch> batches, uint64_t total_records,
                           std::vector<Diagnostic>& diagnostics) {
    if (total_records > capacity_records_) {
        uint64_t grown = std::max({total_records, capacity_records_ * 2, kMinDrawBufferRecords});
        grown = std::min(grown, kMaxDrawRecords);
        records_ = {};
        capacity_records_ = 0;
        records_ = vk::createBuffer(
            device_, grown * sizeof(DrawRecord),
            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
            vk::MemoryUse::upload, "the draw-record buffer (" + std::to_string(grown) + " records)",
            diagnostics);
        if (!records_) return false;
        capacity_records_ = grown;
    }
    auto* out = static_cast<DrawRecord*>(records_.mapped);
    uint64_t offset = 0;
    for (const BillboardBatch& batch : batches) {
        if (batch.records.empty()) continue;
        std::memcpy(out + offset, batch.records.data(), batch.records.size_bytes());
        offset += batch.records.size();
    }
    return true;
}

void BillboardPass::record(VkCommandBuffer cmd, const FrameTargets& targets,
                           const TextureStore& textures,
                           std::span<const BillboardBatch> batches) const {
    std::vector<VkRenderingAttachmentInfo> color(1);
    color[0].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    color[0].imageView = targets.color.view.get();
    color[0].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color[0].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    color[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingAttachmentInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    depth.imageView = targets.depth.view.get();
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;

    vk::beginRendering(cmd, targets.color.extent, color, &depth);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), kSetFrame, 1,
                            &set_, 0, nullptr);
    uint64_t first = 0;
    uint32_t bound = ~0u;
    for (const BillboardBatch& batch : batches) {
        uint64_t count = batch.records.size();
        if (count == 0) continue;
        uint32_t key = variantKey(variantOf(batch));
        if (key != bound) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines_.at(key).get());
            bound = key;
        }
        VkDescriptorSet texture_set = textures.set(batch.texture);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), kSetTexture, 1,
                                &texture_set, 0, nullptr);

        BillboardPushConstants push{};
        push.params = batch.params;
        push.params.textured = batch.texture == kNoTexture ? 0u : 1u;
        VkDeviceAddress address = records_.address + first * sizeof(DrawRecord);
        push.records = uvec4(static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32),
                             static_cast<uint32_t>(count), 0u);
        vkCmdPushConstants(cmd, layout_.get(),
                           VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(push), &push);
        vkCmdDraw(cmd, static_cast<uint32_t>(count * kBillboardVerticesPerQuad), 1, 0, 0);
        first += count;
    }
    vkCmdEndRendering(cmd);
}

} // namespace spindrift::render
