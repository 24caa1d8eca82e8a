#include "gpu/sub_emitters.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "gpu/gpu_timing.h"
#include "gpu/live_bound.h"
#include "gpu/shader/gpu_sim.h"
#include "vulkan/physical_device.h"

namespace spindrift::gpu {

// The event buffer's layout, as the shaders compute it (gpu_sim.h).
static_assert(kGpuEventAssignOffset ==
              sizeof(GpuEventQueueHeader) + uint64_t{kGpuMaxEvents} * sizeof(GpuEvent));
static_assert(kGpuEventAssignChildBytes == sizeof(GpuEventAssignChild));
static_assert(kGpuEventChunk % kGpuWorkgroupSize == 0);

namespace {

// Whether emitter e has a death, collision or threshold link: the emitters whose alive lists the
// gather reads, chunk by chunk.
bool gathersEvents(const CompiledEffect& effect, const EmitterRecord& e) {
    for (uint32_t l = 0; l < e.sub_emitter_count; ++l) {
        if (effect.sub_emitters[e.sub_emitter_first + l].event != kEventBirth) return true;
    }
    return false;
}

bool hasBirthLink(const CompiledEffect& effect, const EmitterRecord& e) {
    for (uint32_t l = 0; l < e.sub_emitter_count; ++l) {
        if (effect.sub_emitters[e.sub_emitter_first + l].event == kEventBirth) return true;
    }
    return false;
}

uint64_t chunksOf(uint64_t entries) {
    return (entries + kGpuEventChunk - 1) / kGpuEventChunk;
}

} // namespace

bool hasThresholdLinks(const CompiledEffect& effect, uint32_t e) {
    const EmitterRecord& r = effect.emitters[e];
    for (uint32_t l = 0; l < r.sub_emitter_count; ++l) {
        if (effect.sub_emitters[r.sub_emitter_first + l].event == kEventThreshold) return true;
    }
    return false;
}

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
    // lavapipe (gallivm) ends any invocation after 65535 loop iterations: the walker's work is
    // split over dispatches there. GPUs have no such limit.
    fx.event_walk_budget =
        vk::isCpuDevice(fx.gpu->device->physical()) ? kGpuWalkBudgetLimited : UINT32_MAX;
    const CompiledEffect& effect = *fx.effect;
    uint64_t chunks = 0;
    for (const EmitterRecord& r : effect.emitters) {
        if (gathersEvents(effect, r)) chunks += chunksOf(r.capacity);
    }
    const uint64_t bytes = kGpuEventAssignOffset +
                           uint64_t{kGpuEventAssignChildBytes} * effect.emitters.size() +
                           chunks * 2 * sizeof(uint32_t);
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

bool assignsInParallel(const CompiledEffect& effect) {
    for (const SubEmitterRecord& sub : effect.sub_emitters) {
        const EmitterRecord& child = effect.emitters[sub.emitter];
        if (hasBirthLink(effect, child)) return false;
        const bool replaces_in_closed_form =
            child.overflow == kOverflowReplaceOldest && sub.count_max <= child.capacity;
        if (child.overflow != kOverflowDropNew && !replaces_in_closed_form) return false;
    }
    return true;
}

uint32_t eventBirthBound(const GpuEffect& fx, uint32_t e) {
    if (fx.step_events == 0) return 0;
    return static_cast<uint32_t>(
        std::min<uint64_t>(fx.event_births[e], fx.effect->emitters[e].capacity));
}

namespace {

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

// The gather's chunks this step, at most: every live entry of every gathering emitter.
uint32_t gatherChunkBound(const GpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    uint64_t chunks = 0;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& r = effect.emitters[e];
        if (!gathersEvents(effect, r)) continue;
        chunks += chunksOf(std::min<uint64_t>(liveBound(fx.live_windows[e]), r.capacity));
    }
    return static_cast<uint32_t>(chunks);
}

// Upper bound on the work units (gpu_events.comp's costs) of the step's serial walk: the planned
// births' birth events, one unit per queued event, and the children evaluated for their birth
// events (each queues one while the queue has room; the last event to fill it may be counted
// whole).
uint64_t walkWork(const GpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    uint64_t work = effect.emitters.size();
    uint64_t child_cost = 0; // the dearest child's unit cost, when any child has birth links
    for (uint32_t p = 0; p < effect.emitters.size(); ++p) {
        const EmitterRecord& r = effect.emitters[p];
        const uint64_t links = r.sub_emitter_count;
        work = saturatingAdd(work, 2 + fx.plan.emitters[p].count * (links + 5));
        for (uint32_t l = 0; l < links; ++l) {
            const EmitterRecord& child =
                effect.emitters[effect.sub_emitters[r.sub_emitter_first + l].emitter];
            if (hasBirthLink(effect, child)) {
                child_cost = std::max<uint64_t>(child_cost, 2 * child.sub_emitter_count + 6);
            }
        }
    }
    const uint64_t events = std::min<uint64_t>(fx.step_events, kGpuMaxEvents);
    work = saturatingAdd(work, events * 9);
    return saturatingAdd(work, (uint64_t{kGpuMaxEvents} + kMaxSubEmitterCount) * child_cost);
}

// Dispatches of one walker mode doing `work` units at most budget per dispatch, each unit at
// most kGpuWalkLargestUnit: every dispatch but the last does at least budget - largest.
uint32_t walkDispatches(uint64_t work, uint32_t budget) {
    if (budget == UINT32_MAX) return 1;
    const uint64_t progress = budget - kGpuWalkLargestUnit;
    return static_cast<uint32_t>(std::min<uint64_t>(work / progress + 2, UINT32_MAX));
}

// Count, scan, scatter (gpu_event_gather.glsl), one workgroup per chunk; the scan also runs
// when nothing is gathered (birth links only): it empties the queue for the step.
uint32_t recordGatherPasses(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    if (fx.step_events == 0) return 0;
    const uint32_t chunks = gatherChunkBound(fx);
    step.params.x = static_cast<uint32_t>(fx.effect->emitters.size());
    uint32_t dispatches = 1;
    if (chunks != 0) {
        step.params.w = kGpuEventsCount;
        dispatchPass(*fx.gpu, cmd, Pass::events, step, chunks * kGpuWorkgroupSize);
        computeBarrier(cmd);
        ++dispatches;
    }
    step.params.w = kGpuEventsScan;
    dispatchPass(*fx.gpu, cmd, Pass::events, step, kGpuWorkgroupSize);
    if (chunks != 0) {
        computeBarrier(cmd);
        step.params.w = kGpuEventsScatter;
        dispatchPass(*fx.gpu, cmd, Pass::events, step, chunks * kGpuWorkgroupSize);
        ++dispatches;
    }
    return dispatches;
}

// Per child emitter the children each chunk of the queued events requests, then (after a
// barrier) their ordinals and slots (gpu_event_assign.glsl).
uint32_t recordAssignPasses(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    const auto emitters = static_cast<uint32_t>(fx.effect->emitters.size());
    const uint64_t events = std::min<uint64_t>(fx.step_events, kGpuMaxEvents);
    const auto invocations =
        static_cast<uint32_t>(std::max<uint64_t>(chunksOf(events), 1) * kGpuWorkgroupSize);
    step.params.z = emitters;
    uint32_t dispatches = 0;
    for (const uint32_t mode : {kGpuEventsAssignCount, kGpuEventsAssignScatter}) {
        for (uint32_t c = 0; c < emitters; ++c) {
            if (eventBirthBound(fx, c) == 0) continue;
            step.params.x = c;
            step.params.w = mode;
            dispatchPass(*fx.gpu, cmd, Pass::events, step, invocations);
            ++dispatches;
        }
        computeBarrier(cmd);
    }
    return dispatches;
}

// The serial walker, in as many dispatches as its work needs on a device with a loop limit,
// then the assignment over the queue it completed.
uint32_t recordSerialAssign(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    const uint32_t walks = walkDispatches(walkWork(fx), fx.event_walk_budget);
    GpuPushConstants walk = step;
    walk.params.x = static_cast<uint32_t>(fx.effect->emitters.size());
    walk.params.z = fx.event_walk_budget;
    walk.params.w = kGpuEventsAssign;
    for (uint32_t d = 0; d < walks; ++d) {
        dispatchPass(*fx.gpu, cmd, Pass::events, walk, 1);
        computeBarrier(cmd);
    }
    return walks + recordAssignPasses(fx, cmd, step);
}

// The planned births' birth events after the gathered ones (one dispatch per emitter with
// births and birth links), then the assignment.
uint32_t recordParallelAssign(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    const CompiledEffect& effect = *fx.effect;
    const auto emitters = static_cast<uint32_t>(effect.emitters.size());
    GpuPushConstants queue = step;
    queue.params.z = emitters;
    uint32_t dispatches = 0;
    for (uint32_t e = 0; e < emitters; ++e) {
        const uint32_t births = fx.plan.emitters[e].count;
        if (births == 0 || !hasBirthLink(effect, effect.emitters[e])) continue;
        queue.params.x = e;
        queue.params.w = kGpuEventsQueueBirths;
        dispatchPass(*fx.gpu, cmd, Pass::events, queue, births);
        ++dispatches;
    }
    if (dispatches != 0) computeBarrier(cmd);
    return dispatches + recordAssignPasses(fx, cmd, step);
}

uint32_t recordBirthPasses(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    if (fx.step_events == 0) return 0;
    const CompiledEffect& effect = *fx.effect;
    const auto emitters = static_cast<uint32_t>(effect.emitters.size());
    const bool parallel = assignsInParallel(effect) && !fx.config.force_serial_event_assign;
    uint32_t dispatches =
        parallel ? recordParallelAssign(fx, cmd, step) : recordSerialAssign(fx, cmd, step);
    bool rings = false;
    for (uint32_t e = 0; e < emitters; ++e) {
        const uint32_t bound = eventBirthBound(fx, e);
        if (bound == 0) continue;
        GpuPushConstants spawn = step;
        spawn.params.x = e;
        spawn.params.z = bound;
        spawn.params.w = kGpuEventSpawnBirths;
        uint32_t invocations = bound;
        if (effect.emitters[e].overflow == kOverflowReplaceOldest) {
            // A ring's entries are copied too: as many as the list may hold after the step.
            const uint64_t alive =
                uint64_t{liveBound(fx.live_windows[e])} + fx.plan.emitters[e].count + bound;
            invocations =
                static_cast<uint32_t>(std::min<uint64_t>(alive, effect.emitters[e].capacity));
            rings = true;
        }
        dispatchPass(*fx.gpu, cmd, Pass::event_spawn, spawn, invocations);
        ++dispatches;
    }
    if (!rings) return dispatches;
    computeBarrier(cmd);
    for (uint32_t e = 0; e < emitters; ++e) {
        const uint32_t bound = eventBirthBound(fx, e);
        if (bound == 0 || effect.emitters[e].overflow != kOverflowReplaceOldest) continue;
        GpuPushConstants unring = step;
        unring.params.x = e;
        unring.params.z = bound;
        unring.params.w = kGpuEventSpawnUnring;
        const uint64_t alive =
            uint64_t{liveBound(fx.live_windows[e])} + fx.plan.emitters[e].count + bound;
        dispatchPass(*fx.gpu, cmd, Pass::event_spawn, unring,
                     static_cast<uint32_t>(std::min<uint64_t>(alive, effect.emitters[e].capacity)));
        ++dispatches;
    }
    return dispatches;
}

} // namespace

