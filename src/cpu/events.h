// Sub-emitter events on the CPU: a particle's birth, death or collision becomes births of a
// child emitter. Events are gathered in a fixed order (emitter, then chunk, then slot), so the
// children are the same for any thread count; at most kMaxEventsPerStep per step, the rest
// counted as events_dropped.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/cpu_effect.h"

namespace spindrift::cpu {

// Queues an event for every link of the emitter listening to event (kEvent*), for each slot.
void queueEvents(CpuEffect& fx, uint32_t emitter_index, uint32_t event, const uint32_t* slots,
                 uint32_t slot_count);

// Queues this step's death and collision events from the chunk results.
void collectEvents(CpuEffect& fx);

// Turns queued events from first_event on into child births (probability and count drawn from
// the event's key). Births of children queue their own birth events, handled in the same loop.
void spawnFromEvents(CpuEffect& fx, size_t first_event);

} // namespace spindrift::cpu
