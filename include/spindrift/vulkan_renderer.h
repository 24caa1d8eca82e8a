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
    // The format of the host's motion-vector image (VulkanFrame::motion): R16G16_SFLOAT or
    // R32G32_SFLOAT; UNDEFINED (the default) when no frame passes one.
    VkFormat motion_format = VK_FORMAT_UNDEFINED;
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
    // The usage the image was created with, as far as the host states it (0: not stated). The
    // colour's VK_IMAGE_USAGE_TRANSFER_SRC_BIT lets the frame draw distortion billboards, which
    // read a copy of it (docs/host-vulkan.md, "Distortion").
    VkImageUsageFlags usage = 0;
};

// Motion vectors for a host with temporal anti-aliasing, a temporal upscaler or motion blur
// (docs/host-vulkan.md, "Motion vectors"): the host's motion pass has written its scene's motion
// into `image`; Spindrift draws the motion of every particle that covers a pixel over it, depth
// tested against the frame's depth as the colour is. A particle's motion is that of its point
// moved back along its velocity over interval_s and seen by the previous camera (a mesh particle's
// vertices under its previous placement; a beam's the camera's of its surface); a fragment writes
// where its alpha reaches coverage_threshold, additive particles only with additive_writes.
struct VulkanMotionVectors {
    // In VulkanRendererConfig::motion_format, usage COLOR_ATTACHMENT; layout as VulkanImage's
    // (UNDEFINED discards the host's motion: only the particles' pixels are then defined). Null
    // image: no motion vectors this frame.
    VulkanImage image;
    // The previous frame's camera (eye, forward, up, fov_y_deg; checked as VulkanFrame::view).
    // Without one the particles move by their own velocity alone, as seen by this camera.
    bool has_previous_view = false;
    DrawView previous_view;
    float interval_s = 1.0f / 60.0f; // seconds between the frames, in [0, 1]
    float coverage_threshold = 0.5f; // in [0, 1]
    bool additive_writes = false;
    // The host's convention: what is written is (this frame's pixel - the previous frame's) in
    // pixels, x right and y down, times these, each finite and in [-1000, 1000]. (1, 1): pixels;
    // (1 / width, 1 / height): UV; (-1 / width, -1 / height): UV from this frame to the previous;
    // (2 / width, -2 / height): NDC with y up.
    float scale_x = 1.0f;
    float scale_y = 1.0f;
};

struct VulkanFrame {
    // In the recording state, outside any render pass or rendering scope, of a pool of the
    // queue family given at create.
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    VkExtent2D extent{}; // of every image; each side in [16, 8192] and the device's limits
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
    // the first 64 and counts the rest (VulkanFrameResult::lights_dropped). Those with `shadows`
    // get shadow maps (the first 8 tiles: a point light takes 6) while `shadows` below is on.
    std::span<const LightDesc> lights;
    // The sky light (a scene's "sky"): lit particles take its irradiance for their normal.
    SkyDesc sky;
    // Shadows (docs/host-vulkan.md, "Shadows"): the particles cast into Spindrift's own maps
    // (mesh particles and cutout cards into depth, smoke into the sun's opacity map) and its lit
    // particles and meshes receive them; the host's surfaces neither cast nor receive. The
    // default asks for none; a scene file's values otherwise, each checked.
    ShadowDesc shadows{false};
    // The particles' motion drawn over the host's motion image; none without an image.
    VulkanMotionVectors motion;
    // Depth-buffer collision (docs/host-vulkan.md, "Depth collision"): a world this renderer runs
    // (useFor) whose GPU instances' depth_buffer collision modules meet this frame's depth from
    // the world's next update on, one frame late as a game's particles are. Spindrift copies the
    // host's depth, linearised, on the device and hands the world its address and this frame's
    // camera; submit the frame before that update. Its CPU instances get nothing from it (the
    // host gives them World::setSceneDepth, or they meet the world's colliders, counted in
    // WorldUpdateReceipt::depth_collisions_unfed). Null: the depth is not copied, and worlds fed
    // before keep the depth they were given until fed again or World::clearSceneDepth.
    World* collision_world = nullptr;
    // Half-resolution particles (docs/rendering.md, "Half-resolution particles"): the billboards
    // and strips drawn into a layer of half the width and height, tested against the nearest of
    // each 2 x 2 block of the host's depth, then blended over its colour with a depth-aware
    // upsample; for fill-heavy effects (smoke, large glows). Opaque meshes, distortion and OIT
    // stay at full resolution.
    bool half_resolution = false;
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
    // Shadows (VulkanFrame::shadows, LightDesc::shadows): the sun's cascades drawn (0: none), the
    // batches cast into the sun's opacity map (smoke) and as cutouts, the point and spot lights
    // drawn with shadow maps, and those past the atlas's tiles (shaded unshadowed).
    uint32_t shadow_cascades = 0;
    uint32_t shadow_opacity_batches = 0;
    uint32_t shadow_cutout_batches = 0;
    uint32_t local_shadows = 0;
    uint32_t local_shadows_dropped = 0;
    // Distortion batches (render.distortion) drawn, and those left out, never silently, because
    // the colour image's usage does not state TRANSFER_SRC (VulkanImage::usage).
    uint32_t distortion_batches = 0;
    uint32_t distortion_not_drawn = 0;
    // The batches that wrote their particles' motion into VulkanFrame::motion's image.
    uint32_t motion_batches = 0;
    // The frame's depth was copied and handed to VulkanFrame::collision_world.
    bool collision_depth = false;
    // Batches drawn at half resolution (VulkanFrame::half_resolution).
    uint32_t half_res_batches = 0;
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
