// Reads draw record i that another pass wrote on the device, for the shaders that read them (the
// sort-key pass, the billboard vertex shader): either one run of records at an address, or records
// spread over draw-record chunks (no buffer past the buffer limit; src/gpu/pool_layout.h) through
// a table of the chunks' 64-bit addresses, placed by sdDrawRecordPlace (kernels/draw_record.h).
// Needs GL_EXT_buffer_reference, GL_EXT_buffer_reference_uvec2 and draw_record.h.

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer DrawRecordRunRef {
    DrawRecord records[];
};
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DrawRecordChunksRef {
    uvec2 addresses[]; // (low, high) words of each chunk's address
};

// source: the records' address when chunk_records is 0; otherwise the address of the chunk table,
// whose entry 0 is the chunk holding record 0 at index first_in_chunk.
DrawRecord fetchDrawRecord(uvec2 source, uint chunk_records, uint first_in_chunk, uint i) {
    if (chunk_records == 0u) return DrawRecordRunRef(source).records[i];
    DrawRecordPlace place = sdDrawRecordPlace(first_in_chunk, chunk_records, i);
    uvec2 chunk = DrawRecordChunksRef(source).addresses[place.chunk];
    return DrawRecordRunRef(chunk).records[place.index];
}
