// Sub-emitter events on the GPU (docs/gpu-backend.md, "Sub-emitters"): a particle's birth,
// death, collision or threshold crossing becomes births of a child emitter with the CPU's keys,
// ordinals and counts. Per step, around the planned births:
//   update (marks threshold crossings) → ordered compaction → event gather (gpu_events.comp:
//   collision, death and threshold events in the CPU's order, into the event queue; in
//   parallel: per-chunk counts, a scan, an ordered scatter) → planned spawn → counters finish →
//   event assign (birth events, then each event's children get their ordinals and slots, drops and
//   replacements counted) → event spawn (gpu_event_spawn.comp, one dispatch per child, in
//   parallel).
// The slots are assigned in parallel, per child through prefix sums over the step's queue, and
// only to the children that survive the step (at most the child's capacity). Where a child's
// birth events join the queue while it is walked (the CPU's event loop is serial for that), a
// serial walker (one invocation) first completes the queue and takes the children's ordinals;
// elsewhere (assignsInParallel) the planned births' birth events are queued in parallel.
// Dispatches are sized from boundEventBirths (live_bound.h); a step in which no event can happen
// records none of these passes.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

// Whether emitter e has a sub-emitter link on threshold crossings: its update pass marks the
// particles that cross (kGpuStepThresholdLinks) and the gather queues their events.
bool hasThresholdLinks(const CompiledEffect& effect, uint32_t e);

// Where the GpuEventCounters start in the counters buffer (after every GpuEmitterCounters).
uint64_t eventCountersOffset(const CompiledEffect& effect);

// Appends an error per emitter whose collision events the GPU cannot order: one with a collision
// link and more than kGpuMaxContactOps collision ops. False when any.
bool checkSubEmitterSupport(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics);

// Creates fx.buffers.events (the event queue, kGpuMaxEvents events) when the effect has any
// sub-emitter link. False with an error on a Vulkan failure.
bool createEventQueue(GpuEffect& fx, std::vector<Diagnostic>& diagnostics);

// This step's bounds (fx.event_births, fx.step_events), after every live window began the step
// and the driver planned it.
void boundStepEvents(GpuEffect& fx);

// Whether the effect's event queue is completed without the serial walker: no link's child has a
// birth link of its own (so no child's birth queues events), and every child is drop_new, or
// replace_oldest with at most its capacity of children per event. (The assignment has a closed
// form for more children per event too, gpu_event_assign.glsl; such a link still takes the walk,
// O(events) on one invocation.)
bool assignsInParallel(const CompiledEffect& effect);

// Births emitter e may get from events this step, at most its capacity: what its live window
// adds and its event spawn dispatch covers.
uint32_t eventBirthBound(const GpuEffect& fx, uint32_t e);

// Records the gather pass when an event can happen this step. `step` is the step's push
// constants (addresses, alive list read). Returns the dispatches recorded; the caller barriers.
uint32_t recordEventGather(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step);

// Records the assign pass and the event spawn passes (with the barrier between them) when an
// event can happen this step. Returns the dispatches recorded; the caller barriers after any.
uint32_t recordEventBirths(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step);

// events_dropped of every emitter from a copy of the counters buffer.
void takeEventStatistics(const CompiledEffect& effect, const unsigned char* counters_copy,
                         std::vector<GpuEmitterStats>& stats);

} // namespace spindrift::gpu
