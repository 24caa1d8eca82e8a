// The strip pass (ribbons and beams): every strip batch's points and segment indices in two
// host-visible storage buffers (read through their device addresses), each batch one draw of
// kStripVerticesPerSegment vertices per segment (vertex pulling, render/shader/strip_draw.h), with
// its pipeline variant, texture and push constants, depth-tested without writing depth. A batch of
// device strips (a GPU simulation's ribbons, in fixed blocks) is read where the simulation wrote
// it, with an indirect draw (drawDevice). The stages, variants and draws are the particle-pass
// skeleton's (render/particle_pass.h); this pass adds which specialisation values a batch needs
// (kSpecStrip*), its push constants and its two buffers. The renderer calls draw() for each strip
// batch in the frame's batch order, between the other particle passes' draws, inside one
// rendering scope (renderer.cpp). In a frame with motion vectors, the strip batches that write
// motion draw again into the motion target (drawMotion, drawDeviceMotion: strip.vert's motion
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

    // Records the draw of one batch with segments, uploaded into `slot` at first_point /
    // first_segment.
    // Expects rendering begun on the targets the batch draws into and the frame set bound; bound
    // and transparency as in BillboardPass::draw.
    void draw(VkCommandBuffer cmd, const TextureStore& textures, const StripBatch& batch,
              Transparency transparency, uint32_t slot, uint64_t first_point,
              uint64_t first_segment, VkPipeline& bound, bool half_res = false) const;

    // Records the draw of one batch of device strips (StripBatch::device) with the indirect
    // arguments the draw-argument pass wrote for it (render/device_draw_args.h). Expects what
    // draw() expects.
    void drawDevice(VkCommandBuffer cmd, const TextureStore& textures, const StripBatch& batch,
                    Transparency transparency, IndirectArgs args, VkPipeline& bound,
                    bool half_res = false) const;

    // Creates the motion-vector variants (strip_motion.frag) of the strip batches that write
    // motion (writesMotion). False with an error when one cannot be created.
    bool prepareMotionPipelines(std::span<const DrawBatch> batches, const MotionVectorsDesc& motion,
                                std::vector<Diagnostic>& diagnostics);

    // The motion-vector draws of one batch that writes motion, as draw() and drawDevice() draw its
    // colour, with the variant prepareMotionPipelines made (the upload had velocities); expect
    // rendering begun on the motion target and the frame's depth (MotionPass) and the frame set
    // bound.
    void drawMotion(VkCommandBuffer cmd, const TextureStore& textures, const StripBatch& batch,
                    uint32_t slot, uint64_t first_point, uint64_t first_segment,
                    VkPipeline& bound) const;
    void drawDeviceMotion(VkCommandBuffer cmd, const TextureStore& textures,
                          const StripBatch& batch, IndirectArgs args, VkPipeline& bound) const;

    size_t pipelineVariants() const { return pass_.count() + motion_.count(); }

private:
    StripPushConstants bindBatch(VkCommandBuffer cmd, const ParticlePass& pass,
                                 std::span<const uint32_t> values, const TextureStore& textures,
                                 const StripBatch& batch, VkPipeline& bound, bool half_res) const;
    void placeHost(StripPushConstants& push, const StripBatch& batch, uint32_t slot,
                   uint64_t first_point, uint64_t first_segment) const;
    StripPass(const vk::Device& device, const ParticleBindings& bindings);
    const vk::Device& device_;
    ParticlePass pass_;
    ParticlePass motion_; // strip.vert + strip_motion.frag
    std::array<DrawBuffer, kMaxFrameSlots> points_;
    std::array<DrawBuffer, kMaxFrameSlots> segments_;
    std::array<DrawBuffer, kMaxFrameSlots> velocities_; // vec4 per point: frames with motion
};

} // namespace spindrift::render
