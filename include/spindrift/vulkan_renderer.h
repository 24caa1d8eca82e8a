// Spindrift's particles drawn into a host's own Vulkan frame: on the host's instance, device and
// queue (no second device), recorded into a command buffer the host gives, over the host's colour
// and depth images. The one public header that includes Vulkan; the others stay free of it.
// docs/host-vulkan.md is the manual: what the device must enable, the formats, the layouts, the
// synchronisation and the lifetime of what Spindrift keeps between frames.
//
//     spindrift::VulkanRendererConfig config;
//     config.device = {instance, VK_API_VERSION_1_3, physical, device, &device_info,
//                      family, queue};
//     config.color_format = VK_FORMAT_R8G8B8A8_SRGB;
//     config.depth_format = VK_FORMAT_D32_SFLOAT;
//     auto particles = spindrift::VulkanRenderer::create(config, diagnostics);
//     particles->useFor(world); // before the world creates instances: GPU ones on this device
//
//     // each frame:
//     world.update(dt);
//     world.drawList(view, list);
//     // record the opaque scene (with vulkanClipFromWorld's matrix) into cmd, then:
//     spindrift::VulkanFrameResult result;
//     particles->record(frame, list, library, result, diagnostics);
//     // end cmd; submit it, signalling result.signal_semaphore to result.signal_value.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "spindrift/draw_list.h"
#include "spindrift/export.h"
#include "spindrift/runtime.h"
#include "spindrift/scene_desc.h"

namespace spindrift {

// The host's Vulkan objects, borrowed: Spindrift never destroys them, and they must outlive the
// VulkanRenderer and every world it was used for. The device must have been created for Vulkan
// 1.3 with dynamicRendering and synchronization2 (VkPhysicalDeviceVulkan13Features),
// bufferDeviceAddress and timelineSemaphore (VkPhysicalDeviceVulkan12Features) enabled, and a
// queue of queue_family, which must do graphics and compute. Spindrift calls Vulkan through the
// system loader (libvulkan), like a host that links it.
struct VulkanDevice {
    VkInstance instance = VK_NULL_HANDLE;
    uint32_t instance_api_version = 0; // VkApplicationInfo::apiVersion of the instance, >= 1.3
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    // The create info the device was made with (read during create only: its queues and the
    // feature structures of its pNext chain; a device cannot be asked what it enabled).
    const VkDeviceCreateInfo* device_create_info = nullptr;
    uint32_t queue_family = 0;
    VkQueue queue = VK_NULL_HANDLE; // Spindrift submits to it (see "Queue" in the manual)
};

struct VulkanRendererConfig {
    VulkanDevice device;
    // The formats of the images every frame draws into. Colour: R8G8B8A8 or B8G8R8A8 (UNORM or
    // SRGB), A2B10G10R10_UNORM_PACK32, R16G16B16A16_SFLOAT; Spindrift writes linear colour, which
    // an _SRGB format encodes. Depth: D32_SFLOAT, D16_UNORM, D24_UNORM_S8_UINT or
    // D32_SFLOAT_S8_UINT (the stencil is kept as the host left it; Spindrift never writes it).
    VkFormat color_format = VK_FORMAT_R8G8B8A8_SRGB;
    VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
    // Frames the host may have recorded and submitted before the first of them has finished on
    // the GPU, in [1, 4]: what Spindrift writes from the CPU for a frame (its camera, the
    // particles and strips of CPU instances) exists this many times, so record() waits only for
    // the frame this many frames back. Match the host's own frames in flight.
    uint32_t frames_in_flight = 2;
};

// One of the host's images: the whole image (one mip level, one layer) and a view of it.
// Colour: usage COLOR_ATTACHMENT. Depth: usage DEPTH_STENCIL_ATTACHMENT and SAMPLED (the soft
// fade reads it), the view's aspect DEPTH (for a format with stencil too: the one view is both
// sampled and attached).
struct VulkanImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;       // now (UNDEFINED discards contents)
    VkImageLayout final_layout = VK_IMAGE_LAYOUT_UNDEFINED; // to leave it in (not UNDEFINED)
};

