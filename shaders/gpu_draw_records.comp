// Pools -> draw records on the GPU, one emitter: each live particle's stored values fetched from
// the pool's columns and turned into its draw record by sdParticleDrawRecord
// (src/kernels/appearance.h: appearance ops, flipbook frame, world-space position and velocity),
// the composition the CPU's writeDrawRecords (src/cpu/draw_records.cpp) calls too. The emitter's
// live particles, in alive-list order, become its draw records 0, 1, 2, ... wherever its
// draw-record chunks put them (storeDrawRecord, gpu_sim.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "appearance.h"
#include "gpu_sim.glsl"

void main() {
    GpuEmitterPool pool = emitterPool();
    EmitterRecord e = emitterRecord();
    GpuStepHeader header = loadStepHeader();
    uint index = emitterIndex();
    uint list = push.params.y;
    uint alive = list == 0u ? countersRef().counters[index].alive0 : countersRef().counters[index].alive1;
    uint count = min(alive, push.params.z);
    UintColumn alive_list = uintColumn(pool, kGpuColumnAlive0 + list);
    LutRef lut = lutAtlas();
    OpRecordsRef ops = OpRecordsRef(loadTables().emitters_ops.zw);

    for (uint i = gl_GlobalInvocationID.x; i < count; i += gridStride()) {
        uint slot = alive_list.v[i];
        StoredParticle p;
        p.color = vec4(floatColumn(pool, kGpuColumnColorR).v[slot],
                       floatColumn(pool, kGpuColumnColorG).v[slot],
                       floatColumn(pool, kGpuColumnColorB).v[slot],
                       floatColumn(pool, kGpuColumnColorA).v[slot]);
        p.position = vec3(floatColumn(pool, kGpuColumnPositionX).v[slot],
                          floatColumn(pool, kGpuColumnPositionY).v[slot],
                          floatColumn(pool, kGpuColumnPositionZ).v[slot]);
        p.velocity = vec3(floatColumn(pool, kGpuColumnVelocityX).v[slot],
                          floatColumn(pool, kGpuColumnVelocityY).v[slot],
                          floatColumn(pool, kGpuColumnVelocityZ).v[slot]);
        p.size = floatColumn(pool, kGpuColumnSize).v[slot];
        p.rotation_rad = floatColumn(pool, kGpuColumnRotation).v[slot];
        p.age_s = floatColumn(pool, kGpuColumnAge).v[slot];
        p.lifetime_s = floatColumn(pool, kGpuColumnLifetime).v[slot];
        p.key = uintColumn(pool, kGpuColumnKey).v[slot];
        storeDrawRecord(pool, i,
                        sdParticleDrawRecord(lut, ops, e, index, header.world_from_sim0,
                                             header.world_from_sim1, header.world_from_sim2, p));
    }
}
