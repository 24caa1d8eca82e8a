// The opaque pass: clears the frame, draws the ground and the primitives (vertex-pulled, lit by
// sun and ambient, shadowed by the sun's shadow maps), and writes the linear view depth the
// billboard pass reads.
#pragma once

#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/renderer.h"
#include "render/shader/opaque_geometry.h"
#include "render/shadow_pass.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

// The push constants that draw one primitive (the shadow pass draws them too).
OpaqueDraw opaquePrimitiveDraw(const PrimitiveDesc& primitive);
// The vertices of one draw of kind d.kind (kOpaque*).
uint32_t opaqueVertexCount(uint32_t kind);

class OpaquePass {
public:
    static std::unique_ptr<OpaquePass> create(const vk::Device& device, const FrameTargets& targets,
                                              std::vector<Diagnostic>& diagnostics);

    // Records the pass. Expects colour and linear depth in COLOR_ATTACHMENT_OPTIMAL and depth in
    // DEPTH_ATTACHMENT_OPTIMAL; leaves them so, holding the cleared background (colour), the
    // linear depth of the nearest surface (kSceneDepthCleared where none) and its depth.
    void record(VkCommandBuffer cmd, const FrameTargets& targets, const FrameView& view) const;

    // Points the frame set's shadow bindings at maps (the fragment shader receives sun shadows).
    // The set may not be in use by pending work.
    void bindShadows(const vk::Device& device, const ShadowMaps& maps) const;

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
