#include "viewer/presenter.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "vulkan/vk_error.h"

namespace spindrift::viewer {

namespace {

constexpr VkFormat kFrameFormat = VK_FORMAT_R8G8B8A8_UNORM; // the renderer's bytes, as they are
constexpr uint64_t kNoTimeout = UINT64_MAX;

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                  VkAccessFlags src_access, VkAccessFlags dst_access, VkPipelineStageFlags src,
                  VkPipelineStageFlags dst) {
    VkImageMemoryBarrier b{};
    b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, src, dst, 0, 0, nullptr, 0, nullptr, 1, &b);
}

bool allocate(const PresentDevice& device, VkMemoryRequirements needs,
              VkMemoryPropertyFlags properties, VkDeviceMemory& memory, const char* what,
              std::vector<Diagnostic>& diagnostics) {
    VkMemoryAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    info.allocationSize = needs.size;
    info.memoryTypeIndex = device.memoryType(needs.memoryTypeBits, properties);
    if (info.memoryTypeIndex == UINT32_MAX) {
        diagnostics.push_back(
            vk::vulkanSetupError("vkAllocateMemory", std::string("no memory type fits ") + what));
        return false;
    }
    return vk::check(vkAllocateMemory(device.device(), &info, nullptr, &memory), "vkAllocateMemory",
                     diagnostics, what);
}

} // namespace

FitRect fitFrame(uint32_t frame_w, uint32_t frame_h, uint32_t window_w, uint32_t window_h) {
    FitRect r;
    if (frame_w == 0 || frame_h == 0 || window_w == 0 || window_h == 0) return r;
    // Compare window_w / window_h with frame_w / frame_h in integers: no rounding decides it.
    if (uint64_t(window_w) * frame_h <= uint64_t(window_h) * frame_w) {
        r.width = window_w;
        r.height = uint32_t(std::max<uint64_t>(1, uint64_t(window_w) * frame_h / frame_w));
    } else {
        r.height = window_h;
        r.width = uint32_t(std::max<uint64_t>(1, uint64_t(window_h) * frame_w / frame_h));
    }
    r.x = int32_t((window_w - r.width) / 2);
    r.y = int32_t((window_h - r.height) / 2);
    return r;
}

std::unique_ptr<Presenter> Presenter::create(const PresentDevice& device, uint32_t frame_width,
                                             uint32_t frame_height, uint32_t window_w,
                                             uint32_t window_h,
                                             std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<Presenter> p(new Presenter(device));
    VkDevice d = device.device();
    p->frame_width_ = frame_width;
    p->frame_height_ = frame_height;
    const VkFormat format = chooseSurfaceFormat(device, diagnostics);
    if (format == VK_FORMAT_UNDEFINED) return nullptr;
    p->pass_ = createOverlayPass(d, format, diagnostics);
    if (p->pass_ == VK_NULL_HANDLE) return nullptr;
    p->swapchain_.format = format;
    if (!createSwapchain(device, format, p->pass_, std::max(window_w, 1u), std::max(window_h, 1u),
                         p->swapchain_, diagnostics))
        return nullptr;

    VkBufferCreateInfo buffer{};
    buffer.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer.size = VkDeviceSize(frame_width) * frame_height * 4;
    buffer.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    buffer.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (!vk::check(vkCreateBuffer(d, &buffer, nullptr, &p->staging_), "vkCreateBuffer", diagnostics,
                   "the frame's staging buffer"))
        return nullptr;
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(d, p->staging_, &needs);
    if (!allocate(device, needs,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                  p->staging_memory_, "the frame's staging buffer", diagnostics) ||
        !vk::check(vkBindBufferMemory(d, p->staging_, p->staging_memory_, 0), "vkBindBufferMemory",
                   diagnostics) ||
        !vk::check(vkMapMemory(d, p->staging_memory_, 0, VK_WHOLE_SIZE, 0, &p->staging_map_),
                   "vkMapMemory", diagnostics))
        return nullptr;

    VkImageCreateInfo image{};
    image.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    image.imageType = VK_IMAGE_TYPE_2D;
    image.format = kFrameFormat;
    image.extent = {frame_width, frame_height, 1};
    image.mipLevels = 1;
    image.arrayLayers = 1;
    image.samples = VK_SAMPLE_COUNT_1_BIT;
    image.tiling = VK_IMAGE_TILING_OPTIMAL;
    image.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    image.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (!vk::check(vkCreateImage(d, &image, nullptr, &p->frame_image_), "vkCreateImage",
                   diagnostics, "the window's frame image"))
        return nullptr;
    vkGetImageMemoryRequirements(d, p->frame_image_, &needs);
    if (!allocate(device, needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, p->frame_memory_,
                  "the window's frame image", diagnostics) ||
        !vk::check(vkBindImageMemory(d, p->frame_image_, p->frame_memory_, 0), "vkBindImageMemory",
                   diagnostics))
        return nullptr;

    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = device.queueFamily();
    if (!vk::check(vkCreateCommandPool(d, &pool, nullptr, &p->pool_), "vkCreateCommandPool",
                   diagnostics))
        return nullptr;
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = p->pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    if (!vk::check(vkAllocateCommandBuffers(d, &alloc, &p->commands_), "vkAllocateCommandBuffers",
                   diagnostics))
        return nullptr;
    VkSemaphoreCreateInfo semaphore{};
    semaphore.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    if (!vk::check(vkCreateSemaphore(d, &semaphore, nullptr, &p->acquired_), "vkCreateSemaphore",
                   diagnostics) ||
        !vk::check(vkCreateSemaphore(d, &semaphore, nullptr, &p->rendered_), "vkCreateSemaphore",
                   diagnostics) ||
        !vk::check(vkCreateFence(d, &fence, nullptr, &p->fence_), "vkCreateFence", diagnostics))
        return nullptr;
    return p;
}

