#include "render/billboard_pass.h"

#include <array>
#include <cstring>

#include "embedded_shaders.h"
#include "render/shader/billboard.h"

namespace spindrift::render {

namespace {

// The smallest draw buffer, in records: small frames never reallocate.
constexpr uint64_t kMinDrawBufferRecords = 4096;

static_assert(kSpecBillboardCount <= ParticlePass::kMaxValues);
static_assert(kBlendCount <= 4 && kAlignCount <= 4, "a variant key holds 2 bits a value");

// The values of the kSpecBillboard* constants for a batch, in id order.
std::array<uint32_t, kSpecBillboardCount> variantOf(const BillboardBatch& batch,
                                                    Transparency transparency) {
    const BillboardParams& p = batch.params;
    uint32_t textured = batch.texture == kNoTexture ? 0u : 1u;
    std::array<uint32_t, kSpecBillboardCount> v{};
    v[kSpecBillboardBlend] = p.blend;
    v[kSpecBillboardAlignment] = p.alignment;
    v[kSpecBillboardTextured] = textured;
    v[kSpecBillboardLit] = sdBillboardLitVariant(p.render_flags);
    v[kSpecBillboardSoftFade] = p.soft_fade_distance > 0.0f ? 1u : 0u;
    v[kSpecBillboardFrameBlend] =
        textured & ((p.render_flags & kRenderFlagFrameBlend) != 0 ? 1u : 0u);
    v[kSpecBillboardOit] = drawsThroughOit(transparency, p.blend) ? 1u : 0u;
    if (isDistortion(p)) {
        // No colour of its own: the displaced scene copy, blended over by its coverage; never
        // lit, never through OIT (the validator and checkBatches refuse the combinations).
        v[kSpecBillboardBlend] = kBlendAlpha;
        v[kSpecBillboardLit] = 0u;
        v[kSpecBillboardOit] = 0u;
        v[kSpecBillboardDistortion] = 1u;
    }
    return v;
}

// The motion-vector variant of a batch (billboard_motion.frag): its coverage's values (blend,
// alignment, texture, soft fade, frame blend), unlit, never through OIT.
std::array<uint32_t, kSpecBillboardCount> motionVariantOf(const BillboardBatch& batch) {
    std::array<uint32_t, kSpecBillboardCount> v = variantOf(batch, Transparency::sorted);
    v[kSpecBillboardLit] = 0u;
    v[kSpecBillboardOit] = 0u;
    v[kSpecBillboardDistortion] = 0u;
    v[kSpecBillboardMotion] = 1u;
    return v;
}

} // namespace

BillboardPass::BillboardPass(const vk::Device& device, const ParticleBindings& bindings)
    : device_(device), pass_(bindings, {&shaders::kBillboardVert, &shaders::kBillboardFrag,
                                        "billboard", kSpecBillboardBlend, kSpecBillboardOit}),
      distortion_(bindings, {&shaders::kBillboardVert, &shaders::kBillboardDistortionFrag,
                             "distortion billboard", kSpecBillboardBlend, kSpecBillboardOit}),
      lit_per_particle_(bindings,
                        {&shaders::kBillboardLitVert, &shaders::kBillboardFrag,
                         "billboard lit per particle", kSpecBillboardBlend, kSpecBillboardOit}),
      motion_(bindings, {&shaders::kBillboardVert, &shaders::kBillboardMotionFrag,
                         "billboard motion", kSpecBillboardBlend, kSpecBillboardOit, false, true}) {
}

ParticlePass BillboardPass::*BillboardPass::passOf(const BillboardBatch& batch) {
    if (isDistortion(batch.params)) return &BillboardPass::distortion_;
    return sdBillboardLitVariant(batch.params.render_flags) == kBillboardLitPerParticle
               ? &BillboardPass::lit_per_particle_
               : &BillboardPass::pass_;
}

std::unique_ptr<BillboardPass> BillboardPass::create(const vk::Device& device,
                                                     const ParticleBindings& bindings,
                                                     std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<BillboardPass> pass(new BillboardPass(device, bindings));
    if (!pass->pass_.createStages(device, diagnostics)) return nullptr;
    if (!pass->distortion_.createStages(device, diagnostics)) return nullptr;
    if (!pass->lit_per_particle_.createStages(device, diagnostics)) return nullptr;
    if (!pass->motion_.createStages(device, diagnostics)) return nullptr;
    return pass;
}

bool BillboardPass::preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                                     std::vector<Diagnostic>& diagnostics, bool half_res) {
    for (const DrawBatch& entry : batches) {
        const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
        if (b == nullptr || !drawsAnything(*b)) continue;
        if (half_res &&
            (isDistortion(b->params) || drawsThroughOit(transparency, b->params.blend))) {
            continue;
        }
        ParticlePass& pass = this->*passOf(*b);
        if (!pass.ensure(variantOf(*b, transparency), diagnostics, half_res)) return false;
    }
    return true;
}

bool BillboardPass::prepareMotionPipelines(std::span<const DrawBatch> batches,
                                           const MotionVectorsDesc& motion,
                                           std::vector<Diagnostic>& diagnostics) {
    for (const DrawBatch& entry : batches) {
        const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
        if (b == nullptr || !drawsAnything(*b) || !writesMotion(b->params, motion)) continue;
        if (!motion_.ensure(motionVariantOf(*b), diagnostics)) return false;
    }
    return true;
}

void BillboardPass::drawMotion(VkCommandBuffer cmd, const TextureStore& textures,
                               const BillboardBatch& batch, const RecordSource& source,
                               VkPipeline& bound) const {
    drawWith(cmd, motion_, motionVariantOf(batch), textures, batch, source, bound);
}

bool BillboardPass::upload(uint32_t slot, std::span<const DrawBatch> batches,
                           uint64_t total_records, std::vector<Diagnostic>& diagnostics) {
    DrawBuffer& buffer = records_[slot];
    if (!reserveDrawBuffer(device_, buffer, total_records, sizeof(DrawRecord),
                           kMinDrawBufferRecords, kMaxDrawRecords, "the draw-record buffer",
                           diagnostics)) {
        return false;
    }
    auto* out = static_cast<DrawRecord*>(buffer.buffer.mapped);
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
                         const RecordSource& source, VkPipeline& bound, bool half_res) const {
    drawWith(cmd, this->*passOf(batch), variantOf(batch, transparency), textures, batch, source,
             bound, half_res);
}

void BillboardPass::drawWith(VkCommandBuffer cmd, const ParticlePass& pass,
                             std::span<const uint32_t> values, const TextureStore& textures,
                             const BillboardBatch& batch, const RecordSource& source,
                             VkPipeline& bound, bool half_res) {
    pass.bind(cmd, values, textures.set(batch.texture), bound, half_res);
    BillboardPushConstants push{};
    push.params = batch.params;
    push.params.textured = values[kSpecBillboardTextured];
    push.overrides = batch.overrides;
    pass.drawRecords(cmd, push, batch.device, source,
                     static_cast<uint32_t>(batch.records.size() * kBillboardVerticesPerQuad), 1);
}

} // namespace spindrift::render
