#include "render/mesh_pass.h"

#include <array>
#include <string>

#include "render/shader_code.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

// The values of the kSpecMesh* constants for a batch, in id order.
std::array<uint32_t, kSpecMeshCount> variantOf(const MeshBatch& batch, Transparency transparency) {
    std::array<uint32_t, kSpecMeshCount> v{};
    v[kSpecMeshBlend] = batch.params.blend;
    v[kSpecMeshLit] = (batch.params.render_flags & kRenderFlagLit) != 0 ? 1u : 0u;
    v[kSpecMeshOit] = drawsThroughOit(transparency, batch.params.blend) ? 1u : 0u;
    v[kSpecMeshTextured] = batch.texture == kNoTexture ? 0u : 1u;
    return v;
}

// One number per variant: 2 bits of blend, one per feature and output.
uint32_t variantKey(const std::array<uint32_t, kSpecMeshCount>& v) {
    return v[kSpecMeshBlend] | v[kSpecMeshLit] << 2 | v[kSpecMeshOit] << 3 |
           v[kSpecMeshTextured] << 4;
}

uvec2 split(uint64_t a) {
    return uvec2(static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32));
}

} // namespace

std::unique_ptr<MeshPass> MeshPass::create(const vk::Device& device,
                                           const ParticleBindings& bindings,
                                           std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<MeshPass> pass(new MeshPass(device, bindings));
    VkDevice d = device.handle();
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kMeshVert),
                                           shaders::kMeshVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kMeshFrag),
                                             shaders::kMeshFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;
    return pass;
}

bool MeshPass::preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                                std::vector<Diagnostic>& diagnostics) {
    for (const DrawBatch& entry : batches) {
        const MeshBatch* batch = std::get_if<MeshBatch>(&entry);
        if (batch == nullptr || (batch->records.empty() && batch->device.records == 0)) continue;
        const std::array<uint32_t, kSpecMeshCount> values = variantOf(*batch, transparency);
        if (!bindings_.ensureVariant(pipelines_, variantKey(values), vertex_.get(), fragment_.get(),
                                     values, kSpecMeshBlend, kSpecMeshOit, "mesh", diagnostics,
                                     true)) {
            return false;
        }
    }
    return true;
}

void MeshPass::draw(VkCommandBuffer cmd, const MeshStore& meshes, const TextureStore& textures,
                    const MeshBatch& batch, Transparency transparency, uint64_t records,
                    VkBuffer indirect, VkDeviceSize indirect_offset, VkPipeline& bound) const {
    VkPipeline pipeline = pipelines_.at(variantKey(variantOf(batch, transparency))).get();
    if (pipeline != bound) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        bound = pipeline;
    }
    // Every pipeline's layout has the texture set; an untextured variant never samples it. Mesh
    // UVs may tile: the texture repeats.
    bindings_.bindTexture(cmd, textures.set(batch.texture, vk::Wrap::repeat));
    MeshPushConstants push{};
    push.params = batch.params;
    push.params.vertex_count = meshes.vertexCount(batch.mesh);
    push.vertices = uvec4(split(meshes.address(batch.mesh)), 0u, 0u);
    if (batch.device.records != 0) {
        push.records = uvec4(split(batch.device.records), batch.device.chunk_records,
                             batch.device.first_in_chunk);
        push.order = uvec4(split(batch.device.order), 0u, 0u);
        bindings_.push(cmd, &push, sizeof(push));
        vkCmdDrawIndirect(cmd, indirect, indirect_offset, 1, sizeof(VkDrawIndirectCommand));
        return;
    }
    push.records = uvec4(split(records), 0u, 0u);
    bindings_.push(cmd, &push, sizeof(push));
    vkCmdDraw(cmd, push.params.vertex_count, static_cast<uint32_t>(batch.records.size()), 0, 0);
}

} // namespace spindrift::render
