#include "gpu/ordered_list.h"

#include "gpu/shader/gpu_sim.h"

namespace spindrift::gpu {

namespace {

uint64_t chunksOf(uint64_t entries) {
    return (entries + kGpuOrderedChunk - 1) / kGpuOrderedChunk;
}

} // namespace

OrderedScratchLayout orderedScratchLayout(const CompiledEffect& effect) {
    OrderedScratchLayout layout;
    layout.offsets.assign(effect.emitters.size(), kNoOrderedScratch);
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        if (!gpuKeepsBirthOrder(effect, e)) continue;
        layout.offsets[e] = layout.bytes;
        const uint64_t bytes =
            sizeof(GpuOrderedScratch) + chunksOf(effect.emitters[e].capacity) * sizeof(uint32_t);
        layout.bytes += (bytes + 15) / 16 * 16;
    }
    return layout;
}

uint32_t recordOrderedCompaction(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    const CompiledEffect& effect = *fx.effect;
    uint32_t dispatches = 0;
    for (const uint32_t mode : {kGpuOrderedCount, kGpuOrderedScan, kGpuOrderedScatter}) {
        uint32_t recorded = 0;
        for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
            if (!gpuKeepsBirthOrder(effect, e)) continue;
            const uint32_t bound = liveBound(fx.live_windows[e]);
            if (bound == 0) continue;
            GpuPushConstants push = step;
            push.params.x = e;
            push.params.z = bound;
            push.params.w = mode;
            // One workgroup per chunk of the bound (the passes loop when the groups are capped);
            // the scan is one workgroup.
            const uint64_t invocations =
                mode == kGpuOrderedScan ? kGpuWorkgroupSize : chunksOf(bound) * kGpuWorkgroupSize;
            dispatchPass(*fx.gpu, cmd, Pass::ordered_compact, push,
                         static_cast<uint32_t>(invocations), fx.config.ordered_max_workgroups);
            ++recorded;
        }
        if (recorded == 0) return 0;
        if (mode != kGpuOrderedScatter) computeBarrier(cmd);
        dispatches += recorded;
    }
    return dispatches;
}

} // namespace spindrift::gpu
