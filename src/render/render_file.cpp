#include "render/render_file.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>

#include "authoring/text_file.h"
#include "cook/effect_file.h"
#include "io/json_value.h"
#include "render/effect_framing.h"
#include "spindrift/effect_json.h"
#include "spindrift/scene_json.h"

namespace spindrift::render {

namespace fs = std::filesystem;

bool looksLikeScene(const std::string& path) {
    if (effectFileKindOf(path) == EffectFileKind::cooked) return false;
    // Only the top-level keys are read here: each loader applies its own format's limits.
    std::string text;
    std::vector<Diagnostic> ignored;
    const uint64_t largest = std::max<uint64_t>(kMaxSceneFileBytes, kMaxEffectFileBytes);
    if (!readTextFile(path, largest, "scene", text, ignored)) return false;
    std::vector<std::string> keys;
    if (!json::topLevelKeys(text, keys)) return false;
    auto has = [&](const char* key) {
        return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    return !has("emitters") && (has("camera") || has("effects"));
}

namespace {

bool sceneForEffect(const std::string& path, SceneDesc& scene,
                    std::vector<Diagnostic>& diagnostics) {
    std::vector<Diagnostic> found;
    EffectDesc desc;
    if (effectFileKindOf(path) == EffectFileKind::cooked) {
        // A cooked file keeps no EffectDesc; what framing needs is in its effect record.
        CompiledEffect compiled;
        if (!loadCompiledEffect(path, compiled, found)) {
            diagnostics.insert(diagnostics.end(), found.begin(), found.end());
            return false;
        }
        const EffectRecord& r = compiled.effect;
        desc.bounds.center = {r.bounds_center.x, r.bounds_center.y, r.bounds_center.z};
        desc.bounds.half_extents = {r.bounds_half_extents.x, r.bounds_half_extents.y,
                                    r.bounds_half_extents.z};
        desc.duration_s = r.duration_s;
    } else if (!loadEffectFile(path, desc, found)) {
        diagnostics.insert(diagnostics.end(), found.begin(), found.end());
        return false;
    }
    // Framed on what it draws (effect_framing.h); an effect that never draws anything visible
    // is framed on its authored bounds.
    std::optional<Bounds> drawn;
    Bounds measured;
    FramingConfig framing;
    framing.ground_y = defaultGroundHeight(desc.bounds);
    if (measureDrawnBounds(path, measured, found, framing)) {
        drawn = measured;
    } else if (!found.empty()) {
        diagnostics.insert(diagnostics.end(), found.begin(), found.end());
        return false;
    }
    // Absolute, so it resolves whatever the scene file (there is none) would be.
    scene = defaultSceneForEffect(desc, fs::absolute(path).lexically_normal().string(), drawn);
    return true;
}

} // namespace

bool loadRenderScene(const std::string& path, SceneDesc& scene, std::string& scene_file,
                     std::vector<Diagnostic>& diagnostics) {
    scene_file.clear();
    if (!looksLikeScene(path)) return sceneForEffect(path, scene, diagnostics);
    if (!loadSceneFile(path, scene, diagnostics)) return false;
    scene_file = path;
    return true;
}

uint32_t playerThreadsFor(const SceneDesc& scene) {
    const uint32_t instances = std::max<uint32_t>(uint32_t(scene.effects.size()), 1u);
    return std::clamp(std::thread::hardware_concurrency() / instances, 1u, 8u);
}

bool renderSceneFrame(Renderer& renderer, ScenePlayer& player, float time_s,
                      bool continues_previous, Image& out, FrameStats& stats,
                      std::vector<Diagnostic>& diagnostics, RasterPath raster, MotionImage* motion,
                      const MotionVectorsDesc& settings) {
    FrameView view = frameView(player.scene, time_s);
    view.continues_previous = continues_previous;
    view.raster = raster;
    if (motion != nullptr) {
        view.motion = settings;
        view.motion.enabled = true;
        view.motion.has_previous_camera = true;
        view.motion.previous_camera =
            cameraPose(player.scene.camera, std::max(time_s - settings.interval_s, 0.0f));
        view.motion.previous_fov_deg = view.fov_deg;
    }
    view.scene_depth = player.scene_depth;
    if (view.scene_depth != SceneDepthOutput::none &&
        (!continues_previous || !lastSceneDepth(renderer).valid)) {
        // Depth-buffer collision reads the last frame's depth: a still or a sequence's first frame
        // has none, so this frame's opaque scene is drawn once first for it.
        FrameView opaque_only = view;
        opaque_only.motion = {};
        Image unused;
        FrameStats unused_stats;
        if (!renderFrame(renderer, opaque_only, {}, unused, unused_stats, diagnostics))
            return false;
    }
    playFrame(player, time_s, view.camera.eye);
    if (!player.errors.empty()) {
        // A GPU-simulated instance failed (a Vulkan error), or the time is past what may be
        // simulated: the frame would lack it.
        diagnostics.insert(diagnostics.end(), player.errors.begin(), player.errors.end());
        player.errors.clear();
        return false;
    }
    view.lights = player.lights;
    return renderFrame(renderer, view, player.batches, out, motion, stats, diagnostics);
}

} // namespace spindrift::render
