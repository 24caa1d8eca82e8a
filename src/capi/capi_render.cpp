// Rendering through the C API: Spindrift's Vulkan renderer (render/renderer.h) behind a handle,
// drawing a world's draw list for a camera, and one frame of a scene or effect file drawn the way
// `spindrift render` draws it (render/render_file.h holds what both share).
#include <cmath>
#include <cstring>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "capi/call_guard.h"
#include "capi/capi_convert.h"
#include "capi/capi_objects.h"
#include "image/png_io.h"
#include "mesh/obj_reader.h"
#include "render/draw_list_batches.h"
#include "render/frame_lights.h"
#include "render/render_file.h"
#include "render/renderer.h"
#include "render/scene_player.h"
#include "render/sky_ambient.h"
#include "render/sun_shadows.h"
#include "spindrift/spindrift.h"

namespace spindrift::capi {

// A renderer and what it keeps between frames: its draw list and batches (reused), the frame
// read back, and the textures and meshes it has uploaded, by file path.
struct RendererObject {
    render::RendererPtr renderer;
    uint32_t width = 0;
    uint32_t height = 0;
    bool validation = false;
    size_t validation_seen = 0; // messages already reported
    DrawList list;
    std::vector<render::DrawBatch> batches;
    Image frame;
    render::MotionImage motion; // spindrift_renderer_render_world_motion's, reused
    std::unordered_map<std::string, render::TextureHandle> textures;
    std::unordered_map<std::string, render::MeshHandle> meshes;
};

} // namespace spindrift::capi

using namespace spindrift;
using namespace spindrift::capi;

