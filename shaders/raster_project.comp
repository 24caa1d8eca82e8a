// Compute rasteriser, pass 1 of 5, one job (a billboard batch): each particle's screen rectangle
// in tiles (sdRasterPixelBounds, on the quad the vertex shader draws), and per chunk of
// kRasterChunk particles the tiles they cover, for the scan. One workgroup per chunk; the
// invocations read consecutive records together (particle chunk x kRasterChunk + k x
// kRasterGroupSize + lane), since only the chunk's sum matters here (the emit pass, which needs
// the order, reads only the rectangles).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "raster_common.glsl"

layout(local_size_x = kRasterGroupSize) in;

void main() {
    RasterJob job = rasterJob();
    uint count = rasterParticleCount(job);
    RasterCamera cam = rasterCamera();
    uint first = gl_WorkGroupID.x * kRasterChunk + gl_LocalInvocationID.x;
    uint tiles = 0u;
    for (uint k = 0u; k < kRasterPerInvocation; ++k) {
        uint i = first + k * kRasterGroupSize;
        if (i >= job.count.z) break;
        uvec2 rect = uvec2(kRasterEmptyRect0, kRasterEmptyRect1);
        if (i < count) {
            rect = sdRasterTileRect(
                sdRasterPixelBounds(rasterQuad(job.params, rasterRecord(job, i)), cam));
        }
        RasterPairRef(push.rects).v[job.count.w + i] = rect;
        tiles += sdRasterTileCount(rect);
    }
    uint sum = rasterInclusiveScan(tiles);
    if (gl_LocalInvocationID.x == kRasterGroupSize - 1u) {
        RasterWordRef(push.chunk_sums).v[job.bases.x + gl_WorkGroupID.x] = sum;
    }
}
