// The public host-frame renderer (include/spindrift/vulkan_renderer.h) on the renderer's host
// frame (render/host_frame.h): the host's handles in, the world's draw list as batches, the
// effects' textures and meshes loaded on first use.
#include "spindrift/vulkan_renderer.h"

#include <map>
#include <string>
#include <utility>

#include "image/png_io.h"
#include "mesh/obj_reader.h"
#include "render/draw_list_batches.h"
#include "render/host_frame.h"
#include "render/scene_depth_export.h"
#include "render/view_globals.h"
#include "runtime/simulation_device.h"
#include "runtime/world_access.h"
#include "vulkan/vk_error.h"

namespace spindrift {

namespace {

// The renderer's textures and meshes of the effects' emitters, read from their files the first
// time a draw list names them (EffectInfo::textures, ::meshes); one upload per distinct file.
class HostAssets final : public render::DrawAssets {
public:
    explicit HostAssets(render::Renderer& renderer) : renderer_(renderer) {}

    // Loads what the list's batches need. False with the file's error when one cannot be read or
    // uploaded (it is tried again next frame).
    bool load(const DrawList& list, const EffectLibrary& library,
              std::vector<Diagnostic>& diagnostics) {
        for (const DrawBatch& batch : list.batches()) {
            const auto key = std::make_pair(batch.effect.value, batch.emitter_index);
            if (emitters_.count(key) != 0) continue;
            EffectInfo info;
            if (!library.info(batch.effect, info)) continue; // drawn without texture or mesh
            Emitter e;
            if (batch.emitter_index < info.textures.size() &&
                !info.textures[batch.emitter_index].empty()) {
                e.texture = texture(info.textures[batch.emitter_index], diagnostics);
                if (e.texture == render::kNoTexture) return false;
            }
            if (batch.emitter_index < info.meshes.size() &&
                !info.meshes[batch.emitter_index].empty()) {
                e.mesh = mesh(info.meshes[batch.emitter_index], diagnostics);
                if (e.mesh == render::kNoMesh) return false;
            }
            emitters_[key] = e;
        }
        return true;
    }

    render::TextureHandle texture(EffectId effect, uint32_t emitter) const override {
        auto it = emitters_.find({effect.value, emitter});
        return it == emitters_.end() ? render::kNoTexture : it->second.texture;
    }
    render::MeshHandle mesh(EffectId effect, uint32_t emitter) const override {
        auto it = emitters_.find({effect.value, emitter});
        return it == emitters_.end() ? render::kNoMesh : it->second.mesh;
    }

private:
    struct Emitter {
        render::TextureHandle texture = render::kNoTexture;
        render::MeshHandle mesh = render::kNoMesh;
    };

    render::TextureHandle texture(const std::string& path, std::vector<Diagnostic>& diagnostics) {
        if (auto it = textures_.find(path); it != textures_.end()) return it->second;
        Image image;
        if (!readPng(path, image, diagnostics)) return render::kNoTexture;
        const render::TextureHandle h = render::addTexture(renderer_, image, path, diagnostics);
        if (h != render::kNoTexture) textures_[path] = h;
        return h;
    }
    render::MeshHandle mesh(const std::string& path, std::vector<Diagnostic>& diagnostics) {
        if (auto it = meshes_.find(path); it != meshes_.end()) return it->second;
        MeshData obj;
        if (!readObj(path, obj, diagnostics)) return render::kNoMesh;
        const render::MeshHandle h = render::addMesh(renderer_, obj.vertices, path, diagnostics);
        if (h != render::kNoMesh) meshes_[path] = h;
        return h;
    }