namespace {

constexpr double kMaxRenderSeconds = 3600; // as `spindrift render --time`

bool finite3(const spindrift_vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool colorOk(const spindrift_color& c) {
    return std::isfinite(c.r) && std::isfinite(c.g) && std::isfinite(c.b) && c.r >= 0 && c.g >= 0 &&
           c.b >= 0;
}

Float3 float3(const spindrift_vec3& v) {
    return {v.x, v.y, v.z};
}
Float3 rgb(const spindrift_color& c) {
    return {c.r, c.g, c.b};
}

spindrift_result badCamera(const char* field, const char* expected) {
    return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->%s: expected %s", field, expected);
}

// The size hosts compiled against spindrift.h 0.1.0 pass (their struct ended at transparency).
static_assert(SPINDRIFT_CAMERA_SIZE_WITHOUT_POST == 148);

bool within(float v, float lo, float hi) {
    return v >= lo && v <= hi; // false for NaN
}

// The post fields: the scene format's rules for exposure, tonemap and bloom (scene_desc.h).
spindrift_result checkCameraPost(const spindrift_camera& c) {
    if (c.tonemap > SPINDRIFT_TONEMAP_REINHARD)
        return badCamera("tonemap", "0 (none), 1 (aces), 2 (agx) or 3 (reinhard)");
    if (c.exposure_mode > SPINDRIFT_EXPOSURE_AUTOMATIC)
        return badCamera("exposure_mode", "0 (manual) or 1 (automatic)");
    if (!within(c.exposure_ev, -kMaxExposureEv, kMaxExposureEv))
        return badCamera("exposure_ev", "[-16, 16]");
    if (!within(c.exposure_min_ev, -kMaxExposureEv, kMaxExposureEv))
        return badCamera("exposure_min_ev", "[-16, 16]");
    if (!within(c.exposure_max_ev, -kMaxExposureEv, kMaxExposureEv) ||
        !(c.exposure_min_ev < c.exposure_max_ev))
        return badCamera("exposure_max_ev", "(exposure_min_ev, 16]");
    if (!(c.exposure_low_percent >= 0 && c.exposure_low_percent < 100))
        return badCamera("exposure_low_percent", "[0, 100)");
    if (!(c.exposure_high_percent > c.exposure_low_percent && c.exposure_high_percent <= 100))
        return badCamera("exposure_high_percent", "(exposure_low_percent, 100]");
    if (!within(c.exposure_speed, 0, kMaxExposureSpeed))
        return badCamera("exposure_speed", "[0, 100]");
    if (!within(c.bloom_strength, 0, 1)) return badCamera("bloom_strength", "[0, 1]");
    if (c.bloom_levels < 1 || c.bloom_levels > kMaxBloomLevels)
        return badCamera("bloom_levels", "[1, 8]");
    return SPINDRIFT_OK;
}

// The size hosts compiled against the header before the light fields pass.
static_assert(SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHTS == 192);

bool hasPost(const spindrift_camera& c) {
    return c.struct_size != SPINDRIFT_CAMERA_SIZE_WITHOUT_POST;
}

bool hasLights(const spindrift_camera& c) {
    return hasPost(c) && c.struct_size != SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHTS;
}

// The size hosts compiled against the header before shadowed_lights pass: the old sizeof, which on
// 64-bit ABIs is also where shadowed_lights starts.
static_assert(sizeof(void*) != 8 || (SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHT_SHADOWS == 280 &&
                                     offsetof(spindrift_camera, shadowed_lights) == 280 &&
                                     sizeof(spindrift_camera) == 288));

bool hasLightShadows(const spindrift_camera& c) {
    return hasLights(c) && c.struct_size != SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHT_SHADOWS;
}

// shadows: the light's bit of the camera's shadowed_lights (spindrift_light has no room for it).
LightDesc lightOf(const spindrift_light& l, bool shadows) {
    LightDesc d;
    d.type = l.type == SPINDRIFT_LIGHT_SPOT ? LightKind::spot : LightKind::point;
    d.position = float3(l.position);
    d.color = rgb(l.color);
    d.intensity = l.intensity;
    d.range = l.range_m;
    d.direction = float3(l.direction);
    d.inner_deg = l.inner_deg;
    d.outer_deg = l.outer_deg;
    d.shadows = shadows;
    return d;
}

SkyDesc skyOf(const spindrift_camera& c) {
    SkyDesc sky;
    sky.zenith = rgb(c.sky_zenith);
    sky.horizon = rgb(c.sky_horizon);
    sky.ground = rgb(c.sky_ground);
    sky.intensity = c.sky_intensity;
    return sky;
}

ShadowDesc shadowsOf(const spindrift_camera& c) {
    ShadowDesc shadows;
    shadows.enabled = c.shadows;
    shadows.resolution = c.shadow_resolution;
    shadows.cascades = c.shadow_cascades;
    shadows.max_distance = c.shadow_max_distance_m;
    shadows.bias = c.shadow_bias_m;
    shadows.opacity_resolution = c.shadow_opacity_resolution;
    return shadows;
}

// Whether light i casts shadows: its bit of shadowed_lights, none in a camera from before it.
bool lightCastsShadows(const spindrift_camera& c, uint32_t i) {
    return hasLightShadows(c) && i < 64 && ((c.shadowed_lights >> i) & 1u) != 0;
}

// The light fields: the scene format's rules (render::lightProblem, skyProblem, shadowProblem:
// the same checks a scene file and the renderer make), each named.
spindrift_result checkCameraLights(const spindrift_camera& c) {
    if (c.light_count > SPINDRIFT_MAX_CAMERA_LIGHTS)
        return badCamera("light_count", "at most SPINDRIFT_MAX_CAMERA_LIGHTS (64)");
    if (c.light_count > 0 && c.lights == nullptr)
        return badCamera("lights", "a pointer to light_count lights");
    for (uint32_t i = 0; i < c.light_count; ++i) {
        if (c.lights[i].type > SPINDRIFT_LIGHT_SPOT) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "camera->lights[%u].type: expected 0 (point) or 1 (spot)", i);
        }
        if (const std::string why = render::lightProblem(lightOf(c.lights[i], false));
            !why.empty()) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->lights[%u]: %s", i, why.c_str());
        }
    }
    // A bit for a light that is not there is a caller's mistake (a stale mask, an off-by-one).
    const uint64_t lights_present =
        c.light_count >= 64 ? ~uint64_t{0} : (uint64_t{1} << c.light_count) - 1;
    if (hasLightShadows(c) && (c.shadowed_lights & ~lights_present) != 0) {
        return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                    "camera->shadowed_lights: expected bits below light_count (%u) only, got "
                    "0x%llx",
                    c.light_count, static_cast<unsigned long long>(c.shadowed_lights));
    }
    if (const std::string why = render::skyProblem(skyOf(c)); !why.empty())
        return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->sky: %s", why.c_str());
    if (c.shadows) {
        if (const std::string why = render::shadowProblem(shadowsOf(c)); !why.empty())
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->shadow: %s", why.c_str());
    }
    return SPINDRIFT_OK;
}

