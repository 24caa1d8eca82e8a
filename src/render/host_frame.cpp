#include "render/host_frame.h"

#include <algorithm>
#include <string>

#include "render/renderer_state.h"
#include "vulkan/commands.h"
#include "vulkan/vk_error.h"

namespace spindrift::render {

namespace {

Diagnostic hostError(std::string message) {
    return vk::vulkanSetupError("host frame", std::move(message));
}

// A format's Vulkan name for errors: those a host frame may have, else the number.
std::string formatName(VkFormat format) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
        return "R8G8B8A8_UNORM";
    case VK_FORMAT_R8G8B8A8_SRGB:
        return "R8G8B8A8_SRGB";
    case VK_FORMAT_B8G8R8A8_UNORM:
        return "B8G8R8A8_UNORM";
    case VK_FORMAT_B8G8R8A8_SRGB:
        return "B8G8R8A8_SRGB";
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
        return "A2B10G10R10_UNORM_PACK32";
    case VK_FORMAT_R16G16B16A16_SFLOAT:
        return "R16G16B16A16_SFLOAT";
    case VK_FORMAT_D32_SFLOAT:
        return "D32_SFLOAT";
    case VK_FORMAT_D16_UNORM:
        return "D16_UNORM";
    case VK_FORMAT_D24_UNORM_S8_UINT:
        return "D24_UNORM_S8_UINT";
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
        return "D32_SFLOAT_S8_UINT";
    case VK_FORMAT_R16G16_SFLOAT:
        return "R16G16_SFLOAT";
    case VK_FORMAT_R32G32_SFLOAT:
        return "R32G32_SFLOAT";
    default:
        return "VkFormat " + std::to_string(static_cast<int>(format));
    }
}

// Whether the device can use `format` (optimal tiling) for all of `needed`.
bool formatSupports(VkPhysicalDevice physical, VkFormat format, VkFormatFeatureFlags needed) {
    VkFormatProperties properties{};
    vkGetPhysicalDeviceFormatProperties(physical, format, &properties);
    return (properties.optimalTilingFeatures & needed) == needed;
}

vk::OwnedSemaphore createTimeline(VkDevice device, std::vector<Diagnostic>& diagnostics) {
    VkSemaphoreTypeCreateInfo type{};
    type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    type.initialValue = 0;
    VkSemaphoreCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    info.pNext = &type;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    if (!vk::check(vkCreateSemaphore(device, &info, nullptr, &semaphore), "vkCreateSemaphore",
                   diagnostics, "the host frames' timeline semaphore")) {
        return {};
    }
    return vk::OwnedSemaphore(device, semaphore);
}

// Why the frame cannot be recorded, or empty.
std::string frameProblem(const Renderer& r, const HostFrame& frame, const FrameView& view) {
    std::string problems;
    auto add = [&](const std::string& p) {
        if (!problems.empty()) problems += "; ";
        problems += p;
    };
    if (frame.command_buffer == VK_NULL_HANDLE) add("the command buffer is null");
    auto image = [&](const HostImage& i, const char* name) {
        if (i.image == VK_NULL_HANDLE || i.view == VK_NULL_HANDLE) {
            add(std::string("the ") + name + " image or view is null");
        }
        if (i.layout == VK_IMAGE_LAYOUT_PREINITIALIZED) {
            add(std::string("the ") + name + " image is PREINITIALIZED (never made an attachment)");
        }
        if (i.final_layout == VK_IMAGE_LAYOUT_UNDEFINED ||
            i.final_layout == VK_IMAGE_LAYOUT_PREINITIALIZED) {
            add(std::string("the ") + name +
                " image's final layout must be one it can be left in (not UNDEFINED or "
                "PREINITIALIZED)");
        }
    };
    image(frame.color, "colour");
    image(frame.depth, "depth");
    const bool has_motion = frame.motion.image != VK_NULL_HANDLE;
    if (has_motion) image(frame.motion, "motion");
    if (has_motion && r.targets->formats.motion == VK_FORMAT_UNDEFINED) {
        add("the frame has a motion image but the renderer was created without a motion format "
            "(VulkanRendererConfig::motion_format)");
    }
    if (view.scene_depth == SceneDepthOutput::device_and_host) {
        add("a host frame copies its depth for collision on the device only");
    }
    if (has_motion != view.motion.enabled) {
        add(has_motion ? "the frame has a motion image but the view asks for no motion vectors"
                       : "the view asks for motion vectors but the frame has no motion image");
    }
    const VkPhysicalDeviceLimits& limits = r.device->limits();
    const uint32_t max_side = std::min({kMaxResolution, limits.maxImageDimension2D,
                                        limits.maxFramebufferWidth, limits.maxFramebufferHeight});
    if (frame.extent.width < kMinResolution || frame.extent.height < kMinResolution ||
        frame.extent.width > max_side || frame.extent.height > max_side) {
        add("the extent " + std::to_string(frame.extent.width) + "x" +
            std::to_string(frame.extent.height) + " is out of range: each side in [" +
            std::to_string(kMinResolution) + ", " + std::to_string(max_side) + "]");
    }
    return problems;
}

