#include "gpu/pool_layout.h"

#include <algorithm>

#include "gpu/birth_order.h"
#include "kernels/draw_record.h"

namespace spindrift::gpu {

namespace {

void refuse(const CompiledEffect& effect, uint32_t e, const std::string& what,
            std::vector<Diagnostic>& diagnostics) {
    const EmitterRecord& emitter = effect.emitters[e];
    diagnostics.push_back(
        {Severity::error, "", 0, 0, 0,
         "$.emitters[" + std::to_string(emitter.source_index) + "].capacity",
         "emitter '" + std::string(stringAt(effect, emitter.name_offset, emitter.name_length)) +
             "' (capacity " + std::to_string(emitter.capacity) + "): the GPU backend " + what +
             "; lower the capacities"});
}

// Next-fit packing of columns into buffers of at most `limit` bytes, in emitter then column
// order, so a small effect stays in one buffer and a large emitter fills several in turn.
struct ColumnPacker {
    uint64_t limit = 0;
    std::vector<uint64_t>& buffers;

    ColumnPlace place(uint64_t bytes) {
        if (buffers.empty() || buffers.back() > limit - bytes) buffers.push_back(0);
        const ColumnPlace at{static_cast<uint32_t>(buffers.size() - 1), buffers.back()};
        buffers.back() += bytes;
        return at;
    }
};

uint64_t sum(const std::vector<uint64_t>& v) {
    uint64_t total = 0;
    for (const uint64_t x : v) total += x;
    return total;
}

} // namespace

bool layoutPool(const CompiledEffect& effect, const PoolLimits& limits, bool relocate,
                PoolLayout& out, std::vector<Diagnostic>& diagnostics) {
    out = PoolLayout{};
    // Chunk record indices stay far inside 32 bits, as the shaders hold them.
    out.records_per_chunk = std::min<uint64_t>(limits.buffer_bytes / sizeof(DrawRecord), 1u << 30);
    ColumnPacker packer{limits.buffer_bytes, out.buffer_bytes};
    uint64_t records = 0;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        EmitterRegion region;
        region.capacity = effect.emitters[e].capacity;
        region.column_bytes =
            (uint64_t{region.capacity} * sizeof(uint32_t) + kGpuColumnAlignBytes - 1) /
            kGpuColumnAlignBytes * kGpuColumnAlignBytes;
        region.first_draw_record = records;
        if (region.column_bytes > limits.buffer_bytes || out.records_per_chunk == 0) {
            refuse(effect, e,
                   "needs buffers of " +
                       std::to_string(std::max<uint64_t>(region.column_bytes, sizeof(DrawRecord))) +
                       " bytes (one column, or one draw record), past the limit of " +
                       std::to_string(limits.buffer_bytes) + " bytes per buffer",
                   diagnostics);
            return false;
        }
        for (ColumnPlace& column : region.columns) column = packer.place(region.column_bytes);
        region.relocates = relocate && gpuRelocatesParticles(effect, e);
        if (region.relocates) {
            for (ColumnPlace& column : region.state_copy) {
                column = packer.place(region.column_bytes);
            }
        }
        records += region.capacity;
        const uint64_t chunks = (records + out.records_per_chunk - 1) / out.records_per_chunk;
        const uint64_t buffers = out.buffer_bytes.size() + chunks;
        const uint64_t total = sum(out.buffer_bytes) + records * sizeof(DrawRecord);
        if (buffers > kGpuMaxDeviceBuffers) {
            refuse(effect, e,
                   "would need " + std::to_string(buffers) + " buffers of at most " +
                       std::to_string(limits.buffer_bytes) + " bytes, more than the limit of " +
                       std::to_string(kGpuMaxDeviceBuffers),
                   diagnostics);
            return false;
        }
        if (total > limits.total_bytes) {
            refuse(effect, e,
                   "would need " + std::to_string(total) +
                       " bytes of device memory (pool and draw records) by this emitter, past "
                       "the limit of " +
                       std::to_string(limits.total_bytes) + " bytes",
                   diagnostics);
            return false;
        }
        out.regions.push_back(region);
    }
    out.draw_records = records;
    for (uint64_t left = records; left > 0;) {
        const uint64_t in_chunk = std::min(left, out.records_per_chunk);
        out.chunk_records.push_back(in_chunk);
        left -= in_chunk;
    }
    out.total_bytes = sum(out.buffer_bytes) + records * sizeof(DrawRecord);
    return true;
}

DrawRecordRange drawRecordRangeAt(const PoolLayout& layout, uint32_t emitter,
                                  uint32_t first_in_emitter) {
    const EmitterRegion& region = layout.regions[emitter];
    const uint64_t record = region.first_draw_record + first_in_emitter;
    const uint64_t in_chunk = record % layout.records_per_chunk;
    const uint64_t count =
        std::min<uint64_t>(region.capacity - first_in_emitter, layout.records_per_chunk - in_chunk);
    return {static_cast<uint32_t>(record / layout.records_per_chunk),
            static_cast<uint32_t>(in_chunk), first_in_emitter, static_cast<uint32_t>(count)};
}

std::vector<DrawRecordRange> drawRecordRanges(const PoolLayout& layout, uint32_t emitter) {
    std::vector<DrawRecordRange> ranges;
    if (emitter >= layout.regions.size()) return ranges;
    for (uint32_t done = 0; done < layout.regions[emitter].capacity;) {
        ranges.push_back(drawRecordRangeAt(layout, emitter, done));
        done += ranges.back().count;
    }
    return ranges;
}

} // namespace spindrift::gpu
