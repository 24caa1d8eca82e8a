// The images a frame is drawn into, and the buffers that carry it in and out: the renderer's own
// (the offscreen frame, read back) or a host's colour and depth with the renderer's linear depth
// beside them (the host frame, docs/host-vulkan.md). The passes draw into `color` and `depth`
// whoever owns them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/commands.h"
#include "vulkan/device.h"
#include "vulkan/image.h"

namespace spindrift::render {

// Linear HDR colour, the opaque pass's linear view depth (for the soft fade), depth.
inline constexpr VkFormat kColorFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
inline constexpr VkFormat kLinearDepthFormat = VK_FORMAT_R32_SFLOAT;
inline constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
inline constexpr uint32_t kColorBytesPerPixel = 8;
// Motion vectors (render/motion_pass.h, render/shader/motion.h): x and y in pixels, half floats.
inline constexpr VkFormat kMotionFormat = VK_FORMAT_R16G16_SFLOAT;
inline constexpr uint32_t kMotionBytesPerPixel = 4;
// Weighted-blended OIT (render/oit_pass.h, render/shader/oit.h): the weighted sum of premultiplied
// colour with the revealage (product of 1 - coverage) in alpha, and the weighted sum of coverage.
inline constexpr VkFormat kOitAccumulationFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
inline constexpr VkFormat kOitWeightFormat = VK_FORMAT_R16_SFLOAT;

// Frames a host may have recorded and not yet finished (VulkanRendererConfig::frames_in_flight):
// what the CPU writes for a frame (globals, uploaded records, strip points and segments, the
// descriptor sets pointing at them) exists once per slot, frame k using slot k mod the count.
inline constexpr uint32_t kMaxFrameSlots = 4;

// An image a frame draws into, by its handles (owned elsewhere).
struct TargetImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
};

// The formats the particle pipelines are made for: the offscreen frame's, or the host's.
struct TargetFormats {
    VkFormat color = kColorFormat;
    VkFormat depth = kDepthFormat;
    // The motion target's (the offscreen MotionPass's, or a host frame's motion image): the
    // particles' motion variants draw into it.
    VkFormat motion = kMotionFormat;
};

// A depth format with a stencil aspect (a host's D24_UNORM_S8_UINT or D32_SFLOAT_S8_UINT). Its
// layout transitions cover both aspects (the stencil is kept, never written) and, as an
// attachment, it is in DEPTH_STENCIL_ATTACHMENT_OPTIMAL: DEPTH_ATTACHMENT_OPTIMAL for the depth
// alone would need the separateDepthStencilLayouts feature.
bool hasStencil(VkFormat depth_format);
VkImageAspectFlags depthBarrierAspect(VkFormat depth_format);
VkImageLayout depthAttachmentLayout(VkFormat depth_format);

struct FrameTargets {
    uint32_t width = 0;
    uint32_t height = 0;
    TargetFormats formats;
    TargetImage color; // colour attachment (offscreen: then the copy source of the readback)
    TargetImage depth;
    vk::Image2D own_color; // the offscreen frame's colour and depth; empty for a host frame
    vk::Image2D own_depth;
    vk::Image2D linear_depth; // written by the opaque pass (host frame: from the host's depth)
                              // and opaque meshes, sampled by the soft fade
    vk::Buffer readback;      // offscreen: width * height * kColorBytesPerPixel, host-visible
    // One FrameGlobals per frame slot (host-visible uniform buffers): a host frame may record
    // the next frame while earlier ones still run (Renderer::frames_in_flight); offscreen: one.
    std::vector<vk::Buffer> globals;

    VkExtent2D extent() const { return {width, height}; }
};

// The offscreen frame: everything at width x height, owned. nullptr and an error on failure.
std::unique_ptr<FrameTargets> createFrameTargets(const vk::Device& device, uint32_t width,
                                                 uint32_t height,
                                                 std::vector<Diagnostic>& diagnostics);

// A host frame of width x height in `formats`: the linear depth and `slots` globals (one per
// frame in flight); color and depth are set to the host's images each frame. nullptr and an error
// on failure.
std::unique_ptr<FrameTargets> createHostFrameTargets(const vk::Device& device, uint32_t width,
                                                     uint32_t height, TargetFormats formats,
                                                     uint32_t slots,
                                                     std::vector<Diagnostic>& diagnostics);

// The frame's colour and depth attachments, written by one rendering scope and read and
// written (blended, tested) by the next, layouts unchanged.
vk::ImageBarrier colorAttachmentAgain(const FrameTargets& targets);
vk::ImageBarrier depthAttachmentAgain(const FrameTargets& targets);

} // namespace spindrift::render
