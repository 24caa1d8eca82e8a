// Ribbons drawn from the CPU backend: each live particle's trail (trail_store.h) as a strip
// polyline (kernels/strip.h) for the renderer's strip pass. DESIGN rule 3: the one function that
// turns trails into what the renderer draws, as writeDrawRecords is for billboards.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/cpu_effect.h"
#include "kernels/strip.h" // StripPoint and the points/segments convention

namespace spindrift::cpu {

// Appends the trails of every live particle of ribbon emitter `emitter` as strip polylines, in
// slot order, to points and segments: one call's output is one strip batch.
// - Points head first: the particle's current position, then its recorded points newest to
//   oldest (the newest is left out when it is exactly the current position, as right after it
//   was recorded, so no segment has zero length). A particle with fewer than 2 such points
//   writes nothing.
// - World space like writeDrawRecords (a local-space effect is carried by its current
//   transform).
// - width = ribbon width x the particle's draw size x the taper profile, linear in the distance
//   from the head along the polyline (sdRibbonWidth: full at the head, x (1 - taper) at the
//   tail); colour = the particle's draw colour (particle_appearance.h, exactly what
//   writeDrawRecords gives it), the same at every point.
// - tangent_u.xyz: the average of the unit directions of the segments on either side, pointing
//   from the head toward the tail (sdRibbonTangent); tangent_u.w = u (sdRibbonU): uv_tiling 0
//   runs 0 at the head to 1 at the tail, otherwise metres from the head x uv_tiling.
// - segments: n - 1 per polyline of n points, each the index of its first point counted from the
//   first point this call appends (the batch's first point), so the points and segments this
//   call appends are one StripBatch.
// - velocities (optional; motion vectors, render::StripBatch::velocities): kept as long as
//   points, the particle's world velocity (its draw record's) for each of its points.
// Returns the points written. Writes nothing for an emitter that is not a ribbon or out of range.
// Allocates nothing when points, segments (and velocities) have room for
// maxRibbonPoints(fx, emitter) more.
uint64_t writeRibbonStrips(const CpuEffect& fx, uint32_t emitter, std::vector<StripPoint>& points,
                           std::vector<uint32_t>& segments,
                           std::vector<vec4>* velocities = nullptr);

// The most points writeRibbonStrips can write for this emitter: capacity x (max_points + 1) for a
// ribbon emitter, 0 for any other (or an index out of range). It writes fewer segments than
// points.
uint64_t maxRibbonPoints(const CpuEffect& fx, uint32_t emitter);

} // namespace spindrift::cpu
