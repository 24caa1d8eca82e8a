// Ribbon trails on the GPU (docs/gpu-backend.md, "Ribbons"): each slot of a ribbon emitter owns a
// ring of recorded positions (GpuEmitterTrails, src/gpu/shader/gpu_sim.h) with the ring maths and the
// recording rule of src/kernels/ribbon.h, the CPU backend's (src/cpu/trail_store.cpp). A ribbon
// emitter's slots never move (it never relocates: src/gpu/birth_order.h), so a trail never moves: a
// birth starts it (startTrail, spawn pass) and the update pass records a point after collision
// (recordTrailPoint). Include after gpu_sim.glsl.
#include "ribbon.h"

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer EmitterTrailsRef {
    GpuEmitterTrails trails[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer TrailPointsRef { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer TrailRingsRef { uvec2 rings[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer TrailHeadsRef {
    GpuTrailHead heads[];
};

GpuEmitterTrails emitterTrails() {
    return EmitterTrailsRef(loadTables().trails.xy).trails[emitterIndex()];
}
bool hasTrails(GpuEmitterTrails t) { return t.max_points != 0u; }

TrailPointsRef trailPoints(GpuEmitterTrails t) { return TrailPointsRef(uvec2(t.points_lo, t.points_hi)); }
TrailRingsRef trailRings(GpuEmitterTrails t) { return TrailRingsRef(uvec2(t.rings_lo, t.rings_hi)); }

// The trail points as the ribbon kernels read them, and slot's ring within them (ring: its
// (first, count) from rings[slot]).
RibbonPointsRef recordedPoints(GpuEmitterTrails t) {
    return RibbonPointsRef(uvec2(t.points_lo, t.points_hi));
}
RibbonRing trailRing(GpuEmitterTrails t, uint slot, uvec2 ring) {
    // 32-bit index: capacity x max_points <= kMaxTrailPoints (2^24).
    return sdRibbonRing(slot * t.max_points, ring.x, ring.y, t.max_points);
}

// Entry `entry` of slot's ring (32-bit index: capacity x max_points x 3 < 2^26).
void storeTrailPoint(GpuEmitterTrails t, uint slot, uint entry, vec3 p) {
    TrailPointsRef points = trailPoints(t);
    uint at = (slot * t.max_points + entry) * 3u;
    points.v[at] = p.x;
    points.v[at + 1u] = p.y;
    points.v[at + 2u] = p.z;
}

// The particle just born into slot starts a fresh trail: its birth position is the only point
// (trail_store.h, startTrail).
void startTrail(GpuEmitterTrails t, uint slot, vec3 birth_position) {
    storeTrailPoint(t, slot, 0u, birth_position);
    trailRings(t).rings[slot] = uvec2(0u, 1u);
}

// After integration and collision: the recording rule (sdRibbonRecordStep, the CPU's
// recordTrails) applied to slot's ring.
void recordTrailPoint(GpuEmitterTrails t, uint slot, vec3 position) {
    TrailRingsRef rings = trailRings(t);
    RibbonRecordStep step =
        sdRibbonRecordStep(recordedPoints(t), trailRing(t, slot, rings.rings[slot]), position,
                           t.min_sample_distance_m);
    if (!step.record) return;
    storeTrailPoint(t, slot, step.entry, position);
    rings.rings[slot] = uvec2(step.first, step.count);
}
