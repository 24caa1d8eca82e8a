// GPU simulation pass 2 of a step, one emitter: the births the driver planned (src/cpu/spawn.cpp,
// spawnPlanned and writeBirth, on the GPU). Birth i of n sits at sub-step fraction
// (i + 0.5) / n: the emitter's rows are interpolated there and the newborn is pre-aged by the
// rest of the step. Its key is sdParticleKey(seed, emitter, ordinal), so it is born with the
// values the CPU gives it. Births past the free slots are dropped (drop_new); the counters pass
// counts them.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "birth.h"
#include "lut.h"
#include "random.h"
#include "shape.h"
#include "gpu_sim.glsl"
#include "gpu_trail.glsl"

// Past 2^24 births the last fractions would round to 1.0; keep them inside the step
// (runtime/driver.h, birthFraction).
const float kBelowOne = 0.99999994;

ShapeSample sampleShape(EmitterRecord e, uint key) {
    if (e.shape_kind != kShapeMesh) return sdSampleShape(e, key);
    uint index = sdMeshPointIndex(e, key);
    MeshPointRecord point = MeshPointsRef(loadTables().lut_mesh_points.zw).points[e.mesh_point_first + index];
    return sdMeshShapeSample(e, key, point.position, point.normal);
}

void main() {
    GpuEmitterPool pool = emitterPool();
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

    for (uint i = gl_GlobalInvocationID.x; i < born; i += gridStride()) {
        uint slot = free_list.v[free_count - 1u - i];
        out_list.v[survivors + i] = slot;

        uint carry;
        uint ordinal_lo = uaddCarry(step.first_ordinal_lo, i, carry);
        uint ordinal_hi = step.first_ordinal_hi + carry;
        uint key = sdParticleKey(step.seed, index, ordinal_lo, ordinal_hi);
        Birth b = sdBirth(e, key, sampleShape(e, key));

        float u = min((float(i) + 0.5) / float(n), kBelowOne);
        vec4 r0 = step.emitter_start0 * (1.0 - u) + step.emitter_end0 * u;
        vec4 r1 = step.emitter_start1 * (1.0 - u) + step.emitter_end1 * u;
        vec4 r2 = step.emitter_start2 * (1.0 - u) + step.emitter_end2 * u;
        float pre_age = (1.0 - u) * step.dt;
        vec3 position = rowsVector(r0, r1, r2, b.position) + vec3(0.0);
        position += vec3(r0.w, r1.w, r2.w);
        vec3 velocity = rowsVector(r0, r1, r2, b.velocity) + vec3(0.0);
        position += velocity * pre_age;
        vec4 color = b.color;
        if (e.color_mode == kColorModeGradient) color = lutSample(e.color_lut_row, b.color_t);

        floatColumn(pool, kGpuColumnPositionX).v[slot] = position.x;
        floatColumn(pool, kGpuColumnPositionY).v[slot] = position.y;
        floatColumn(pool, kGpuColumnPositionZ).v[slot] = position.z;
        floatColumn(pool, kGpuColumnVelocityX).v[slot] = velocity.x;
        floatColumn(pool, kGpuColumnVelocityY).v[slot] = velocity.y;
        floatColumn(pool, kGpuColumnVelocityZ).v[slot] = velocity.z;
        floatColumn(pool, kGpuColumnAge).v[slot] = pre_age;
        floatColumn(pool, kGpuColumnLifetime).v[slot] = b.lifetime_s;
        floatColumn(pool, kGpuColumnRotation).v[slot] = b.rotation_rad;
        uintColumn(pool, kGpuColumnFlags).v[slot] = 0u;
        floatColumn(pool, kGpuColumnAngularVelocity).v[slot] = b.angular_velocity_rad_per_s;
        floatColumn(pool, kGpuColumnSize).v[slot] = b.size;
        floatColumn(pool, kGpuColumnMass).v[slot] = b.mass;
        floatColumn(pool, kGpuColumnColorR).v[slot] = color.x;
        floatColumn(pool, kGpuColumnColorG).v[slot] = color.y;
        floatColumn(pool, kGpuColumnColorB).v[slot] = color.z;
        floatColumn(pool, kGpuColumnColorA).v[slot] = color.w;
        uintColumn(pool, kGpuColumnKey).v[slot] = key;
        uintColumn(pool, kGpuColumnOrdinalLo).v[slot] = ordinal_lo;
        uintColumn(pool, kGpuColumnOrdinalHi).v[slot] = ordinal_hi;
        // A particle born into a reused slot starts a fresh trail.
        if (hasTrails(trails)) startTrail(trails, slot, position);
    }
}
