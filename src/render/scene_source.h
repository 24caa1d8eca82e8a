// What a host plays from one input file: a scene (.json), or an effect (.json or .sfx) shown in
// the scene that frames it (defaultSceneForEffect). `spindrift render` and `spindrift view` both
// load their input through this, so the viewer's frame and the offline render frame the same
// effect the same way.
#pragma once

#include <string>
#include <vector>

#include "spindrift/diagnostic.h"
#include "spindrift/scene_desc.h"

namespace spindrift::render {

// A JSON file is a scene when its top-level object has a "camera" or an "effects" key and no
// "emitters" key; anything else (including text that is not JSON) is read as an effect, whose
// loader then reports what is wrong with it. Only the top-level keys are read here: each loader
// applies its own format's limits.
bool looksLikeScene(const std::string& path);

// Loads `path` as a scene (looksLikeScene) or as an effect framed by defaultSceneForEffect.
// scene_file is the path the scene's effect paths are relative to: `path` for a scene, "" for an
// effect (its default scene names the effect by absolute path). Returns false with the loader's
// diagnostics when the file does not load. A scene's warnings are appended either way; an
// effect's are left to the scene player, which loads it again (each reported once).
bool loadSceneSource(const std::string& path, SceneDesc& scene, std::string& scene_file,
                     std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::render
