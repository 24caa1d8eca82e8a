// loadScene = strict structural read (scene_reader) + the one set of semantic rules
// (validateScene), whose path-only diagnostics get their positions from the read. loadSceneFile
// adds the one check that needs the file system: every instance's effect file exists.
#include <filesystem>

#include "authoring/text_file.h"
#include "io/document_load.h"
#include "scene/scene_reader.h"
#include "spindrift/scene_json.h"

namespace spindrift {

namespace {

// "far > near" compares with near; when the reader rejected near, near kept its default and the
// comparison says nothing about the document.
bool comparesRejectedValue(const ReadContext& ctx, const Diagnostic& d) {
    return d.path == "$.camera.far" && ctx.reported.count("$.camera.near") != 0;
}

void checkEffectFiles(const ReadContext& ctx, const std::string& scene_file, const SceneDesc& scene,
                      std::vector<Diagnostic>& out) {
    for (size_t i = 0; i < scene.effects.size(); ++i) {
        const std::string& effect = scene.effects[i].effect;
        const std::string path = json::pathKey(json::pathIndex("$.effects", i), "effect");
        if (effect.empty() || ctx.isSuppressed(path)) continue;
        const std::string resolved = resolveEffectPath(scene_file, effect);
        std::error_code ec;
        const auto status = std::filesystem::status(resolved, ec);
        std::string problem;
        if (ec || !std::filesystem::exists(status)) {
            problem = "not found";
        } else if (std::filesystem::is_directory(status)) {
            problem = "is a directory";
        } else {
            continue;
        }
        Diagnostic d;
        d.path = path;
        d.message = "effect file '" + effect + "' " + problem + " (looked for '" + resolved +
                    "', relative to the scene file)";
        ctx.place(d);
        out.push_back(std::move(d));
    }
}

// scene_file non-null: also check the instances' effect files against it.
bool loadSceneText(std::string_view text, std::string_view file, SceneDesc& out,
                   std::vector<Diagnostic>& diagnostics, const std::string* scene_file) {
    out = SceneDesc{};
    DocumentSteps steps;
    steps.parse.max_bytes = kMaxSceneFileBytes;
    steps.parse.max_values = kMaxSceneJsonValues;
    steps.parse.document = "a scene document";
    steps.read = [&](ReadContext& ctx, const json::Value& root) {
        return readScene(ctx, root, out);
    };
    steps.validate = [&](std::vector<Diagnostic>& semantic) { validateScene(out, semantic); };
    steps.compares_rejected_value = comparesRejectedValue;
    // A list over its limit hides its items' mistakes, and an effect path the rules rejected is
    // not also looked for on disk.
    steps.rules_hide_nested = true;
    if (scene_file != nullptr) {
        steps.check_after = [&](const ReadContext& ctx, std::vector<Diagnostic>& found) {
            checkEffectFiles(ctx, *scene_file, out, found);
        };
    }
    return loadDocument(text, file, steps, diagnostics);
}

} // namespace

bool loadScene(std::string_view text, std::string_view file, SceneDesc& out,
               std::vector<Diagnostic>& diagnostics) {
    return loadSceneText(text, file, out, diagnostics, nullptr);
}

bool loadSceneFile(const std::string& path, SceneDesc& out, std::vector<Diagnostic>& diagnostics) {
    out = SceneDesc{};
    std::string text;
    if (!readTextFile(path, kMaxSceneFileBytes, "scene", text, diagnostics)) return false;
    return loadSceneText(text, path, out, diagnostics, &path);
}

std::string resolveEffectPath(const std::string& scene_file, const std::string& effect_path) {
    const std::filesystem::path effect(effect_path);
    if (effect.is_absolute()) return effect_path;
    return (std::filesystem::path(scene_file).parent_path() / effect).lexically_normal().string();
}

} // namespace spindrift
