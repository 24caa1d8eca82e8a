#include "render/strip_pass.h"

#include <array>
#include <cstring>

#include "embedded_shaders.h"
#include "render/shader/strip_draw.h"

namespace spindrift::render {

namespace {

// The smallest buffers: small frames never reallocate.
constexpr uint64_t kMinStripBufferElements = 4096;

static_assert(kSpecStripCount <= ParticlePass::kMaxValues);
static_assert(kBlendCount <= 4, "a variant key holds 2 bits a value");

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

// The motion-vector variant of a batch (strip_motion.frag): its coverage's values (blend,
// texture, soft fade, blocks), unlit, never through OIT.
std::array<uint32_t, kSpecStripCount> motionVariantOf(const StripBatch& batch) {
    std::array<uint32_t, kSpecStripCount> v = variantOf(batch, Transparency::sorted);
    v[kSpecStripLit] = 0u;
    v[kSpecStripMotion] = 1u;
    return v;
}

uvec4 addressCount(VkDeviceAddress address, uint64_t count) {
    return uvec4(splitAddress(address), static_cast<uint32_t>(count), 0u);
}

} // namespace

StripPass::StripPass(const vk::Device& device, const ParticleBindings& bindings)
    : device_(device), pass_(bindings, {&shaders::kStripVert, &shaders::kStripFrag, "strip",
                                        kSpecStripBlend, kSpecStripOit}),
      motion_(bindings, {&shaders::kStripVert, &shaders::kStripMotionFrag, "strip motion",
                         kSpecStripBlend, kSpecStripOit, false, true}) {}

std::unique_ptr<StripPass> StripPass::create(const vk::Device& device,
                                             const ParticleBindings& bindings,
                                             std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<StripPass> pass(new StripPass(device, bindings));
    if (!pass->pass_.createStages(device, diagnostics)) return nullptr;
    if (!pass->motion_.createStages(device, diagnostics)) return nullptr;
    return pass;
}

bool StripPass::prepareMotionPipelines(std::span<const DrawBatch> batches,
                                       const MotionVectorsDesc& motion,
                                       std::vector<Diagnostic>& diagnostics) {
    for (const DrawBatch& entry : batches) {
        const StripBatch* b = std::get_if<StripBatch>(&entry);
        if (b == nullptr || !drawsAnything(*b) || !writesMotion(b->params, motion)) continue;
        if (!motion_.ensure(motionVariantOf(*b), diagnostics)) return false;
    }
    return true;
}

bool StripPass::preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                                 std::vector<Diagnostic>& diagnostics, bool half_res) {
    if (!half_res) {
        return pass_.ensureFor<StripBatch>(
            batches, [&](const StripBatch& b) { return variantOf(b, transparency); }, diagnostics);
    }
    for (const DrawBatch& entry : batches) {
        const StripBatch* b = std::get_if<StripBatch>(&entry);
        if (b == nullptr || !drawsAnything(*b) || drawsThroughOit(transparency, b->params.blend)) {
            continue;
        }
        if (!pass_.ensure(variantOf(*b, transparency), diagnostics, true)) return false;
    }
    return true;
}

