// Strips: what ribbons (a particle's trail) and beams (a bent line between two points) are drawn
// as. Both become polylines of StripPoints; the renderer draws each segment between two
// consecutive points of one polyline as a camera-facing quad whose edges at a point are shared
// with the neighbouring segment, so a polyline is one seamless band. One pass serves both render
// types (docs/rendering.md, "Strips").
//
// FROZEN: a std430 buffer layout read by shaders (48 bytes; offsets pinned below).
//
// Buffers of a strip batch:
// - points: StripPoints, each polyline's points consecutive, head (newest / beam start) first;
// - segments: one uint per drawn segment, the index in points of its first point; the segment
//   runs from points[i] to points[i + 1], which belong to the same polyline. A polyline of n
//   points has n - 1 segments; one of fewer than 2 points has none.
#ifndef SPINDRIFT_KERNELS_STRIP_H
#define SPINDRIFT_KERNELS_STRIP_H

#include "shared_types.h"

SD_BEGIN_NAMESPACE

struct StripPoint {
    vec4 position_width; // xyz world position (m), w full width of the band at this point (m)
    vec4 color;          // linear RGBA, straight alpha
    vec4 tangent_u;      // xyz unit direction of the polyline at this point (the average of its
                         // neighbouring segments' directions), w texture u along the strip
};

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(StripPoint, 48);
static_assert(offsetof(StripPoint, color) == 16);
static_assert(offsetof(StripPoint, tangent_u) == 32);
} // namespace spindrift
#endif

#endif // SPINDRIFT_KERNELS_STRIP_H
