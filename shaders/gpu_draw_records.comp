// Pools -> draw records on the GPU, one emitter (src/cpu/draw_records.cpp on the GPU): colour
// and size after every appearance op (src/kernels/appearance.h), the flipbook frame, world-space
// position and velocity. The emitter's live particles, in alive-list order, become its draw records
// 0, 1, 2, ... wherever its draw-record chunks put them (storeDrawRecord, gpu_sim.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "appearance.h"
#include "draw_record.h"
#include "integrate.h"
#include "transform.h"
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
    OpsRef ops = OpsRef(loadTables().emitters_ops.zw);

    for (uint i = gl_GlobalInvocationID.x; i < count; i += gridStride()) {
        uint slot = alive_list.v[i];
        vec3 position = vec3(floatColumn(pool, kGpuColumnPositionX).v[slot],
                             floatColumn(pool, kGpuColumnPositionY).v[slot],
                             floatColumn(pool, kGpuColumnPositionZ).v[slot]);
        vec3 velocity = vec3(floatColumn(pool, kGpuColumnVelocityX).v[slot],
                             floatColumn(pool, kGpuColumnVelocityY).v[slot],
                             floatColumn(pool, kGpuColumnVelocityZ).v[slot]);
        float age_n = sdNormalizedAge(floatColumn(pool, kGpuColumnAge).v[slot],
                                      floatColumn(pool, kGpuColumnLifetime).v[slot]);
        vec4 color = vec4(floatColumn(pool, kGpuColumnColorR).v[slot],
                          floatColumn(pool, kGpuColumnColorG).v[slot],
                          floatColumn(pool, kGpuColumnColorB).v[slot],
                          floatColumn(pool, kGpuColumnColorA).v[slot]);
        float size = floatColumn(pool, kGpuColumnSize).v[slot];
        float speed = length(velocity);
        for (uint k = 0u; k < e.op_count; ++k) {
            OpRecord op = ops.ops[e.op_first + k];
            if (!sdIsAppearanceOp(op.op)) continue;
            vec4 texel = lutSample(op.lut_row, sdAppearanceLutParameter(op, age_n, speed));
            sdApplyAppearanceTexel(op.op, texel, color, size);
        }
        uint key = uintColumn(pool, kGpuColumnKey).v[slot];
        vec3 world_position = sdTransformPoint(header.world_from_sim0, header.world_from_sim1,
                                               header.world_from_sim2, position);
        vec3 world_velocity = sdTransformVector(header.world_from_sim0, header.world_from_sim1,
                                                header.world_from_sim2, velocity);
        storeDrawRecord(pool, i,
                        sdDrawRecord(world_position, size, color, world_velocity,
                                     floatColumn(pool, kGpuColumnRotation).v[slot], age_n,
                                     sdFlipbookFrame(e, age_n, key), index, key));
    }
}
