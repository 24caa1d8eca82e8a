// The ONE place each strip setting is derived from an emitter's compiled render settings (DESIGN
// rule 3), for ribbons and beams alike; every host (scene player, editor preview, tests) calls
// these.
#pragma once

#include "driver/placement.h"
#include "kernels/beam.h"
#include "kernels/effect_records.h"
#include "render/shader/strip_draw.h"

namespace spindrift::render {

// The emitter's blend, render flags and soft-fade distance. textured is 0: the caller sets it
// when it binds a texture.
StripParams stripParams(const EmitterRecord& emitter);

// A beam emitter's curve in world space: start, end and the two inner control points
// (start + start_tangent, end + end_tangent) taken from emitter space through the emitter's
// transform rows (parent_from_emitter), then world_from_effect; width, sag, jitter and
// jitter_frequency as compiled; segments at least 1.
BeamCurve beamCurve(const EmitterRecord& emitter, const Rows3x4& world_from_effect);

} // namespace spindrift::render
