// Compute rasteriser, pass 2 of 5, one workgroup for the frame: the chunks' tile counts (every
// job's, push.grid.w chunks) become each chunk's first pair (an exclusive prefix sum), and the
// total goes to counters word 0, which the renderer reads to size the sort. Sums saturate at
// kRasterSaturated, so a frame too large to bin reads as too large, never as a small wrapped
// number.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "raster_common.glsl"

layout(local_size_x = kRasterGroupSize) in;

shared uint s_sums[kRasterGroupSize];

uint saturatingAdd(uint a, uint b) {
    return a > kRasterSaturated - b ? kRasterSaturated : a + b;
}

void main() {
    uint lane = gl_LocalInvocationID.x;
    uint chunks = push.grid.w;
    uint per = (chunks + kRasterGroupSize - 1u) / kRasterGroupSize;
    uint begin = min(lane * per, chunks);
    uint end = min(begin + per, chunks);
    RasterWordRef sums = RasterWordRef(push.chunk_sums);
    uint own = 0u;
    for (uint c = begin; c < end; ++c) own = saturatingAdd(own, sums.v[c]);

    s_sums[lane] = own;
    barrier();
    for (uint offset = 1u; offset < kRasterGroupSize; offset <<= 1u) {
        uint add = lane >= offset ? s_sums[lane - offset] : 0u;
        barrier();
        s_sums[lane] = saturatingAdd(s_sums[lane], add);
        barrier();
    }
    uint running = lane == 0u ? 0u : s_sums[lane - 1u];
    for (uint c = begin; c < end; ++c) {
        uint value = sums.v[c];
        sums.v[c] = running;
        running = saturatingAdd(running, value);
    }
    if (lane == kRasterGroupSize - 1u) RasterWordRef(push.total).v[0] = s_sums[lane];
}