// Waits until the host's submission of recorded frame `frame` (from 1; 0: none) has finished.
bool waitForFrame(const Renderer& r, uint64_t frame, std::vector<Diagnostic>& diagnostics) {
    if (frame == 0) return true;
    VkSemaphore semaphore = r.frames_done.get();
    VkSemaphoreWaitInfo wait{};
    wait.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO;
    wait.semaphoreCount = 1;
    wait.pSemaphores = &semaphore;
    wait.pValues = &frame;
    const VkResult result = vkWaitSemaphores(r.device->handle(), &wait, vk::kSubmitTimeoutNs);
    if (result == VK_TIMEOUT) {
        diagnostics.push_back(
            hostError("frame " + std::to_string(frame) +
                      " never signalled its semaphore: submit every recorded frame with the signal "
                      "VulkanRenderer::record returned"));
        return false;
    }
    return vk::check(result, "vkWaitSemaphores", diagnostics, "an earlier host frame");
}

// The targets at the frame's size: new ones (and the OIT pass with them) when it changed, once
// every frame in flight has finished with the old ones.
bool fitTargets(Renderer& r, VkExtent2D extent, std::vector<Diagnostic>& diagnostics) {
    FrameTargets& t = *r.targets;
    if (t.width == extent.width && t.height == extent.height) return true;
    if (!waitForFrame(r, r.frames_recorded, diagnostics)) return false;
    std::unique_ptr<FrameTargets> fresh = createHostFrameTargets(
        *r.device, extent.width, extent.height, t.formats, r.frames_in_flight, diagnostics);
    if (!fresh) return false;
    r.targets = std::move(fresh);
    if (r.distortion) {
        r.distortion.reset(); // made again at the new size by the next frame that allows it
        r.particle_bindings->unbindSceneColor();
    }
    if (r.half_res) {
        r.half_res.reset(); // made again at the new size by the next frame that asks
        r.particle_bindings->unbindHalfResDepth();
    }
    r.particle_bindings->bindTargets(*r.targets);
    r.oit.reset(); // made again at the new size by the first frame that needs it
    return true;
}

