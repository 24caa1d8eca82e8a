// The GPU simulation's bookkeeping around a step, one invocation per emitter: begin clears the
// alive list the step writes; finish commits the births (spawn took min(n, capacity - survivors)
// slots from the end of the free list), and adds the step's deaths, dropped births, replaced
// particles and contacts to the 64-bit totals. A pass of its own, so no invocation of update or spawn reads a counter
// that another is changing.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "gpu_sim.glsl"

// total += value in (lo, hi) words.
void add64(inout uint lo, inout uint hi, uint value) {
    uint carry;
    lo = uaddCarry(lo, value, carry);
    hi += carry;
}

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= push.params.z) return;
    CountersRef ref = countersRef();
    GpuEmitterCounters c = ref.counters[e];
    uint list_in = push.params.y;
    if (push.params.w == kGpuCountersBegin) {
        if (list_in == 0u) c.alive1 = 0u; else c.alive0 = 0u;
        c.step_contacts = 0u;
        c.step_replaced = 0u;
        ref.counters[e] = c;
        return;
    }
    GpuStepEmitter step = StepEmittersRef(loadStepHeader().emitters_ops.xy).steps[e];
    uint capacity = PoolsRef(loadTables().pools_counters.xy).pools[e].capacity;
    uint alive_in = list_in == 0u ? c.alive0 : c.alive1;
    uint survivors = list_in == 0u ? c.alive1 : c.alive0;
    uint born = min(step.birth_count, capacity - survivors);
    // Replaced particles (replace_oldest, ordered pass) left the list without dying.
    add64(c.deaths_lo, c.deaths_hi, alive_in - survivors - c.step_replaced);
    add64(c.overflow_replaced_lo, c.overflow_replaced_hi, c.step_replaced);
    add64(c.births_lo, c.births_hi, born);
    add64(c.overflow_dropped_lo, c.overflow_dropped_hi, step.birth_count - born);
    add64(c.overflow_dropped_lo, c.overflow_dropped_hi, step.planned_dropped_lo);
    c.overflow_dropped_hi += step.planned_dropped_hi;
    add64(c.contacts_lo, c.contacts_hi, c.step_contacts);
    c.free_count -= born;
    c.step_born = born;
    if (list_in == 0u) c.alive1 = survivors + born; else c.alive0 = survivors + born;
    ref.counters[e] = c;
}