Presenter::~Presenter() {
    VkDevice d = device_.device();
    vkDeviceWaitIdle(d);
    if (fence_ != VK_NULL_HANDLE) vkDestroyFence(d, fence_, nullptr);
    if (rendered_ != VK_NULL_HANDLE) vkDestroySemaphore(d, rendered_, nullptr);
    if (acquired_ != VK_NULL_HANDLE) vkDestroySemaphore(d, acquired_, nullptr);
    if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(d, pool_, nullptr);
    if (capture_ != VK_NULL_HANDLE) vkDestroyBuffer(d, capture_, nullptr);
    if (capture_memory_ != VK_NULL_HANDLE) vkFreeMemory(d, capture_memory_, nullptr);
    if (frame_image_ != VK_NULL_HANDLE) vkDestroyImage(d, frame_image_, nullptr);
    if (frame_memory_ != VK_NULL_HANDLE) vkFreeMemory(d, frame_memory_, nullptr);
    if (staging_ != VK_NULL_HANDLE) vkDestroyBuffer(d, staging_, nullptr);
    if (staging_memory_ != VK_NULL_HANDLE) vkFreeMemory(d, staging_memory_, nullptr);
    destroySwapchain(d, swapchain_);
    if (pass_ != VK_NULL_HANDLE) vkDestroyRenderPass(d, pass_, nullptr);
}

bool Presenter::takeRecreated() {
    const bool r = recreated_;
    recreated_ = false;
    return r;
}

bool Presenter::recreate(uint32_t window_w, uint32_t window_h,
                         std::vector<Diagnostic>& diagnostics) {
    if (!vk::check(vkDeviceWaitIdle(device_.device()), "vkDeviceWaitIdle", diagnostics))
        return false;
    recreated_ = true;
    return createSwapchain(device_, swapchain_.format, pass_, window_w, window_h, swapchain_,
                           diagnostics);
}

