// The billboard pass: every billboard batch's DrawRecords in one host-visible storage buffer (read
// through its device address), each batch drawn vertex-pulled (a quad per record) with its
// pipeline variant, texture and push constants, depth-tested against the opaque pass without
// writing depth; a batch of device records (a GPU simulation's, DeviceRecords) is drawn where
// the simulation wrote it, with an indirect draw. The stages, variants and the device/host draw
// are the particle-pass skeleton's (render/particle_pass.h); this pass adds which specialisation
// values a batch needs (kSpecBillboard*), its push constants and the draw-record buffer, which
// the mesh pass reads too. Distortion batches (kRenderFlagDistortion, docs/rendering.md
// "Distortion") draw the same quads with their own fragment stage (billboard_distortion.frag:
// the scene colour copy, displaced), blended as alpha; billboards lit per particle
// (kRenderFlagLitPerParticle) with their own vertex stage (billboard_lit.vert: the lights gathered
// once per particle, docs/rendering.md "Lighting per particle"). The renderer calls draw() for each
// billboard batch in the frame's batch order, between the other particle passes' draws, inside one
// rendering scope (renderer.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/draw_buffer.h"
#include "render/particle_bindings.h"
#include "render/particle_pass.h"
#include "render/renderer.h"
#include "render/texture_store.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"

namespace spindrift::render {

class BillboardPass {
public:
    static std::unique_ptr<BillboardPass> create(const vk::Device& device,
                                                 const ParticleBindings& bindings,
                                                 std::vector<Diagnostic>& diagnostics);

    // Copies the host records of every billboard and mesh batch, in order, into the draw buffer
    // (the mesh pass reads its records there too: recordsAddress). The buffer
    // grows (to at least double, at most kMaxDrawRecords records) only when the frame has more
    // records than it holds; otherwise nothing is allocated. The caller has checked the total
    // against kMaxDrawRecords. False with an error when growing fails.
    // Each frame slot (< kMaxFrameSlots) has its own buffer, made by its first upload.
    bool upload(uint32_t slot, std::span<const DrawBatch> batches, uint64_t total_records,
                std::vector<Diagnostic>& diagnostics);

    // Creates the pipeline variants the billboard batches need that do not exist yet (each
    // batch's blend, alignment and features, as specialisation constants: kSpecBillboard*).
    // Variants are kept for the renderer's life. False with an error when a pipeline cannot be
    // created.
    // transparency decides which batches draw through OIT (drawsThroughOit, kSpecBillboardOit).
    // half_res: the variants that draw into the half-resolution particle layer
    // (render/half_res_pass.h) instead, for the batches that may go there (neither distortion nor
    // drawn through OIT).
    bool preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                          std::vector<Diagnostic>& diagnostics, bool half_res = false);

    // Records the draw of one non-empty batch: host records uploaded at source.host_address
    // (recordsAddress), or device records (batch.device) drawn indirectly with the arguments at
    // source.indirect (DeviceDrawArgs); with the variant preparePipelines made for it under the
    // same transparency. Expects rendering begun on the frame's colour and depth (or, for a batch
    // drawsThroughOit names, on the OIT targets: OitPass::beginAccumulation) and the frame set
    // bound (ParticleBindings::bindFrame). bound is the pipeline bound on cmd; it is rebound only
    // when the batch needs another. half_res: with the half-resolution layer's variant, inside
    // HalfResPass::beginParticles' scope.
    void draw(VkCommandBuffer cmd, const TextureStore& textures, const BillboardBatch& batch,
              Transparency transparency, const RecordSource& source, VkPipeline& bound,
              bool half_res = false) const;

    // Creates the motion-vector variants (billboard_motion.frag, render/motion_pass.h) of the
    // batches that write motion (writesMotion). False with an error when one cannot be created.
    bool prepareMotionPipelines(std::span<const DrawBatch> batches, const MotionVectorsDesc& motion,
                                std::vector<Diagnostic>& diagnostics);

    // Records the motion-vector draw of one non-empty batch that writes motion, as draw() does
    // its colour, with the variant prepareMotionPipelines made; expects rendering begun on the
    // motion target and the frame's depth (MotionPass::beginParticles) and the frame set bound.
    void drawMotion(VkCommandBuffer cmd, const TextureStore& textures, const BillboardBatch& batch,
                    const RecordSource& source, VkPipeline& bound) const;

    // The device address of record first_record uploaded into `slot`.
    uint64_t recordsAddress(uint32_t slot, uint64_t first_record) const {
        return records_[slot].buffer.address + first_record * sizeof(DrawRecord);
    }
    size_t pipelineVariants() const {
        return pass_.count() + distortion_.count() + lit_per_particle_.count() + motion_.count();
    }

private:
    BillboardPass(const vk::Device& device, const ParticleBindings& bindings);
    const vk::Device& device_;
    ParticlePass pass_;
    // The pass that draws a batch: distortion_, lit_per_particle_ or pass_.
    static ParticlePass BillboardPass::*passOf(const BillboardBatch& batch);
    // Binds the variant `values` of `pass` and draws the batch's quads from source.
    static void drawWith(VkCommandBuffer cmd, const ParticlePass& pass,
                         std::span<const uint32_t> values, const TextureStore& textures,
                         const BillboardBatch& batch, const RecordSource& source, VkPipeline& bound,
                         bool half_res = false);
    ParticlePass distortion_;       // billboard.vert + billboard_distortion.frag
    ParticlePass lit_per_particle_; // billboard_lit.vert (lights gathered per particle) + .frag
    ParticlePass motion_;           // billboard.vert + billboard_motion.frag
    std::array<DrawBuffer, kMaxFrameSlots> records_;
};

} // namespace spindrift::render
