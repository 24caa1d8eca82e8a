// Ribbon trails: the maths both backends run to record a particle's trail and to turn it into a
// strip (strip.h). A trail is a ring of at most max_points recorded positions per particle, in
// simulation space; the strip drawn from it starts at the particle's current position (the head)
// and runs through the recorded points, newest to oldest (docs/cpu-backend.md, "Trails").
//
// Along a strip every per-point value is a function of the point's distance from the head
// measured along the polyline, s in [0, L] (L the polyline's length): taper and the stretched
// texture coordinate use the trail fraction s / L, so a trail does not shimmer as the head
// segment grows and shrinks between recorded points.
#ifndef SPINDRIFT_KERNELS_RIBBON_H
#define SPINDRIFT_KERNELS_RIBBON_H

#include "shared_types.h"
#include "strip.h"
#include "transform.h"

SD_BEGIN_NAMESPACE

// A segment shorter than 1e-6 m (squared here) has no direction.
SD_CONST float kRibbonMinSegmentLength2 = 1e-12f;
// Two unit directions whose sum is shorter than 1e-3 (squared here) turn back on themselves: the
// average is meaningless there.
SD_CONST float kRibbonMinTangentLength2 = 1e-6f;

// Whether a particle now at position records a new point: it has moved at least
// min_sample_distance (> 0, m) from its newest recorded point. Compared squared, without sqrt.
SD_FUNC bool sdRibbonShouldRecord(vec3 newest_recorded, vec3 position, float min_sample_distance) {
    vec3 d = position - newest_recorded;
    return dot(d, d) >= min_sample_distance * min_sample_distance;
}

// --- the ring --------------------------------------------------------------------------------
// A particle's points occupy max_points entries; first is the entry of the oldest point and
// count (1..max_points while the particle lives: its birth position is the first point) the
// entries in use, oldest to newest going forward from first and wrapping.

// The entry of the k-th newest point (k = 0 the newest, k < count).
SD_FUNC uint sdRibbonRingEntry(uint first, uint count, uint max_points, uint k) {
    return (first + count - 1u - k) % max_points;
}

// The entry a new point is written to: after the newest, which is the oldest when the ring is
// full (the oldest point is dropped).
SD_FUNC uint sdRibbonRingAppendEntry(uint first, uint count, uint max_points) {
    return (first + count) % max_points;
}

// (first, count) after one point is appended.
SD_FUNC uvec2 sdRibbonRingAfterAppend(uint first, uint count, uint max_points) {
    if (count < max_points) return uvec2(first, count + 1u);
    return uvec2((first + 1u) % max_points, count);
}

// --- the strip -------------------------------------------------------------------------------

// Unit direction from one point to the next; zero for a segment too short to have one.
SD_FUNC vec3 sdRibbonSegmentDirection(vec3 from, vec3 to) {
    vec3 d = to - from;
    float length2 = dot(d, d);
    if (length2 < kRibbonMinSegmentLength2) return vec3(0.0f);
    return d / sqrt(length2);
}

// The tangent at a point from the unit directions of the segments before and after it (zero
// where there is none, at the ends): their normalised average. Where they turn back on each other
// the outgoing direction is used, and the incoming one at the tail; zero only when both are.
SD_FUNC vec3 sdRibbonTangent(vec3 direction_in, vec3 direction_out) {
    vec3 sum = direction_in + direction_out;
    float length2 = dot(sum, sum);
    if (length2 >= kRibbonMinTangentLength2) return sum / sqrt(length2);
    if (dot(direction_out, direction_out) > 0.0f) return direction_out;
    return direction_in;
}

// s / L clamped to [0, 1]: 0 at the head, exactly 1 at the tail; 0 for a polyline of no length.
SD_FUNC float sdRibbonTrailFraction(float distance_from_head_m, float length_m) {
    if (length_m <= 0.0f) return 0.0f;
    return clamp(distance_from_head_m / length_m, 0.0f, 1.0f);
}

// Full band width: head_width at the head, head_width * (1 - taper) at the tail, linear in the
// trail fraction in between. taper in [0, 1].
SD_FUNC float sdRibbonWidth(float head_width, float taper, float trail_fraction) {
    return head_width * (1.0f - taper * trail_fraction);
}

// Texture u: uv_tiling 0 stretches the texture once over the trail (the trail fraction, 0 at the
// head to 1 at the tail); otherwise metres from the head times uv_tiling (repeats per metre).
SD_FUNC float sdRibbonU(float distance_from_head_m, float length_m, float uv_tiling) {
    if (uv_tiling == 0.0f) return sdRibbonTrailFraction(distance_from_head_m, length_m);
    return distance_from_head_m * uv_tiling;
}

// --- one particle's polyline ------------------------------------------------------------------
// What both backends' strip writers run per point (runtime/ribbon_polyline.h on the host,
// shaders/gpu_ribbon_strips.comp on the device). A particle's polyline is its head (current
// position), then its `recorded` points newest to oldest, less the newest when it is exactly the
// head (right after it was recorded), so no segment has zero length; with fewer than 2 points it
// draws nothing. Point k is the head for k = 0, else the (k - 1 + skip_newest)-th newest point.

// 1 when the newest recorded point is left out (it is the head), else 0. newest: the newest
// recorded point (anything when recorded is 0).
SD_FUNC uint sdRibbonSkipsNewest(vec3 head, uint recorded, vec3 newest) {
    return recorded != 0u && newest == head ? 1u : 0u;
}

// Points of the polyline: 1 + recorded - skip_newest, or 0 when that is below 2.
SD_FUNC uint sdRibbonPolylinePoints(uint recorded, uint skip_newest) {
    uint n = 1u + recorded - skip_newest;
    return n < 2u ? 0u : n;
}

// A polyline point in world space: the simulation-space point through world_from_sim's rows.
SD_FUNC vec3 sdRibbonWorldPoint(vec4 row0, vec4 row1, vec4 row2, vec3 point_sim) {
    return sdTransformPoint(row0, row1, row2, point_sim);
}

// The distance from the head along the polyline at `here`, from the previous point's.
SD_FUNC float sdRibbonDistanceAlong(float previous_distance_m, vec3 previous, vec3 here) {
    return previous_distance_m + length(here - previous);
}

// The band's full width at the head: the emitter's ribbon_width times the particle's draw size.
SD_FUNC float sdRibbonHeadWidth(float ribbon_width, float size) {
    return ribbon_width * size;
}

// The strip point at world position `world`, distance_from_head_m along a polyline of length
// length_m, between segments of unit directions direction_in (zero at the head) and
// direction_out (zero at the tail; sdRibbonSegmentDirection): width tapered from head_width
// (sdRibbonWidth), the particle's colour, tangent (sdRibbonTangent) and u (sdRibbonU).
SD_FUNC StripPoint sdRibbonStripPoint(vec3 world, float distance_from_head_m, float length_m,
                                      vec3 direction_in, vec3 direction_out, float head_width,
                                      float taper, float uv_tiling, vec4 color) {
    float fraction = sdRibbonTrailFraction(distance_from_head_m, length_m);
    StripPoint p;
    p.position_width = vec4(world, sdRibbonWidth(head_width, taper, fraction));
    p.color = color;
    p.tangent_u = vec4(sdRibbonTangent(direction_in, direction_out),
                       sdRibbonU(distance_from_head_m, length_m, uv_tiling));
    return p;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_RIBBON_H
