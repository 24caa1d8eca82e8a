// The ribbon trails of one emitter's live particles, gathered for the host
// (src/gpu/ribbon_strips.h): the particle at alive-list index i (its draw record i,
// gpu_draw_records.comp) writes its head position and point count to GpuTrailHead i of the gather
// buffer and its recorded points, oldest first, to points [i * max_points, i * max_points + count):
// a ring whose oldest point is entry 0, which the host walks with the ribbon kernels every strip
// writer calls (src/kernels/ribbon.h).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "gpu_sim.glsl"
#include "gpu_trail.glsl"

void main() {
    GpuEmitterTrails t = emitterTrails();
    if (!hasTrails(t)) return;
    GpuEmitterPool pool = emitterPool();
    uint index = emitterIndex();
    uint list = push.params.y;
    uint alive = list == 0u ? countersRef().counters[index].alive0 : countersRef().counters[index].alive1;
    uint count = min(alive, push.params.z);
    UintColumn alive_list = uintColumn(pool, kGpuColumnAlive0 + list);
    TrailRingsRef rings = trailRings(t);
    RibbonPointsRef recorded = recordedPoints(t);
    uvec2 gather = uvec2(t.gather_lo, t.gather_hi);
    TrailHeadsRef heads = TrailHeadsRef(gather);
    // The points follow capacity heads of 16 bytes (64-bit address arithmetic: no carry lost).
    uint carry;
    uint points_lo = uaddCarry(gather.x, pool.capacity * 16u, carry);
    TrailPointsRef points = TrailPointsRef(uvec2(points_lo, gather.y + carry));

    for (uint i = gl_GlobalInvocationID.x; i < count; i += gridStride()) {
        uint slot = alive_list.v[i];
        RibbonRing ring = trailRing(t, slot, rings.rings[slot]);
        GpuTrailHead head;
        head.x = floatColumn(pool, kGpuColumnPositionX).v[slot];
        head.y = floatColumn(pool, kGpuColumnPositionY).v[slot];
        head.z = floatColumn(pool, kGpuColumnPositionZ).v[slot];
        head.count = ring.count;
        heads.heads[i] = head;
        for (uint j = 0u; j < ring.count; ++j) {
            vec3 p = sdRibbonRecordedPoint(recorded, ring, ring.count - 1u - j);
            uint at = (i * t.max_points + j) * 3u;
            points.v[at] = p.x;
            points.v[at + 1u] = p.y;
            points.v[at + 2u] = p.z;
        }
    }
}