    render::Renderer& renderer_;
    std::map<std::pair<uint32_t, uint32_t>, Emitter> emitters_; // by (effect, emitter)
    std::map<std::string, render::TextureHandle> textures_;     // by file
    std::map<std::string, render::MeshHandle> meshes_;
};

// The renderer's view of a public DrawView: the camera looking along forward.
CameraPose cameraOf(const DrawView& view) {
    CameraPose c;
    c.eye = {view.eye.x, view.eye.y, view.eye.z};
    c.target = {view.eye.x + view.forward.x, view.eye.y + view.forward.y,
                view.eye.z + view.forward.z};
    c.up = {view.up.x, view.up.y, view.up.z};
    return c;
}

// The renderer's motion settings of a host's (enabled exactly when it passes an image).
render::MotionVectorsDesc motionOf(const VulkanMotionVectors& m) {
    render::MotionVectorsDesc d;
    d.enabled = m.image.image != VK_NULL_HANDLE;
    d.has_previous_camera = m.has_previous_view;
    d.previous_camera = cameraOf(m.previous_view);
    d.previous_fov_deg = m.previous_view.fov_y_deg;
    d.interval_s = m.interval_s;
    d.coverage_threshold = m.coverage_threshold;
    d.additive_writes = m.additive_writes;
    d.output_scale = vec2(m.scale_x, m.scale_y);
    return d;
}

render::FrameView frameViewOf(const DrawView& view, const SunDesc& sun, const Float3& ambient,
                              std::span<const LightDesc> lights = {}, const SkyDesc& sky = {},
                              const ShadowDesc& shadows = ShadowDesc{false},
                              const render::MotionVectorsDesc& motion = {}) {
    render::FrameView f;
    f.lights = lights;
    f.sky = sky;
    f.shadows = shadows;
    f.camera = cameraOf(view);
    f.fov_deg = view.fov_y_deg;
    f.near_m = view.near_m;
    f.far_m = view.far_m;
    f.sun = sun;
    f.ambient = ambient;
    f.transparency = view.order_independent ? Transparency::weighted_oit : Transparency::sorted;
    f.motion = motion;
    return f;
}

render::HostImage hostImage(const VulkanImage& i) {
    return {i.image, i.view, i.layout, i.final_layout, i.usage};
}

} // namespace

struct VulkanRenderer::Impl {
    render::RendererPtr renderer;
    std::unique_ptr<HostAssets> assets;
    std::vector<render::DrawBatch> batches; // reused: grows to the largest frame
};

VulkanRenderer::VulkanRenderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
VulkanRenderer::~VulkanRenderer() = default;

std::unique_ptr<VulkanRenderer> VulkanRenderer::create(const VulkanRendererConfig& config,
                                                       std::vector<Diagnostic>& diagnostics) {
    vk::HostDevice host;
    host.instance = config.device.instance;
    host.instance_api_version = config.device.instance_api_version;
    host.physical_device = config.device.physical_device;
    host.device = config.device.device;
    host.device_create_info = config.device.device_create_info;
    host.queue_family = config.device.queue_family;
    host.queue = config.device.queue;
    auto impl = std::make_unique<Impl>();
    impl->renderer = render::createHostRenderer(
        host, render::TargetFormats{config.color_format, config.depth_format, config.motion_format},
        config.frames_in_flight, diagnostics);
    if (!impl->renderer) return nullptr;
    impl->assets = std::make_unique<HostAssets>(*impl->renderer);
    return std::unique_ptr<VulkanRenderer>(new VulkanRenderer(std::move(impl)));
}

void VulkanRenderer::useFor(World& world) {
    const render::DeviceInfo& info = render::rendererDevice(*impl_->renderer);
    WorldDevice device;
    device.device = simulationDeviceOf(info.name, info.type);
    device.name = info.name;
    device.shared_device = render::rendererContext(*impl_->renderer);
    setWorldDevice(world, device);
}

bool VulkanRenderer::record(const VulkanFrame& frame, const DrawList& list,
                            const EffectLibrary& library, VulkanFrameResult& result,
                            std::vector<Diagnostic>& diagnostics) {
    result = VulkanFrameResult{};
    if (!impl_->assets->load(list, library, diagnostics)) return false;
    impl_->batches.clear();
    render::appendDrawListBatches(list, *impl_->assets, impl_->batches);
    render::HostFrame host;
    host.command_buffer = frame.command_buffer;
    host.extent = frame.extent;
    host.color = hostImage(frame.color);
    host.depth = hostImage(frame.depth);
    host.motion = hostImage(frame.motion.image);
    render::FrameStats stats;
    render::HostFrameSignal signal;
    render::FrameView view = frameViewOf(frame.view, frame.sun, frame.ambient, frame.lights,
                                         frame.sky, frame.shadows, motionOf(frame.motion));
    if (frame.collision_world != nullptr) {
        if (worldSharedDevice(*frame.collision_world) !=
            render::rendererContext(*impl_->renderer)) {
            diagnostics.push_back(vk::vulkanSetupError(
                "host frame", "the collision world does not run on this renderer's device "
                              "(VulkanRenderer::useFor before its first instance)"));
            return false;
        }
        view.scene_depth = render::SceneDepthOutput::device;
    }
    if (frame.half_resolution) view.particle_resolution = ParticleResolution::half;
    if (!render::recordHostFrame(*impl_->renderer, host, view, impl_->batches, stats, signal,
                                 diagnostics)) {
        return false;
    }
    if (frame.collision_world != nullptr) {
        const render::SceneDepthCopy& copy = render::lastSceneDepth(*impl_->renderer);
        // The values are the renderer's own, checked as the frame's view was.
        if (setRendererSceneDepth(*frame.collision_world, render::sceneDepthOf(copy),
                                  copy.device_address) != RuntimeError::none) {
            diagnostics.push_back(vk::vulkanSetupError(
                "host frame", "the collision world refused the frame's depth: " +
                                  std::string(frame.collision_world->lastErrorMessage())));
            return false;
        }
        result.collision_depth = true;
    }
    result.signal_semaphore = signal.semaphore;
    result.signal_value = signal.value;
    result.batches = stats.batches;
    result.host_particles = stats.particles_drawn + stats.mesh_particles;
    result.device_batches = static_cast<uint32_t>(stats.device_batches + stats.device_mesh_batches +
                                                  stats.device_strip_batches);
    result.lights_drawn = stats.lights_drawn;
    result.lights_dropped = stats.lights_dropped;
    result.shadow_cascades = stats.shadow_cascades;
    result.shadow_opacity_batches = stats.shadow_opacity_batches;
    result.shadow_cutout_batches = stats.shadow_cutout_batches;
    result.local_shadows = stats.local_shadows;
    result.local_shadows_dropped = stats.local_shadows_dropped;
    result.distortion_batches = stats.distortion_batches;
    result.distortion_not_drawn = stats.distortion_not_drawn;
    result.motion_batches = stats.motion_batches;
    result.half_res_batches = stats.half_res_batches;
    return true;
}

void vulkanClipFromWorld(const DrawView& view, uint32_t width, uint32_t height, float out[16]) {
    const FrameGlobals g =
        render::viewGlobals(frameViewOf(view, SunDesc{}, Float3{}), width, height);
    const vec4 columns[4] = {g.clip_from_world_c0, g.clip_from_world_c1, g.clip_from_world_c2,
                             g.clip_from_world_c3};
    for (int c = 0; c < 4; ++c) {
        out[c * 4 + 0] = columns[c].x;
        out[c * 4 + 1] = columns[c].y;
        out[c * 4 + 2] = columns[c].z;
        out[c * 4 + 3] = columns[c].w;
    }
}

} // namespace spindrift
