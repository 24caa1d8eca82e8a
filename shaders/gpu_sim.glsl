// What every GPU simulation pass shares: its push constants, the buffer references it reads the
// tables through (buffer device addresses: no descriptor sets, no 128 MiB range limit), and where
// a pool column and a draw record are: 64-bit addresses from tables (src/gpu/shader/gpu_sim.h), so no
// index ever reaches past one buffer of at most the buffer limit.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "draw_record.h"
#include "gpu_sim.h"
#include "lut.h"
#include "update_step.h"

layout(local_size_x = kGpuWorkgroupSize) in;

layout(push_constant) uniform Push { GpuPushConstants push; };

layout(buffer_reference, std430, buffer_reference_align = 4) buffer FloatColumn { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer UintColumn { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer TablesRef {
    GpuTables tables;
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer EmittersRef {
    EmitterRecord emitters[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer OpsRef {
    OpRecord ops[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer PoolsRef {
    GpuEmitterPool pools[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) buffer CountersRef {
    GpuEmitterCounters counters[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer StepHeaderRef {
    GpuStepHeader header;
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer StepEmittersRef {
    GpuStepEmitter steps[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ResolvedOpsRef {
    GpuResolvedOp ops[];
};
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer AddressTableRef {
    uvec2 addresses[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer DrawRecordsRef {
    DrawRecord records[];
};

GpuTables loadTables() { return TablesRef(push.addresses.xy).tables; }
GpuStepHeader loadStepHeader() { return StepHeaderRef(push.addresses.zw).header; }
uint emitterIndex() { return push.params.x; }
EmitterRecord emitterRecord() { return EmittersRef(loadTables().emitters_ops.xy).emitters[emitterIndex()]; }
// Emitter e's pool as a pass sees it that works on the slots alive list `list` names: its column
// table is that list's (GpuEmitterPool), which differs only for an emitter that relocates.
GpuEmitterPool poolForList(uint e, uint list) {
    GpuEmitterPool pool = PoolsRef(loadTables().pools_counters.xy).pools[e];
    uint carry;
    pool.columns_lo = uaddCarry(pool.columns_lo, list * kGpuColumnCount * 8u, carry);
    pool.columns_hi += carry;
    return pool;
}
// The pass's emitter with the table of the list it reads (push.params.y): the update, the ordered
// compaction's input, and every pass after the step (draw records, strips, trails).
GpuEmitterPool emitterPool() { return poolForList(emitterIndex(), push.params.y); }
// With the table of the list the step writes: births (the spawn and event passes).
GpuEmitterPool emitterPoolForBirths() { return poolForList(emitterIndex(), 1u - push.params.y); }
CountersRef countersRef() { return CountersRef(loadTables().pools_counters.zw); }
GpuStepEmitter stepEmitter() { return StepEmittersRef(loadStepHeader().emitters_ops.xy).steps[emitterIndex()]; }

// Column `column` of the emitter: its own address in the emitter's column table.
uvec2 columnAddress(GpuEmitterPool pool, uint column) {
    return AddressTableRef(uvec2(pool.columns_lo, pool.columns_hi)).addresses[column];
}
FloatColumn floatColumn(GpuEmitterPool pool, uint column) { return FloatColumn(columnAddress(pool, column)); }
UintColumn uintColumn(GpuEmitterPool pool, uint column) { return UintColumn(columnAddress(pool, column)); }

// The emitter's draw record i, in the chunk sdDrawRecordPlace names counting from draw_chunk.
void storeDrawRecord(GpuEmitterPool pool, uint i, DrawRecord record) {
    DrawRecordPlace place = sdDrawRecordPlace(pool.draw_first_in_chunk, pool.draw_chunk_records, i);
    uvec2 address =
        AddressTableRef(loadTables().draw_records.xy).addresses[pool.draw_chunk + place.chunk];
    DrawRecordsRef(address).records[place.index] = record;
}


// The LUT atlas as the kernels read it (LutRef, src/kernels/lut.h).
LutRef lutAtlas() { return LutRef(loadTables().lut_mesh_points.xy); }

// The update pass's death test, on the values it wrote back (the ordered compaction and the
// event walker ask it after the update).
bool survivesStep(GpuEmitterPool pool, uint slot) {
    float age = floatColumn(pool, kGpuColumnAge).v[slot];
    float lifetime = floatColumn(pool, kGpuColumnLifetime).v[slot];
    uint flags = uintColumn(pool, kGpuColumnFlags).v[slot];
    return !sdParticleDead(age, lifetime, flags);
}

// Grid-stride: invocation g handles g, g + G, g + 2G, ... below push.params.z.
uint gridStride() { return gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
