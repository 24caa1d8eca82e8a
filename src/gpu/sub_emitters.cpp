#include "gpu/sub_emitters.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/gpu_sim.h"

namespace spindrift::gpu {

uint64_t eventCountersOffset(const CompiledEffect& effect) {
    return std::max<uint64_t>(effect.emitters.size(), 1) * sizeof(GpuEmitterCounters);
}

bool checkSubEmitterSupport(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics) {
    bool ok = true;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& r = effect.emitters[e];
        bool collision_link = false;
        for (uint32_t l = 0; l < r.sub_emitter_count; ++l) {
            collision_link = collision_link ||
                             effect.sub_emitters[r.sub_emitter_first + l].event == kEventCollision;
        }
        uint32_t collision_ops = 0;
        for (uint32_t k = 0; k < r.op_count; ++k) {
            collision_ops += effect.ops[r.op_first + k].op == kOpCollision ? 1u : 0u;
        }
        if (!collision_link || collision_ops <= kGpuMaxContactOps) continue;
        const std::string name(stringAt(effect, r.name_offset, r.name_length));
        diagnostics.push_back(
            {Severity::error, "", 0, 0, 0,
             "$.emitters[" + std::to_string(r.source_index) + "].sub_emitters",
             "emitter '" + name + "' has collision sub-emitter events and " +
                 std::to_string(collision_ops) + " collision modules: the GPU backend orders " +
                 "collision events for at most " + std::to_string(kGpuMaxContactOps)});
        ok = false;
    }
    return ok;
}

bool createEventQueue(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    if (fx.effect->sub_emitters.empty()) return true;
    const uint64_t bytes = sizeof(GpuEventQueueHeader) + uint64_t{kGpuMaxEvents} * sizeof(GpuEvent);
    fx.buffers.events = vk::createBuffer(
        *fx.gpu->device, bytes,
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        vk::MemoryUse::device_local, "GPU sub-emitter event queue", diagnostics);
    return static_cast<bool>(fx.buffers.events);
}

void boundStepEvents(GpuEffect& fx) {
    fx.event_births.resize(fx.effect->emitters.size());
    fx.step_events = fx.effect->sub_emitters.empty()
                         ? 0
                         : boundEventBirths(*fx.effect, fx.live_windows, fx.plan, fx.event_births);
}

uint32_t eventBirthBound(const GpuEffect& fx, uint32_t e) {
    if (fx.step_events == 0) return 0;
    return static_cast<uint32_t>(
        std::min<uint64_t>(fx.event_births[e], fx.effect->emitters[e].capacity));
}

uint32_t recordEventGather(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    if (fx.step_events == 0) return 0;
    step.params.x = static_cast<uint32_t>(fx.effect->emitters.size());
    step.params.w = kGpuEventsGather;
    dispatchPass(*fx.gpu, cmd, Pass::events, step, 1);
    return 1;
}

uint32_t recordEventBirths(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    if (fx.step_events == 0) return 0;
    const auto emitters = static_cast<uint32_t>(fx.effect->emitters.size());
    GpuPushConstants walker = step;
    walker.params.x = emitters;
    walker.params.w = kGpuEventsAssign;
    dispatchPass(*fx.gpu, cmd, Pass::events, walker, 1);
    computeBarrier(cmd);
    uint32_t dispatches = 1;
    for (uint32_t e = 0; e < emitters; ++e) {
        const uint32_t bound = eventBirthBound(fx, e);
        if (bound == 0) continue;
        GpuPushConstants spawn = step;
        spawn.params.x = e;
        spawn.params.z = bound;
        dispatchPass(*fx.gpu, cmd, Pass::event_spawn, spawn, bound);
        ++dispatches;
    }
    return dispatches;
}

void takeEventStatistics(const CompiledEffect& effect, const unsigned char* counters_copy,
                         std::vector<GpuEmitterStats>& stats) {
    const unsigned char* base = counters_copy + eventCountersOffset(effect);
    for (size_t e = 0; e < stats.size(); ++e) {
        GpuEventCounters c;
        std::memcpy(&c, base + e * sizeof(GpuEventCounters), sizeof(c));
        stats[e].events_dropped = (uint64_t{c.events_dropped_hi} << 32) | c.events_dropped_lo;
    }
}

} // namespace spindrift::gpu
