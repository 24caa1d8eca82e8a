// The HDR post passes of the offscreen frame (docs/rendering.md, "Colour pipeline"): bloom,
// automatic exposure and tone mapping, as compute dispatches on the frame's linear colour after
// the particles and before the readback. The maths is render/shader/post.h. A host frame
// (render/host_frame.h) runs none of it: the host's colour stays linear HDR for its own post.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/renderer.h"
#include "render/shader/post.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/image.h"
#include "vulkan/owned.h"

namespace spindrift::render {

// Why the view's post settings cannot be drawn, or empty: known enums, finite values in the
// scene format's ranges (scene_desc.h: ExposureDesc, BloomDesc).
std::string postProblem(const FrameView& view);

// Whether the view asks for any post work: a tone map, bloom, an exposure other than 1, or
// automatic exposure. Without any, the frame is read back as drawn (and no post pass is made).
bool wantsPost(const FrameView& view);

// The exposure rule of automatic exposure between frames: the seconds since the previous frame
// when time_s follows previous_time_s by (0, kMaxAdaptStep_s] (a sequence, real time), else -1:
// start at the converged value (the first frame, a still, a seek, a jump).
inline constexpr float kMaxAdaptStep_s = 1.0f;
float adaptationStep(bool has_previous, float previous_time_s, float time_s);

class PostPass {
public:
    // For targets (the offscreen frame, whose colour has storage and sampled usage).
    static std::unique_ptr<PostPass> create(const vk::Device& device, const FrameTargets& targets,
                                            std::vector<Diagnostic>& diagnostics);

    // Records the post passes. Before: the frame colour in COLOR_ATTACHMENT_OPTIMAL, last written
    // as an attachment. After: in TRANSFER_SRC_OPTIMAL, written by the tone-map pass, ready for
    // the readback copy. dt_s: adaptationStep's value for this frame.
    void record(VkCommandBuffer cmd, const FrameTargets& targets, const FrameView& view,
                float dt_s);

    // The exposure multiplier the last recorded frame used, once it has finished.
    float exposureUsed() const;

private:
    PostPass() = default;
    uint32_t bloomLevels(const FrameView& view) const;
    void writeSets(uint32_t levels);
    void dispatch(VkCommandBuffer cmd, VkPipeline pipeline, VkDescriptorSet set,
                  const PostPush& push, VkExtent2D size, uint32_t group) const;

    VkDevice device_ = VK_NULL_HANDLE;
    VkImageView frame_view_ = VK_NULL_HANDLE;
    VkExtent2D frame_extent_{};
    std::array<vk::Image2D, kMaxBloomLevels> down_;
    std::array<vk::Image2D, kMaxBloomLevels> up_;
    vk::OwnedSampler sampler_;
    vk::Buffer state_;          // device-local: histogram bins, then PostState (kPostBufferBytes)
    vk::Buffer state_readback_; // host-visible: the PostState of the last automatic frame
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedPipelineLayout layout_;
    vk::OwnedPipeline down_pipeline_;
    vk::OwnedPipeline up_pipeline_;
    vk::OwnedPipeline histogram_pipeline_;
    vk::OwnedPipeline exposure_pipeline_;
    vk::OwnedPipeline tonemap_pipeline_;
    vk::OwnedDescriptorPool pool_;
    std::array<VkDescriptorSet, kMaxBloomLevels> down_sets_{};
    std::array<VkDescriptorSet, kMaxBloomLevels> up_sets_{};
    VkDescriptorSet final_set_ = VK_NULL_HANDLE;
    uint32_t written_levels_ = 0; // the levels the sets were last written for
    bool manual_last_ = true;     // the last frame's exposure was manual
    bool state_cleared_ = false;  // state_ was zeroed by a recorded fill
    float manual_scale_ = 1;
};

} // namespace spindrift::render
