// The offscreen images a frame is drawn into, and the buffers that carry it in and out.
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
// Weighted-blended OIT (render/oit_pass.h, render/shader/oit.h): the weighted sum of premultiplied
// colour with the revealage (product of 1 - coverage) in alpha, and the weighted sum of coverage.
inline constexpr VkFormat kOitAccumulationFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
inline constexpr VkFormat kOitWeightFormat = VK_FORMAT_R16_SFLOAT;

struct FrameTargets {
    uint32_t width = 0;
    uint32_t height = 0;
    vk::Image2D color;        // colour attachment, then the copy source of the readback
    vk::Image2D linear_depth; // colour attachment of the opaque pass, sampled by billboards
    vk::Image2D depth;
    vk::Buffer readback; // width * height * kColorBytesPerPixel, host-visible
    vk::Buffer globals;  // one FrameGlobals, host-visible uniform buffer
};

// Everything at width x height. nullptr and an error on failure.
std::unique_ptr<FrameTargets> createFrameTargets(const vk::Device& device, uint32_t width,
                                                 uint32_t height,
                                                 std::vector<Diagnostic>& diagnostics);

// The frame's colour and depth attachments, written by one rendering scope and read and
// written (blended, tested) by the next, layouts unchanged.
vk::ImageBarrier colorAttachmentAgain(const FrameTargets& targets);
vk::ImageBarrier depthAttachmentAgain(const FrameTargets& targets);

} // namespace spindrift::render
