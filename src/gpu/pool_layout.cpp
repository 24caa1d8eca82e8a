#include "gpu/pool_layout.h"

#include "kernels/draw_record.h"
#include "kernels/gpu_sim.h"

namespace spindrift::gpu {

bool layoutPool(const CompiledEffect& effect, uint64_t max_buffer_bytes, PoolLayout& out,
                std::vector<Diagnostic>& diagnostics) {
    out = PoolLayout{};
    uint64_t offset = 0;
    uint64_t records = 0;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        EmitterRegion region;
        region.capacity = emitter.capacity;
        region.column_stride_bytes =
            (uint64_t{emitter.capacity} * sizeof(uint32_t) + kGpuColumnAlignBytes - 1) /
            kGpuColumnAlignBytes * kGpuColumnAlignBytes;
        region.offset_bytes = offset;
        region.first_draw_record = records;
        offset += region.column_stride_bytes * kGpuColumnCount;
        records += emitter.capacity;
        const bool pool_too_big = offset > max_buffer_bytes;
        const bool draws_too_big = records * sizeof(DrawRecord) > max_buffer_bytes;
        if (pool_too_big || draws_too_big) {
            diagnostics.push_back(
                {Severity::error, "", 0, 0, 0,
                 "$.emitters[" + std::to_string(emitter.source_index) + "].capacity",
                 "the GPU backend's " + std::string(pool_too_big ? "pool" : "draw-record buffer") +
                     " would need " +
                     std::to_string(pool_too_big ? offset : records * sizeof(DrawRecord)) +
                     " bytes by this emitter (capacity " + std::to_string(emitter.capacity) +
                     "), past the limit of " + std::to_string(max_buffer_bytes) +
                     " bytes per buffer; lower the capacities"});
            return false;
        }
        out.regions.push_back(region);
    }
    out.pool_bytes = offset;
    out.draw_records = records;
    return true;
}

} // namespace spindrift::gpu
