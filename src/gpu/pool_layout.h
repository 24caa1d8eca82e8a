// Where every emitter's particles live in the GPU backend's device memory: kGpuColumnCount
// columns per emitter (src/gpu/shader/gpu_sim.h; kGpuStateColumnCount more for one that relocates
// its particles), each `capacity` 32-bit words rounded up to kGpuColumnAlignBytes, packed in order
// into as many pool buffers as needed, each at most the buffer limit; and one DrawRecord per slot
// of capacity, emitters one after another, in draw-record chunks of at most the buffer limit. A
// column never straddles two buffers; an emitter's draw records may straddle chunks
// (drawRecordRanges lists the pieces, one draw each). Pure arithmetic in 64 bits: no Vulkan, so it
// is tested on its own.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "gpu/shader/gpu_sim.h"
#include "kernels/draw_record.h"
#include "spindrift/diagnostic.h"

namespace spindrift::gpu {

// Largest buffer the backend creates: 4 GiB - 2 MiB (gpu-facts.md: one buffer past 4 GiB gave
// wrong results on the H200, and its allocation limit is 4 GiB - 2 MiB).
inline constexpr uint64_t kGpuMaxBufferBytes = (uint64_t(4) << 30) - (uint64_t(2) << 20);
// Every column starts on this boundary (a multiple of every device's storage alignment).
inline constexpr uint64_t kGpuColumnAlignBytes = 256;
// Pool buffers plus draw-record chunks of one effect at most: far above what any effect needs
// at the default limit (2^28 particles, the effect maximum, take 11), far below every device's
// maxMemoryAllocationCount (at least 4096); only a tiny test limit comes near it.
inline constexpr uint32_t kGpuMaxDeviceBuffers = 1024;

// What the layout must stay within.
struct PoolLimits {
    uint64_t buffer_bytes = kGpuMaxBufferBytes; // each pool buffer and draw-record chunk
    // Everything together (pool buffers + draw-record chunks): the device's memory, or less.
    uint64_t total_bytes = std::numeric_limits<uint64_t>::max();
};

// Where one column lives.
struct ColumnPlace {
    uint32_t buffer = 0;       // index into PoolLayout::buffer_bytes
    uint64_t offset_bytes = 0; // from the start of that buffer, a multiple of kGpuColumnAlignBytes
};

struct EmitterRegion {
    uint32_t capacity = 0;
    uint64_t column_bytes = 0; // capacity words rounded up to kGpuColumnAlignBytes
    std::array<ColumnPlace, kGpuColumnCount> columns{};
    // An emitter that relocates its particles (birth_order.h) has a second copy of its state
    // columns: the slots alive list 1 names live there (columnPlace).
    bool relocates = false;
    std::array<ColumnPlace, kGpuStateColumnCount> state_copy{};
    // The emitter's first record in the effect's draw-record stream (Σ capacity of the emitters
    // before it, < kMaxEffectCapacity): chunk first_draw_record / records_per_chunk, at index
    // first_draw_record % records_per_chunk.
    uint64_t first_draw_record = 0;
};

struct PoolLayout {
    std::vector<EmitterRegion> regions;  // one per compiled emitter
    std::vector<uint64_t> buffer_bytes;  // size of each pool buffer
    uint64_t draw_records = 0;           // Σ capacity: records in all chunks together
    uint64_t records_per_chunk = 0;      // every chunk but the last holds exactly this many
    std::vector<uint64_t> chunk_records; // records in each draw-record chunk
    uint64_t total_bytes = 0;            // pool buffers + draw-record chunks
};

// One draw-record chunk's share of one emitter's records: what a draw of that emitter issues per
// chunk. The emitter's records [first_in_emitter, first_in_emitter + count) are the chunk's
// records [first_in_chunk, first_in_chunk + count); of them, only those below the emitter's live
// count hold particles.
struct DrawRecordRange {
    uint32_t chunk = 0;
    uint32_t first_in_chunk = 0;
    uint32_t first_in_emitter = 0;
    uint32_t count = 0;
};

// The layout for the effect's emitters within `limits`, with the second copy of the state columns
// for every emitter that relocates (gpuRelocatesParticles) unless `relocate` is false. False with
// an error naming the emitter (its JSON path, capacity, the bytes needed and the limit) when one
// of its columns would not fit one buffer, when the effect would need more than
// kGpuMaxDeviceBuffers buffers, or when the total would pass limits.total_bytes.
bool layoutPool(const CompiledEffect& effect, const PoolLimits& limits, bool relocate,
                PoolLayout& out, std::vector<Diagnostic>& diagnostics);

// Where column `column` of the slots alive list `list` (0 or 1) names lives: the state copy for
// list 1 of an emitter that relocates, the emitter's own column otherwise.
inline const ColumnPlace& columnPlace(const EmitterRegion& region, uint32_t column, uint32_t list) {
    return region.relocates && list == 1 && column < kGpuStateColumnCount
               ? region.state_copy[column]
               : region.columns[column];
}

// The piece of emitter e's records that starts at its record first_in_emitter (< its capacity)
// and runs to the end of that record's chunk or of the emitter. Allocates nothing.
DrawRecordRange drawRecordRangeAt(const PoolLayout& layout, uint32_t emitter,
                                  uint32_t first_in_emitter);

// Emitter e's records, chunk by chunk in order (empty for an emitter of capacity 0).
std::vector<DrawRecordRange> drawRecordRanges(const PoolLayout& layout, uint32_t emitter);

// Bytes from the start of a chunk to its record `index`.
inline uint64_t drawRecordOffsetBytes(uint64_t index) {
    return index * sizeof(DrawRecord);
}

} // namespace spindrift::gpu
