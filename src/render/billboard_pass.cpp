#include "render/billboard_pass.h"

#include <array>
#include <cstring>
#include <string>

#include "kernels/billboard.h"
#include "render/shader_code.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

// The smallest draw buffer, in records: small frames never reallocate.
constexpr uint64_t kMinDrawBufferRecords = 4096;

// The values of the kSpecBillboard* constants for a batch, in id order.
std::array<uint32_t, kSpecBillboardCount> variantOf(const BillboardBatch& batch,
                                                    Transparency transparency) {
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
    v[kSpecBillboardOit] = drawsThroughOit(transparency, p.blend) ? 1u : 0u;
    return v;
}

// One number per variant: 2 bits of blend, 2 of alignment, one per feature and output.
uint32_t variantKey(const std::array<uint32_t, kSpecBillboardCount>& v) {
    return v[kSpecBillboardBlend] | v[kSpecBillboardAlignment] << 2 |
           v[kSpecBillboardTextured] << 4 | v[kSpecBillboardLit] << 5 |
           v[kSpecBillboardSoftFade] << 6 | v[kSpecBillboardFrameBlend] << 7 |
           v[kSpecBillboardOit] << 8;
}

} // namespace

std::unique_ptr<BillboardPass> BillboardPass::create(const vk::Device& device,
                                                     const ParticleBindings& bindings,
                                                     std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<BillboardPass> pass(new BillboardPass(device, bindings));
    VkDevice d = device.handle();
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kBillboardVert),
                                           shaders::kBillboardVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kBillboardFrag),
                                             shaders::kBillboardFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;
    return pass;
}

bool BillboardPass::preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                                     std::vector<Diagnostic>& diagnostics) {
    for (const DrawBatch& entry : batches) {
        const BillboardBatch* batch = std::get_if<BillboardBatch>(&entry);
        if (batch == nullptr || (batch->records.empty() && batch->device.records == 0)) continue;
        const std::array<uint32_t, kSpecBillboardCount> values = variantOf(*batch, transparency);
        if (!bindings_.ensureVariant(pipelines_, variantKey(values), vertex_.get(), fragment_.get(),
                                     values, kSpecBillboardBlend, kSpecBillboardOit, "billboard",
                                     diagnostics)) {
            return false;
        }
    }
    return true;
}

bool BillboardPass::upload(std::span<const DrawBatch> batches, uint64_t total_records,
                           std::vector<Diagnostic>& diagnostics) {
    if (!reserveDrawBuffer(device_, records_, total_records, sizeof(DrawRecord),
                           kMinDrawBufferRecords, kMaxDrawRecords, "the draw-record buffer",
                           diagnostics)) {
        return false;
    }
    auto* out = static_cast<DrawRecord*>(records_.buffer.mapped);
    uint64_t offset = 0;
    for (const DrawBatch& entry : batches) {
        const std::span<const DrawRecord> records = hostRecords(entry);
        if (records.empty()) continue;
        std::memcpy(out + offset, records.data(), records.size_bytes());
        offset += records.size();
    }
    return true;
}

void BillboardPass::draw(VkCommandBuffer cmd, const TextureStore& textures,
                         const BillboardBatch& batch, Transparency transparency,
                         uint64_t first_record, VkBuffer indirect, VkDeviceSize indirect_offset,
                         VkPipeline& bound) const {
    const uint64_t count = batch.records.size();
    VkPipeline pipeline = pipelines_.at(variantKey(variantOf(batch, transparency))).get();
    if (pipeline != bound) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        bound = pipeline;
    }
    bindings_.bindTexture(cmd, textures.set(batch.texture));

    BillboardPushConstants push{};
    push.params = batch.params;
    push.params.textured = batch.texture == kNoTexture ? 0u : 1u;
    auto split = [](uint64_t a) {
        return uvec2(static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32));
    };
    if (batch.device.records != 0) {
        push.records = uvec4(split(batch.device.records), batch.device.chunk_records,
                             batch.device.first_in_chunk);
        push.order = uvec4(split(batch.device.order), 0u, 0u);
        bindings_.push(cmd, &push, sizeof(push));
        vkCmdDrawIndirect(cmd, indirect, indirect_offset, 1, sizeof(VkDrawIndirectCommand));
        return;
    }
    const VkDeviceAddress address = recordsAddress(first_record);
    push.records = uvec4(split(address), 0u, 0u);
    bindings_.push(cmd, &push, sizeof(push));
    vkCmdDraw(cmd, static_cast<uint32_t>(count * kBillboardVerticesPerQuad), 1, 0, 0);
}

} // namespace spindrift::render
