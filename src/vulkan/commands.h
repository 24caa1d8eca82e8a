// Recording and submitting work: one command pool, one primary command buffer and one fence,
// used one submission at a time (record, submit, wait). The renderer is synchronous: each frame
// and each texture upload is one such submission.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

// How long a submission may take before it is reported as hung (VK_TIMEOUT): generous, since a
// large frame on a CPU device takes seconds.
inline constexpr uint64_t kSubmitTimeoutNs = 300ull * 1000 * 1000 * 1000;

class CommandRunner {
public:
    static std::unique_ptr<CommandRunner> create(const Device& device,
                                                 std::vector<Diagnostic>& diagnostics);

    // Resets the command buffer and begins recording (one-time submit). VK_NULL_HANDLE and an
    // error on failure.
    VkCommandBuffer begin(std::vector<Diagnostic>& diagnostics);
    // Ends recording, submits to the device's queue and waits for the fence. False with an
    // error naming `what` on failure (including a timeout).
    bool submitAndWait(std::string_view what, std::vector<Diagnostic>& diagnostics);
    // begin + record(cmd) + submitAndWait.
    bool run(std::string_view what, const std::function<void(VkCommandBuffer)>& record,
             std::vector<Diagnostic>& diagnostics);

private:
    explicit CommandRunner(const Device& device) : device_(device) {}
    const Device& device_;
    OwnedCommandPool pool_;
    VkCommandBuffer buffer_ = VK_NULL_HANDLE; // freed with the pool
    OwnedFence fence_;
};

// Layout transition and memory dependency for all of an image (synchronization2).
struct ImageBarrier {
    VkImage image = VK_NULL_HANDLE;
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    VkImageLayout old_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout new_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkPipelineStageFlags2 src_stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 src_access = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 dst_stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 dst_access = VK_ACCESS_2_NONE;
};
void imageBarriers(VkCommandBuffer cmd, const std::vector<ImageBarrier>& barriers);

// Begins dynamic rendering over the whole extent with these attachments (depth may be null) and
// sets the viewport and scissor to match.
void beginRendering(VkCommandBuffer cmd, VkExtent2D extent,
                    const std::vector<VkRenderingAttachmentInfo>& colors,
                    const VkRenderingAttachmentInfo* depth);

// A global memory dependency (e.g. transfer write -> host read).
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                   VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

} // namespace spindrift::vk
