// GPU simulation pass 2 of a step, one emitter: the births the driver planned (src/cpu/spawn.cpp,
// spawnPlanned and writeBirth, on the GPU). Birth i of n sits at sub-step fraction
// (i + 0.5) / n: the emitter's rows are interpolated there and the newborn is pre-aged by the
// rest of the step. Its key is sdParticleKey(seed, emitter, ordinal), so it is born with the
// values the CPU gives it (its ordinal counts the event births of earlier steps:
// gpu_events.glsl). Births past the free slots are dropped (drop_new); the counters pass
// counts them.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "birth.h"
#include "lut.h"
#include "random.h"
#include "shape.h"
#include "gpu_sim.glsl"
#include "gpu_trail.glsl"
#include "gpu_events.glsl"
#include "gpu_birth.glsl"

// Past 2^24 births the last fractions would round to 1.0; keep them inside the step
// (runtime/driver.h, birthFraction).
const float kBelowOne = 0.99999994;

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
        uint key = sdParticleKey(step.seed, index, ordinal.x, ordinal.y);
        Newborn nb;
        nb.b = sdBirth(e, key, sampleShape(e, key));

        float u = min((float(i) + 0.5) / float(n), kBelowOne);
        vec4 r0 = step.emitter_start0 * (1.0 - u) + step.emitter_end0 * u;
        vec4 r1 = step.emitter_start1 * (1.0 - u) + step.emitter_end1 * u;
        vec4 r2 = step.emitter_start2 * (1.0 - u) + step.emitter_end2 * u;
        float pre_age = (1.0 - u) * step.dt;
        nb.position = rowsVector(r0, r1, r2, nb.b.position) + vec3(0.0);
        nb.position += vec3(r0.w, r1.w, r2.w);
        nb.velocity = rowsVector(r0, r1, r2, nb.b.velocity) + vec3(0.0);
        nb.position += nb.velocity * pre_age;
        nb.color = birthColor(e, nb.b);
        storeNewborn(pool, slot, nb, pre_age, key, ordinal);
        // A particle born into a reused slot starts a fresh trail.
        if (hasTrails(trails)) startTrail(trails, slot, nb.position);
    }
}
