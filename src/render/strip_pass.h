// The strip pass (ribbons and beams): every strip batch's points and segment indices in two
// host-visible storage buffers (read through their device addresses), each batch one draw of
// kStripVerticesPerSegment vertices per segment (vertex pulling, render/shader/strip_draw.h), with
// its pipeline variant, texture and push constants, depth-tested without writing depth. A batch of
// device strips (a GPU simulation's ribbons, in fixed blocks) is read where the simulation wrote
// it, with an indirect draw. The stages, variants and draws are the particle-pass
// skeleton's (render/particle_pass.h); this pass adds which specialisation values a batch needs
// (kSpecStrip*), its push constants and its two buffers. The renderer calls draw() for each strip
// batch in the frame's batch order, between the other particle passes' draws, inside one
// rendering scope (renderer.cpp). In a frame with motion vectors, the strip batches that write
// motion draw again into the motion target (drawMotion: strip.vert's motion
// variant with strip_motion.frag), their host points' velocities in a third buffer.
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
#include "render/record_cursor.h"
#include "render/renderer.h"
#include "render/texture_store.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"

namespace spindrift::render {

class StripPass {
public:
    static std::unique_ptr<StripPass> create(const vk::Device& device,
                                             const ParticleBindings& bindings,
                                             std::vector<Diagnostic>& diagnostics);

    // Copies the points and segments of every strip batch with segments, in order, into the
    // pass's buffers (a batch without segments draws nothing and is skipped). The buffers grow
    // like the billboard pass's, up to kMaxStripPoints / kMaxStripSegments; the caller has
    // checked the totals. False with an error when growing fails.
    // Each frame slot (< kMaxFrameSlots) has its own buffers, made by its first upload.
    // With velocities (a frame with motion vectors), the batches' StripBatch::velocities too,
    // each at its batch's first point (a batch without them leaves its stretch unwritten).
    bool upload(uint32_t slot, std::span<const DrawBatch> batches, uint64_t total_points,
                uint64_t total_segments, bool velocities, std::vector<Diagnostic>& diagnostics);

    // Creates the pipeline variants (kSpecStrip*: blend and features) the strip batches need
    // that do not exist yet; kept for the renderer's life. transparency decides which batches
    // draw through OIT (drawsThroughOit, kSpecStripOit). False with an error on failure.
    // half_res: the variants that draw into the half-resolution particle layer
    // (render/half_res_pass.h) instead, for the batches not drawn through OIT.
    bool preparePipelines(std::span<const DrawBatch> batches, Transparency transparency,
                          std::vector<Diagnostic>& diagnostics, bool half_res = false);

    // Records the draw of one batch with segments, where source says (RecordCursor::nextStrip):
    // host points uploaded into `slot`, or device strips with the indirect arguments the
    // draw-argument pass wrote for them (render/device_draw_args.h).
    // Expects rendering begun on the targets the batch draws into and the frame set bound; bound
    // and transparency as in BillboardPass::draw.
    void draw(VkCommandBuffer cmd, const TextureStore& textures, const StripBatch& batch,
              Transparency transparency, uint32_t slot, const StripSource& source,
              VkPipeline& bound, bool half_res = false) const;

    // The push constants' points and segments (StripPushConstants) of a batch read from source:
    // what draw() pushes, and what the sun's strip casters push (render/shadow_pass.h).
    void setSource(StripPushConstants& push, uint32_t slot, const StripBatch& batch,
                   const StripSource& source) const;

    // Creates the motion-vector variants (strip_motion.frag) of the strip batches that write
    // motion (writesMotion). False with an error when one cannot be created.
    bool prepareMotionPipelines(std::span<const DrawBatch> batches, const MotionVectorsDesc& motion,
                                std::vector<Diagnostic>& diagnostics);

    // The motion-vector draw of one batch that writes motion, as draw() draws its colour (host
    // points with their uploaded velocities, or device strips with their particles' draw
    // records), with the variant prepareMotionPipelines made; expects rendering begun on the
    // motion target and the frame's depth (MotionPass) and the frame set bound.
    void drawMotion(VkCommandBuffer cmd, const TextureStore& textures, const StripBatch& batch,
                    uint32_t slot, const StripSource& source, VkPipeline& bound) const;

    size_t pipelineVariants() const { return pass_.count() + motion_.count(); }

private:
    StripPushConstants bindBatch(VkCommandBuffer cmd, const ParticlePass& pass,
                                 std::span<const uint32_t> values, const TextureStore& textures,
                                 const StripBatch& batch, VkPipeline& bound, bool half_res) const;
    StripPass(const vk::Device& device, const ParticleBindings& bindings);
    const vk::Device& device_;
    ParticlePass pass_;
    ParticlePass motion_; // strip.vert + strip_motion.frag
    std::array<DrawBuffer, kMaxFrameSlots> points_;
    std::array<DrawBuffer, kMaxFrameSlots> segments_;
    std::array<DrawBuffer, kMaxFrameSlots> velocities_; // vec4 per point: frames with motion
};

} // namespace spindrift::render
