// The scene depth a world's depth_buffer collision ops meet (World::setSceneDepth,
// docs/runtime-api.md "Scene depth"): checking what a host gives, and turning its camera into the
// record the kernels read (collision.h, sdContactSceneDepth). Both the public call and the engine's
// own renderer hand-over (world_access.h, setRendererSceneDepth) go through here.
#pragma once

#include <string>

#include "compiler/compiled_effect.h"
#include "driver/world_inputs.h"
#include "spindrift/runtime.h"

namespace spindrift {

// What is wrong with the depth's size, camera or (when `check_samples`) samples, in words
// ("scene depth sample 17 (row 0, column 17) is NaN"); empty when it is fine.
std::string sceneDepthProblem(const SceneDepth& depth, bool check_samples);

// The camera record of a checked depth (kColliderSceneDepth; thickness and payload are the op's
// and resolveStep's) and its near plane, addresses left 0.
SceneDepthInput sceneDepthCamera(const SceneDepth& depth);

// Whether any collision op of the effect meets the scene depth.
bool usesSceneDepth(const CompiledEffect& effect);

} // namespace spindrift
