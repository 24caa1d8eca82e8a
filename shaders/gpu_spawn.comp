// GPU simulation pass 2 of a step, one emitter: the births the driver planned (src/cpu/spawn.cpp,
// spawnPlanned and writeBirth, on the GPU). Birth i of n is placed by sdPlannedBirthPlace (at
// sub-step fraction sdBirthFraction(i, n), pre-aged by the rest of the step) and composed by
// sdNewborn (src/kernels/birth.h), with key sdParticleKey(seed, emitter, ordinal), so it is born
// with the values the CPU gives it (its ordinal counts the event births of earlier steps:
// gpu_events.glsl). Births past the free slots are dropped (drop_new); the counters pass
// counts them.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "birth.h"
#include "transform.h"
#include "gpu_sim.glsl"
#include "gpu_trail.glsl"
#include "gpu_events.glsl"
#include "gpu_birth.glsl"
#include "gpu_gameplay.glsl"

void main() {
    GpuEmitterPool pool = emitterPoolForBirths();
    GpuStepEmitter step = stepEmitter();
    EmitterRecord e = emitterRecord();
    CountersRef counters = countersRef();
    uint index = emitterIndex();
    uint list_out = 1u - push.params.y;
    uint survivors = list_out == 0u ? counters.counters[index].alive0 : counters.counters[index].alive1;
    uint free_count = counters.counters[index].free_count;
    uint n = step.birth_count;
    uint born = min(n, pool.capacity - survivors);
    UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + list_out);
    UintColumn free_list = uintColumn(pool, kGpuColumnFree);
    GpuEmitterTrails trails = emitterTrails();
    // Event births of earlier steps took ordinals after the driver's (gpu_events.glsl).
    uvec2 first_ordinal = plannedFirstOrdinal(index, step);

    for (uint i = gl_GlobalInvocationID.x; i < born; i += gridStride()) {
        uint slot = free_list.v[free_count - 1u - i];
        out_list.v[survivors + i] = slot;

        uvec2 ordinal = add64(first_ordinal, i);
        BirthPlace place = sdPlannedBirthPlace(step.emitter_start0, step.emitter_start1,
                                               step.emitter_start2, step.emitter_end0,
                                               step.emitter_end1, step.emitter_end2, i, n, step.dt);
        Newborn nb = newborn(e, step, index, ordinal, place);
        storeNewborn(pool, slot, nb, place.pre_age_s, ordinal);
        if (deliversEvent(emitterEventsAt(index), kEventBirth)) {
            appendGameplayEvent(kEventBirth, index, nb.key, 0u, step.step_index_lo, nb.position,
                                nb.velocity, vec3(0.0));
        }
        // A particle born into a reused slot starts a fresh trail.
        if (hasTrails(trails)) startTrail(trails, slot, nb.position);
    }
}
