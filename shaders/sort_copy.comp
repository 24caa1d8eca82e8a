// The benchmark's reference: a compute copy of count keys and count payloads (the bytes one
// sort pass reads and writes at least), through the same device addresses and workgroup size.
// vkCmdCopyBuffer is not the reference: on the H200 it runs far below the memory's bandwidth.
#version 460
#include "sort_common.glsl"

void main() {
    ReadWords src_keys = ReadWords(pc.src_keys);
    ReadWords src_payloads = ReadWords(pc.src_payloads);
    WriteWords dst_keys = WriteWords(pc.dst_keys);
    WriteWords dst_payloads = WriteWords(pc.dst_payloads);
    uint stride = gl_NumWorkGroups.x * kSortWorkgroupSize;
    for (uint k = gl_GlobalInvocationID.x; k < pc.count; k += stride) {
        dst_keys.v[k] = src_keys.v[k];
        dst_payloads.v[k] = src_payloads.v[k];
        if (pc.count - k <= stride) break; // no wrap past 2^32
    }
}
