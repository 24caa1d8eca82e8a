#include "vulkan/commands.h"

#include <algorithm>

#include "vulkan/vk_error.h"

namespace spindrift::vk {

std::unique_ptr<CommandRunner> CommandRunner::create(const Device& device,
                                                     std::vector<Diagnostic>& diagnostics,
                                                     uint32_t entries) {
    std::unique_ptr<CommandRunner> runner(new CommandRunner(device));
    VkDevice d = device.handle();

    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = device.queueFamily();
    VkCommandPool pool_handle = VK_NULL_HANDLE;
    if (!check(vkCreateCommandPool(d, &pool, nullptr, &pool_handle), "vkCreateCommandPool",
               diagnostics)) {
        return nullptr;
    }
    runner->pool_ = OwnedCommandPool(d, pool_handle);

    runner->entries_.resize(std::max(entries, 1u));
    // begin() advances first: start on the last entry so the first submission uses entry 0.
    runner->current_ = runner->entries() - 1;
    for (Entry& entry : runner->entries_) {
        VkCommandBufferAllocateInfo allocate{};
        allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        allocate.commandPool = pool_handle;
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocate.commandBufferCount = 1;
        if (!check(vkAllocateCommandBuffers(d, &allocate, &entry.buffer),
                   "vkAllocateCommandBuffers", diagnostics)) {
            return nullptr;
        }
        VkFenceCreateInfo fence{};
        fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        VkFence fence_handle = VK_NULL_HANDLE;
        if (!check(vkCreateFence(d, &fence, nullptr, &fence_handle), "vkCreateFence",
                   diagnostics)) {
            return nullptr;
        }
        entry.fence = OwnedFence(d, fence_handle);
    }
    return runner;
}

VkCommandBuffer CommandRunner::begin(std::vector<Diagnostic>& diagnostics) {
    current_ = next();
    if (!wait(current_, diagnostics)) return VK_NULL_HANDLE;
    VkCommandBuffer buffer = entries_[current_].buffer;
    if (!check(vkResetCommandBuffer(buffer, 0), "vkResetCommandBuffer", diagnostics)) {
        return VK_NULL_HANDLE;
    }
    VkCommandBufferBeginInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (!check(vkBeginCommandBuffer(buffer, &info), "vkBeginCommandBuffer", diagnostics)) {
        return VK_NULL_HANDLE;
    }
    return buffer;
}

bool CommandRunner::submit(std::string_view what, std::vector<Diagnostic>& diagnostics) {
    Entry& entry = entries_[current_];
    if (!check(vkEndCommandBuffer(entry.buffer), "vkEndCommandBuffer", diagnostics, what)) {
        return false;
    }
    VkCommandBufferSubmitInfo command{};
    command.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO;
    command.commandBuffer = entry.buffer;
    VkSubmitInfo2 info{};
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2;
    info.commandBufferInfoCount = 1;
    info.pCommandBufferInfos = &command;
    if (!check(vkQueueSubmit2(device_.queue(), 1, &info, entry.fence.get()), "vkQueueSubmit2",
               diagnostics, what)) {
        return false;
    }
    entry.pending = true;
    return true;
}

bool CommandRunner::wait(uint32_t index, std::vector<Diagnostic>& diagnostics) {
    Entry& entry = entries_[index];
    if (!entry.pending) return true;
    VkFence fence = entry.fence.get();
    if (!check(vkWaitForFences(device_.handle(), 1, &fence, VK_TRUE, kSubmitTimeoutNs),
               "vkWaitForFences", diagnostics)) {
        return false;
    }
    entry.pending = false;
    return check(vkResetFences(device_.handle(), 1, &fence), "vkResetFences", diagnostics);
}

bool CommandRunner::waitAll(std::vector<Diagnostic>& diagnostics) {
    for (uint32_t k = 0; k < entries(); ++k) {
        if (!wait(k, diagnostics)) return false;
    }
    return true;
}

CommandRunner::~CommandRunner() {
    // A failure here (device lost, timeout) leaves nothing better to do than go on destroying.
    std::vector<Diagnostic> ignored;
    (void)waitAll(ignored);
}

bool CommandRunner::poll(uint32_t index, std::vector<Diagnostic>& diagnostics) {
    Entry& entry = entries_[index];
    if (!entry.pending) return true;
    const VkResult status = vkGetFenceStatus(device_.handle(), entry.fence.get());
    if (status == VK_NOT_READY) return false;
    if (!check(status, "vkGetFenceStatus", diagnostics)) return false;
    return wait(index, diagnostics);
}

bool CommandRunner::submitAndWait(std::string_view what, std::vector<Diagnostic>& diagnostics) {
    return submit(what, diagnostics) && wait(current_, diagnostics);
}

bool CommandRunner::run(std::string_view what, const std::function<void(VkCommandBuffer)>& record,
                        std::vector<Diagnostic>& diagnostics) {
    VkCommandBuffer cmd = begin(diagnostics);
    if (cmd == VK_NULL_HANDLE) return false;
    record(cmd);
    return submitAndWait(what, diagnostics);
}

void imageBarriers(VkCommandBuffer cmd, const std::vector<ImageBarrier>& barriers) {
    std::vector<VkImageMemoryBarrier2> vk_barriers;
    vk_barriers.reserve(barriers.size());
    for (const ImageBarrier& b : barriers) {
        VkImageMemoryBarrier2 v{};
        v.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
        v.srcStageMask = b.src_stage;
        v.srcAccessMask = b.src_access;
        v.dstStageMask = b.dst_stage;
        v.dstAccessMask = b.dst_access;
        v.oldLayout = b.old_layout;
        v.newLayout = b.new_layout;
        v.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        v.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        v.image = b.image;
        // The whole image: every mip level and layer.
        v.subresourceRange = {b.aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
        vk_barriers.push_back(v);
    }
    VkDependencyInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    info.imageMemoryBarrierCount = static_cast<uint32_t>(vk_barriers.size());
    info.pImageMemoryBarriers = vk_barriers.data();
    vkCmdPipelineBarrier2(cmd, &info);
}

void beginRendering(VkCommandBuffer cmd, VkExtent2D extent,
                    const std::vector<VkRenderingAttachmentInfo>& colors,
                    const VkRenderingAttachmentInfo* depth) {
    VkRenderingInfo info{};
    info.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
    info.renderArea = {{0, 0}, extent};
    info.layerCount = 1;
    info.colorAttachmentCount = static_cast<uint32_t>(colors.size());
    info.pColorAttachments = colors.data();
    info.pDepthAttachment = depth;
    vkCmdBeginRendering(cmd, &info);

    VkViewport viewport{};
    viewport.width = static_cast<float>(extent.width);
    viewport.height = static_cast<float>(extent.height);
    viewport.maxDepth = 1.0f;
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    VkRect2D scissor{{0, 0}, extent};
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                   VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
    VkMemoryBarrier2 barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2;
    barrier.srcStageMask = src_stage;
    barrier.srcAccessMask = src_access;
    barrier.dstStageMask = dst_stage;
    barrier.dstAccessMask = dst_access;
    VkDependencyInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    info.memoryBarrierCount = 1;
    info.pMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &info);
}

} // namespace spindrift::vk
