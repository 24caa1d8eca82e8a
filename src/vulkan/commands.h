// Recording and submitting work: one command pool and a ring of primary command buffers, each
// with its own fence. With one entry it is the synchronous record-submit-wait runner the renderer
// uses for each frame and texture upload; with more, a host keeps recording while the device
// still runs earlier submissions (the GPU simulation with asynchronous statistics) and waits
// only when it comes back round to an entry the device has not finished.
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
    // entries >= 1 command buffers in the ring.
    static std::unique_ptr<CommandRunner>
    create(const Device& device, std::vector<Diagnostic>& diagnostics, uint32_t entries = 1);
    // Waits for every pending submission: its command buffers and whatever they read must
    // outlive the work (lavapipe crashed reading a buffer freed under a pending submission).
    ~CommandRunner();
    CommandRunner(const CommandRunner&) = delete;
    CommandRunner& operator=(const CommandRunner&) = delete;

    // Moves to the next entry of the ring, waits for its previous submission if it is still
    // pending (the caller reads that submission's results first: see pending/wait), resets its
    // command buffer and begins recording (one-time submit). VK_NULL_HANDLE and an error on
    // failure.
    VkCommandBuffer begin(std::vector<Diagnostic>& diagnostics);
    // Ends recording of the begun entry and submits it to the device's queue without waiting.
    bool submit(std::string_view what, std::vector<Diagnostic>& diagnostics);
    // submit, then wait for it. False with an error naming `what` on failure (including a
    // timeout).
    bool submitAndWait(std::string_view what, std::vector<Diagnostic>& diagnostics);
    // begin + record(cmd) + submitAndWait.
    bool run(std::string_view what, const std::function<void(VkCommandBuffer)>& record,
             std::vector<Diagnostic>& diagnostics);

    uint32_t entries() const { return static_cast<uint32_t>(entries_.size()); }
    uint32_t current() const { return current_; } // the entry begin last chose
    // The entry begin will choose next.
    uint32_t next() const { return (current_ + 1) % entries(); }
    // Submitted and not yet seen finished.
    bool pending(uint32_t entry) const { return entries_[entry].pending; }
    // Waits for the entry's submission (nothing when it is not pending).
    bool wait(uint32_t entry, std::vector<Diagnostic>& diagnostics);
    // Waits for every pending entry. False with an error on the first failure.
    bool waitAll(std::vector<Diagnostic>& diagnostics);
    // Whether the entry's submission has finished, without waiting: true (and no longer
    // pending) once it has, or when nothing is pending. False with no error while it runs.
    bool poll(uint32_t entry, std::vector<Diagnostic>& diagnostics);

private:
    struct Entry {
        VkCommandBuffer buffer = VK_NULL_HANDLE; // freed with the pool
        OwnedFence fence;
        bool pending = false;
    };
    explicit CommandRunner(const Device& device) : device_(device) {}
    const Device& device_;
    OwnedCommandPool pool_;
    std::vector<Entry> entries_;
    uint32_t current_ = 0;
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

// A colour attachment just drawn into, made the source of a copy (image to buffer or image).
inline ImageBarrier colorAttachmentToCopySource(VkImage image) {
    return {image,
            VK_IMAGE_ASPECT_COLOR_BIT,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT};
}

// A depth-only attachment about to be cleared and drawn again (its contents discarded), after the
// depth tests of whatever drew into it before.
inline ImageBarrier depthAttachmentDiscarded(VkImage image) {
    return {image,
            VK_IMAGE_ASPECT_DEPTH_BIT,
            VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_NONE,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
}

// Begins dynamic rendering over the whole extent with these attachments (depth may be null) and
// sets the viewport and scissor to match.
void beginRendering(VkCommandBuffer cmd, VkExtent2D extent,
                    const std::vector<VkRenderingAttachmentInfo>& colors,
                    const VkRenderingAttachmentInfo* depth);

// A global memory dependency (e.g. transfer write -> host read).
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                   VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

} // namespace spindrift::vk