bool StripPass::upload(uint32_t slot, std::span<const DrawBatch> batches, uint64_t total_points,
                       uint64_t total_segments, bool velocities,
                       std::vector<Diagnostic>& diagnostics) {
    if (!reserveDrawBuffer(device_, points_[slot], total_points, sizeof(StripPoint),
                           kMinStripBufferElements, kMaxStripPoints, "the strip-point buffer",
                           diagnostics) ||
        !reserveDrawBuffer(device_, segments_[slot], total_segments, sizeof(uint32_t),
                           kMinStripBufferElements, kMaxStripSegments, "the strip-segment buffer",
                           diagnostics) ||
        (velocities && !reserveDrawBuffer(device_, velocities_[slot], total_points, sizeof(vec4),
                                          kMinStripBufferElements, kMaxStripPoints,
                                          "the strip-velocity buffer", diagnostics))) {
        return false;
    }
    auto* points = static_cast<StripPoint*>(points_[slot].buffer.mapped);
    auto* segments = static_cast<uint32_t*>(segments_[slot].buffer.mapped);
    auto* point_velocities =
        velocities ? static_cast<vec4*>(velocities_[slot].buffer.mapped) : nullptr;
    uint64_t point_offset = 0;
    uint64_t segment_offset = 0;
    for (const DrawBatch& entry : batches) {
        const StripBatch* batch = std::get_if<StripBatch>(&entry);
        if (batch == nullptr || batch->segments.empty()) continue;
        std::memcpy(points + point_offset, batch->points.data(), batch->points.size_bytes());
        std::memcpy(segments + segment_offset, batch->segments.data(),
                    batch->segments.size_bytes());
        if (point_velocities != nullptr && !batch->velocities.empty()) {
            std::memcpy(point_velocities + point_offset, batch->velocities.data(),
                        batch->velocities.size_bytes());
        }
        point_offset += batch->points.size();
        segment_offset += batch->segments.size();
    }
    return true;
}

// Binds the variant of `values` of `pass` (unless bound already) and the batch's texture; the
// push constants with the batch's parameters.
StripPushConstants StripPass::bindBatch(VkCommandBuffer cmd, const ParticlePass& pass,
                                        std::span<const uint32_t> values,
                                        const TextureStore& textures, const StripBatch& batch,
                                        VkPipeline& bound, bool half_res) const {
    pass.bind(cmd, values, textures.set(batch.texture), bound, half_res);
    StripPushConstants push{};
    push.params = batch.params;
    push.params.textured = values[kSpecStripTextured];
    push.overrides = batch.overrides;
    return push;
}

void StripPass::setSource(StripPushConstants& push, uint32_t slot, const StripBatch& batch,
                          const StripSource& source) const {
    if (source.device) {
        push.points = uvec4(splitAddress(batch.device.points), 0u, batch.device.points_per_strip);
        push.segments = uvec4(splitAddress(batch.device.point_counts), 0u, 0u);
        return;
    }
    push.points =
        addressCount(points_[slot].buffer.address + source.first_point * sizeof(StripPoint),
                     batch.points.size());
    push.segments =
        addressCount(segments_[slot].buffer.address + source.first_segment * sizeof(uint32_t),
                     batch.segments.size());
}

namespace {

uint32_t hostVertices(const StripBatch& batch) {
    return static_cast<uint32_t>(batch.segments.size() * kStripVerticesPerSegment);
}

} // namespace

void StripPass::draw(VkCommandBuffer cmd, const TextureStore& textures, const StripBatch& batch,
                     Transparency transparency, uint32_t slot, const StripSource& source,
                     VkPipeline& bound, bool half_res) const {
    StripPushConstants push =
        bindBatch(cmd, pass_, variantOf(batch, transparency), textures, batch, bound, half_res);
    setSource(push, slot, batch, source);
    if (source.device) {
        pass_.drawIndirect(cmd, push, source.indirect);
        return;
    }
    pass_.drawDirect(cmd, push, hostVertices(batch), 1);
}

void StripPass::drawMotion(VkCommandBuffer cmd, const TextureStore& textures,
                           const StripBatch& batch, uint32_t slot, const StripSource& source,
                           VkPipeline& bound) const {
    StripPushConstants push =
        bindBatch(cmd, motion_, motionVariantOf(batch), textures, batch, bound, false);
    setSource(push, slot, batch, source);
    if (source.device) {
        // Polyline i's velocity is its particle's draw record i (DeviceStrips::records).
        push.velocities = uvec4(splitAddress(batch.device.records), batch.device.chunk_records,
                                batch.device.first_in_chunk);
        motion_.drawIndirect(cmd, push, source.indirect);
        return;
    }
    if (!batch.velocities.empty()) {
        push.velocities = uvec4(
            splitAddress(velocities_[slot].buffer.address + source.first_point * sizeof(vec4)), 0u,
            0u);
    }
    motion_.drawDirect(cmd, push, hostVertices(batch), 1);
}

} // namespace spindrift::render