// Every field the renderer and the draw list would refuse, refused here with its name.
spindrift_result checkCamera(const spindrift_camera& c) {
    if (!finite3(c.eye)) return badCamera("eye", "finite coordinates");
    if (!finite3(c.target)) return badCamera("target", "finite coordinates");
    if (!finite3(c.up)) return badCamera("up", "finite coordinates");
    const double fx = double(c.target.x) - c.eye.x, fy = double(c.target.y) - c.eye.y,
                 fz = double(c.target.z) - c.eye.z;
    const double f = std::sqrt(fx * fx + fy * fy + fz * fz);
    if (!(f > 1e-6)) return badCamera("target", "a point away from the eye");
    const double cx = fy * c.up.z - fz * c.up.y, cy = fz * c.up.x - fx * c.up.z,
                 cz = fx * c.up.y - fy * c.up.x;
    const double u =
        std::sqrt(double(c.up.x) * c.up.x + double(c.up.y) * c.up.y + double(c.up.z) * c.up.z);
    if (!(u > 0) || !(std::sqrt(cx * cx + cy * cy + cz * cz) > 1e-6 * f * u))
        return badCamera("up", "a direction not parallel to target - eye");
    if (!(c.fov_y_deg >= 1 && c.fov_y_deg <= 179)) return badCamera("fov_y_deg", "[1, 179]");
    if (!(c.near_m > 0 && std::isfinite(c.far_m) && c.near_m < c.far_m))
        return badCamera("near_m", "0 < near_m < far_m, both finite");
    if (!colorOk(c.background)) return badCamera("background", "finite components >= 0");
    if (!std::isfinite(c.ground_height)) return badCamera("ground_height", "a finite height");
    if (!(c.ground_size > 0 && std::isfinite(c.ground_size)))
        return badCamera("ground_size", "a finite size > 0");
    if (!colorOk(c.ground_color)) return badCamera("ground_color", "finite components >= 0");
    if (!finite3(c.sun_direction) ||
        (c.sun_direction.x == 0 && c.sun_direction.y == 0 && c.sun_direction.z == 0))
        return badCamera("sun_direction", "a finite non-zero direction");
    if (!colorOk(c.sun_color)) return badCamera("sun_color", "finite components >= 0");
    if (!(c.sun_intensity >= 0 && std::isfinite(c.sun_intensity)))
        return badCamera("sun_intensity", "a finite value >= 0");
    if (!colorOk(c.ambient)) return badCamera("ambient", "finite components >= 0");
    if (c.transparency > SPINDRIFT_TRANSPARENCY_WEIGHTED_OIT)
        return badCamera("transparency", "0 (sorted) or 1 (weighted OIT)");
    if (!hasPost(c)) return SPINDRIFT_OK;
    if (const spindrift_result e = checkCameraPost(c); e != SPINDRIFT_OK) return e;
    if (!hasLights(c)) return SPINDRIFT_OK;
    return checkCameraLights(c);
}

// The frame's view of a checked camera; its lights are copied into `lights`, which the view points
// at (keep it alive through the frame).
render::FrameView frameViewOf(const spindrift_camera& c, std::vector<LightDesc>& lights) {
    render::FrameView v;
    v.camera = {float3(c.eye), float3(c.target), float3(c.up)};
    v.fov_deg = c.fov_y_deg;
    v.near_m = c.near_m;
    v.far_m = c.far_m;
    v.background = rgb(c.background);
    v.ground.enabled = c.ground;
    v.ground.height = c.ground_height;
    v.ground.size = c.ground_size;
    v.ground.color = rgb(c.ground_color);
    const double s = std::sqrt(double(c.sun_direction.x) * c.sun_direction.x +
                               double(c.sun_direction.y) * c.sun_direction.y +
                               double(c.sun_direction.z) * c.sun_direction.z);
    v.sun.direction = {float(c.sun_direction.x / s), float(c.sun_direction.y / s),
                       float(c.sun_direction.z / s)};
    v.sun.color = rgb(c.sun_color);
    v.sun.intensity = c.sun_intensity;
    v.ambient = rgb(c.ambient);
    v.transparency = c.transparency == SPINDRIFT_TRANSPARENCY_WEIGHTED_OIT
                         ? Transparency::weighted_oit
                         : Transparency::sorted;
    // A camera from before the post fields keeps FrameView's default: no post.
    if (!hasPost(c)) return v;
    v.tonemap = static_cast<Tonemap>(c.tonemap);
    v.exposure.mode = static_cast<ExposureMode>(c.exposure_mode);
    v.exposure.ev = c.exposure_ev;
    v.exposure.min_ev = c.exposure_min_ev;
    v.exposure.max_ev = c.exposure_max_ev;
    v.exposure.low_percent = c.exposure_low_percent;
    v.exposure.high_percent = c.exposure_high_percent;
    v.exposure.speed = c.exposure_speed;
    v.bloom.strength = c.bloom_strength;
    v.bloom.levels = c.bloom_levels;
    // A camera from before the light fields keeps FrameView's defaults: no lights, sky, shadows.
    lights.clear();
    if (!hasLights(c)) return v;
    for (uint32_t i = 0; i < c.light_count; ++i)
        lights.push_back(lightOf(c.lights[i], lightCastsShadows(c, i)));
    v.lights = lights;
    v.sky = skyOf(c);
    v.shadows = shadowsOf(c);
    return v;
}

