// The mesh pass: each mesh batch draws its mesh once per record, instanced and vertex-pulled
// (render/shader/mesh.h, shaders/mesh.vert), with its pipeline variant (blend, lit, OIT output,
// textured) and push constants, back faces culled, depth-tested against the opaque pass without
// writing depth (opaque meshes write it). The stages, variants and the device/host draw are the
// particle-pass skeleton's (render/particle_pass.h); this pass adds which specialisation values a
// batch needs (kSpecMesh*) and its push constants (the mesh's vertices from the mesh store). The
// renderer calls draw() for each mesh batch in the frame's batch order, between the other
// particle passes' draws, inside one rendering scope (renderer.cpp). Host records sit in the
// billboard pass's draw-record buffer (BillboardPass::upload copies both kinds). In a frame with
// motion vectors, the mesh batches that write motion draw again into the motion target
// (drawMotion: mesh.vert's motion variant with mesh_motion.frag).
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

    // Creates the motion-vector variants (mesh_motion.frag) of the mesh batches that write motion
    // (writesMotion). False with an error when one cannot be created.
    bool prepareMotionPipelines(std::span<const DrawBatch> batches, const MotionVectorsDesc& motion,
                                std::vector<Diagnostic>& diagnostics);

    // Records the motion-vector draw of one batch that writes motion, as draw() does its colour,
    // with the variant prepareMotionPipelines made; expects rendering begun on the motion target
    // and the frame's depth (MotionPass) and the frame set bound.
    void drawMotion(VkCommandBuffer cmd, const MeshStore& meshes, const TextureStore& textures,
                    const MeshBatch& batch, const RecordSource& source, VkPipeline& bound) const;

    size_t pipelineVariants() const { return pass_.count() + motion_.count(); }

private:
    explicit MeshPass(const ParticleBindings& bindings);
    void drawWith(VkCommandBuffer cmd, const ParticlePass& pass, std::span<const uint32_t> values,
                  const MeshStore& meshes, const TextureStore& textures, const MeshBatch& batch,
                  const RecordSource& source, VkPipeline& bound) const;
    ParticlePass pass_;
    ParticlePass motion_; // mesh.vert + mesh_motion.frag
};

} // namespace spindrift::render
