// Events to gameplay on the device (src/gpu/gameplay_capture.h; docs/runtime-api.md, "Events"):
// the capture buffer the update and spawn passes append to, and the emitters' events records.
// Appends are unordered (an atomic counter); the host sorts each step's events into the
// canonical order and keeps each emitter's first max_per_step, as the CPU does. Include after
// gpu_sim.glsl with threshold.h and transform.h.

layout(buffer_reference, std430, buffer_reference_align = 16) buffer GameplayRef {
    GpuGameplayHeader header;
    GpuGameplayEvent events[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer EmitterEventsRef {
    EmitterEventsRecord records[];
};

// Emitter e's events record; none (no kinds, no threshold) for an effect without events.
EmitterEventsRecord emitterEventsAt(uint e) {
    uvec4 a = loadTables().emitter_events;
    if (a.x == 0u && a.y == 0u) {
        return EmitterEventsRecord(0u, 1u, kThresholdNone, kThresholdRising, 0.0, 0u, 0u, 0u);
    }
    return EmitterEventsRef(a.xy).records[e];
}

bool deliversEvent(EmitterEventsRecord r, uint kind) {
    return (r.kinds & (1u << kind)) != 0u;
}

// Appends one event (simulation-space values, moved to world space by the step's world_from_sim
// as the CPU moves a local-space effect's: transform.h), or counts it past the capacity.
void appendGameplayEvent(uint kind, uint emitter, uint key, uint detail, uint step_lo, vec3 p,
                         vec3 v, vec3 n) {
    uvec4 t = loadTables().gameplay;
    GameplayRef g = GameplayRef(t.xy);
    uint at = atomicAdd(g.header.count, 1u);
    if (at >= t.z) {
        atomicAdd(g.header.dropped, 1u);
        return;
    }
    GpuStepHeader h = loadStepHeader();
    GpuGameplayEvent ev;
    ev.kind = kind;
    ev.emitter = emitter;
    ev.key = key;
    ev.detail = detail;
    ev.step_lo = step_lo;
    ev.pad0 = 0u;
    ev.pad1 = 0u;
    ev.pad2 = 0u;
    ev.position =
        vec4(sdTransformPoint(h.world_from_sim0, h.world_from_sim1, h.world_from_sim2, p), 0.0);
    ev.velocity =
        vec4(sdTransformVector(h.world_from_sim0, h.world_from_sim1, h.world_from_sim2, v), 0.0);
    ev.normal =
        vec4(sdTransformVector(h.world_from_sim0, h.world_from_sim1, h.world_from_sim2, n), 0.0);
    g.events[at] = ev;
}
