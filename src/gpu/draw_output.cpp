#include "gpu/draw_output.h"

#include <algorithm>
#include <cstddef>

#include "gpu/gpu_buffers.h"
#include "gpu/gpu_effect.h"
#include "kernels/effect_records.h"
#include "vulkan/commands.h"

namespace spindrift::gpu {

namespace {

// The emitter's sort mode in the request; kSortNone past its end and for an emitter of capacity 0
// (switched off: runOnly), which has nothing to sort.
uint32_t sortModeOf(const GpuEffect& fx, const GpuDrawRequest& request, uint32_t emitter) {
    if (emitter >= request.sort_modes.size() || fx.layout.regions[emitter].capacity == 0) {
        return kSortNone;
    }
    return request.sort_modes[emitter];
}

// The emitter's live count as the frame's last step left it: the alive list read next.
VkDeviceAddress liveCountAddress(const GpuEffect& fx, uint32_t emitter) {
    const uint64_t field = fx.list_in == 0 ? offsetof(GpuEmitterCounters, alive0)
                                           : offsetof(GpuEmitterCounters, alive1);
    return fx.buffers.counters.address + emitter * sizeof(GpuEmitterCounters) + field;
}

} // namespace

bool prepareDrawSorting(GpuEffect& fx, const GpuDrawRequest& request,
                        std::vector<Diagnostic>& diagnostics) {
    GpuDrawSorting& s = fx.sorting;
    uint32_t largest = 0;
    for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
        if (sortModeOf(fx, request, e) == kSortNone) continue;
        largest = std::max(largest, fx.layout.regions[e].capacity);
    }
    if (largest > (s.sort ? s.sort->max_count : 0u)) {
        const vk::Device& device = *fx.gpu->device;
        s.sort = createGpuRadixSort(device, GpuRadixSortConfig{largest, false}, diagnostics,
                                    fx.gpu->vulkan.get());
        if (!s.sort) return false;
        if (!s.keys_pass) s.keys_pass = sharedSortKeyPass(*fx.gpu->vulkan, diagnostics);
        if (!s.keys_pass) return false;
        s.keys = vk::createBuffer(device, uint64_t{largest} * sizeof(uint32_t),
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                  vk::MemoryUse::device_local, "GPU sort keys", diagnostics);
        if (!s.keys) return false;
    }
    for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
        if (sortModeOf(fx, request, e) == kSortNone || s.order[e]) continue;
        s.order[e] = vk::createBuffer(
            *fx.gpu->device, uint64_t{fx.layout.regions[e].capacity} * sizeof(uint32_t),
            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT, // tests and tools copy it out
            vk::MemoryUse::device_local, "GPU sorted draw order", diagnostics);
        if (!s.order[e]) return false;
    }
    return true;
}

GpuDrawSource drawSource(const GpuEffect& fx, uint32_t emitter) {
    GpuDrawSource source;
    if (emitter >= fx.layout.regions.size() || fx.layout.regions[emitter].capacity == 0) {
        return source;
    }
    const DrawRecordRange first = drawRecordRangeAt(fx.layout, emitter, 0);
    source.records.address = fx.buffers.draw_chunk_table + uint64_t{first.chunk} * sizeof(uint64_t);
    source.records.chunk_records = static_cast<uint32_t>(fx.layout.records_per_chunk);
    source.records.first_in_chunk = first.first_in_chunk;
    source.count = liveCountAddress(fx, emitter);
    source.max_records = liveBoundOf(fx, emitter);
    if (sortModeOf(fx, fx.draw, emitter) != kSortNone && fx.sorting.order[emitter]) {
        source.order = fx.sorting.order[emitter].address;
    }
    return source;
}

void recordDrawSorts(GpuEffect& fx, VkCommandBuffer cmd, std::vector<Diagnostic>& diagnostics) {
    const GpuDrawSorting& s = fx.sorting;
    for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
        const uint32_t mode = sortModeOf(fx, fx.draw, e);
        const uint32_t bound = liveBoundOf(fx, e);
        if (mode == kSortNone || bound == 0 || !s.sort) continue;
        // Payloads are the emitter's record indices over all its chunks: what the vertex
        // shader fetches by.
        recordSortKeys(cmd, *s.keys_pass, drawSource(fx, e).records, bound, mode, fx.draw.eye,
                       s.keys.address, s.order[e].address, liveCountAddress(fx, e));
        recordGpuRadixSort(cmd, *s.sort, s.keys.address, s.order[e].address, bound, diagnostics);
        fx.dispatches_last_frame += 1;
    }
}

} // namespace spindrift::gpu
