// Radix sort, per pass step 2 (reduce): each tile's digit histogram, written digit-major to
// tile_counts[digit * tile_count + tile] for the scan. Trivial passes do nothing.
#version 460
#include "sort_common.glsl"

shared uint s_tile_counts[256];

void main() {
    if (sortPassIsTrivial()) return; // uniform: every invocation reads the same two words
    uint i = gl_LocalInvocationIndex;
    ReadWords keys = ReadWords(pc.src_keys);
    WriteWords counts = WriteWords(pc.tile_counts);
    for (uint tile = gl_WorkGroupID.x; tile < pc.tile_count; tile += gl_NumWorkGroups.x) {
        s_tile_counts[i] = 0u;
        barrier();
        uint begin = tile * kSortTileKeys;
        uint size = min(kSortTileKeys, pc.count - begin);
        // All loads first, then the atomics: the loads of one invocation overlap instead of
        // each waiting behind the previous shared atomic.
        uint digits[kSortKeysPerThread];
        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            uint at = i + r * kSortWorkgroupSize;
            digits[r] = at < size ? (keys.v[begin + at] >> pc.shift) & 0xffu : 0x100u;
        }
        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            if (digits[r] < 0x100u) atomicAdd(s_tile_counts[digits[r]], 1u);
        }
        barrier();
        counts.v[i * pc.tile_count + tile] = s_tile_counts[i];
        barrier(); // the next tile clears s_tile_counts
    }
}