// The draw list's view for the camera: sorting from its eye, the renderer's aspect.
DrawView drawViewOf(const spindrift_camera& c, uint32_t width, uint32_t height) {
    DrawView v;
    v.eye = toCpp(c.eye);
    const double fx = double(c.target.x) - c.eye.x, fy = double(c.target.y) - c.eye.y,
                 fz = double(c.target.z) - c.eye.z;
    const double f = std::sqrt(fx * fx + fy * fy + fz * fz);
    v.forward = {float(fx / f), float(fy / f), float(fz / f)};
    v.up = toCpp(c.up);
    v.fov_y_deg = c.fov_y_deg;
    v.aspect = float(width) / float(height);
    v.near_m = c.near_m;
    v.far_m = c.far_m;
    v.viewport_width = width;
    v.viewport_height = height;
    v.order_independent = c.transparency == SPINDRIFT_TRANSPARENCY_WEIGHTED_OIT;
    return v;
}

// The first error of diagnostics, formatted (or a fallback).
std::string firstError(const std::vector<Diagnostic>& diagnostics, const char* fallback) {
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::error) return formatDiagnostic(d);
    }
    return fallback;
}

// Each drawn emitter's texture and mesh, per effect id, resolved before the batches are made.
class WorldAssets final : public render::DrawAssets {
public:
    struct Effect {
        std::vector<render::TextureHandle> textures;
        std::vector<render::MeshHandle> meshes;
    };
    std::unordered_map<uint32_t, Effect> effects;

    render::TextureHandle texture(EffectId effect, uint32_t emitter) const override {
        const auto it = effects.find(effect.value);
        if (it == effects.end() || emitter >= it->second.textures.size()) return render::kNoTexture;
        return it->second.textures[emitter];
    }
    render::MeshHandle mesh(EffectId effect, uint32_t emitter) const override {
        const auto it = effects.find(effect.value);
        if (it == effects.end() || emitter >= it->second.meshes.size()) return render::kNoMesh;
        return it->second.meshes[emitter];
    }
};

// The renderer's handle of a texture file, read and uploaded on first use.
spindrift_result textureFor(RendererObject& r, const std::string& path,
                            render::TextureHandle& out) {
    if (const auto it = r.textures.find(path); it != r.textures.end()) {
        out = it->second;
        return SPINDRIFT_OK;
    }
    std::vector<Diagnostic> diagnostics;
    Image image;
    if (readPng(path, image, diagnostics))
        out = render::addTexture(*r.renderer, image, path, diagnostics);
    else
        out = render::kNoTexture;
    if (out == render::kNoTexture) {
        return fail(SPINDRIFT_ERROR_EFFECT_FAILED, "texture '%s': %s", path.c_str(),
                    firstError(diagnostics, "it does not load").c_str());
    }
    r.textures.emplace(path, out);
    return SPINDRIFT_OK;
}

spindrift_result meshFor(RendererObject& r, const std::string& path, render::MeshHandle& out) {
    if (const auto it = r.meshes.find(path); it != r.meshes.end()) {
        out = it->second;
        return SPINDRIFT_OK;
    }
    std::vector<Diagnostic> diagnostics;
    MeshData mesh;
    if (readObj(path, mesh, diagnostics))
        out = render::addMesh(*r.renderer, mesh.vertices, path, diagnostics);
    else
        out = render::kNoMesh;
    if (out == render::kNoMesh) {
        return fail(SPINDRIFT_ERROR_EFFECT_FAILED, "mesh '%s': %s", path.c_str(),
                    firstError(diagnostics, "it does not load").c_str());
    }
    r.meshes.emplace(path, out);
    return SPINDRIFT_OK;
}

// The assets of every effect the list draws (the library's current files for each emitter).
spindrift_result resolveAssets(RendererObject& r, const EffectLibrary& library,
                               WorldAssets& assets) {
    for (const DrawBatch& b : r.list.batches()) {
        if (b.device_resident) {
            return fail(SPINDRIFT_ERROR_UNSUPPORTED,
                        "the world draws particles that live on another Vulkan device; render "
                        "a world on the CPU backend, or read its draw list");
        }
        if (assets.effects.contains(b.effect.value)) continue;
        EffectInfo info;
        WorldAssets::Effect& effect = assets.effects[b.effect.value];
        if (!library.info(b.effect, info)) continue;
        effect.textures.assign(info.textures.size(), render::kNoTexture);
        effect.meshes.assign(info.meshes.size(), render::kNoMesh);
        for (size_t i = 0; i < info.textures.size(); ++i) {
            if (info.textures[i].empty()) continue;
            if (const spindrift_result e = textureFor(r, info.textures[i], effect.textures[i]);
                e != SPINDRIFT_OK)
                return e;
        }
        for (size_t i = 0; i < info.meshes.size(); ++i) {
            if (info.meshes[i].empty()) continue;
            if (const spindrift_result e = meshFor(r, info.meshes[i], effect.meshes[i]);
                e != SPINDRIFT_OK)
                return e;
        }
    }
    return SPINDRIFT_OK;
}

