// Strips written on the device (src/gpu/ribbon_strips.h, recordDeviceStrips): the particle at
// alive-list index i (its draw record i, written by gpu_draw_records.comp just before) writes its
// strip polyline to block i of the emitter's device strip buffer and its point count n to
// strip_counts[i]. The renderer draws the blocks with an indirect draw (shaders/strip.vert,
// kSpecStripBlocks); nothing is read back. Two modes (push.params.w):
// - kGpuStripsRibbon: points [i * (max_points + 1), + n) from the particle's trail (n = 0: fewer
//   than 2 points, nothing drawn), the same two walks over the same kernels as the host's
//   appendRibbonPolyline (src/runtime/ribbon_polyline.h): positions and distances from the head
//   first, then the strip points once the length is known.
// - kGpuStripsBeam: points [i * (segments + 1), + segments + 1), point k by sdBeamPoint
//   (kernels/beam.h) with the record's key and colour and the frame's curve and jitter cycle
//   (BeamFrame at push.addresses.zw), as the host's appendBeamStrips (src/render/beam_strips.h).
//   One invocation per point: a beam has up to 257 points and an emitter few beams.
#version 460
#extension GL_GOOGLE_include_directive : require
// SD_SUBGROUP_STRIPS 1 (gpu_ribbon_strips_subgroup.comp, devices with subgroup arithmetic): one
// subgroup per ribbon, one lane per point (writeRibbonStripsBySubgroup). 0: one invocation per
// ribbon walking its polyline (writeRibbonStrips), for any device.
#ifndef SD_SUBGROUP_STRIPS
#define SD_SUBGROUP_STRIPS 0
#endif
#if SD_SUBGROUP_STRIPS
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

