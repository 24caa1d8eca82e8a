#include "render/strip_pass.h"

#include <array>
#include <cstring>
#include <string>

#include "kernels/strip.h"
#include "render/shader_code.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

// The smallest buffers: small frames never reallocate.
constexpr uint64_t kMinStripBufferElements = 4096;

// The values of the kSpecStrip* constants for a batch, in id order.
std::array<uint32_t, kSpecStripCount> variantOf(const StripBatch& batch,
                                                Transparency transparency) {
    const StripParams& p = batch.params;
    std::array<uint32_t, kSpecStripCount> v{};
    v[kSpecStripBlend] = p.blend;
    v[kSpecStripTextured] = batch.texture == kNoTexture ? 0u : 1u;
    v[kSpecStripLit] = (p.render_flags & kRenderFlagLit) != 0 ? 1u : 0u;
    v[kSpecStripSoftFade] = p.soft_fade_distance > 0.0f ? 1u : 0u;
    v[kSpecStripOit] = drawsThroughOit(transparency, p.blend) ? 1u : 0u;
    v[kSpecStripBlocks] = batch.device.points != 0 ? 1u : 0u;
    return v;
}

// One number per variant: 2 bits of blend, one per feature, output and source.
uint32_t variantKey(const std::array<uint32_t, kSpecStripCount>& v) {
    return v[kSpecStripBlend] | v[kSpecStripTextured] << 2 | v[kSpecStripLit] << 3 |
           v[kSpecStripSoftFade] << 4 | v[kSpecStripOit] << 5 | v[kSpecStripBlocks] << 6;
}

uvec2 split(VkDeviceAddress address) {
    return uvec2(static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32));
}

uvec4 addressCount(VkDeviceAddress address, uint64_t count) {
    return uvec4(static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32),
                 static_cast<uint32_t>(count), 0u);
}

} // namespace

std::unique_ptr<StripPass> StripPass::create(const vk::Device& device,
                                             const ParticleBindings& bindings,
                                             std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<StripPass> pass(new StripPass(device, bindings));
    VkDevice d = device.handle();
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kStripVert),
                                           shaders::kStripVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kStripFrag),
                                             shaders::kStripFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;
    return pass;
}

bool StripPass::preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                                 std::vector<Diagnostic>& diagnostics) {
    for (const DrawBatch& entry : batches) {
        const StripBatch* batch = std::get_if<StripBatch>(&entry);
        if (batch == nullptr || (batch->segments.empty() && batch->device.points == 0)) continue;
        const std::array<uint32_t, kSpecStripCount> values = variantOf(*batch, transparency);
        if (!bindings_.ensureVariant(pipelines_, variantKey(values), vertex_.get(), fragment_.get(),
                                     values, kSpecStripBlend, kSpecStripOit, "strip",
                                     diagnostics)) {
            return false;
        }
    }
    return true;
}

bool StripPass::upload(std::span<const DrawBatch> batches, uint64_t total_points,
                       uint64_t total_segments, std::vector<Diagnostic>& diagnostics) {
    if (!reserveDrawBuffer(device_, points_, total_points, sizeof(StripPoint),
                           kMinStripBufferElements, kMaxStripPoints, "the strip-point buffer",
                           diagnostics) ||
        !reserveDrawBuffer(device_, segments_, total_segments, sizeof(uint32_t),
                           kMinStripBufferElements, kMaxStripSegments, "the strip-segment buffer",
                           diagnostics)) {
        return false;
    }
    auto* points = static_cast<StripPoint*>(points_.buffer.mapped);
    auto* segments = static_cast<uint32_t*>(segments_.buffer.mapped);
    uint64_t point_offset = 0;
    uint64_t segment_offset = 0;
    for (const DrawBatch& entry : batches) {
        const StripBatch* batch = std::get_if<StripBatch>(&entry);
        if (batch == nullptr || batch->segments.empty()) continue;
        std::memcpy(points + point_offset, batch->points.data(), batch->points.size_bytes());
        std::memcpy(segments + segment_offset, batch->segments.data(),
                    batch->segments.size_bytes());
        point_offset += batch->points.size();
        segment_offset += batch->segments.size();
    }
    return true;
}

// Binds the batch's pipeline variant (unless bound already) and texture; the push constants with
// the batch's parameters.
StripPushConstants StripPass::bindBatch(VkCommandBuffer cmd, const TextureStore& textures,
                                        const StripBatch& batch, Transparency transparency,
                                        VkPipeline& bound) const {
    VkPipeline pipeline = pipelines_.at(variantKey(variantOf(batch, transparency))).get();
    if (pipeline != bound) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        bound = pipeline;
    }
    bindings_.bindTexture(cmd, textures.set(batch.texture));
    StripPushConstants push{};
    push.params = batch.params;
    push.params.textured = batch.texture == kNoTexture ? 0u : 1u;
    return push;
}

void StripPass::drawDevice(VkCommandBuffer cmd, const TextureStore& textures,
                           const StripBatch& batch, Transparency transparency, VkBuffer args,
                           VkDeviceSize args_offset, VkPipeline& bound) const {
    StripPushConstants push = bindBatch(cmd, textures, batch, transparency, bound);
    const uvec2 points = split(batch.device.points);
    const uvec2 counts = split(batch.device.point_counts);
    push.points = uvec4(points.x, points.y, 0u, batch.device.points_per_strip);
    push.segments = uvec4(counts.x, counts.y, 0u, 0u);
    bindings_.push(cmd, &push, sizeof(push));
    vkCmdDrawIndirect(cmd, args, args_offset, 1, sizeof(VkDrawIndirectCommand));
}

void StripPass::draw(VkCommandBuffer cmd, const TextureStore& textures, const StripBatch& batch,
                     Transparency transparency, uint64_t first_point, uint64_t first_segment,
                     VkPipeline& bound) const {
    StripPushConstants push = bindBatch(cmd, textures, batch, transparency, bound);
    push.points = addressCount(points_.buffer.address + first_point * sizeof(StripPoint),
                               batch.points.size());
    push.segments = addressCount(segments_.buffer.address + first_segment * sizeof(uint32_t),
                                 batch.segments.size());
    bindings_.push(cmd, &push, sizeof(push));
    vkCmdDraw(cmd, static_cast<uint32_t>(batch.segments.size() * kStripVerticesPerSegment), 1, 0,
              0);
}

} // namespace spindrift::render
