// One tile's digit histogram (the pass's digit of each of its keys), in shared memory: the
// upsweep's per-tile count, and the chained scan's fallback when a predecessor's count is not
// published yet (sort_chained_scan.glsl). Included after sort_common.glsl; not an entry point.

shared uint s_tile_digits[256];

// The count of digit gl_LocalInvocationIndex among the keys of `tile`. Must be reached by the
// whole workgroup (it has barriers).
uint sortCountTileDigits(ReadWords keys, uint tile) {
    uint i = gl_LocalInvocationIndex;
    s_tile_digits[i] = 0u;
    barrier();
    uint begin = tile * kSortTileKeys;
    uint size = min(kSortTileKeys, pc.count - begin);
    // All loads first, then the atomics: the loads of one invocation overlap instead of each
    // waiting behind the previous shared atomic.
    uint digits[kSortKeysPerThread];
    for (uint r = 0u; r < kSortKeysPerThread; ++r) {
        uint at = i + r * kSortWorkgroupSize;
        digits[r] = at < size ? (keys.v[begin + at] >> pc.shift) & 0xffu : 0x100u;
    }
    for (uint r = 0u; r < kSortKeysPerThread; ++r) {
        if (digits[r] < 0x100u) atomicAdd(s_tile_digits[digits[r]], 1u);
    }
    barrier();
    uint count = s_tile_digits[i];
    barrier(); // every read before the next call clears the counts
    return count;
}
