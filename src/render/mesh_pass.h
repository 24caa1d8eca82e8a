// The mesh pass: each mesh batch draws its mesh once per record, instanced and vertex-pulled
// (render/shader/mesh.h, shaders/mesh.vert), with its pipeline variant (blend, lit, OIT output,
// textured) and push constants, back faces culled, depth-tested against the opaque pass without
// writing depth (opaque meshes write it). The stages, variants and the device/host draw are the
// particle-pass skeleton's (render/particle_pass.h); this pass adds which specialisation values a
// batch needs (kSpecMesh*) and its push constants (the mesh's vertices from the mesh store). The
// renderer calls draw() for each mesh batch in the frame's batch order, between the other
// particle passes' draws, inside one rendering scope (renderer.cpp). Host records sit in the
// billboard pass's draw-record buffer (BillboardPass::upload copies both kinds).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/mesh_store.h"
#include "render/particle_bindings.h"
#include "render/particle_pass.h"
#include "render/renderer.h"
#include "render/texture_store.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"

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
    // source.host_address (count batch.records.size()), or device records (batch.device) drawn
    // indirectly with the arguments at source.indirect (DeviceDrawArgs). Expects what
    // BillboardPass::draw expects; bound likewise.
    void draw(VkCommandBuffer cmd, const MeshStore& meshes, const TextureStore& textures,
              const MeshBatch& batch, Transparency transparency, const RecordSource& source,
              VkPipeline& bound) const;

    size_t pipelineVariants() const { return pass_.count(); }

private:
    explicit MeshPass(const ParticleBindings& bindings);
    ParticlePass pass_;
};

} // namespace spindrift::render
