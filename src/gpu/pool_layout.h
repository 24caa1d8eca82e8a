// Where every emitter's particles live in the GPU backend's one device pool: a region per
// emitter of kGpuColumnCount columns (src/kernels/gpu_sim.h), each `capacity` 32-bit words
// rounded up to kGpuColumnAlignBytes. Pure arithmetic in 64 bits: no Vulkan, so it is tested on
// its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/diagnostic.h"

namespace spindrift::gpu {

// Largest buffer the backend creates: 4 GiB - 2 MiB (gpu-facts.md: one buffer past 4 GiB gave
// wrong results on the H200, and its allocation limit is 4 GiB - 2 MiB).
inline constexpr uint64_t kGpuMaxBufferBytes = (uint64_t(4) << 30) - (uint64_t(2) << 20);
// Every column starts on this boundary (a multiple of every device's storage alignment).
inline constexpr uint64_t kGpuColumnAlignBytes = 256;

struct EmitterRegion {
    uint64_t offset_bytes = 0;        // from the start of the pool buffer
    uint64_t column_stride_bytes = 0; // column c starts at offset + c * stride
    uint32_t capacity = 0;
    uint64_t first_draw_record = 0; // where the draw pass writes this emitter's records
};

struct PoolLayout {
    std::vector<EmitterRegion> regions; // one per compiled emitter
    uint64_t pool_bytes = 0;
    uint64_t draw_records = 0; // the sum of capacities: the draw-record buffer's length
};

// The layout for the effect's emitters. False with an error (naming the emitter that crosses
// the limit, its capacity and the limit) when the pool or the draw-record buffer would exceed
// max_buffer_bytes.
bool layoutPool(const CompiledEffect& effect, uint64_t max_buffer_bytes, PoolLayout& out,
                std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::gpu
