#include "gpu/alive_list_order.h"

#include <algorithm>

#include "gpu/gpu_effect.h"
#include "gpu/ordered_list.h"
#include "vulkan/commands.h"

namespace spindrift::gpu {

namespace {

VkDeviceAddress listAddress(const GpuEffect& fx, uint32_t emitter, uint32_t list) {
    const ColumnPlace& c = fx.layout.regions[emitter].columns[kGpuColumnAlive0 + list];
    return fx.buffers.pool[c.buffer].address + c.offset_bytes;
}

bool isSubEmitterChild(const CompiledEffect& effect, uint32_t emitter) {
    return std::any_of(effect.sub_emitters.begin(), effect.sub_emitters.end(),
                       [&](const SubEmitterRecord& link) { return link.emitter == emitter; });
}

} // namespace

bool sortsAliveList(const GpuEffect& fx, uint32_t emitter) {
    const uint32_t capacity = fx.layout.regions[emitter].capacity;
    return capacity > 0 && capacity >= fx.config.min_sorted_list &&
           !gpuKeepsBirthOrder(*fx.effect, emitter);
}

bool prepareAliveListSort(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    uint32_t largest = 0;
    for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
        if (sortsAliveList(fx, e)) largest = std::max(largest, fx.layout.regions[e].capacity);
    }
    if (largest == 0) return true;
    fx.list_sort = createGpuRadixSort(*fx.gpu->device, GpuRadixSortConfig{largest, false},
                                      diagnostics, fx.gpu->vulkan.get());
    return fx.list_sort.has_value();
}

uint32_t recordAliveListSorts(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    if (!fx.list_sort) return 0;
    uint32_t dispatches = 0;
    for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
        if (!sortsAliveList(fx, e)) continue;
        const bool births = fx.plan.emitters[e].count > 0 || isSubEmitterChild(*fx.effect, e);
        const uint32_t bound = liveBoundOf(fx, e);
        if (!births || bound < 2) continue;
        GpuPushConstants push = step;
        push.params = uvec4(e, fx.list_in, bound, 0u);
        dispatchPass(*fx.gpu, cmd, Pass::list_pad, push, bound);
        // recordGpuRadixSort begins with a barrier against earlier compute writes.
        recordGpuRadixSort(cmd, *fx.list_sort, listAddress(fx, e, fx.list_in),
                           listAddress(fx, e, fx.list_in ^ 1u), bound, fx.errors);
        computeBarrier(cmd);
        dispatches += 2;
    }
    return dispatches;
}

} // namespace spindrift::gpu
