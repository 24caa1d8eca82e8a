// The renderer on a host's Vulkan device, recording into the host's command buffer and drawing
// into the host's colour and depth images (docs/host-vulkan.md: formats, layouts,
// synchronisation, lifetime). The public face is include/spindrift/vulkan_renderer.h; this is
// what it is built on, in the renderer's own terms (batches, FrameView).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/renderer.h"
#include "spindrift/diagnostic.h"
#include "vulkan/host_device.h"

namespace spindrift::render {

// The formats a host frame may have. Colour: R8G8B8A8 and B8G8R8A8 (UNORM or SRGB),
// A2B10G10R10_UNORM_PACK32, R16G16B16A16_SFLOAT. Depth: D32_SFLOAT, D16_UNORM, D24_UNORM_S8_UINT,
// D32_SFLOAT_S8_UINT (the stencil kept). Motion: R16G16_SFLOAT, R32G32_SFLOAT, or UNDEFINED for
// frames without motion vectors. The device must also support the colour format as a blended
// attachment, the depth format as an attachment and sampled image, the motion format as an
// attachment (optimal tiling).
bool isHostColorFormat(VkFormat format);
bool isHostDepthFormat(VkFormat format);
bool isHostMotionFormat(VkFormat format);

// A renderer on the host's device (vk::borrowContext) whose pipelines draw into `formats`, with
// frames_in_flight (1..kMaxFrameSlots) frames recorded before the first of them must have
// finished. nullptr with an error naming every problem (the host device's, an unsupported
// format, frames in flight out of range).
RendererPtr createHostRenderer(const vk::HostDevice& host, TargetFormats formats,
                               uint32_t frames_in_flight, std::vector<Diagnostic>& diagnostics);

struct HostImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;                // of the whole image, one mip level and layer
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED; // now (UNDEFINED: contents discarded)
    VkImageLayout final_layout = VK_IMAGE_LAYOUT_UNDEFINED; // to leave it in; not UNDEFINED
    VkImageUsageFlags usage = 0; // as far as the host states it (TRANSFER_SRC: distortion)
};

struct HostFrame {
    VkCommandBuffer command_buffer = VK_NULL_HANDLE; // recording, outside a rendering scope
    VkExtent2D extent{};                             // of every image
    HostImage color;
    HostImage depth;
    // The host's motion vectors (in the renderer's TargetFormats::motion), holding its scene's
    // motion: the particles that write motion draw theirs over it (FrameView::motion, which must
    // ask exactly when this image is given). Null image: none.
    HostImage motion;
};

// What the host's submission of the frame must signal: the renderer's timeline semaphore, to
// this value.
struct HostFrameSignal {
    VkSemaphore semaphore = VK_NULL_HANDLE;
    uint64_t value = 0;
};

// Records the batches over the host's images: its depth linearised for the soft fade, then the
// particle phases renderFrame draws after its opaque pass (opaque meshes, particles, OIT),
// depth-tested against the host's depth, then, when the frame has a motion image, the particles'
// motion over it (depth-tested too). view gives the camera, the lighting and the
// transparency mode (its background, ground and primitives are the host's business). Waits, first,
// for the signal of the frame frames_in_flight before this one (and, when the extent changed, for
// every recorded frame). False with an error (nothing recorded) when the
// renderer is not a host-frame renderer, the frame is malformed (null handles, a layout,
// an extent out of range) or renderFrame would refuse the view or a batch.
bool recordHostFrame(Renderer& renderer, const HostFrame& frame, const FrameView& view,
                     std::span<const DrawBatch> batches, FrameStats& stats, HostFrameSignal& signal,
                     std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::render
