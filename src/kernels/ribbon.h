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

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_RIBBON_H
