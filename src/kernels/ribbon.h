// Ribbon trails: the maths both backends run to record a particle's trail and to turn it into a
// strip (strip.h). A trail is a ring of at most max_points recorded positions per particle, in
// simulation space; the strip drawn from it starts at the particle's current position (the head)
// and runs through the recorded points, newest to oldest (docs/cpu-backend.md, "Trails").
//
// Along a strip every per-point value is a function of the point's distance from the head
// measured along the polyline, s in [0, L] (L the polyline's length): taper and the stretched
// texture coordinate use the trail fraction s / L, so a trail does not shimmer as the head
// segment grows and shrinks between recorded points.
//
// The recorded points are read through RibbonPointsRef (SD_READONLY_REF: a shader including this
// header enables GL_EXT_buffer_reference), so the walk along a particle's polyline is one text for
// every strip writer: the CPU backend's writeRibbonStrips over its trail rings, the GPU host's over
// trails gathered from the device, and the device's strip pass over the device's rings.
#ifndef SPINDRIFT_KERNELS_RIBBON_H
#define SPINDRIFT_KERNELS_RIBBON_H

#include "effect_records.h"
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

// Recorded points as kernels read them: a point is three floats (x, y, z, simulation space), so
// point j of the view is v[3j], v[3j + 1], v[3j + 2] (SD_READONLY_REF).
SD_READONLY_REF(RibbonPointsRef, float, v, 4);

// One particle's ring within a RibbonPointsRef: its entry e is the view's point base + e.
// 32-bit indices: an emitter's rings hold at most kMaxTrailPoints (2^24) points, so 3 x (base +
// entry) < 2^26.
struct RibbonRing {
    uint base;       // the view's point index of entry 0
    uint first;      // entry of the oldest point
    uint count;      // recorded points (entries in use)
    uint max_points; // entries of the ring
};

SD_FUNC RibbonRing sdRibbonRing(uint base, uint first, uint count, uint max_points) {
    RibbonRing ring;
    ring.base = base;
    ring.first = first;
    ring.count = count;
    ring.max_points = max_points;
    return ring;
}

// The k-th newest recorded point of the ring (k = 0 the newest, k < ring.count).
SD_FUNC vec3 sdRibbonRecordedPoint(RibbonPointsRef points, RibbonRing ring, uint k) {
    uint at = (ring.base + sdRibbonRingEntry(ring.first, ring.count, ring.max_points, k)) * 3u;
    return vec3(points.v[at], points.v[at + 1u], points.v[at + 2u]);
}

// What recording a particle's position does to its ring (sdRibbonRecordStep).
struct RibbonRecordStep {
    bool record; // the position is recorded: written to `entry`, the ring becomes (first, count)
    uint entry;
    uint first;
    uint count;
};

