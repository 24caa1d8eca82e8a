// The opaque pass: clears the frame, draws the ground and the primitives (vertex-pulled, lit by
// sun and ambient), and writes the linear view depth the billboard pass reads.
#pragma once

#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/renderer.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class OpaquePass {
public:
    static std::unique_ptr<OpaquePass> create(const vk::Device& device, const FrameTargets& targets,
                                              std::vector<Diagnostic>& diagnostics);

    // Records the pass. Expects colour and linear depth in COLOR_ATTACHMENT_OPTIMAL and depth in
    // DEPTH_ATTACHMENT_OPTIMAL; leaves them so, holding the cleared background (colour), the
    // linear depth of the nearest surface (kSceneDepthCleared where none) and its depth.
    void record(VkCommandBuffer cmd, const FrameTargets& targets, const FrameView& view) const;

private:
    OpaquePass() = default;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedPipelineLayout layout_;
    vk::OwnedPipeline pipeline_;
    vk::OwnedDescriptorPool pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE; // frame globals; freed with the pool
};

} // namespace spindrift::render