#include "gpu_sim.glsl"
#include "gpu_trail.glsl"
#include "beam.h"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer StripPointsRef {
    StripPoint points[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer StripCountsRef {
    uint counts[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer DrawRecordsReadRef {
    DrawRecord records[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer BeamFrameRef {
    BeamFrame frame;
};

// The emitter's draw record i (storeDrawRecord's place).
DrawRecord loadDrawRecord(GpuEmitterPool pool, uint i) {
    uint t = pool.draw_first_in_chunk + i;
    uint chunk = pool.draw_chunk + t / pool.draw_chunk_records;
    uvec2 address = AddressTableRef(loadTables().draw_records.xy).addresses[chunk];
    return DrawRecordsReadRef(address).records[t % pool.draw_chunk_records];
}

// The emitter's live particles this pass draws: min(alive count, live bound).
uint drawnCount(uint list) {
    uint index = emitterIndex();
    uint alive = list == 0u ? countersRef().counters[index].alive0 : countersRef().counters[index].alive1;
    return min(alive, push.params.z);
}

void writeBeamStrips() {
    GpuEmitterTrails t = emitterTrails();
    if ((t.strips_lo | t.strips_hi) == 0u) return;
    GpuEmitterPool pool = emitterPool();
    EmitterRecord e = emitterRecord();
    BeamFrame frame = BeamFrameRef(push.addresses.zw).frame;
    // The block size is the buffer's (gpu_trails.cpp), whatever segments the host's curve says.
    BeamCurve curve = frame.curve;
    curve.segments = max(e.beam_segments, 1u);
    uint block_points = curve.segments + 1u;
    uint count = drawnCount(push.params.y);
    StripPointsRef strips = StripPointsRef(uvec2(t.strips_lo, t.strips_hi));
    StripCountsRef counts = StripCountsRef(uvec2(t.strip_counts_lo, t.strip_counts_hi));
    // 32-bit index: the strip buffer is below the buffer limit, so under 2^32 / 48 points.
    uint points = count * block_points;
    for (uint j = gl_GlobalInvocationID.x; j < points; j += gridStride()) {
        uint i = j / block_points;
        uint k = j - i * block_points;
        DrawRecord record = loadDrawRecord(pool, i);
        strips.points[j] = sdBeamPoint(curve, record.key, frame.jitter_cycle, k, record.color);
        if (k == 0u) counts.counts[i] = block_points;
    }
}

void writeRibbonStrips() {
    GpuEmitterTrails t = emitterTrails();
    if (!hasTrails(t) || (t.strips_lo | t.strips_hi) == 0u) return;
    GpuEmitterPool pool = emitterPool();
    EmitterRecord e = emitterRecord();
    GpuStepHeader header = loadStepHeader();
    uint list = push.params.y;
    uint count = drawnCount(list);
    UintColumn alive_list = uintColumn(pool, kGpuColumnAlive0 + list);
    TrailRingsRef rings = trailRings(t);
    StripPointsRef strips = StripPointsRef(uvec2(t.strips_lo, t.strips_hi));
    StripCountsRef counts = StripCountsRef(uvec2(t.strip_counts_lo, t.strip_counts_hi));
    vec4 r0 = header.world_from_sim0;
    vec4 r1 = header.world_from_sim1;
    vec4 r2 = header.world_from_sim2;

    for (uint i = gl_GlobalInvocationID.x; i < count; i += gridStride()) {
        uint slot = alive_list.v[i];
        uvec2 ring = rings.rings[slot];
        vec3 head = vec3(floatColumn(pool, kGpuColumnPositionX).v[slot],
                         floatColumn(pool, kGpuColumnPositionY).v[slot],
                         floatColumn(pool, kGpuColumnPositionZ).v[slot]);
        vec3 newest = ring.y != 0u
                          ? loadTrailPoint(t, slot, sdRibbonRingEntry(ring.x, ring.y, t.max_points, 0u))
                          : head;
        uint skip = sdRibbonSkipsNewest(head, ring.y, newest);
        uint n = sdRibbonPolylinePoints(ring.y, skip);
        counts.counts[i] = n;
        if (n == 0u) continue;
        // 32-bit index: capacity x (max_points + 1) < 2^25 (kMaxTrailPoints).
        uint block = i * (t.max_points + 1u);
        vec3 previous = sdRibbonWorldPoint(r0, r1, r2, head);
        float distance_m = 0.0;
        for (uint k = 0u; k < n; ++k) {
            vec3 world = previous;
            if (k != 0u) {
                uint entry = sdRibbonRingEntry(ring.x, ring.y, t.max_points, k - 1u + skip);
                world = sdRibbonWorldPoint(r0, r1, r2, loadTrailPoint(t, slot, entry));
            }
            distance_m = sdRibbonDistanceAlong(distance_m, previous, world);
            strips.points[block + k].position_width = vec4(world, 0.0);
            strips.points[block + k].tangent_u = vec4(0.0, 0.0, 0.0, distance_m);
            previous = world;
        }
        DrawRecord record = loadDrawRecord(pool, i);
        float length_m = distance_m;
        float head_width = sdRibbonHeadWidth(e.ribbon_width, record.position_size.w);
        vec3 direction_in = vec3(0.0);
        vec3 here = vec3(strips.points[block].position_width);
        for (uint k = 0u; k < n; ++k) {
            float s = strips.points[block + k].tangent_u.w;
            vec3 next = k + 1u < n ? vec3(strips.points[block + k + 1u].position_width) : here;
            vec3 direction_out = k + 1u < n ? sdRibbonSegmentDirection(here, next) : vec3(0.0);
            strips.points[block + k] = sdRibbonStripPoint(here, s, length_m, direction_in, direction_out,
                                                       head_width, e.ribbon_taper,
                                                       e.ribbon_uv_tiling, record.color);
            direction_in = direction_out;
            here = next;
        }
    }
}

#if SD_SUBGROUP_STRIPS
// One particle's polyline as the subgroup walks it.
struct RibbonWalk {
    GpuEmitterTrails trails;
    uint slot;
    uvec2 ring;      // first entry, recorded points
    uint skip;       // 1 when the newest recorded point is the head (sdRibbonSkipsNewest)
    uint n;          // points of the polyline (sdRibbonPolylinePoints)
    vec3 head_world; // point 0
    vec4 r0, r1, r2; // world_from_sim
};

// Point k (< n) in world space: the head, then the recorded points newest first.
vec3 ribbonPoint(RibbonWalk w, uint k) {
    if (k == 0u) return w.head_world;
    uint entry = sdRibbonRingEntry(w.ring.x, w.ring.y, w.trails.max_points, k - 1u + w.skip);
    return sdRibbonWorldPoint(w.r0, w.r1, w.r2, loadTrailPoint(w.trails, w.slot, entry));
}

// This lane's point k of a round (here; the head past the end) and the one before it, and its
// distance from the head given the distance carried from earlier rounds; carry receives the
// distance after the round. The segment lengths are summed by a subgroup scan, so distances may
// differ from the host's running sum in the last bits (within the parity tolerance); both walks
// call this with the same inputs, so they agree with each other bit for bit.
float ribbonDistance(RibbonWalk w, uint k, inout float carry, out vec3 here, out vec3 previous) {
    bool inside = k < w.n;
    here = inside ? ribbonPoint(w, k) : w.head_world;
    previous = inside && k != 0u ? ribbonPoint(w, k - 1u) : here;
    float segment = length(here - previous);
    float distance_m = carry + subgroupInclusiveAdd(segment);
    carry += subgroupAdd(segment);
    return distance_m;
}

// The ribbon mode with one subgroup per particle: its lanes take the polyline's points in rounds
// of the subgroup's size, so consecutive lanes read consecutive trail entries and write
// consecutive strip points (one invocation walking a whole polyline wrote 48-byte points a block
// apart across its subgroup). Two walks, as the portable path: the length first (the taper
// needs it), then the points. Same kernels, same per-point values, the distances summed by scan.
void writeRibbonStripsBySubgroup() {
    GpuEmitterTrails t = emitterTrails();
    if (!hasTrails(t) || (t.strips_lo | t.strips_hi) == 0u) return;
    GpuEmitterPool pool = emitterPool();
    EmitterRecord e = emitterRecord();
    GpuStepHeader header = loadStepHeader();
    uint count = drawnCount(push.params.y);
    UintColumn alive_list = uintColumn(pool, kGpuColumnAlive0 + push.params.y);
    TrailRingsRef rings = trailRings(t);
    StripPointsRef strips = StripPointsRef(uvec2(t.strips_lo, t.strips_hi));
    StripCountsRef counts = StripCountsRef(uvec2(t.strip_counts_lo, t.strip_counts_hi));
    RibbonWalk w;
    w.trails = t;
    w.r0 = header.world_from_sim0;
    w.r1 = header.world_from_sim1;
    w.r2 = header.world_from_sim2;
    uint lane = gl_SubgroupInvocationID;
    uint subgroups = gl_NumWorkGroups.x * gl_NumSubgroups;

    // Uniform per subgroup: every lane works on the same particle.
    for (uint i = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID; i < count; i += subgroups) {
        w.slot = alive_list.v[i];
        w.ring = rings.rings[w.slot];
        vec3 head = vec3(floatColumn(pool, kGpuColumnPositionX).v[w.slot],
                         floatColumn(pool, kGpuColumnPositionY).v[w.slot],
                         floatColumn(pool, kGpuColumnPositionZ).v[w.slot]);
        vec3 newest = w.ring.y != 0u
                          ? loadTrailPoint(t, w.slot, sdRibbonRingEntry(w.ring.x, w.ring.y, t.max_points, 0u))
                          : head;
        w.skip = sdRibbonSkipsNewest(head, w.ring.y, newest);
        w.n = sdRibbonPolylinePoints(w.ring.y, w.skip);
        if (lane == 0u) counts.counts[i] = w.n;
        if (w.n == 0u) continue;
        w.head_world = sdRibbonWorldPoint(w.r0, w.r1, w.r2, head);

        // The length: the distance of the last point (k = n - 1; distances are >= 0, so the max
        // over lanes is that lane's value).
        float carry = 0.0;
        float length_m = 0.0;
        vec3 here, previous;
        for (uint first = 0u; first < w.n; first += gl_SubgroupSize) {
            uint k = first + lane;
            float distance_m = ribbonDistance(w, k, carry, here, previous);
            length_m = max(length_m, subgroupMax(k == w.n - 1u ? distance_m : 0.0));
        }

        DrawRecord record = loadDrawRecord(pool, i);
        float head_width = sdRibbonHeadWidth(e.ribbon_width, record.position_size.w);
        // 32-bit index: capacity x (max_points + 1) < 2^25 (kMaxTrailPoints).
        uint block = i * (t.max_points + 1u);
        carry = 0.0;
        for (uint first = 0u; first < w.n; first += gl_SubgroupSize) {
            uint k = first + lane;
            float distance_m = ribbonDistance(w, k, carry, here, previous);
            if (k < w.n) {
                vec3 direction_in = k != 0u ? sdRibbonSegmentDirection(previous, here) : vec3(0.0);
                vec3 direction_out = k + 1u < w.n
                                         ? sdRibbonSegmentDirection(here, ribbonPoint(w, k + 1u))
                                         : vec3(0.0);
                strips.points[block + k] =
                    sdRibbonStripPoint(here, distance_m, length_m, direction_in, direction_out,
                                       head_width, e.ribbon_taper, e.ribbon_uv_tiling, record.color);
            }
        }
    }
}
#endif

void main() {
    if (push.params.w == kGpuStripsBeam) {
        writeBeamStrips();
    } else {
#if SD_SUBGROUP_STRIPS
        writeRibbonStripsBySubgroup();
#else
        writeRibbonStrips();
#endif
    }
}
