// Weighted-blended order-independent transparency (McGuire & Bavoil 2013; render/shader/oit.h has
// the maths, docs/rendering.md "Transparency" the frame): the two OIT targets, the accumulation
// phase's rendering scope and the full-screen composite that blends their result over the frame.
// The renderer makes one the first time a frame draws a batch through OIT (a renderer that never
// does pays nothing) and keeps it for its life; the targets have the frame's size.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/image.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class OitPass {
public:
    // The targets (width x height), the composite pipeline (drawing into a frame colour of
    // color_format) and its descriptor set. nullptr and an error naming what failed.
    static std::unique_ptr<OitPass> create(const vk::Device& device, uint32_t width,
                                           uint32_t height, VkFormat color_format,
                                           std::vector<Diagnostic>& diagnostics);
    uint32_t width() const { return accumulation_.extent.width; }
    uint32_t height() const { return accumulation_.extent.height; }

    // Begins the accumulation scope: clears the accumulation target to (0, 0, 0, 1) (no colour,
    // revealage 1) and the weight target to 0 and begins rendering into them (colour locations 0
    // and 1) with the frame's depth, loaded for the test (particles do not write it). Expects the
    // depth attachment's earlier writes made visible by the caller. The caller binds the particle
    // frame set, draws the OIT pipeline variants (ParticleOutput::oit) and ends rendering.
    void beginAccumulation(VkCommandBuffer cmd, const FrameTargets& targets) const;

    // After the accumulation scope: makes the targets readable and blends their weighted average
    // over the frame's colour (loaded and stored, no depth) in one full-screen triangle. Expects
    // the frame colour in COLOR_ATTACHMENT_OPTIMAL after an earlier scope wrote it.
    void composite(VkCommandBuffer cmd, const FrameTargets& targets) const;

private:
    OitPass() = default;
    vk::Image2D accumulation_; // kOitAccumulationFormat
    vk::Image2D weight_;       // kOitWeightFormat
    vk::OwnedSampler sampler_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedPipelineLayout layout_;
    vk::OwnedPipeline pipeline_;
    vk::OwnedDescriptorPool pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE; // the two targets; freed with the pool
};

} // namespace spindrift::render
