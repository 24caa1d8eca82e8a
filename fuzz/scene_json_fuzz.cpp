// libFuzzer target for the scene reader: any bytes give diagnostics or a valid scene, never a
// crash, a hang or a sanitizer report; a scene that loads passes validateScene, survives
// save -> load unchanged, and its derived values (camera pose, instance positions) evaluate.
// (Coordinates are only required finite, so a sum of two near-FLT_MAX values may overflow to
// infinity there; the look-at eye (the position itself) and the up vector are checked.)
// Seed corpus: fuzz/corpus/scene_json/. Build line (fuzz/CMakeLists.txt):
//   spindrift_add_fuzzer(scene_json_fuzz scene_json_fuzz.cpp)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "spindrift/scene_json.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& text) {
    std::fprintf(stderr, "%s\n--- text:\n%s\n", what, text.c_str());
    std::abort();
}

bool isFinite(const spindrift::Float3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

float sink(const spindrift::Float3& v) {
    return v.x + v.y + v.z;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace spindrift;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    const bool ok = loadScene(text, "fuzz.json", scene, diagnostics);
    if (ok == hasErrors(diagnostics)) {
        std::fprintf(stderr, "loadScene returned %d with %zu diagnostics\n", ok,
                     diagnostics.size());
        std::abort();
    }
    if (!ok) return 0;

    std::vector<Diagnostic> rules;
    if (!validateScene(scene, rules)) fail(formatDiagnostic(rules.front()).c_str(), "");
    const std::string saved = saveScene(scene);
    SceneDesc reloaded;
    std::vector<Diagnostic> reload_diagnostics;
    if (!loadScene(saved, "saved.json", reloaded, reload_diagnostics)) {
        fail(formatDiagnostic(reload_diagnostics.front()).c_str(), saved);
    }
    if (!(reloaded == scene)) fail("save -> load changed the scene", saved);
    if (saveScene(reloaded) != saved) fail("the canonical text is not reproduced", saved);

    volatile float total = 0;
    for (float t : {-1.0f, 0.0f, 1.5f, scene.duration_s}) {
        const CameraPose pose = cameraPose(scene.camera, t);
        if (scene.camera.mode == CameraMode::look_at && !isFinite(pose.eye)) {
            fail("non-finite look-at camera eye", saved);
        }
        if (!isFinite(pose.up)) fail("non-finite camera up", saved);
        for (const EffectInstanceDesc& instance : scene.effects) {
            total = total + sink(instancePosition(instance, t));
        }
    }
    return 0;
}
