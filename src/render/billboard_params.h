// The ONE function turning an emitter's render settings into what the billboard shaders read
// (DESIGN rule 3). Every host (scene player, editor preview, tests) calls it.
#pragma once

#include "driver/placement.h"
#include "kernels/effect_records.h"
#include "render/shader/billboard.h"

namespace spindrift::render {

// The emitter's alignment, blend, render flags, flipbook grid and frame count (each at least 1),
// soft-fade distance and stretch, with its axis taken to world space: through the emitter's
// transform rows (parent_from_emitter), then world_from_effect, normalised (+Y if it vanishes).
// textured is 0: the caller sets it when it binds a texture.
BillboardParams billboardParams(const EmitterRecord& emitter, const Rows3x4& world_from_effect);

} // namespace spindrift::render
