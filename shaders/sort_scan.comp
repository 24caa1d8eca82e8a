// Radix sort, per pass step 3 (scan): one workgroup per digit turns its row of tile counts into
// each tile's first output position for that digit: the keys of smaller digits (from the global
// histogram) plus this digit's keys in earlier tiles. In place. Trivial passes do nothing.
#version 460
#include "sort_common.glsl"

void main() {
    if (sortPassIsTrivial()) return;
    uint i = gl_LocalInvocationIndex;
    ReadWords digit_counts = ReadWords(pc.digit_counts);
    for (uint digit = gl_WorkGroupID.x; digit < 256u; digit += gl_NumWorkGroups.x) {
        // Keys of the digits below this one: an exclusive scan of the pass's global histogram.
        uint total = 0u;
        uint below = sortScan256(digit_counts.v[pc.pass_index * 256u + i], total);
        if (i == digit) s_scan[0] = below; // sortScan256 ended with a barrier: s_scan is free
        barrier();
        uint carry = s_scan[0];
        barrier();

        // The row in chunks of 4 * 256 counts: each invocation sums 4 in a row, one scan of the
        // 256 sums, then 4 writes.
        Words row = Words(pc.tile_counts);
        uint row_begin = digit * pc.tile_count;
        for (uint chunk = 0u; chunk < pc.tile_count; chunk += 1024u) {
            uint first = chunk + 4u * i;
            uint c[4];
            uint sum = 0u;
            for (uint j = 0u; j < 4u; ++j) {
                c[j] = first + j < pc.tile_count ? row.v[row_begin + first + j] : 0u;
                sum += c[j];
            }
            uint chunk_total = 0u;
            uint running = carry + sortScan256(sum, chunk_total);
            for (uint j = 0u; j < 4u; ++j) {
                if (first + j < pc.tile_count) row.v[row_begin + first + j] = running;
                running += c[j];
            }
            carry += chunk_total;
        }
    }
}
