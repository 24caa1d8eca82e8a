// What the sub-emitter passes share (docs/gpu-backend.md, "Sub-emitters"): the links, the
// per-emitter event counters and the step's event queue, through the addresses in GpuTables.
// Include after gpu_sim.glsl.

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer SubEmittersRef {
    SubEmitterRecord links[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) buffer EventCountersRef {
    GpuEventCounters counters[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) buffer EventQueueRef {
    GpuEventQueueHeader header;
    GpuEvent events[];
};

SubEmittersRef subEmittersRef() { return SubEmittersRef(loadTables().sub_emitters.xy); }
EventCountersRef eventCountersRef() { return EventCountersRef(loadTables().sub_emitters.zw); }
EventQueueRef eventQueueRef() { return EventQueueRef(loadTables().event_queue.xy); }

// The first spawn ordinal of emitter e's planned births this step: the driver's (which knows
// nothing of event births on the GPU) plus the ordinals event births took in earlier steps, as
// takeOrdinals advanced the CPU driver's counter. Returns (low, high) words.
uvec2 plannedFirstOrdinal(uint e, GpuStepEmitter step) {
    GpuEventCounters c = eventCountersRef().counters[e];
    uint carry;
    uint lo = uaddCarry(step.first_ordinal_lo, c.ordinals_taken_lo, carry);
    return uvec2(lo, step.first_ordinal_hi + c.ordinals_taken_hi + carry);
}

// a + b in (low, high) words.
uvec2 add64(uvec2 a, uint b) {
    uint carry;
    uint lo = uaddCarry(a.x, b, carry);
    return uvec2(lo, a.y + carry);
}
