#include "gpu/birth_order.h"

#include "compiler/event_order.h"
#include "gpu/shader/gpu_sim.h"

namespace spindrift::gpu {

bool gpuKeepsBirthOrder(const CompiledEffect& effect, uint32_t e) {
    return sdGpuKeepsBirthOrder(effect.emitters[e]) || hasOrderedEvents(effect, e);
}

bool gpuRelocatesParticles(const CompiledEffect& effect, uint32_t e) {
    return gpuKeepsBirthOrder(effect, e) && effect.emitters[e].render_type != kRenderRibbon;
}

} // namespace spindrift::gpu
