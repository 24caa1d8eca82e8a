// Radix sort, reduce-then-scan, per pass step 2 (reduce): each tile's digit histogram, written
// digit-major to tile_counts[digit * tile_count + tile] for the scan. Trivial passes do nothing.
#version 460
#include "sort_common.glsl"
#include "sort_tile_histogram.glsl"

void main() {
    if (sortPassIsTrivial()) return; // uniform: every invocation reads the same two words
    uint i = gl_LocalInvocationIndex;
    ReadWords keys = ReadWords(pc.src_keys);
    WriteWords counts = WriteWords(pc.tile_counts);
    for (uint tile = gl_WorkGroupID.x; tile < pc.tile_count; tile += gl_NumWorkGroups.x) {
        counts.v[i * pc.tile_count + tile] = sortCountTileDigits(keys, tile);
    }
}