// The pixel buffer of a width x height frame: NULL or too small is refused.
spindrift_result checkPixels(const uint8_t* rgba, size_t rgba_bytes, uint32_t width,
                             uint32_t height) {
    const size_t needed = size_t(width) * height * 4;
    if (rgba == nullptr) return fail(SPINDRIFT_ERROR_NULL_POINTER, "rgba is NULL");
    if (rgba_bytes < needed) {
        return fail(SPINDRIFT_ERROR_BUFFER_TOO_SMALL,
                    "rgba_bytes is %zu; a %ux%u RGBA8 frame needs %zu bytes", rgba_bytes, width,
                    height, needed);
    }
    return SPINDRIFT_OK;
}

// Validation-layer messages: any is a failure, naming the first and how many.
spindrift_result validationFailure(const std::vector<std::string>& messages) {
    return fail(SPINDRIFT_ERROR_INTERNAL, "%zu Vulkan validation message(s); the first: %s",
                messages.size(), messages.front().c_str());
}

bool resolutionOk(uint32_t width, uint32_t height) {
    return width >= kMinResolution && width <= kMaxResolution && height >= kMinResolution &&
           height <= kMaxResolution;
}

// spindrift_render_file after its arguments are checked; diagnostics collects every finding.
spindrift_result renderFile(const char* path, const spindrift_file_render_options& options,
                            uint8_t* rgba, size_t rgba_bytes, spindrift_file_render_info& info,
                            std::vector<Diagnostic>& diagnostics) {
    SceneDesc scene;
    std::string scene_file;
    if (!render::loadRenderScene(path, scene, scene_file, diagnostics)) {
        return fail(SPINDRIFT_ERROR_EFFECT_FAILED, "'%s' does not load: %s", path,
                    firstError(diagnostics, "no detail").c_str());
    }
    info.is_scene = !scene_file.empty();
    if (options.width != 0) scene.resolution = {options.width, options.height};
    info.width = scene.resolution.width;
    info.height = scene.resolution.height;
    if (rgba == nullptr && rgba_bytes == 0) return SPINDRIFT_OK; // the size only
    if (const spindrift_result r = checkPixels(rgba, rgba_bytes, info.width, info.height);
        r != SPINDRIFT_OK)
        return r;

    // The renderer comes first: GPU-simulated instances run on its device (as the tool does).
    render::RendererConfig config;
    config.width = info.width;
    config.height = info.height;
    config.device = options.device != nullptr ? options.device : "";
    config.validation = options.validation;
    render::RendererPtr renderer = render::createRenderer(config, diagnostics);
    if (!renderer) {
        return fail(SPINDRIFT_ERROR_BACKEND_UNAVAILABLE, "no renderer: %s",
                    firstError(diagnostics, "no detail").c_str());
    }
    render::PlayerConfig player_config;
    player_config.backend = options.backend == SPINDRIFT_BACKEND_GPU ? BackendRequest::gpu
                            : options.backend == SPINDRIFT_BACKEND_AUTOMATIC
                                ? BackendRequest::automatic
                                : BackendRequest::cpu;
    player_config.device = config.device;
    player_config.validation = options.validation;
    player_config.renderer = renderer.get();
    player_config.threads = render::playerThreadsFor(scene);
    auto player = render::createScenePlayer(scene, scene_file, player_config, diagnostics);
    if (!player) {
        return fail(SPINDRIFT_ERROR_EFFECT_FAILED, "'%s' does not play: %s", path,
                    firstError(diagnostics, "no detail").c_str());
    }
    const float time_s =
        options.time_set ? static_cast<float>(options.time_s) : render::defaultStillTime(*player);
    info.time_s = time_s;
    if (!render::checkPlayTimes(*player, std::span<const float>(&time_s, 1), diagnostics)) {
        return fail(SPINDRIFT_ERROR_CAPACITY_EXCEEDED, "%s",
                    firstError(diagnostics, "too many steps").c_str());
    }
    if (!render::uploadAssets(*player, *renderer, diagnostics)) {
        return fail(SPINDRIFT_ERROR_EFFECT_FAILED, "%s",
                    firstError(diagnostics, "an asset does not upload").c_str());
    }
    Image frame;
    render::FrameStats stats;
    if (!render::renderSceneFrame(*renderer, *player, time_s, false, frame, stats, diagnostics)) {
        return fail(SPINDRIFT_ERROR_INTERNAL, "the frame failed: %s",
                    firstError(diagnostics, "no detail").c_str());
    }
    std::vector<std::string> messages = render::validationMessages(*renderer);
    render::appendSimulationValidationMessages(*player, messages);
    if (!messages.empty()) return validationFailure(messages);
    info.particles = player->particles;
    std::memcpy(rgba, frame.rgba8.data(), frame.rgba8.size());
    return SPINDRIFT_OK;
}

} // namespace

