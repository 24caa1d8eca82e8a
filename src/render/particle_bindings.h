// What every particle pass (billboards, strips, meshes) binds, made once: the frame set (frame
// globals and the opaque pass's linear depth, for the soft fade; one per frame slot, so a host
// frame can be recorded while earlier ones still run), one pipeline layout (set
// kSetFrame, set kSetTexture and a push-constant range that holds any pass's block) and the
// pipelines built on it (each pass's variants: render/particle_pass.h). Sharing the layout is what
// lets billboard, strip and mesh draws interleave in the caller's batch order with the frame set
// bound once per frame.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/shader/billboard.h"
#include "render/shader/mesh.h"
#include "render/shader/strip_draw.h"
#include "render/shadow_pass.h"
#include "render/texture_store.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

// The push-constant range of the particle pipeline layout: the largest of the passes' blocks.
inline constexpr uint32_t kParticlePushConstantBytes = static_cast<uint32_t>(std::max(
    {sizeof(BillboardPushConstants), sizeof(StripPushConstants), sizeof(MeshPushConstants)}));

// Where a particle pipeline draws: the frame's colour target with its batch's blend mode, the
// weighted-blended OIT targets (render/oit_pass.h), the motion-vector target (kMotionFormat,
// written without blending: render/motion_pass.h), or the half-resolution particle layer
// (render/half_res_pass.h: the frame's formats, its batch's blend mode except that additive light
// leaves the layer's alpha, the coverage it composites with, alone).
enum class ParticleOutput : uint8_t { frame, oit, motion, half_res };

class ParticleBindings {
public:
    static std::unique_ptr<ParticleBindings> create(const vk::Device& device,
                                                    const FrameTargets& targets,
                                                    const TextureStore& textures,
                                                    std::vector<Diagnostic>& diagnostics);

    VkPipelineLayout layout() const { return layout_.get(); }
    // The formats every pipeline is made for: those of the targets given to create.
    const TargetFormats& formats() const { return formats_; }

    // Points each slot's frame set at targets' globals of that slot and the linear depth (create
    // does it; a host frame whose size changed makes new targets). No set may be in use by
    // pending work.
    void bindTargets(const FrameTargets& targets) const;
    // Points every slot's frame set at the sun's shadow maps (the receivers: lit meshes and lit
    // billboards). No set may be in use by pending work.
    void bindShadows(const ShadowMaps& maps) const;
    // Points every slot's frame set at the scene colour copy the distortion billboards read
    // (render/distortion_pass.h). No set may be in use by pending work.
    void bindSceneColor(VkImageView view);
    // Forgets the scene colour bindSceneColor gave (its image is going): the next bindTargets
    // binds the linear depth in its place.
    void unbindSceneColor() { scene_color_bound_ = false; }
    // Forgets the half-resolution depth (its image is going): the next bindTargets binds the
    // frame's linear depth in the half-resolution sets too.
    void unbindHalfResDepth() { half_depth_ = VK_NULL_HANDLE; }

    // Points every slot's half-resolution frame set (bindFrame with half_res) at the half-size
    // linear depth the soft fade reads there (render/half_res_pass.h); until then those sets read
    // the full-resolution one. No set may be in use by pending work.
    void bindHalfResDepth(VkImageView half_depth);

    // Binds the frame set of `slot` (< the targets' globals); the particle pipelines all use
    // layout(), so it stays bound for every draw of the pass. half_res: the set of the
    // half-resolution particle layer (the same globals, the half-size linear depth).
    void bindFrame(VkCommandBuffer cmd, uint32_t slot, bool half_res = false) const;
    // Binds the texture set of a batch (TextureStore::set).
    void bindTexture(VkCommandBuffer cmd, VkDescriptorSet texture_set) const;
    // Pushes a pass's block (at most kParticlePushConstantBytes) for both stages.
    void push(VkCommandBuffer cmd, const void* data, uint32_t bytes) const;

    // A pipeline on layout() for vertex + fragment with the uint specialisation constants
    // values[id] (ids 0..n-1); depth tested, not written, against the frame's depth format
    // (formats()). ParticleOutput::frame: drawing into the frame's colour with the blend state of
    // blend (kBlend*). ParticleOutput::oit: drawing into the two OIT targets (colour summed, alpha
    // multiplied by 1 - source alpha; render/shader/oit.h), whatever blend is.
    // ParticleOutput::motion: into the motion target, replacing what is there, whatever blend is;
    // depth equal to the frame's passes too (an opaque mesh's second draw over its own depth).
    // cull_back_faces: for closed meshes (mesh particles). Empty and an error naming `what` when it
    // cannot be created.
    vk::OwnedPipeline createVariant(VkShaderModule vertex, VkShaderModule fragment,
                                    std::span<const uint32_t> values, uint32_t blend,
                                    ParticleOutput output, std::string_view what,
                                    std::vector<Diagnostic>& diagnostics,
                                    bool cull_back_faces = false) const;

private:
    explicit ParticleBindings(const vk::Device& device) : device_(device) {}
    const vk::Device& device_;
    TargetFormats formats_;
    vk::OwnedSampler depth_sampler_;
    vk::OwnedSampler color_sampler_;
    bool scene_color_bound_ = false; // bindSceneColor was called: bindTargets leaves it
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedPipelineLayout layout_;
    vk::OwnedDescriptorPool pool_;
    // Per slot: frame globals, scene depth, shadow maps, scene colour copy; freed with the pool.
    std::vector<VkDescriptorSet> sets_;
    // Per slot, the same but the half-size linear depth as the scene depth (bindHalfResDepth).
    std::vector<VkDescriptorSet> half_sets_;
    VkImageView half_depth_ = VK_NULL_HANDLE;
};

} // namespace spindrift::render