// The recording rule, after integration and collision: a particle that has moved at least
// min_sample_distance from its newest point (sdRibbonShouldRecord) writes its position to the
// entry after the newest, and a full ring drops its oldest point (sdRibbonRingAfterAppend). The
// caller stores the point and the ring when `record` is set (the CPU's recordTrails, the device's
// recordTrailPoint).
SD_FUNC RibbonRecordStep sdRibbonRecordStep(RibbonPointsRef points, RibbonRing ring, vec3 position,
                                            float min_sample_distance) {
    RibbonRecordStep step;
    step.record = sdRibbonShouldRecord(sdRibbonRecordedPoint(points, ring, 0u), position,
                                       min_sample_distance);
    step.entry = sdRibbonRingAppendEntry(ring.first, ring.count, ring.max_points);
    uvec2 after = sdRibbonRingAfterAppend(ring.first, ring.count, ring.max_points);
    step.first = after.x;
    step.count = after.y;
    return step;
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
// What every strip writer runs (src/cpu/trails.cpp and src/gpu/ribbon_strips.cpp on the host,
// shaders/gpu_ribbon_strips.comp on the device). A particle's polyline is its head (current
// position), then its `recorded` points newest to oldest, less the newest when it is exactly the
// head (right after it was recorded), so no segment has zero length; with fewer than 2 points it
// draws nothing. Point k is the head for k = 0, else the (k - 1 + skip_newest)-th newest point.
// The walk: sdRibbonPolyline, then sdRibbonPolylineLength (the taper needs the length), then
// sdRibbonWalk and one sdRibbonNextStripPoint per point, head first.

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

// A particle's polyline: which points it has and where its head is, in world space.
struct RibbonPolyline {
    RibbonRing ring;
    uint skip_newest; // sdRibbonSkipsNewest
    uint points;      // sdRibbonPolylinePoints: 0 (nothing drawn) or >= 2
    vec3 head_world;  // point 0
    vec4 row0;        // world_from_sim
    vec4 row1;
    vec4 row2;
};

// The polyline of the particle at head_sim (simulation space) with recorded points `ring`,
// carried to the world by world_from_sim's rows.
SD_FUNC RibbonPolyline sdRibbonPolyline(RibbonPointsRef points, RibbonRing ring, vec3 head_sim,
                                        vec4 row0, vec4 row1, vec4 row2) {
    RibbonPolyline line;
    line.ring = ring;
    vec3 newest = ring.count != 0u ? sdRibbonRecordedPoint(points, ring, 0u) : head_sim;
    line.skip_newest = sdRibbonSkipsNewest(head_sim, ring.count, newest);
    line.points = sdRibbonPolylinePoints(ring.count, line.skip_newest);
    line.head_world = sdRibbonWorldPoint(row0, row1, row2, head_sim);
    line.row0 = row0;
    line.row1 = row1;
    line.row2 = row2;
    return line;
}

// Point k (< line.points) of the polyline in world space.
SD_FUNC vec3 sdRibbonPolylinePoint(RibbonPointsRef points, RibbonPolyline line, uint k) {
    if (k == 0u) return line.head_world;
    vec3 recorded = sdRibbonRecordedPoint(points, line.ring, k - 1u + line.skip_newest);
    return sdRibbonWorldPoint(line.row0, line.row1, line.row2, recorded);
}

// The polyline's length: its segment lengths summed from the head (sdRibbonDistanceAlong), the
// same running sum sdRibbonNextStripPoint carries, so the tail's distance is the length exactly.
SD_FUNC float sdRibbonPolylineLength(RibbonPointsRef points, RibbonPolyline line) {
    vec3 previous = line.head_world;
    float length_m = 0.0f;
    for (uint k = 1u; k < line.points; ++k) {
        vec3 here = sdRibbonPolylinePoint(points, line, k);
        length_m = sdRibbonDistanceAlong(length_m, previous, here);
        previous = here;
    }
    return length_m;
}

// The walk along a polyline: what is the same at every point, and the cursor.
struct RibbonWalk {
    float length_m;   // sdRibbonPolylineLength
    float head_width; // sdRibbonHeadWidth
    float taper;
    float uv_tiling;
    vec4 color;        // the particle's draw colour, the same at every point
    uint k;            // the next point
    vec3 here;         // point k, world space
    float distance_m;  // point k's distance from the head along the polyline
    vec3 direction_in; // unit direction of the segment ending at point k (zero at the head)
};

// A walk from the head of `line` (length length_m) for a particle of emitter e drawn with size
// and colour (its draw record's: sdParticleAppearance).
SD_FUNC RibbonWalk sdRibbonWalk(RibbonPolyline line, float length_m, EmitterRecord e, float size,
                                vec4 color) {
    RibbonWalk w;
    w.length_m = length_m;
    w.head_width = sdRibbonHeadWidth(e.ribbon_width, size);
    w.taper = e.ribbon_taper;
    w.uv_tiling = e.ribbon_uv_tiling;
    w.color = color;
    w.k = 0u;
    w.here = line.head_world;
    w.distance_m = 0.0f;
    w.direction_in = vec3(0.0f);
    return w;
}

// The strip point at the walk's cursor (sdRibbonStripPoint, with the direction to the next point),
// then the cursor moved to the next point. Call it line.points times: the points head first.
SD_FUNC StripPoint sdRibbonNextStripPoint(RibbonPointsRef points, RibbonPolyline line,
                                          SD_INOUT(RibbonWalk) w) {
    bool has_next = w.k + 1u < line.points;
    vec3 next = has_next ? sdRibbonPolylinePoint(points, line, w.k + 1u) : w.here;
    vec3 direction_out = has_next ? sdRibbonSegmentDirection(w.here, next) : vec3(0.0f);
    StripPoint p = sdRibbonStripPoint(w.here, w.distance_m, w.length_m, w.direction_in,
                                      direction_out, w.head_width, w.taper, w.uv_tiling, w.color);
    w.distance_m = sdRibbonDistanceAlong(w.distance_m, w.here, next);
    w.direction_in = direction_out;
    w.here = next;
    w.k += 1u;
    return p;
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include <vector>
namespace spindrift {
// The host writers' walk (the CPU backend's writeRibbonStrips, the GPU backend's host gather):
// one ribbon's strip points appended head first, and its segments, counted from the batch's first
// point (batch_first). A shader writes into fixed blocks instead and calls the kernels directly.
// With velocities (motion vectors: render::StripBatch::velocities), kept as long as points: the
// particle's world velocity for each point appended (the ribbon's look, its u, taper and colour,
// is measured from its head, so every point of it moves with the particle).
inline void appendRibbonStrip(RibbonPointsRef recorded, RibbonPolyline line, EmitterRecord record,
                              float size, vec4 color, size_t batch_first,
                              std::vector<StripPoint>& points, std::vector<uint32_t>& segments,
                              vec3 velocity = vec3(0.0f), std::vector<vec4>* velocities = nullptr) {
    RibbonWalk walk =
        sdRibbonWalk(line, sdRibbonPolylineLength(recorded, line), record, size, color);
    const size_t first = points.size();
    points.resize(first + line.points);
    for (uint32_t k = 0; k < line.points; ++k) {
        points[first + k] = sdRibbonNextStripPoint(recorded, line, walk);
    }
    if (velocities != nullptr) velocities->resize(first + line.points, vec4(velocity, 0.0f));
    // Segment k joins points k and k + 1.
    const auto first_in_batch = static_cast<uint32_t>(first - batch_first);
    for (uint32_t k = 0; k + 1 < line.points; ++k) segments.push_back(first_in_batch + k);
}
} // namespace spindrift
#endif

#endif // SPINDRIFT_KERNELS_RIBBON_H