extern "C" {

SPINDRIFT_API spindrift_result spindrift_default_renderer_config(spindrift_renderer_config* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        const render::RendererConfig d;
        *out = spindrift_renderer_config{};
        out->struct_size = sizeof(spindrift_renderer_config);
        out->width = d.width;
        out->height = d.height;
        out->device = nullptr;
        out->validation = d.validation;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_renderer_create(const spindrift_renderer_config* config,
                                                         spindrift_renderer* out_renderer) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_renderer, "out_renderer");
            r != SPINDRIFT_OK)
            return r;
        out_renderer->id = 0;
        if (const spindrift_result r = requireStruct(config, "config"); r != SPINDRIFT_OK) return r;
        if (!resolutionOk(config->width, config->height)) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "config size %ux%u: each side must be in [%u, %u]", config->width,
                        config->height, kMinResolution, kMaxResolution);
        }
        render::RendererConfig c;
        c.width = config->width;
        c.height = config->height;
        c.device = config->device != nullptr ? config->device : "";
        c.validation = config->validation;
        std::vector<Diagnostic> diagnostics;
        render::RendererPtr renderer = render::createRenderer(c, diagnostics);
        if (!renderer) {
            return fail(SPINDRIFT_ERROR_BACKEND_UNAVAILABLE, "%s",
                        firstError(diagnostics, "no Vulkan device").c_str());
        }
        uint64_t handle = 0;
        if (const spindrift_result r = makeObject<RendererObject>(handle); r != SPINDRIFT_OK)
            return r;
        RendererObject* object = nullptr;
        if (const spindrift_result r = resolve(handle, object); r != SPINDRIFT_OK) return r;
        object->renderer = std::move(renderer);
        object->width = c.width;
        object->height = c.height;
        object->validation = c.validation;
        out_renderer->id = handle;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_renderer_destroy(spindrift_renderer renderer) {
    return guarded(__func__, [&] {
        if (renderer.id == 0) return SPINDRIFT_OK;
        void* object = nullptr;
        const HandleLookup lookup = unregisterObject(renderer.id, ObjectKind::renderer, object);
        if (lookup != HandleLookup::live)
            return handleError(lookup, ObjectKind::renderer, renderer.id);
        hostDelete(static_cast<RendererObject*>(object));
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_renderer_device_name(spindrift_renderer renderer,
                                                              char* buffer, size_t buffer_bytes,
                                                              size_t* out_length) {
    return guarded(__func__, [&] {
        RendererObject* r;
        if (const spindrift_result e = resolve(renderer.id, r); e != SPINDRIFT_OK) return e;
        return copyOut(render::rendererDevice(*r->renderer).name, buffer, buffer_bytes, out_length);
    });
}

SPINDRIFT_API spindrift_result spindrift_default_camera(spindrift_camera* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        // A scene file's defaults, so a host's first frame looks like a scene's.
        const SceneDesc d;
        const CameraPose pose = cameraPose(d.camera, 0);
        *out = spindrift_camera{};
        out->struct_size = sizeof(spindrift_camera);
        out->eye = {pose.eye.x, pose.eye.y, pose.eye.z};
        out->target = {pose.target.x, pose.target.y, pose.target.z};
        out->up = {pose.up.x, pose.up.y, pose.up.z};
        out->fov_y_deg = d.camera.fov_deg;
        out->near_m = d.camera.near;
        out->far_m = d.camera.far;
        out->background = {d.background.x, d.background.y, d.background.z, 1};
        out->ground = d.ground.enabled;
        out->ground_height = d.ground.height;
        out->ground_size = d.ground.size;
        out->ground_color = {d.ground.color.x, d.ground.color.y, d.ground.color.z, 1};
        out->sun_direction = {d.sun.direction.x, d.sun.direction.y, d.sun.direction.z};
        out->sun_color = {d.sun.color.x, d.sun.color.y, d.sun.color.z, 1};
        out->sun_intensity = d.sun.intensity;
        out->ambient = {d.ambient.x, d.ambient.y, d.ambient.z, 1};
        out->transparency = SPINDRIFT_TRANSPARENCY_SORTED;
        out->tonemap = static_cast<uint32_t>(d.tonemap);
        out->exposure_mode = static_cast<uint32_t>(d.exposure.mode);
        out->exposure_ev = d.exposure.ev;
        out->exposure_min_ev = d.exposure.min_ev;
        out->exposure_max_ev = d.exposure.max_ev;
        out->exposure_low_percent = d.exposure.low_percent;
        out->exposure_high_percent = d.exposure.high_percent;
        out->exposure_speed = d.exposure.speed;
        out->bloom_strength = d.bloom.strength;
        out->bloom_levels = d.bloom.levels;
        out->sky_zenith = {d.sky.zenith.x, d.sky.zenith.y, d.sky.zenith.z, 1};
        out->sky_horizon = {d.sky.horizon.x, d.sky.horizon.y, d.sky.horizon.z, 1};
        out->sky_ground = {d.sky.ground.x, d.sky.ground.y, d.sky.ground.z, 1};
        out->sky_intensity = d.sky.intensity;
        out->shadows = d.shadows.enabled;
        out->shadow_resolution = d.shadows.resolution;
        out->shadow_cascades = d.shadows.cascades;
        out->shadow_max_distance_m = d.shadows.max_distance;
        out->shadow_bias_m = d.shadows.bias;
        out->shadow_opacity_resolution = d.shadows.opacity_resolution;
        out->shadowed_lights = 0; // no lights to cast
        return SPINDRIFT_OK;
    });
}

namespace {

// The motion options' fields: finite and in range, each error naming its field.
spindrift_result checkMotion(const spindrift_motion_options& m) {
    auto bad = [](const char* field, const char* expected) {
        return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "motion->%s: expected %s", field, expected);
    };
    if (!within(m.interval_s, 0.0f, render::kMaxMotionIntervalS))
        return bad("interval_s", "a finite number of seconds in [0, 1]");
    if (!within(m.coverage_threshold, 0.0f, 1.0f))
        return bad("coverage_threshold", "a finite number in [0, 1]");
    if (!m.has_previous_camera) return SPINDRIFT_OK;
    if (!finite3(m.previous_eye)) return bad("previous_eye", "finite coordinates");
    if (!finite3(m.previous_target)) return bad("previous_target", "finite coordinates");
    if (!finite3(m.previous_up)) return bad("previous_up", "finite coordinates");
    if (!within(m.previous_fov_y_deg, 1.0f, 179.0f))
        return bad("previous_fov_y_deg", "degrees in [1, 179]");
    return SPINDRIFT_OK;
}

render::MotionVectorsDesc motionOf(const spindrift_motion_options& m) {
    render::MotionVectorsDesc d;
    d.enabled = true;
    d.has_previous_camera = m.has_previous_camera;
    d.previous_camera = {float3(m.previous_eye), float3(m.previous_target), float3(m.previous_up)};
    d.previous_fov_deg = m.previous_fov_y_deg;
    d.interval_s = m.interval_s;
    d.coverage_threshold = m.coverage_threshold;
    d.additive_writes = m.additive_writes;
    return d;
}

// spindrift_renderer_render_world and, with motion (its buffer checked by the caller), its motion
// vectors.
spindrift_result renderWorld(spindrift_renderer renderer, spindrift_world world,
                             const spindrift_camera* camera, const spindrift_motion_options* motion,
                             uint8_t* rgba, size_t rgba_bytes, float* motion_xy) {
    RendererObject* r;
    if (const spindrift_result e = resolve(renderer.id, r); e != SPINDRIFT_OK) return e;
    WorldObject* w;
    if (const spindrift_result e = resolve(world.id, w); e != SPINDRIFT_OK) return e;
    // A camera from before the post, the light fields or shadowed_lights is accepted at its own
    // size (ABI: an older host).
    if (const spindrift_result e =
            camera != nullptr &&
                    (camera->struct_size == SPINDRIFT_CAMERA_SIZE_WITHOUT_POST ||
                     camera->struct_size == SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHTS ||
                     camera->struct_size == SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHT_SHADOWS)
                ? SPINDRIFT_OK
                : requireStruct(camera, "camera");
        e != SPINDRIFT_OK)
        return e;
    if (const spindrift_result e = checkCamera(*camera); e != SPINDRIFT_OK) return e;
    if (const spindrift_result e = checkPixels(rgba, rgba_bytes, r->width, r->height);
        e != SPINDRIFT_OK)
        return e;

    const RuntimeError drawn = w->world.drawList(drawViewOf(*camera, r->width, r->height), r->list);
    if (drawn != RuntimeError::none) return fromRuntime(drawn, w->world.lastErrorMessage());
    WorldAssets assets;
    if (const spindrift_result e = resolveAssets(*r, w->library_use.library->library, assets);
        e != SPINDRIFT_OK)
        return e;
    r->batches.clear();
    render::appendDrawListBatches(r->list, assets, r->batches);

    std::vector<Diagnostic> diagnostics;
    render::FrameStats stats;
    std::vector<LightDesc> lights;
    render::FrameView view = frameViewOf(*camera, lights);
    if (motion != nullptr) view.motion = motionOf(*motion);
    if (!render::renderFrame(*r->renderer, view, r->batches, r->frame,
                             motion != nullptr ? &r->motion : nullptr, stats, diagnostics)) {
        return fail(SPINDRIFT_ERROR_INTERNAL, "the frame failed: %s",
                    firstError(diagnostics, "no detail").c_str());
    }
    const std::vector<std::string>& messages = render::validationMessages(*r->renderer);
    if (messages.size() > r->validation_seen) {
        const std::vector<std::string> fresh(messages.begin() + long(r->validation_seen),
                                             messages.end());
        r->validation_seen = messages.size();
        return validationFailure(fresh);
    }
    std::memcpy(rgba, r->frame.rgba8.data(), r->frame.rgba8.size());
    if (motion != nullptr) {
        std::memcpy(motion_xy, r->motion.xy.data(), r->motion.xy.size() * sizeof(float));
    }
    return SPINDRIFT_OK;
}

} // namespace