bool Presenter::recordFrame(const Image& frame, uint32_t image_index,
                            const OverlayRecorder& overlay, bool capture,
                            std::vector<Diagnostic>& diagnostics) {
    VkCommandBuffer cmd = commands_;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (!vk::check(vkResetCommandBuffer(cmd, 0), "vkResetCommandBuffer", diagnostics) ||
        !vk::check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer", diagnostics))
        return false;

    // The frame into the frame image.
    imageBarrier(cmd, frame_image_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 0, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {frame.width, frame.height, 1};
    vkCmdCopyBufferToImage(cmd, staging_, frame_image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                           &copy);
    imageBarrier(cmd, frame_image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);

    // The swapchain image: bars, then the frame scaled into the rectangle of its aspect.
    VkImage target = swapchain_.images[image_index];
    imageBarrier(cmd, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkClearColorValue bars{{0.0f, 0.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &bars, 1, &whole);
    imageBarrier(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);
    const FitRect fit =
        fitFrame(frame.width, frame.height, swapchain_.extent.width, swapchain_.extent.height);
    VkImageBlit blit{};
    blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = {int32_t(frame.width), int32_t(frame.height), 1};
    blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.dstOffsets[0] = {fit.x, fit.y, 0};
    blit.dstOffsets[1] = {fit.x + int32_t(fit.width), fit.y + int32_t(fit.height), 1};
    // Pixel for pixel when the window fits the frame exactly; smoothed when scaled.
    const VkFilter filter = fit.width == frame.width && fit.height == frame.height
                                ? VK_FILTER_NEAREST
                                : VK_FILTER_LINEAR;
    vkCmdBlitImage(cmd, frame_image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, filter);

    // The overlay over it; the pass leaves the image ready to present.
    VkRenderPassBeginInfo pass{};
    pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    pass.renderPass = pass_;
    pass.framebuffer = swapchain_.framebuffers[image_index];
    pass.renderArea = {{0, 0}, swapchain_.extent};
    vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
    if (overlay) overlay(cmd);
    vkCmdEndRenderPass(cmd);
    if (capture) {
        // The presented image, overlay included, into the readback buffer; then back to the
        // layout the present expects.
        imageBarrier(cmd, target, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_PIPELINE_STAGE_TRANSFER_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {swapchain_.extent.width, swapchain_.extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, capture_, 1,
                               &region);
        imageBarrier(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                     VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_TRANSFER_READ_BIT, 0,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
        VkBufferMemoryBarrier host{};
        host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
        host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        host.buffer = capture_;
        host.size = VK_WHOLE_SIZE;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                             nullptr, 1, &host, 0, nullptr);
    }
    return vk::check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer", diagnostics);
}

bool Presenter::prepareCapture(std::vector<Diagnostic>& diagnostics) {
    if (!swapchain_.readable) {
        diagnostics.push_back(vk::vulkanSetupError(
            "vkGetPhysicalDeviceSurfaceCapabilitiesKHR",
            "this window's images cannot be read back (no transfer-source usage)"));
        return false;
    }
    const VkDeviceSize bytes = VkDeviceSize(swapchain_.extent.width) * swapchain_.extent.height * 4;
    if (capture_ != VK_NULL_HANDLE && capture_bytes_ == bytes) return true;
    VkDevice d = device_.device();
    if (capture_ != VK_NULL_HANDLE) {
        vkDestroyBuffer(d, capture_, nullptr);
        vkFreeMemory(d, capture_memory_, nullptr);
        capture_ = VK_NULL_HANDLE;
        capture_memory_ = VK_NULL_HANDLE;
    }
    VkBufferCreateInfo buffer{};
    buffer.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer.size = bytes;
    buffer.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    buffer.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (!vk::check(vkCreateBuffer(d, &buffer, nullptr, &capture_), "vkCreateBuffer", diagnostics,
                   "the window capture")) {
        capture_ = VK_NULL_HANDLE;
        return false;
    }
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(d, capture_, &needs);
    if (!allocate(device_, needs,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                  capture_memory_, "the window capture", diagnostics) ||
        !vk::check(vkBindBufferMemory(d, capture_, capture_memory_, 0), "vkBindBufferMemory",
                   diagnostics) ||
        !vk::check(vkMapMemory(d, capture_memory_, 0, VK_WHOLE_SIZE, 0, &capture_map_),
                   "vkMapMemory", diagnostics))
        return false;
    capture_bytes_ = bytes;
    return true;
}

void Presenter::copyCapture(Image& out) const {
    out.width = swapchain_.extent.width;
    out.height = swapchain_.extent.height;
    out.rgba8.resize(size_t(capture_bytes_));
    std::memcpy(out.rgba8.data(), capture_map_, out.rgba8.size());
    if (swapchain_.format == VK_FORMAT_B8G8R8A8_UNORM) {
        for (size_t i = 0; i + 3 < out.rgba8.size(); i += 4)
            std::swap(out.rgba8[i], out.rgba8[i + 2]);
    }
    // The window is opaque: what is shown has no alpha, whatever the overlay blended into it.
    for (size_t i = 3; i < out.rgba8.size(); i += 4) out.rgba8[i] = 255;
}

bool Presenter::present(const Image& frame, uint32_t window_w, uint32_t window_h,
                        const OverlayRecorder& overlay, std::vector<Diagnostic>& diagnostics,
                        Image* capture, bool* captured) {
    if (captured != nullptr) *captured = false;
    if (window_w == 0 || window_h == 0) return true; // minimised: nothing to show
    if (frame.width != frame_width_ || frame.height != frame_height_ ||
        frame.rgba8.size() != size_t(frame.width) * frame.height * 4) {
        diagnostics.push_back(vk::vulkanSetupError(
            "present", "the frame is " + std::to_string(frame.width) + "x" +
                           std::to_string(frame.height) + ", the window's frames are " +
                           std::to_string(frame_width_) + "x" + std::to_string(frame_height_)));
        return false;
    }
    if (window_w != swapchain_.extent.width || window_h != swapchain_.extent.height)
        return recreate(window_w, window_h, diagnostics);

    VkDevice d = device_.device();
    // One frame in flight: the staging buffer and command buffer are free once this fence is.
    if (!vk::check(vkWaitForFences(d, 1, &fence_, VK_TRUE, kNoTimeout), "vkWaitForFences",
                   diagnostics))
        return false;
    uint32_t image_index = 0;
    VkResult acquired = vkAcquireNextImageKHR(d, swapchain_.handle, kNoTimeout, acquired_,
                                              VK_NULL_HANDLE, &image_index);
    if (acquired == VK_ERROR_OUT_OF_DATE_KHR) return recreate(window_w, window_h, diagnostics);
    if (acquired != VK_SUBOPTIMAL_KHR && !vk::check(acquired, "vkAcquireNextImageKHR", diagnostics))
        return false;

    if (capture != nullptr && !prepareCapture(diagnostics)) return false;
    std::memcpy(staging_map_, frame.rgba8.data(), frame.rgba8.size());
    if (!recordFrame(frame, image_index, overlay, capture != nullptr, diagnostics)) return false;
    if (!vk::check(vkResetFences(d, 1, &fence_), "vkResetFences", diagnostics)) return false;
    const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &acquired_;
    submit.pWaitDstStageMask = &wait_stage;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &rendered_;
    if (!vk::check(vkQueueSubmit(device_.queue(), 1, &submit, fence_), "vkQueueSubmit",
                   diagnostics))
        return false;

    VkPresentInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &rendered_;
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain_.handle;
    info.pImageIndices = &image_index;
    const VkResult presented = vkQueuePresentKHR(device_.queue(), &info);
    if (capture != nullptr) {
        if (!vk::check(vkWaitForFences(d, 1, &fence_, VK_TRUE, kNoTimeout), "vkWaitForFences",
                       diagnostics))
            return false;
        copyCapture(*capture);
        if (captured != nullptr) *captured = true;
    }
    if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR ||
        acquired == VK_SUBOPTIMAL_KHR)
        return recreate(window_w, window_h, diagnostics);
    return vk::check(presented, "vkQueuePresentKHR", diagnostics);
}

bool Presenter::runOnce(const std::function<void(VkCommandBuffer)>& record,
                        std::vector<Diagnostic>& diagnostics) {
    VkDevice d = device_.device();
    if (!vk::check(vkWaitForFences(d, 1, &fence_, VK_TRUE, kNoTimeout), "vkWaitForFences",
                   diagnostics) ||
        !vk::check(vkResetCommandBuffer(commands_, 0), "vkResetCommandBuffer", diagnostics))
        return false;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (!vk::check(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer", diagnostics))
        return false;
    record(commands_);
    if (!vk::check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer", diagnostics)) return false;
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    return vk::check(vkQueueSubmit(device_.queue(), 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit",
                     diagnostics) &&
           vk::check(vkQueueWaitIdle(device_.queue()), "vkQueueWaitIdle", diagnostics);
}

} // namespace spindrift::viewer
