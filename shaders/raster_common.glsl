// What every pass of the compute rasteriser binds and reads (src/render/shader/compute_raster.h,
// src/render/compute_raster.h): the push constants, the job table, the frame's camera, and a job's
// draw record i as the billboard vertex shader reads it (draw order, chunks, overrides). Needs
// GL_EXT_buffer_reference and GL_EXT_buffer_reference_uvec2.
#ifndef SPINDRIFT_SHADERS_RASTER_COMMON_GLSL
#define SPINDRIFT_SHADERS_RASTER_COMMON_GLSL

#include "compute_raster.h"
#include "frame_bindings.glsl"
#include "draw_record_fetch.glsl"

layout(push_constant, std430) uniform RasterPushBlock {
    RasterPush push;
};

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer RasterJobsRef {
    RasterJob jobs[];
};
layout(buffer_reference, std430, buffer_reference_align = 8) buffer RasterPairRef {
    uvec2 v[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer RasterWordRef {
    uint v[];
};

// Word 1 of the counters (after the total): set when a loop of a raster pass ended before its
// work did (lavapipe cuts every loop of an invocation after 65 535 iterations in all); the
// renderer reports it as an error instead of a silently wrong image.
const uint kRasterCutShortWord = 1u;
void rasterReportCutShort() {
    atomicOr(RasterWordRef(push.total).v[kRasterCutShortWord], 1u);
}

RasterJob rasterJob() {
    return RasterJobsRef(push.jobs).jobs[push.grid.x];
}

// The particles a job draws: a host batch's count, or min(*count, max_records) of device ones.
uint rasterParticleCount(RasterJob job) {
    if (job.count.xy == uvec2(0u)) return job.count.z;
    return min(RasterWordRef(job.count.xy).v[0], job.count.z);
}

// The record of the job's particle i (its draw index): order[i] when the batch has a draw order.
DrawRecord rasterRecord(RasterJob job, uint i) {
    uint record = i;
    if (job.order.xy != uvec2(0u)) record = RasterWordRef(job.order.xy).v[i];
    return sdOverriddenRecord(fetchDrawRecord(job.records.xy, job.records.z, job.records.w, record),
                              job.overrides);
}

BillboardQuad rasterQuad(BillboardParams p, DrawRecord r) {
    return sdBillboardQuad(r, p, frame.eye.xyz, frame.camera_right.xyz, frame.camera_up.xyz);
}

RasterCamera rasterCamera() {
    return sdRasterCamera(frame);
}

// Inclusive prefix sum over a workgroup of kRasterGroupSize (Hillis-Steele; every invocation
// calls it). Sums stay below 2^32 where it is used (a chunk's tiles: kRasterChunk x at most 2^18).
shared uint s_raster_scan[kRasterGroupSize];
uint rasterInclusiveScan(uint value) {
    uint lane = gl_LocalInvocationID.x;
    s_raster_scan[lane] = value;
    barrier();
    for (uint offset = 1u; offset < kRasterGroupSize; offset <<= 1u) {
        uint add = lane >= offset ? s_raster_scan[lane - offset] : 0u;
        barrier();
        s_raster_scan[lane] += add;
        barrier();
    }
    uint result = s_raster_scan[lane];
    barrier();
    return result;
}

#endif
