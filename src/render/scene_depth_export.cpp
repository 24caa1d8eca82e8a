#include "render/scene_depth_export.h"

#include <algorithm>
#include <numbers>
#include <string>

#include "vulkan/commands.h"
#include "vulkan/vk_error.h"

namespace spindrift::render {

bool prepareSceneDepth(const vk::Device& device, const FrameTargets& targets, bool host,
                       SceneDepthGrowth growth, SceneDepthBuffers& buffers,
                       std::vector<Diagnostic>& diagnostics) {
    const VkDeviceSize bytes = VkDeviceSize{targets.width} * targets.height * sizeof(float);
    const bool resized = buffers.width != targets.width || buffers.height != targets.height;
    VkDeviceSize device_bytes = bytes;
    if (growth == SceneDepthGrowth::keep) {
        if (buffers.device && bytes > buffers.device_bytes) {
            buffers.outgrown.push_back(std::move(buffers.device));
            buffers.device = {};
            device_bytes = std::max(bytes, buffers.device_bytes + buffers.device_bytes / 2);
        }
    } else if (resized && (buffers.device || buffers.host)) {
        // A step submitted before this frame may still read the old buffer at its address.
        if (!vk::check(vkDeviceWaitIdle(device.handle()), "vkDeviceWaitIdle", diagnostics,
                       "the scene depth buffers")) {
            return false;
        }
        buffers.device = {};
        buffers.host = {};
    }
    buffers.width = targets.width;
    buffers.height = targets.height;
    const std::string size = std::to_string(targets.width) + "x" + std::to_string(targets.height);
    if (!buffers.device) {
        buffers.device = vk::createBuffer(
            device, device_bytes,
            VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
            vk::MemoryUse::device_local, "the scene depth buffer " + size, diagnostics);
        if (!buffers.device) return false;
        buffers.device_bytes = device_bytes;
    }
    if (host && !buffers.host) {
        buffers.host = vk::createBuffer(device, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                        vk::MemoryUse::readback, "the scene depth readback " + size,
                                        diagnostics);
        if (!buffers.host) return false;
    }
    return true;
}

SceneDepth sceneDepthOf(const SceneDepthCopy& copy) {
    SceneDepth depth;
    depth.samples = copy.host;
    depth.width = copy.width;
    depth.height = copy.height;
    depth.eye = {copy.eye.x, copy.eye.y, copy.eye.z};
    depth.forward = {copy.forward.x, copy.forward.y, copy.forward.z};
    depth.up = {copy.up.x, copy.up.y, copy.up.z};
    depth.vertical_fov_rad = copy.fov_deg * std::numbers::pi_v<float> / 180.0f;
    depth.near_m = copy.near_m;
    return depth;
}

void recordSceneDepthCopy(VkCommandBuffer cmd, const FrameTargets& targets, bool host,
                          const SceneDepthBuffers& buffers) {
    vk::imageBarriers(
        cmd, {{targets.linear_depth.get(), VK_IMAGE_ASPECT_COLOR_BIT,
               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT}});
    // Write after read: the steps submitted before this frame read the buffer in compute.
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_NONE,
                      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {targets.width, targets.height, 1};
    vkCmdCopyImageToBuffer(cmd, targets.linear_depth.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           buffers.device.get(), 1, &region);
    if (host) {
        vkCmdCopyImageToBuffer(cmd, targets.linear_depth.get(),
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffers.host.get(), 1,
                               &region);
    }
    // The next steps read it in compute (later submissions on this queue), the host its copy.
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_HOST_READ_BIT);
}

} // namespace spindrift::render
