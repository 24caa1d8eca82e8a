// Radix sort, step 1 (once per sort): the global digit histogram of all four passes, read from
// the keys in one sweep. digit_counts (kSortPasses * kSortRadix) must be zero beforehand; each
// workgroup adds its shared counts with one atomic per non-zero digit. With the chained scan it
// also clears the first pass's status words (each pass clears the next one's).
#version 460
#include "sort_common.glsl"

shared uint s_counts[4 * 256];

void main() {
    uint i = gl_LocalInvocationIndex;
    for (uint j = i; j < 4u * 256u; j += 256u) s_counts[j] = 0u;
    barrier();
    ReadWords keys = ReadWords(pc.src_keys);
    uint stride = gl_NumWorkGroups.x * 256u;
    if (kChainedScan) {
        WriteWords status = WriteWords(pc.tile_counts);
        uint words = pc.tile_count * kSortRadix; // below 2^28: no wrap
        for (uint k = gl_WorkGroupID.x * 256u + i; k < words; k += stride) status.v[k] = 0u;
    }
    for (uint k = gl_WorkGroupID.x * 256u + i; k < pc.count; k += stride) {
        uint key = keys.v[k];
        atomicAdd(s_counts[key & 0xffu], 1u);
        atomicAdd(s_counts[256u + ((key >> 8u) & 0xffu)], 1u);
        atomicAdd(s_counts[512u + ((key >> 16u) & 0xffu)], 1u);
        atomicAdd(s_counts[768u + (key >> 24u)], 1u);
        // Grid-stride step, written so it cannot wrap past 2^32 for counts near the limit.
        if (pc.count - k <= stride) break;
    }
    barrier();
    Words out_counts = Words(pc.digit_counts);
    for (uint j = i; j < 4u * 256u; j += 256u) {
        if (s_counts[j] != 0u) atomicAdd(out_counts.v[j], s_counts[j]);
    }
}
