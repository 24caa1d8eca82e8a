// What every radix-sort kernel shares: extensions, the push constants (declared once in
// src/gpu/sort/radix_sort_shared.h), buffers reached by device address, and a workgroup scan.
// Included by shaders/sort_*.comp; not an entry point.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
// Entry points for devices with subgroup arithmetic define this 1 (sortScan256 below).
#ifndef SORT_SUBGROUP_SCAN
#define SORT_SUBGROUP_SCAN 0
#endif
#if SORT_SUBGROUP_SCAN
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

#include "../src/gpu/sort/radix_sort_shared.h"

layout(local_size_x = 256) in; // kSortWorkgroupSize (static_assert below keeps them equal)

// Plain uint arrays by device address. Indices stay below 2^30 (buffers <= 4 GiB - 2 MiB), so
// the signed 32-bit index SPIR-V access chains take never overflows; addresses are 64-bit.
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ReadWords { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer WriteWords { uint v[]; };

layout(push_constant, std430) uniform Push { RadixSortPush pc; };

// kSortSpecChainedScan: true, one kernel per pass finds its tiles' output positions by a chained
// scan (sort_chained_scan.glsl; the histogram kernel clears the first pass's status words);
// false, reduce-then-scan (sort_upsweep.comp, sort_scan.comp, then the downsweep).
layout(constant_id = kSortSpecChainedScan) const bool kChainedScan = false;

// Chained scan: the status word of (tile, digit) for pass pass_index. Two regions alternate
// (even and odd passes), so a pass clears the next pass's words while it uses its own. Below
// 2^28: no overflow.
uint sortStatusIndex(uint pass_index, uint tile, uint digit) {
    return ((pass_index & 1u) * pc.tile_count + tile) * kSortRadix + digit;
}

// kSortRadix uints of scratch for sortScan256.
shared uint s_scan[256];

// Exclusive prefix sum over one value per invocation (256 invocations), returned to each;
// total receives the sum of all. Must be reached by the whole workgroup (it has barriers), and
// ends with one, so the caller may reuse s_scan.
//
// SORT_SUBGROUP_SCAN 1 (entry points for devices with subgroup arithmetic): each subgroup scans
// its values, then every invocation adds the totals of the subgroups before its own: two
// barriers. On the H200 this took the downsweeps from 0.765 to 0.722 ms at 16M keys (same run),
// since a tile's scans sit on its critical path. Else Hillis-Steele in shared memory: portable,
// 8 steps, 17 barriers. (Measured on lavapipe, it beats a scan by 16 serial rows, whose masked
// loops a CPU device runs for every invocation.)
uint sortScan256(uint value, out uint total) {
    uint i = gl_LocalInvocationIndex;
#if SORT_SUBGROUP_SCAN
    uint inclusive = subgroupInclusiveAdd(value);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) s_scan[gl_SubgroupID] = inclusive;
    barrier();
    uint before = 0u;
    total = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) { // uniform: every invocation reads the same
        uint subgroup_total = s_scan[s];
        before += s < gl_SubgroupID ? subgroup_total : 0u;
        total += subgroup_total;
    }
    barrier();
    return before + inclusive - value;
#else
    s_scan[i] = value;
    barrier();
    for (uint offset = 1u; offset < 256u; offset <<= 1u) {
        uint add = i >= offset ? s_scan[i - offset] : 0u;
        barrier();
        s_scan[i] += add;
        barrier();
    }
    total = s_scan[255];
    uint inclusive = s_scan[i];
    barrier(); // s_scan may be reused by the caller's next scan
    return inclusive - value;
#endif
}

// A pass whose digit is the same for every key is the identity permutation (the sort is stable):
// its global histogram holds all count keys in one digit.
bool sortPassIsTrivial() {
    uint first_digit = (ReadWords(pc.src_keys).v[0] >> pc.shift) & 0xffu;
    return ReadWords(pc.digit_counts).v[pc.pass_index * 256u + first_digit] == pc.count;
}
