// Compute rasteriser, pass 4 of 5, after the sort, for the frame: each key's [first, end) in the
// sorted pairs (the ranges were cleared to [0, 0), so a tile nobody covers stays empty). Grid
// stride over push.grid.w pairs.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "raster_common.glsl"

layout(local_size_x = kRasterGroupSize) in;

void main() {
    uint total = push.grid.w;
    RasterWordRef keys = RasterWordRef(push.keys);
    RasterPairRef ranges = RasterPairRef(push.ranges);
    uint stride = gl_NumWorkGroups.x * kRasterGroupSize;
    for (uint i = gl_GlobalInvocationID.x; i < total; i += stride) {
        uint key = keys.v[i];
        if (i == 0u || keys.v[i - 1u] != key) ranges.v[key].x = i;
        if (i + 1u == total || keys.v[i + 1u] != key) ranges.v[key].y = i + 1u;
    }
}
