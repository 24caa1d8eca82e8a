// Strips written on the device (src/gpu/ribbon_strips.h, recordDeviceStrips): the particle at
// alive-list index i (its draw record i, written by gpu_draw_records.comp just before) writes its
// strip polyline to block i of the emitter's device strip buffer and its point count n to
// strip_counts[i]. The renderer draws the blocks with an indirect draw (shaders/strip.vert,
// kSpecStripBlocks); nothing is read back. Two modes (push.params.w):
// - kGpuStripsRibbon: points [i * (max_points + 1), + n) from the particle's trail (n = 0: fewer
//   than 2 points, nothing drawn), by the polyline walk of src/kernels/ribbon.h that the host's
//   strip writers (src/cpu/trails.cpp, src/gpu/ribbon_strips.cpp) call too: the length first,
//   then one sdRibbonNextStripPoint per point.
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
    RibbonPointsRef recorded = recordedPoints(t);
    StripPointsRef strips = StripPointsRef(uvec2(t.strips_lo, t.strips_hi));
    StripCountsRef counts = StripCountsRef(uvec2(t.strip_counts_lo, t.strip_counts_hi));

    for (uint i = gl_GlobalInvocationID.x; i < count; i += gridStride()) {
        uint slot = alive_list.v[i];
        vec3 head = vec3(floatColumn(pool, kGpuColumnPositionX).v[slot],
                         floatColumn(pool, kGpuColumnPositionY).v[slot],
                         floatColumn(pool, kGpuColumnPositionZ).v[slot]);
        RibbonPolyline line = sdRibbonPolyline(recorded, trailRing(t, slot, rings.rings[slot]),
                                               head, header.world_from_sim0, header.world_from_sim1,
                                               header.world_from_sim2);
        counts.counts[i] = line.points;
        if (line.points == 0u) continue;
        DrawRecord record = loadDrawRecord(pool, i);
        RibbonWalk walk = sdRibbonWalk(line, sdRibbonPolylineLength(recorded, line), e,
                                       record.position_size.w, record.color);
        // 32-bit index: capacity x (max_points + 1) < 2^25 (kMaxTrailPoints).
        uint block = i * (t.max_points + 1u);
        for (uint k = 0u; k < line.points; ++k) {
            strips.points[block + k] = sdRibbonNextStripPoint(recorded, line, walk);
        }
    }
}

#if SD_SUBGROUP_STRIPS
// This lane's point k of a round (here; the head past the end) and the one before it, and its
// distance from the head given the distance carried from earlier rounds; carry receives the
// distance after the round. The segment lengths are summed by a subgroup scan, so distances may
// differ from the running sum of sdRibbonNextStripPoint in the last bits (within the parity
// tolerance); both walks call this with the same inputs, so they agree with each other bit for
// bit.
float ribbonDistance(RibbonPointsRef recorded, RibbonPolyline line, uint k, inout float carry,
                     out vec3 here, out vec3 previous) {
    bool inside = k < line.points;
    here = inside ? sdRibbonPolylinePoint(recorded, line, k) : line.head_world;
    previous = inside && k != 0u ? sdRibbonPolylinePoint(recorded, line, k - 1u) : here;
    float segment = length(here - previous);
    float distance_m = carry + subgroupInclusiveAdd(segment);
    carry += subgroupAdd(segment);
    return distance_m;
}

// The ribbon mode with one subgroup per particle: its lanes take the polyline's points in rounds
// of the subgroup's size, so consecutive lanes read consecutive trail entries and write
// consecutive strip points (one invocation walking a whole polyline wrote 48-byte points a block
// apart across its subgroup). Two walks, as the portable path: the length first (the taper
// needs it), then the points. The same polyline kernels and per-point rule (sdRibbonPolyline,
// sdRibbonPolylinePoint, sdRibbonStripPoint), the distances summed by scan.
void writeRibbonStripsBySubgroup() {
    GpuEmitterTrails t = emitterTrails();
    if (!hasTrails(t) || (t.strips_lo | t.strips_hi) == 0u) return;
    GpuEmitterPool pool = emitterPool();
    EmitterRecord e = emitterRecord();
    GpuStepHeader header = loadStepHeader();
    uint count = drawnCount(push.params.y);
    UintColumn alive_list = uintColumn(pool, kGpuColumnAlive0 + push.params.y);
    TrailRingsRef rings = trailRings(t);
    RibbonPointsRef recorded = recordedPoints(t);
    StripPointsRef strips = StripPointsRef(uvec2(t.strips_lo, t.strips_hi));
    StripCountsRef counts = StripCountsRef(uvec2(t.strip_counts_lo, t.strip_counts_hi));
    uint lane = gl_SubgroupInvocationID;
    uint subgroups = gl_NumWorkGroups.x * gl_NumSubgroups;

    // Uniform per subgroup: every lane works on the same particle.
    for (uint i = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID; i < count; i += subgroups) {
        uint slot = alive_list.v[i];
        vec3 head = vec3(floatColumn(pool, kGpuColumnPositionX).v[slot],
                         floatColumn(pool, kGpuColumnPositionY).v[slot],
                         floatColumn(pool, kGpuColumnPositionZ).v[slot]);
        RibbonPolyline line = sdRibbonPolyline(recorded, trailRing(t, slot, rings.rings[slot]),
                                               head, header.world_from_sim0, header.world_from_sim1,
                                               header.world_from_sim2);
        uint n = line.points;
        if (lane == 0u) counts.counts[i] = n;
        if (n == 0u) continue;

        // The length: the distance of the last point (k = n - 1; distances are >= 0, so the max
        // over lanes is that lane's value).
        float carry = 0.0;
        float length_m = 0.0;
        vec3 here, previous;
        for (uint first = 0u; first < n; first += gl_SubgroupSize) {
            uint k = first + lane;
            float distance_m = ribbonDistance(recorded, line, k, carry, here, previous);
            length_m = max(length_m, subgroupMax(k == n - 1u ? distance_m : 0.0));
        }

        DrawRecord record = loadDrawRecord(pool, i);
        float head_width = sdRibbonHeadWidth(e.ribbon_width, record.position_size.w);
        // 32-bit index: capacity x (max_points + 1) < 2^25 (kMaxTrailPoints).
        uint block = i * (t.max_points + 1u);
        carry = 0.0;
        for (uint first = 0u; first < n; first += gl_SubgroupSize) {
            uint k = first + lane;
            float distance_m = ribbonDistance(recorded, line, k, carry, here, previous);
            if (k < n) {
                vec3 direction_in = k != 0u ? sdRibbonSegmentDirection(previous, here) : vec3(0.0);
                vec3 direction_out = k + 1u < n
                                         ? sdRibbonSegmentDirection(
                                               here, sdRibbonPolylinePoint(recorded, line, k + 1u))
                                         : vec3(0.0);
                strips.points[block + k] = sdRibbonStripPoint(
                    here, distance_m, length_m, direction_in, direction_out, head_width,
                    e.ribbon_taper, e.ribbon_uv_tiling, record.color);
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
