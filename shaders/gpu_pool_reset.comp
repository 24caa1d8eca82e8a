// Empties one emitter's region of the pool (creation and restart): every slot free, listed so
// that births take slots 0, 1, 2, ... in order; no particle alive. Statistics are kept.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "gpu_sim.glsl"
#include "gpu_events.glsl"

void main() {
    GpuEmitterPool pool = emitterPool();
    UintColumn free_list = uintColumn(pool, kGpuColumnFree);
    for (uint k = gl_GlobalInvocationID.x; k < pool.capacity; k += gridStride()) {
        free_list.v[k] = pool.capacity - 1u - k;
    }
    if (gl_GlobalInvocationID.x == 0u) {
        CountersRef ref = countersRef();
        uint e = emitterIndex();
        ref.counters[e].alive0 = 0u;
        ref.counters[e].alive1 = 0u;
        ref.counters[e].free_count = pool.capacity;
        ref.counters[e].step_contacts = 0u;
        // Back to time 0: the driver's ordinals restart, so do those event births took.
        eventCountersRef().counters[e].ordinals_taken_lo = 0u;
        eventCountersRef().counters[e].ordinals_taken_hi = 0u;
    }
}
