// Compute rasteriser, pass 3 of 5, one job: every particle writes one (key, payload) pair per tile
// of its rectangle, key = the job's first key + the tile's index, payload = the particle's draw
// index; the chunk's pairs start where the scan put them and follow the particles' draw order,
// so the stable sort by key that comes next leaves each tile's list in draw order (back to front
// for a sorted batch) and the same every run.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "raster_common.glsl"

layout(local_size_x = kRasterGroupSize) in;

void main() {
    RasterJob job = rasterJob();
    uint first = gl_WorkGroupID.x * kRasterChunk + gl_LocalInvocationID.x * kRasterPerInvocation;
    uint last = min(first + kRasterPerInvocation, job.count.z);
    RasterPairRef rects = RasterPairRef(push.rects);
    uint tiles = 0u;
    for (uint i = first; i < last; ++i) tiles += sdRasterTileCount(rects.v[job.count.w + i]);
    uint pair = rasterInclusiveScan(tiles) - tiles +
                RasterWordRef(push.chunk_sums).v[job.bases.x + gl_WorkGroupID.x];
    uint end = pair + tiles;

    RasterWordRef keys = RasterWordRef(push.keys);
    RasterWordRef payloads = RasterWordRef(push.payloads);
    uint across = push.grid.y;
    for (uint i = first; i < last; ++i) {
        uvec4 r = sdRasterUnpackRect(rects.v[job.count.w + i]);
        if (r.x > r.z || r.y > r.w) continue;
        uint width = r.z - r.x + 1u;
        uint count = width * (r.w - r.y + 1u);
        for (uint k = 0u; k < count; ++k) {
            uint tx = r.x + k % width;
            uint ty = r.y + k / width;
            keys.v[pair] = job.bases.y + ty * across + tx;
            payloads.v[pair] = i;
            ++pair;
        }
    }
    if (pair != end) rasterReportCutShort();
}
