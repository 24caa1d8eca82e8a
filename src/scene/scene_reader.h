// The structural half of loading a scene: walks the JSON DOM into a SceneDesc with the strict
// value readers of authoring/value_reader.h. Semantic rules are left to validateScene.
#pragma once

#include "authoring/value_reader.h"
#include "io/json_value.h"
#include "spindrift/scene_desc.h"

namespace spindrift {

// False when reading stopped early (not an object, or an unsupported format version).
bool readScene(ReadContext& ctx, const json::Value& root, SceneDesc& out);

} // namespace spindrift
