// The ONE function turning a mesh emitter's render settings into what the mesh shaders read
// (DESIGN rule 3). Every host (scene player, editor preview, tests) calls it.
#pragma once

#include "kernels/effect_records.h"
#include "render/shader/mesh.h"

namespace spindrift::render {

// The emitter's blend, render flags (lit), render.scale, tumble rate and lifetime range (the age
// of a record, sdMeshAge). vertex_count is 0: the renderer sets it from the batch's mesh.
MeshParams meshParams(const EmitterRecord& emitter);

} // namespace spindrift::render
