#include "gpu/ordered_list.h"

#include "compiler/event_order.h"
#include "kernels/gpu_sim.h"

namespace spindrift::gpu {

bool gpuKeepsBirthOrder(const CompiledEffect& effect, uint32_t e) {
    return sdGpuKeepsBirthOrder(effect.emitters[e]) || hasOrderedEvents(effect, e);
}

uint32_t recordOrderedCompaction(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    uint32_t dispatches = 0;
    const CompiledEffect& effect = *fx.effect;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        if (!gpuKeepsBirthOrder(effect, e)) continue;
        const uint32_t bound = liveBound(fx.live_windows[e]);
        if (bound == 0) continue;
        // One workgroup walks the whole list (the pass's own loop covers `bound` entries).
        GpuPushConstants push = step;
        push.params.x = e;
        push.params.z = bound;
        dispatchPass(*fx.gpu, cmd, Pass::ordered_compact, push, kGpuWorkgroupSize);
        ++dispatches;
    }
    return dispatches;
}

} // namespace spindrift::gpu
