// Back-to-front (or any kSort* mode) keys of draw records for the GPU radix sort: the shared
// kernel the CPU sort calls too (kernels/sort_key.h), so both order particles identically.
// Payload i is the record's index among the records keyed (an emitter's record index over all its
// draw-record chunks), what the billboard vertex shader fetches by.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "sort_key.h"
#include "draw_record_fetch.glsl"
#include "../src/gpu/sort/radix_sort_shared.h"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer WriteWords {
    uint v[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ReadWord {
    uint v;
};
layout(push_constant, std430) uniform Push { SortKeyPush pc; };

void main() {
    WriteWords keys = WriteWords(pc.keys);
    WriteWords payloads = WriteWords(pc.payloads);
    uint valid = pc.count;
    if (pc.valid != uvec2(0u)) valid = min(valid, ReadWord(pc.valid).v);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) {
        uint key = 0xffffffffu;
        if (i < valid) {
            DrawRecord r = fetchDrawRecord(pc.records, pc.chunk_records, pc.first_in_chunk, i);
            key = sdDrawRecordSortKey(r, pc.sort_mode, pc.eye.xyz);
        }
        keys.v[i] = key;
        payloads.v[i] = i;
        if (pc.count - i <= stride) break; // no wrap past 2^32
    }
}
