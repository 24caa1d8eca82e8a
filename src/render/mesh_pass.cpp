#include "render/mesh_pass.h"

#include <array>

#include "embedded_shaders.h"

namespace spindrift::render {

namespace {

static_assert(kSpecMeshCount <= ParticlePass::kMaxValues);
static_assert(kBlendCount <= 4, "a variant key holds 2 bits a value");

// The values of the kSpecMesh* constants for a batch, in id order.
std::array<uint32_t, kSpecMeshCount> variantOf(const MeshBatch& batch, Transparency transparency) {
    std::array<uint32_t, kSpecMeshCount> v{};
    v[kSpecMeshBlend] = batch.params.blend;
    v[kSpecMeshLit] = (batch.params.render_flags & kRenderFlagLit) != 0 ? 1u : 0u;
    v[kSpecMeshOit] = drawsThroughOit(transparency, batch.params.blend) ? 1u : 0u;
    v[kSpecMeshTextured] = batch.texture == kNoTexture ? 0u : 1u;
    return v;
}

// The motion-vector variant of a batch (mesh_motion.frag): its coverage's values (blend,
// texture), unlit, never through OIT.
std::array<uint32_t, kSpecMeshCount> motionVariantOf(const MeshBatch& batch) {
    std::array<uint32_t, kSpecMeshCount> v = variantOf(batch, Transparency::sorted);
    v[kSpecMeshLit] = 0u;
    v[kSpecMeshMotion] = 1u;
    return v;
}

} // namespace

MeshPass::MeshPass(const ParticleBindings& bindings)
    : pass_(bindings,
            {&shaders::kMeshVert, &shaders::kMeshFrag, "mesh", kSpecMeshBlend, kSpecMeshOit, true}),
      motion_(bindings, {&shaders::kMeshVert, &shaders::kMeshMotionFrag, "mesh motion",
                         kSpecMeshBlend, kSpecMeshOit, true, true}) {}

std::unique_ptr<MeshPass> MeshPass::create(const vk::Device& device,
                                           const ParticleBindings& bindings,
                                           std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<MeshPass> pass(new MeshPass(bindings));
    if (!pass->pass_.createStages(device, diagnostics)) return nullptr;
    if (!pass->motion_.createStages(device, diagnostics)) return nullptr;
    return pass;
}

bool MeshPass::preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                                std::vector<Diagnostic>& diagnostics) {
    return pass_.ensureFor<MeshBatch>(
        batches, [&](const MeshBatch& b) { return variantOf(b, transparency); }, diagnostics);
}

bool MeshPass::prepareMotionPipelines(std::span<const DrawBatch> batches,
                                      const MotionVectorsDesc& motion,
                                      std::vector<Diagnostic>& diagnostics) {
    for (const DrawBatch& entry : batches) {
        const MeshBatch* b = std::get_if<MeshBatch>(&entry);
        if (b == nullptr || !drawsAnything(*b) || !writesMotion(b->params, motion)) continue;
        if (!motion_.ensure(motionVariantOf(*b), diagnostics)) return false;
    }
    return true;
}

void MeshPass::drawWith(VkCommandBuffer cmd, const ParticlePass& pass,
                        std::span<const uint32_t> values, const MeshStore& meshes,
                        const TextureStore& textures, const MeshBatch& batch,
                        const RecordSource& source, VkPipeline& bound) const {
    // Mesh UVs may tile: the texture repeats.
    pass.bind(cmd, values, textures.set(batch.texture, vk::Wrap::repeat), bound);
    MeshPushConstants push{};
    push.params = batch.params;
    push.params.vertex_count = meshes.vertexCount(batch.mesh);
    push.vertices = uvec4(splitAddress(meshes.address(batch.mesh)), 0u, 0u);
    push.overrides = batch.overrides;
    pass.drawRecords(cmd, push, batch.device, source, push.params.vertex_count,
                     static_cast<uint32_t>(batch.records.size()));
}

void MeshPass::draw(VkCommandBuffer cmd, const MeshStore& meshes, const TextureStore& textures,
                    const MeshBatch& batch, Transparency transparency, const RecordSource& source,
                    VkPipeline& bound) const {
    drawWith(cmd, pass_, variantOf(batch, transparency), meshes, textures, batch, source, bound);
}

void MeshPass::drawMotion(VkCommandBuffer cmd, const MeshStore& meshes,
                          const TextureStore& textures, const MeshBatch& batch,
                          const RecordSource& source, VkPipeline& bound) const {
    drawWith(cmd, motion_, motionVariantOf(batch), meshes, textures, batch, source, bound);
}

} // namespace spindrift::render