SPINDRIFT_API spindrift_result spindrift_renderer_render_world(spindrift_renderer renderer,
                                                               spindrift_world world,
                                                               const spindrift_camera* camera,
                                                               uint8_t* rgba, size_t rgba_bytes) {
    return guarded(__func__, [&] {
        return renderWorld(renderer, world, camera, nullptr, rgba, rgba_bytes, nullptr);
    });
}

SPINDRIFT_API spindrift_result spindrift_default_motion_options(spindrift_motion_options* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        *out = spindrift_motion_options{};
        out->struct_size = sizeof(spindrift_motion_options);
        out->previous_up = {0, 1, 0};
        out->previous_target = {0, 0, -1};
        out->previous_fov_y_deg = 45;
        const render::MotionVectorsDesc defaults;
        out->interval_s = defaults.interval_s;
        out->coverage_threshold = defaults.coverage_threshold;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_renderer_render_world_motion(
    spindrift_renderer renderer, spindrift_world world, const spindrift_camera* camera,
    const spindrift_motion_options* motion, uint8_t* rgba, size_t rgba_bytes, float* motion_xy,
    size_t motion_xy_bytes) {
    return guarded(__func__, [&] {
        if (const spindrift_result e = requireStruct(motion, "motion"); e != SPINDRIFT_OK) return e;
        if (const spindrift_result e = checkMotion(*motion); e != SPINDRIFT_OK) return e;
        RendererObject* r;
        if (const spindrift_result e = resolve(renderer.id, r); e != SPINDRIFT_OK) return e;
        if (motion_xy == nullptr) return fail(SPINDRIFT_ERROR_NULL_POINTER, "motion_xy is NULL");
        const size_t needed = size_t(r->width) * r->height * 2 * sizeof(float);
        if (motion_xy_bytes < needed) {
            return fail(SPINDRIFT_ERROR_BUFFER_TOO_SMALL,
                        "motion_xy_bytes is %zu; a %ux%u frame's motion needs %zu bytes",
                        motion_xy_bytes, r->width, r->height, needed);
        }
        return renderWorld(renderer, world, camera, motion, rgba, rgba_bytes, motion_xy);
    });
}

SPINDRIFT_API spindrift_result
spindrift_default_file_render_options(spindrift_file_render_options* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        *out = spindrift_file_render_options{};
        out->struct_size = sizeof(spindrift_file_render_options);
        out->backend = SPINDRIFT_BACKEND_CPU;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_render_file(const char* path,
                                                     const spindrift_file_render_options* options,
                                                     uint8_t* rgba, size_t rgba_bytes,
                                                     spindrift_file_render_info* out_info,
                                                     spindrift_diagnostics* out_diagnostics) {
    return guarded(__func__, [&] {
        if (out_diagnostics != nullptr) out_diagnostics->id = 0;
        if (const spindrift_result r = requirePointer(path, "path"); r != SPINDRIFT_OK) return r;
        if (const spindrift_result r = requireStruct(options, "options"); r != SPINDRIFT_OK)
            return r;
        if (out_info != nullptr) {
            if (const spindrift_result r = requireStruct(out_info, "out_info"); r != SPINDRIFT_OK)
                return r;
        }
        if (options->time_set && !(std::isfinite(options->time_s) && options->time_s >= 0 &&
                                   options->time_s <= kMaxRenderSeconds)) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "options->time_s is %g; expected a finite number of seconds in [0, %g]",
                        options->time_s, kMaxRenderSeconds);
        }
        if ((options->width != 0 || options->height != 0) &&
            !resolutionOk(options->width, options->height)) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "options size %ux%u: both 0 (the scene's), or each in [%u, %u]",
                        options->width, options->height, kMinResolution, kMaxResolution);
        }
        if (options->backend > SPINDRIFT_BACKEND_AUTOMATIC) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "options->backend is %u; expected 0 (cpu), 1 (gpu) or 2 (automatic)",
                        options->backend);
        }
        if (rgba == nullptr && rgba_bytes > 0)
            return fail(SPINDRIFT_ERROR_NULL_POINTER, "rgba is NULL with rgba_bytes %zu",
                        rgba_bytes);
        spindrift_file_render_info info{};
        info.struct_size = sizeof info;
        std::vector<Diagnostic> diagnostics;
        const spindrift_result result =
            renderFile(path, *options, rgba, rgba_bytes, info, diagnostics);
        if (out_info != nullptr) *out_info = info;
        // The list is made whatever the result; its own failure (out of memory) wins.
        if (const spindrift_result r = makeDiagnostics(diagnostics, out_diagnostics);
            r != SPINDRIFT_OK)
            return r;
        return result;
    });
}

} // extern "C"
