// Half-resolution particles (FrameView::particle_resolution, docs/rendering.md "Half-resolution
// particles"; maths in render/shader/half_res.h): the half-size particle layer and its three
// steps. The opaque frame's linear depth is downsampled to half size (the nearest of each 2 x 2
// block) into a linear depth the soft fade reads and a depth the particles are tested against;
// the billboards and strips of the frame's particle phase draw into a half-size HDR colour cleared
// to nothing (premultiplied colour, coverage in alpha); the layer is upsampled depth-aware and
// blended over the full-resolution frame. Fill-bound particle frames shade a quarter of the
// pixels. The renderer makes one the first time an offscreen frame asks for it and keeps it for
// its life; the targets are ceil(width / 2) x ceil(height / 2).
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

class HalfResPass {
public:
    // The half-size targets for the offscreen frame `targets` (its linear depth is what the
    // downsample and the upsample read), the two pipelines and their sets. nullptr and an error
    // naming what failed.
    static std::unique_ptr<HalfResPass> create(const vk::Device& device,
                                               const FrameTargets& targets,
                                               std::vector<Diagnostic>& diagnostics);
    // The half-size linear depth, for the particles' half-resolution frame set
    // (ParticleBindings::bindHalfResDepth).
    VkImageView linearDepthView() const { return linear_depth_.view.get(); }
    VkExtent2D extent() const { return color_.extent; }

    // Writes the half-size linear depth and depth from the frame's linear depth, which must be
    // readable by fragment shaders in SHADER_READ_ONLY_OPTIMAL; near_m and far_m are the view's.
    // Leaves the linear depth readable the same way and the depth ready for the particle scope.
    void recordDownsample(VkCommandBuffer cmd, float near_m, float far_m) const;

    // Begins the half-resolution particle scope: the layer cleared to (0, 0, 0, 0) and the
    // half-size depth loaded for the test, with the viewport at exactly half the frame's size
    // (width / 2 by height / 2 pixels, so a half-size texel covers one 2 x 2 block of the frame
    // even when a side is odd). The caller binds the particles' half-resolution frame set, draws
    // the half-resolution variants (ParticleOutput::half_res) and ends rendering.
    void beginParticles(VkCommandBuffer cmd) const;

    // After the particle scope: blends the layer over the frame's colour (loaded and stored, no
    // depth) with the depth-aware upsample, one full-screen triangle. Expects the frame colour in
    // COLOR_ATTACHMENT_OPTIMAL after an earlier scope wrote it.
    void composite(VkCommandBuffer cmd, const FrameTargets& targets) const;

private:
    HalfResPass() = default;
    uint32_t full_width_ = 0;
    uint32_t full_height_ = 0;
    vk::Image2D color_;        // kColorFormat: premultiplied particle colour, coverage in alpha
    vk::Image2D linear_depth_; // kLinearDepthFormat: the nearest of each block
    vk::Image2D depth_;        // kDepthFormat: the same, as a depth-buffer value
    vk::OwnedSampler sampler_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule downsample_fragment_;
    vk::OwnedShaderModule upsample_fragment_;
    vk::OwnedDescriptorSetLayout downsample_set_layout_;
    vk::OwnedDescriptorSetLayout upsample_set_layout_;
    vk::OwnedPipelineLayout downsample_layout_;
    vk::OwnedPipelineLayout upsample_layout_;
    vk::OwnedPipeline downsample_;
    vk::OwnedPipeline upsample_;
    vk::OwnedDescriptorPool pool_;
    VkDescriptorSet downsample_set_ = VK_NULL_HANDLE; // freed with the pool
    VkDescriptorSet upsample_set_ = VK_NULL_HANDLE;
};

} // namespace spindrift::render
