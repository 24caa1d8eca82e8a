// The mesh pass: each mesh batch draws its mesh once per record, instanced and vertex-pulled
// (kernels/mesh.h, shaders/mesh.vert), with its pipeline variant (blend, lit, OIT output) and
// push constants, back faces culled, depth-tested against the opaque pass without writing depth.
// The renderer calls draw() for each mesh batch in the frame's batch order, between the other
// particle passes' draws, inside one rendering scope (renderer.cpp). Host records sit in the
// billboard pass's draw-record buffer (BillboardPass::upload copies both kinds).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/mesh_store.h"
#include "render/particle_bindings.h"
#include "render/renderer.h"
#include "render/texture_store.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class MeshPass {
public:
    static std::unique_ptr<MeshPass> create(const vk::Device& device,
                                            const ParticleBindings& bindings,
                                            std::vector<Diagnostic>& diagnostics);

    // Creates the pipeline variants (kSpecMesh*) the mesh batches need that do not exist yet;
    // kept for the renderer's life. transparency decides which batches draw through OIT
    // (drawsThroughOit). False with an error on failure.
    bool preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                          std::vector<Diagnostic>& diagnostics);

    // Records the draw of one non-empty batch whose mesh is valid in meshes: host records at
    // device address `records` (count batch.records.size()), or device records (batch.device)
    // drawn indirectly with the arguments at indirect + indirect_offset (DeviceDrawArgs). Expects
    // what BillboardPass::draw expects; bound likewise.
    void draw(VkCommandBuffer cmd, const MeshStore& meshes, const TextureStore& textures,
              const MeshBatch& batch, Transparency transparency, uint64_t records,
              VkBuffer indirect, VkDeviceSize indirect_offset, VkPipeline& bound) const;

    size_t pipelineVariants() const { return pipelines_.size(); }

private:
    MeshPass(const vk::Device& device, const ParticleBindings& bindings)
        : device_(device), bindings_(bindings) {}
    const vk::Device& device_;
    const ParticleBindings& bindings_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    std::map<uint32_t, vk::OwnedPipeline> pipelines_; // by variantKey()
};

} // namespace spindrift::render
