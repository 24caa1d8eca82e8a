// The renderer's state, shared by the offscreen frame (renderer.cpp) and the host frame
// (host_frame.cpp), and the frame phases both record. Internal to src/render.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/billboard_pass.h"
#include "render/compute_raster.h"
#include "render/depth_linearize_pass.h"
#include "render/device_draw_args.h"
#include "render/distortion_pass.h"
#include "render/frame_targets.h"
#include "render/half_res_pass.h"
#include "render/line_overlay_pass.h"
#include "render/local_shadows.h"
#include "render/mesh_pass.h"
#include "render/mesh_store.h"
#include "render/motion_pass.h"
#include "render/oit_pass.h"
#include "render/opaque_pass.h"
#include "render/particle_bindings.h"
#include "render/post_pass.h"
#include "render/renderer.h"
#include "render/scene_depth_export.h"
#include "render/shadow_pass.h"
#include "render/strip_pass.h"
#include "render/sun_shadows.h"
#include "render/texture_store.h"
#include "vulkan/commands.h"
#include "vulkan/context.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

inline constexpr uint32_t kFrameTimestamps = 4;

// Declaration order is destruction order reversed: everything made from the device goes before
// it, and the device before the instance.
class Renderer {
public:
    RendererConfig config;
    DeviceInfo device_info;
    std::shared_ptr<vk::Context> vulkan; // shared with the GPU simulation instances it draws
    vk::Device* device = nullptr;        // vulkan->device
    std::unique_ptr<vk::CommandRunner> runner;
    std::unique_ptr<FrameTargets> targets;
    std::unique_ptr<TextureStore> textures;
    std::unique_ptr<MeshStore> meshes;
    std::unique_ptr<OpaquePass> opaque;
    std::unique_ptr<ParticleBindings> particle_bindings;
    std::unique_ptr<BillboardPass> billboards;
    std::unique_ptr<DeviceDrawArgs> draw_args;
    std::unique_ptr<StripPass> strips;
    std::unique_ptr<MeshPass> mesh_pass;
    // The sun's shadow maps (bound by every receiver's frame set from the start) and the current
    // frame's fit of them (prepareFrame; no cascades in a host frame).
    std::unique_ptr<ShadowPass> shadows;
    SunShadowFit shadow_fit;
    LocalShadowFit local_shadow_fit; // this frame's point and spot light shadows (local_shadows.h)
    std::unique_ptr<OitPass> oit;    // made by the first frame that draws a batch through OIT
    // Made by the first offscreen frame that draws a distortion billboard; in a host frame, by
    // the first whose colour allows the copy (host_color_copyable), made again at a new size.
    std::unique_ptr<DistortionCopy> distortion;
    std::unique_ptr<PostPass> post; // made by the first frame that asks for HDR post
    // Made by the first offscreen frame with an overlay (FrameView::overlay).
    std::unique_ptr<LineOverlayPass> overlay;
    // Made by the first offscreen frame that asks for motion vectors (FrameView::motion).
    std::unique_ptr<MotionPass> motion;
    // Made by the first offscreen frame that draws a batch by compute (FrameView::raster); a
    // host frame has none, so every batch takes the graphics path there.
    std::unique_ptr<ComputeRaster> raster;
    // The opaque depth handed to depth-buffer collision (FrameView::scene_depth).
    SceneDepthBuffers scene_depth;
    bool frame_scene_depth = false;  // this frame copies it (prepareFrame)
    bool has_previous_frame = false; // automatic exposure's clock (adaptationStep)
    float previous_time_s = 0;
    // kFrameTimestamps queries: frame start, draws done, post done, readback done; empty if
    // unsupported.
    vk::OwnedQueryPool timestamps;
    // A host-frame renderer (render/host_frame.h) draws into the host's images: no offscreen
    // colour, depth, readback or opaque pass; the host's depth is linearised instead.
    bool host_frame = false;
    // This frame draws its distortion batches (prepareFrame: it has some, offscreen or in a host
    // frame whose colour image is a transfer source: host_color_copyable).
    bool frame_distortion = false;
    bool host_color_copyable = false;
    // This frame draws motion vectors (prepareFrame: the view asks; a host frame only with the
    // host's motion image), with these settings.
    bool frame_motion = false;
    MotionVectorsDesc motion_desc;
    // Made by the first offscreen frame that asks for half-resolution particles
    // (FrameView::particle_resolution); this frame draws them (prepareFrame: the view asks,
    // offscreen), and the view's near and far planes, which its depth downsample needs.
    std::unique_ptr<HalfResPass> half_res;
    bool frame_half_res = false;
    float near_m = 0;
    float far_m = 0;
    // RasterPath::automatic's threshold on this device (deviceComputeRasterThreshold), used where
    // FrameView::compute_raster_threshold is kDeviceComputeRasterThreshold.
    uint64_t raster_threshold = kDefaultComputeRasterThreshold;
    std::unique_ptr<DepthLinearizePass> linearize;
    // Signalled by the host's submission of each recorded frame (value = frames recorded). Frame
    // k (from 1) writes what the CPU writes for it (globals, uploads, descriptor sets) into slot
    // (k - 1) mod frames_in_flight, after waiting for frame k - frames_in_flight to finish; the
    // offscreen frame has one slot and waits for each frame anyway.
    vk::OwnedSemaphore frames_done;
    uint64_t frames_recorded = 0;
    uint32_t frames_in_flight = 1; // 1..kMaxFrameSlots
    uint32_t slot = 0;             // of the frame being prepared and recorded
};

