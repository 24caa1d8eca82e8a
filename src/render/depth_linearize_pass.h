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
    // One descriptor set per frame slot (slots <= kMaxFrameSlots): the host's depth image may
    // differ from frame to frame (a swapchain's), and a set cannot change while a frame in
    // flight uses it.
    static std::unique_ptr<DepthLinearizePass> create(const vk::Device& device, uint32_t slots,
                                                      std::vector<Diagnostic>& diagnostics);

    // Points the set of `slot` at the host's depth view (sampled in SHADER_READ_ONLY_OPTIMAL).
    // That set must not be in use by pending work.
    void setHostDepth(uint32_t slot, VkImageView host_depth) const;

    // Records the pass with the set of `slot`: expects the host depth (setHostDepth) readable by
    // fragment shaders in SHADER_READ_ONLY_OPTIMAL and targets.linear_depth in
    // COLOR_ATTACHMENT_OPTIMAL; leaves the linear depth of every pixel there (kSceneDepthCleared
    // where the depth is 1).
    void record(VkCommandBuffer cmd, uint32_t slot, const FrameTargets& targets, float near_m,
                float far_m) const;

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
    std::vector<VkDescriptorSet> sets_; // per slot: the host's depth; freed with the pool
};

} // namespace spindrift::render
