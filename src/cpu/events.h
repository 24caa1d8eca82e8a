// Sub-emitter events on the CPU: a particle's birth, death, collision or threshold crossing
// (gameplay_events.h) becomes births of a child emitter. Events are gathered in a fixed order
// (emitter, then chunk, then slot; per chunk collisions, deaths, crossings), so the
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

// Queues the birth events of a particle not yet in its pool (an event's child): one per birth
// link of the emitter, in link order, as queueEvents would for its slot.
void queueBirthEvents(CpuEffect& fx, uint32_t emitter_index, uint32_t particle_key, vec3 position,
                      vec3 velocity);

// The emitter's links listening to birth events.
uint32_t birthLinkCount(const CompiledEffect& effect, uint32_t emitter_index);

// Queues this step's collision, death and threshold events from the chunk results.
void collectEvents(CpuEffect& fx);

// Turns this step's queued events into child births (probability and count drawn from the
// event's key), in queue order. Births of children queue their own birth events, handled in the
// same loop. Every event's children are planned first and written after (spawn.h), so the work
// is bounded by the children's capacities and the event queue, not by the children requested.
void spawnFromEvents(CpuEffect& fx);

} // namespace spindrift::cpu