uint32_t recordEventGather(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    stampEvents(fx.step_timer, cmd, GpuStamp::event_gather_begin);
    const uint32_t dispatches = recordGatherPasses(fx, cmd, step);
    stampEvents(fx.step_timer, cmd, GpuStamp::event_gather_end);
    return dispatches;
}

uint32_t recordEventBirths(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step) {
    stampEvents(fx.step_timer, cmd, GpuStamp::event_births_begin);
    const uint32_t dispatches = recordBirthPasses(fx, cmd, step);
    stampEvents(fx.step_timer, cmd, GpuStamp::event_births_end);
    return dispatches;
}

void takeEventStatistics(const CompiledEffect& effect, const unsigned char* counters_copy,
                         std::vector<GpuEmitterStats>& stats) {
    const unsigned char* base = counters_copy + eventCountersOffset(effect);
    for (size_t e = 0; e < stats.size(); ++e) {
        GpuEventCounters c;
        std::memcpy(&c, base + e * sizeof(GpuEventCounters), sizeof(c));
        stats[e].events_dropped = (uint64_t{c.events_dropped_hi} << 32) | c.events_dropped_lo;
        stats[e].event_children_examined = (uint64_t{c.assign_work_hi} << 32) | c.assign_work_lo;
    }
}

} // namespace spindrift::gpu
