// The event births of one child emitter, in parallel (docs/gpu-backend.md, "Sub-emitters"):
// the assignment (gpu_events.comp) left this step's surviving event births as the last
// event_births entries of the emitter's alive list, each slot holding its event's index (flags
// column) and its spawn ordinal. Each is written as writeEventBirths writes it on the CPU:
// key sdParticleKey(seed, emitter, ordinal), the child's shape centred on the event position,
// the inherited velocity added, age 0 (src/kernels/birth.h, sdEventBirthPlace and sdNewborn).
// kGpuEventSpawnBirths also copies a ring's entries (a replace_oldest child whose oldest
// particles events replaced) in list order into the other alive list, and
// kGpuEventSpawnUnring, after a barrier, copies them back: the list is birth-ordered again.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "birth.h"
#include "transform.h"
#include "gpu_sim.glsl"
#include "gpu_events.glsl"
#include "gpu_birth.glsl"
#include "gpu_trail.glsl"
#include "gpu_gameplay.glsl"

void main() {
    uint index = emitterIndex();
    GpuEmitterCounters c = countersRef().counters[index];
    GpuEventCounters ec = eventCountersRef().counters[index];
    uint list_out = 1u - push.params.y;
    uint alive = list_out == 0u ? c.alive0 : c.alive1;
    // The dispatch is sized from a loose CPU-side bound: an invocation with neither a birth nor
    // a ring entry to copy leaves before it loads the emitter's records.
    uint id = gl_GlobalInvocationID.x;
    uint head = ec.ring_head;
    if (id >= min(ec.event_births, push.params.z) && (head == 0u || id >= alive)) return;
    GpuEmitterPool pool = emitterPoolForBirths();
    GpuStepEmitter step = stepEmitter();
    EmitterRecord e = emitterRecord();
    UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + list_out);
    // A ring (replace_oldest, full): entry x of the list is at (head + x) % capacity. The list
    // this step read is free now and holds the entries in order in between the two modes.
    UintColumn spare = uintColumn(pool, kGpuColumnAlive0 + push.params.y);

    if (push.params.w == kGpuEventSpawnUnring) {
        if (head == 0u) return;
        for (uint x = gl_GlobalInvocationID.x; x < alive; x += gridStride()) {
            out_list.v[x] = spare.v[x];
        }
        return;
    }
    // At most the CPU-side bound the dispatch was sized from (push.params.z).
    uint births = min(ec.event_births, push.params.z);
    EventQueueRef queue = eventQueueRef();
    GpuEmitterTrails trails = emitterTrails();
    for (uint j = gl_GlobalInvocationID.x; j < births; j += gridStride()) {
        uint at = head + alive - births + j;
        uint slot = out_list.v[at >= pool.capacity ? at - pool.capacity : at];
        GpuEvent ev = queue.events[uintColumn(pool, kGpuColumnFlags).v[slot]];
        uvec2 ordinal = uvec2(uintColumn(pool, kGpuColumnOrdinalLo).v[slot],
                              uintColumn(pool, kGpuColumnOrdinalHi).v[slot]);
        BirthPlace place = eventBirthPlace(step, ev);
        Newborn nb = newborn(e, step, index, ordinal, place);
        storeNewborn(pool, slot, nb, place.pre_age_s, ordinal);
        if (deliversEvent(emitterEventsAt(index), kEventBirth)) {
            appendGameplayEvent(kEventBirth, index, nb.key, 0u, step.step_index_lo, nb.position,
                                nb.velocity, vec3(0.0));
        }
        // A ribbon child starts its trail where it is born, as a planned birth does.
        if (hasTrails(trails)) startTrail(trails, slot, nb.position);
    }
    if (head == 0u) return;
    for (uint x = gl_GlobalInvocationID.x; x < alive; x += gridStride()) {
        uint at = head + x;
        spare.v[x] = out_list.v[at >= pool.capacity ? at - pool.capacity : at];
    }
}
