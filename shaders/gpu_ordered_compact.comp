// GPU simulation pass 1b of a step, one emitter that keeps birth order (sdGpuKeepsBirthOrder:
// stable_order or replace_oldest; docs/gpu-backend.md, "Birth order"). The update pass moved its
// particles but appended nothing; this pass compacts the alive list in order, as the CPU's
// order-preserving removal does (src/cpu/cpu_effect.cpp): survivors keep their relative order,
// so the list stays sorted by spawn ordinal (births append in ordinal order) and the draw-record
// pass writes the CPU's slot order. A particle that dies out of order leaves no hole.
//
// replace_oldest: when the step's planned births do not fit, the oldest survivors (the front of
// the list) are replaced, as planSlots does on the CPU: r = min(births - free room, survivors).
// Their slots go to the free list after the dead ones, the spawn pass reuses them, and the
// counters pass counts them as replaced, not as deaths (they fire no death event).
//
// One workgroup walks the list in chunks of kGpuWorkgroupSize with a shared-memory scan: work
// O(live), span O(live / 64). Emitters that need birth order are the small ones (trails, stable
// sprites); a multi-workgroup scan is the next step if a large one needs it.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "integrate.h"
#include "gpu_sim.glsl"

shared uint s_scan[kGpuWorkgroupSize];

// Inclusive prefix sum of value over the workgroup (Hillis-Steele; every invocation calls it).
uint inclusiveScan(uint value) {
    uint lane = gl_LocalInvocationID.x;
    s_scan[lane] = value;
    barrier();
    for (uint offset = 1u; offset < kGpuWorkgroupSize; offset <<= 1u) {
        uint add = lane >= offset ? s_scan[lane - offset] : 0u;
        barrier();
        s_scan[lane] += add;
        barrier();
    }
    uint result = s_scan[lane];
    barrier();
    return result;
}

// The total of the last inclusiveScan (s_scan still holds it).
uint lastScanTotal() {
    uint total = s_scan[kGpuWorkgroupSize - 1u];
    barrier();
    return total;
}

void main() {
    if (gl_WorkGroupID.x != 0u) return;
    GpuEmitterPool pool = emitterPool();
    GpuStepEmitter step = stepEmitter();
    EmitterRecord e = emitterRecord();
    CountersRef counters = countersRef();
    uint index = emitterIndex();
    uint list_in = push.params.y;
    uint alive = list_in == 0u ? counters.counters[index].alive0 : counters.counters[index].alive1;
    uint count = min(alive, push.params.z);
    uint free_base = counters.counters[index].free_count;
    UintColumn in_list = uintColumn(pool, kGpuColumnAlive0 + list_in);
    UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + (1u - list_in));
    UintColumn free_list = uintColumn(pool, kGpuColumnFree);
    uint lane = gl_LocalInvocationID.x;

    // First walk: how many survive, which decides how many of them births replace.
    uint mine = 0u;
    for (uint i = lane; i < count; i += kGpuWorkgroupSize) {
        mine += survivesStep(pool, in_list.v[i]) ? 1u : 0u;
    }
    inclusiveScan(mine);
    uint survivors = lastScanTotal();
    uint replaced = 0u;
    if (e.overflow == kOverflowReplaceOldest) {
        uint room = pool.capacity - survivors;
        uint rest = step.birth_count > room ? step.birth_count - room : 0u;
        replaced = min(rest, survivors);
    }
    uint dead_total = count - survivors;

    // Second walk, in order: survivor k (k-th in birth order) is replaced when k < replaced,
    // else kept at k - replaced; the j-th dead particle frees its slot at j.
    uint kept_before = 0u;
    for (uint base = 0u; base < count; base += kGpuWorkgroupSize) {
        uint i = base + lane;
        uint slot = i < count ? in_list.v[i] : 0u;
        uint lives = (i < count && survivesStep(pool, slot)) ? 1u : 0u;
        uint inclusive = inclusiveScan(lives);
        uint survivor_index = kept_before + inclusive - lives;
        if (i < count) {
            if (lives == 0u) {
                uint dead_index = i - survivor_index;
                free_list.v[free_base + dead_index] = slot;
            } else if (survivor_index < replaced) {
                free_list.v[free_base + dead_total + survivor_index] = slot;
            } else {
                out_list.v[survivor_index - replaced] = slot;
            }
        }
        kept_before += lastScanTotal();
    }
    if (lane == 0u) {
        if (list_in == 0u) {
            counters.counters[index].alive1 = survivors - replaced;
        } else {
            counters.counters[index].alive0 = survivors - replaced;
        }
        counters.counters[index].free_count = free_base + dead_total + replaced;
        counters.counters[index].step_replaced = replaced;
    }
}
