// The host frame's first pass (docs/host-vulkan.md): turns the host's depth buffer into the
// linear view depth the soft fade reads (render/shader/depth_linearize.h), which the offscreen
// frame's opaque pass writes directly. A full-screen triangle; the host's depth is sampled.
#pragma once

#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class DepthLinearizePass {
public:
    static std::unique_ptr<DepthLinearizePass> create(const vk::Device& device,
                                                      std::vector<Diagnostic>& diagnostics);

    // Points the pass at the host's depth view (sampled in SHADER_READ_ONLY_OPTIMAL). The set
    // must not be in use by pending work.
    void setHostDepth(VkImageView host_depth) const;

    // Records the pass: expects the host depth (setHostDepth) readable by fragment shaders in
    // SHADER_READ_ONLY_OPTIMAL and targets.linear_depth in COLOR_ATTACHMENT_OPTIMAL; leaves the
    // linear depth of every pixel there (kSceneDepthCleared where the depth is 1).
    void record(VkCommandBuffer cmd, const FrameTargets& targets, float near_m, float far_m) const;

private:
    explicit DepthLinearizePass(const vk::Device& device) : device_(device) {}
    const vk::Device& device_;
    vk::OwnedSampler sampler_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedPipelineLayout layout_;
    vk::OwnedPipeline pipeline_;
    vk::OwnedDescriptorPool pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE; // the host's depth; freed with the pool
};

} // namespace spindrift::render