// What a frame holds in all: the renderer's per-frame limits apply to these.
struct FrameTotals {
    uint64_t records = 0;
    uint64_t points = 0; // of strip batches with segments
    uint64_t segments = 0;
    uint32_t device_batches = 0; // batches of device records or strips
    uint32_t device_strip_batches = 0;
    uint32_t device_mesh_batches = 0;
    uint64_t mesh_records = 0; // of records, in mesh batches
    uint64_t oit_records = 0;  // drawn through OIT (drawsThroughOit)
    uint64_t oit_segments = 0;
    uint32_t oit_device_batches = 0;
    uint32_t distortion_batches = 0; // billboard batches with records that bend the frame
    // Batches with records, points or strips that write motion (writesMotion), and of them the
    // strip and mesh batches.
    uint32_t motion_batches = 0;
    uint32_t motion_strip_batches = 0;
    uint32_t motion_mesh_batches = 0;
};

// What the public DeviceInfo says of a device.
DeviceInfo deviceInfo(const vk::PhysicalDevice& device);

// After r.vulkan, r.device, r.runner and r.targets: the texture and mesh stores, the particle
// bindings (for r.targets' formats) and the particle passes. False with an error on failure.
bool createParticlePasses(Renderer& r, std::vector<Diagnostic>& diagnostics);

// Checks the view and the batches, makes the OIT pass if the frame needs it (at the targets'
// size and colour format), the pipeline variants the batches need, uploads their host records,
// points and segments into r.slot's buffers and writes that slot's frame globals (viewGlobals at
// the targets' size). That slot's buffers must not be in use by pending work. False with errors
// otherwise.
bool prepareFrame(Renderer& r, const FrameView& view, std::span<const DrawBatch> batches,
                  FrameTotals& totals, bool& any_oit, std::vector<Diagnostic>& diagnostics);

// The particle phases both frames share, after the opaque scene is in the targets' colour and
// depth (COLOR_ATTACHMENT_OPTIMAL, DEPTH_ATTACHMENT_OPTIMAL, written by attachment writes) and
// its linear depth in the linear-depth target (COLOR_ATTACHMENT_OPTIMAL): the opaque meshes,
// the frame's particles, then those drawn through OIT and their composite, then (offscreen
// frames) the distortion billboards over a copy of the result, then (offscreen frames that ask)
// the motion vectors (render/motion_pass.h; a host frame draws its own after: host_frame.cpp). With
// half-resolution particles (r.frame_half_res), the frame's particle phase draws its billboards and
// strips into the half-resolution layer, blended over the frame after the phase's other batches.
// Leaves colour and depth in those layouts, last written by attachment writes; the linear depth
// SHADER_READ_ONLY_OPTIMAL.
void recordParticlePhases(const Renderer& r, VkCommandBuffer cmd,
                          std::span<const DrawBatch> batches, Transparency transparency,
                          bool any_oit);

// The particles' motion draws (the batches that write motion, opaque meshes first) in the scope
// beginMotionParticles began (render/motion_pass.h), which it ends.
void recordMotionDraws(const Renderer& r, VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                       Transparency transparency);

// The frame's statistics from its totals, its batches and its view's lights (gpu_ms left 0).
// The motion-vector counts when the frame draws them, the shadow fits' counts, the distortion
// batches drawn or left out and those drawn at half resolution too. After the frame is recorded
// (which batches the compute rasteriser took decides the half-resolution ones).
FrameStats frameStats(const Renderer& r, const FrameTotals& totals,
                      std::span<const DrawBatch> batches, const FrameView& view);

} // namespace spindrift::render