struct VulkanFrame {
    // In the recording state, outside any render pass or rendering scope, of a pool of the
    // queue family given at create.
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    VkExtent2D extent{}; // of both images; each side in [16, 8192] and the device's limits
    VulkanImage color;   // in VulkanRendererConfig::color_format, holding the host's scene
    VulkanImage depth;   // in depth_format, holding its depth: written with vulkanClipFromWorld
    // The camera the draw list was built with (its viewport_* and aspect are not used: the
    // extent is). order_independent draws alpha and premultiplied batches through weighted
    // blended OIT. fov_y_deg must be in [1, 179].
    DrawView view;
    SunDesc sun; // lights lit particles
    Float3 ambient{0.12f, 0.12f, 0.15f};
    // Point and spot lights (a scene's "lights": docs/rendering.md, "Lights"), read during record
    // only; each checked as a scene file's (an error naming it otherwise). The frame shades with
    // the first 64 and counts the rest (VulkanFrameResult::lights_dropped).
    std::span<const LightDesc> lights;
    // The sky light (a scene's "sky"): lit particles take its irradiance for their normal.
    SkyDesc sky;
    // Sun shadows are not drawn into a host's frame (VulkanFrameResult::shadows_not_drawn says
    // when they were asked for); the default asks for none.
    ShadowDesc shadows{false};
    // Motion vectors for temporal anti-aliasing (docs/rendering.md, "Motion vectors") are not
    // drawn into a host's frame yet: it has no motion attachment to pass. Asking for them is
    // counted (VulkanFrameResult::motion_not_drawn), never silently dropped; the host's own motion
    // pass keeps the particles' pixels (they are not in its depth) at its background's motion.
    bool motion_vectors = false;
};

struct VulkanFrameResult {
    // The host's submission of the command buffer must signal this timeline semaphore to this
    // value (VkSemaphoreSubmitInfo); the next record waits for it before reusing what this frame
    // reads.
    VkSemaphore signal_semaphore = VK_NULL_HANDLE;
    uint64_t signal_value = 0;
    uint32_t batches = 0;        // drawn
    uint64_t host_particles = 0; // billboard and mesh particles uploaded from the host
    uint32_t device_batches = 0; // drawn from the device (GPU instances), counts unread
    uint32_t lights_drawn = 0;   // of VulkanFrame::lights, those the frame shaded with
    uint32_t lights_dropped = 0; // past the frame's 64
    // What a host frame leaves out, never silently: the sun shadows asked for (1 or 0; a host
    // frame has no shadow maps) and the distortion batches (render.distortion: it has no copy of
    // the host's colour to read).
    uint32_t shadows_not_drawn = 0;
    uint32_t distortion_not_drawn = 0;
    // 1 when VulkanFrame::motion_vectors asked for motion vectors, which a host frame does not
    // draw.
    uint32_t motion_not_drawn = 0;
};

class SPINDRIFT_API VulkanRenderer {
public:
    // Borrows the host's device (checking what it was created with) and makes the pipelines for
    // the two formats. nullptr with an error naming every problem: a null handle, Vulkan older
    // than 1.3, each missing feature by its Vulkan name, a queue family that cannot do graphics
    // and compute or was not created, a format Spindrift does not draw into or the device cannot
    // use. Never throws, never aborts.
    static std::unique_ptr<VulkanRenderer> create(const VulkanRendererConfig& config,
                                                  std::vector<Diagnostic>& diagnostics);
    // Waits for nothing and destroys only Spindrift's objects: the host makes sure no submitted
    // frame still runs (e.g. vkQueueWaitIdle) and destroys the worlds it was used for first.
    ~VulkanRenderer();
    VulkanRenderer(const VulkanRenderer&) = delete;
    VulkanRenderer& operator=(const VulkanRenderer&) = delete;

    // The world's GPU-simulated instances run on this device and queue, their particles drawn
    // from device memory (no second device, nothing read back). Call before the world creates
    // any instance; the world must be destroyed before this renderer.
    void useFor(World& world);

    // Records the particles of `list` (World::drawList for frame.view) into frame.command_buffer
    // over the host's images: depth-tested against the host's depth, soft particles fading
    // against it, blended over its colour; both images left in their final layouts. Textures
    // and meshes of the list's effects are read (from `library`'s files) and uploaded the first
    // time they are drawn. Waits first for the signal of the frame frames_in_flight back (and,
    // when the extent changes, for every recorded frame). False with an error,
    // nothing recorded, on bad input (null handles, a layout, an extent out of range, a view
    // out of range) or a failed Vulkan call. One thread at a time.
    bool record(const VulkanFrame& frame, const DrawList& list, const EffectLibrary& library,
                VulkanFrameResult& result, std::vector<Diagnostic>& diagnostics);

    struct Impl;

private:
    explicit VulkanRenderer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// The clip-from-world matrix Spindrift draws a frame with (column-major, 16 floats: element
// [column * 4 + row]): right-handed world, Y up, Vulkan clip space (+y down, depth 0 at near_m
// and 1 at far_m), the aspect of width / height. The host draws its depth with it (or with the
// same projection), so that its surfaces hide particles behind them and soft particles fade at
// them.
SPINDRIFT_API void vulkanClipFromWorld(const DrawView& view, uint32_t width, uint32_t height,
                                       float out[16]);

} // namespace spindrift