// A host colour-format image (its colour or motion) from the layout the host left it in to a
// colour attachment Spindrift reads and writes: the source scope is every command before, every
// write (attachment writes, clears, copies, compute).
vk::ImageBarrier hostColorAttachment(const HostImage& image) {
    return {image.image,
            VK_IMAGE_ASPECT_COLOR_BIT,
            image.layout,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            VK_ACCESS_2_MEMORY_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
}

// The same image, written as an attachment, to the host's final layout: whatever the host does
// next waits for Spindrift's writes.
vk::ImageBarrier hostColorFinal(const HostImage& image) {
    return {image.image,
            VK_IMAGE_ASPECT_COLOR_BIT,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            image.final_layout,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT};
}

void recordHost(const Renderer& r, const HostFrame& frame, const FrameView& view,
                std::span<const DrawBatch> batches, bool any_oit) {
    const FrameTargets& t = *r.targets;
    VkCommandBuffer cmd = frame.command_buffer;
    const VkImageAspectFlags depth_aspect = depthBarrierAspect(t.formats.depth);
    const VkImageLayout depth_attachment = depthAttachmentLayout(t.formats.depth);
    // Whatever the host did to its images before (attachment writes, clears, copies, compute)
    // is made visible: the source scope is every command before, every write.
    const vk::ImageBarrier host_depth_sampled{frame.depth.image,
                                              depth_aspect,
                                              frame.depth.layout,
                                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                              VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                              VK_ACCESS_2_MEMORY_WRITE_BIT,
                                              VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                              VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    const vk::ImageBarrier host_color = hostColorAttachment(frame.color);
    // The linear depth's previous contents are discarded; its last readers were the previous
    // frame's soft fade and its copy for collision.
    const vk::ImageBarrier linear_depth{t.linear_depth.get(),
                                        VK_IMAGE_ASPECT_COLOR_BIT,
                                        VK_IMAGE_LAYOUT_UNDEFINED,
                                        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                        VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                            VK_PIPELINE_STAGE_2_COPY_BIT,
                                        VK_ACCESS_2_NONE,
                                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    vk::imageBarriers(cmd, {host_depth_sampled, host_color, linear_depth});
    r.draw_args->record(cmd, batches, *r.meshes);
    // The sun's and the local lights' shadow maps, before the receivers (lit particles, meshes).
    r.shadows->record(
        cmd, view, batches, r.shadow_fit, r.local_shadow_fit,
        ShadowDrawContext{*r.textures, *r.meshes, *r.billboards, *r.draw_args, *r.strips, r.slot});
    r.linearize->record(cmd, r.slot, t, view.near_m, view.far_m);

    // Sampled -> the attachment opaque meshes write and particles test.
    const vk::ImageBarrier host_depth_attachment{
        frame.depth.image,
        depth_aspect,
        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        depth_attachment,
        VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
        VK_ACCESS_2_NONE,
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
    vk::imageBarriers(cmd, {host_depth_attachment});

    recordParticlePhases(r, cmd, batches, view.transparency, any_oit);

    if (r.frame_motion) {
        // The host's motion of its scene is kept and the particles' drawn over it, tested against
        // the depth the particle phases leave (opaque meshes written).
        vk::imageBarriers(cmd, {hostColorAttachment(frame.motion), depthAttachmentAgain(t)});
        beginMotionParticles(cmd, frame.motion.view, t);
        recordMotionDraws(r, cmd, batches, view.transparency);
        vk::imageBarriers(cmd, {hostColorFinal(frame.motion)});
    }

    // The host's depth, linearised, for the GPU steps of the worlds fed with it (they run after
    // this frame on the same queue); the copy leaves the linear depth in TRANSFER_SRC_OPTIMAL,
    // which the next frame's first barrier discards.
    if (r.frame_scene_depth) recordSceneDepthCopy(cmd, t, false, r.scene_depth);

    // To the host's final layouts; whatever the host does next waits for Spindrift's writes.
    const vk::ImageBarrier color_final = hostColorFinal(frame.color);
    const vk::ImageBarrier depth_final{frame.depth.image,
                                       depth_aspect,
                                       depth_attachment,
                                       frame.depth.final_layout,
                                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                           VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                       VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT};
    vk::imageBarriers(cmd, {color_final, depth_final});
    // The GPU simulation's next steps, submitted to the same queue after this frame, rewrite the
    // draw records, orders and strips this frame reads: they wait for its reads (write after
    // read needs only an execution dependency).
    vk::memoryBarrier(
        cmd,
        VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
        VK_ACCESS_2_NONE);
}

} // namespace

bool isHostColorFormat(VkFormat format) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
        return true;
    default:
        return false;
    }
}

bool isHostDepthFormat(VkFormat format) {
    return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM ||
           format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

bool isHostMotionFormat(VkFormat format) {
    return format == VK_FORMAT_UNDEFINED || format == VK_FORMAT_R16G16_SFLOAT ||
           format == VK_FORMAT_R32G32_SFLOAT;
}

RendererPtr createHostRenderer(const vk::HostDevice& host, TargetFormats formats,
                               uint32_t frames_in_flight, std::vector<Diagnostic>& diagnostics) {
    std::shared_ptr<vk::Context> context = vk::borrowContext(host, diagnostics);
    if (!context) return nullptr;
    std::string problems;
    auto add = [&](const std::string& p) {
        if (!problems.empty()) problems += "; ";
        problems += p;
    };
    const VkPhysicalDevice physical = host.physical_device;
    if (!isHostColorFormat(formats.color)) {
        add("colour format " + formatName(formats.color) +
            " is not one Spindrift draws into (R8G8B8A8 or B8G8R8A8 UNORM or SRGB, "
            "A2B10G10R10_UNORM_PACK32, R16G16B16A16_SFLOAT)");
    } else if (!formatSupports(physical, formats.color,
                               VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT)) {
        add("the device cannot blend into colour format " + formatName(formats.color));
    }
    if (!isHostDepthFormat(formats.depth)) {
        add("depth format " + formatName(formats.depth) +
            " is not one Spindrift reads (D32_SFLOAT, D16_UNORM, D24_UNORM_S8_UINT or "
            "D32_SFLOAT_S8_UINT)");
    } else if (!formatSupports(physical, formats.depth,
                               VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                   VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) {
        add("the device cannot use depth format " + formatName(formats.depth) +
            " as both a depth attachment and a sampled image");
    }
    if (!isHostMotionFormat(formats.motion)) {
        add("motion format " + formatName(formats.motion) +
            " is not one Spindrift writes motion vectors into (R16G16_SFLOAT or R32G32_SFLOAT; "
            "UNDEFINED for none)");
    } else if (formats.motion != VK_FORMAT_UNDEFINED &&
               !formatSupports(physical, formats.motion, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) {
        add("the device cannot draw into motion format " + formatName(formats.motion));
    }
    if (frames_in_flight < 1 || frames_in_flight > kMaxFrameSlots) {
        add("frames in flight " + std::to_string(frames_in_flight) + " is out of range: [1, " +
            std::to_string(kMaxFrameSlots) + "]");
    }
    if (!problems.empty()) {
        diagnostics.push_back(hostError(problems));
        return nullptr;
    }
    RendererPtr r(new Renderer());
    r->host_frame = true;
    r->frames_in_flight = frames_in_flight;
    r->vulkan = std::move(context);
    r->device_info = deviceInfo(r->vulkan->physical);
    r->device = r->vulkan->device.get();
    // Texture and mesh uploads, submitted to the host's queue and waited for.
    r->runner = vk::CommandRunner::create(*r->device, diagnostics);
    if (!r->runner) return nullptr;
    // Sized by the first frame (fitTargets).
    r->targets = createHostFrameTargets(*r->device, kMinResolution, kMinResolution, formats,
                                        frames_in_flight, diagnostics);
    if (!r->targets) return nullptr;
    if (!createParticlePasses(*r, diagnostics)) return nullptr;
    r->linearize = DepthLinearizePass::create(*r->device, frames_in_flight, diagnostics);
    if (!r->linearize) return nullptr;
    r->frames_done = createTimeline(r->device->handle(), diagnostics);
    if (!r->frames_done) return nullptr;
    return r;
}

bool recordHostFrame(Renderer& renderer, const HostFrame& frame, const FrameView& view,
                     std::span<const DrawBatch> batches, FrameStats& stats, HostFrameSignal& signal,
                     std::vector<Diagnostic>& diagnostics) {
    stats = FrameStats{};
    signal = HostFrameSignal{};
    if (!renderer.host_frame) {
        diagnostics.push_back(hostError("this renderer draws offscreen (renderFrame); make one "
                                        "with createVulkanRenderer to record into a host frame"));
        return false;
    }
    if (std::string problem = frameProblem(renderer, frame, view); !problem.empty()) {
        diagnostics.push_back(hostError(problem));
        return false;
    }
    // Frame k reuses the slot of frame k - frames_in_flight: that one must have finished.
    const uint64_t this_frame = renderer.frames_recorded + 1;
    const uint32_t in_flight = renderer.frames_in_flight;
    if (this_frame > in_flight && !waitForFrame(renderer, this_frame - in_flight, diagnostics)) {
        return false;
    }
    if (!fitTargets(renderer, frame.extent, diagnostics)) return false;
    // New shadow maps replace those the recorded frames may still read: those frames finish
    // first (the offscreen renderer waits for its device; a host's may be busy with the host).
    if (view.shadows.enabled &&
        renderer.shadows->needsResize(view.shadows.resolution, view.shadows.opacity_resolution) &&
        !waitForFrame(renderer, renderer.frames_recorded, diagnostics)) {
        return false;
    }
    // Distortion billboards read a copy of the colour, which the host's image allows when it is a
    // transfer source. The copy image is bound in every slot's descriptor set: the frames in
    // flight finish first.
    renderer.host_color_copyable = (frame.color.usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    if (renderer.host_color_copyable && !renderer.distortion) {
        if (!waitForFrame(renderer, renderer.frames_recorded, diagnostics)) return false;
        const FrameTargets& targets = *renderer.targets;
        renderer.distortion = DistortionCopy::create(
            *renderer.device, targets.width, targets.height, targets.formats.color, diagnostics);
        if (!renderer.distortion) return false;
        renderer.particle_bindings->bindSceneColor(renderer.distortion->view());
    }
    // The half-resolution layer, the same way: its depth is bound in every slot's set.
    if (view.particle_resolution == ParticleResolution::half && !renderer.half_res) {
        if (!waitForFrame(renderer, renderer.frames_recorded, diagnostics)) return false;
        renderer.half_res = HalfResPass::create(*renderer.device, *renderer.targets, diagnostics);
        if (!renderer.half_res) return false;
        renderer.particle_bindings->bindHalfResDepth(renderer.half_res->linearDepthView());
    }
    renderer.slot = static_cast<uint32_t>((this_frame - 1) % in_flight);
    FrameTargets& t = *renderer.targets;
    t.color = {frame.color.image, frame.color.view};
    t.depth = {frame.depth.image, frame.depth.view};
    FrameTotals totals;
    bool any_oit = false;
    if (!prepareFrame(renderer, view, batches, totals, any_oit, diagnostics)) return false;
    renderer.linearize->setHostDepth(renderer.slot, frame.depth.view);
    recordHost(renderer, frame, view, batches, any_oit);
    stats = frameStats(renderer, totals, batches, view);
    // Nor the line overlay: it is drawn over the offscreen frame's finished colour.
    stats.overlay_not_drawn = view.overlay.empty() ? 0u : 1u;
    renderer.scene_depth.copy.valid = renderer.frame_scene_depth;
    signal.semaphore = renderer.frames_done.get();
    signal.value = ++renderer.frames_recorded;
    return true;
}

} // namespace spindrift::render
