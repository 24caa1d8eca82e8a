#include "render/scene_source.h"

#include <algorithm>
#include <filesystem>

#include "authoring/text_file.h"
#include "cook/effect_file.h"
#include "io/json_value.h"
#include "spindrift/effect_json.h"
#include "spindrift/scene_json.h"

namespace spindrift::render {

namespace fs = std::filesystem;

bool looksLikeScene(const std::string& path) {
    if (effectFileKindOf(path) == EffectFileKind::cooked) return false;
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

// The scene an effect file is shown in (defaultSceneForEffect). Only a failure's diagnostics
// are kept: the scene player loads the effect again and reports its warnings once.
bool sceneForEffect(const std::string& path, SceneDesc& scene, std::vector<Diagnostic>& out) {
    std::vector<Diagnostic> diagnostics;
    const auto fail = [&] {
        out.insert(out.end(), diagnostics.begin(), diagnostics.end());
        return false;
    };
    EffectDesc desc;
    if (effectFileKindOf(path) == EffectFileKind::cooked) {
        // A cooked file keeps no EffectDesc; what framing needs is in its effect record.
        CompiledEffect compiled;
        if (!loadCompiledEffect(path, compiled, diagnostics)) return fail();
        const EffectRecord& r = compiled.effect;
        desc.bounds.center = {r.bounds_center.x, r.bounds_center.y, r.bounds_center.z};
        desc.bounds.half_extents = {r.bounds_half_extents.x, r.bounds_half_extents.y,
                                    r.bounds_half_extents.z};
        desc.duration_s = r.duration_s;
    } else if (!loadEffectFile(path, desc, diagnostics)) {
        return fail();
    }
    // Absolute, so it resolves whatever the scene file (there is none) would be.
    scene = defaultSceneForEffect(desc, fs::absolute(path).lexically_normal().string());
    return true;
}

} // namespace

bool loadSceneSource(const std::string& path, SceneDesc& scene, std::string& scene_file,
                     std::vector<Diagnostic>& diagnostics) {
    if (looksLikeScene(path)) {
        if (!loadSceneFile(path, scene, diagnostics)) return false;
        scene_file = path;
        return true;
    }
    scene_file.clear();
    return sceneForEffect(path, scene, diagnostics);
}

} // namespace spindrift::render
