// Where particles are born on the CPU. Every birth goes through one function: the shape is
// sampled and the initial values drawn by the shared kernels (src/kernels/shape.h, birth.h)
// from the particle's counter-based key, so the same particle is born the same on every backend,
// thread count and frame pacing.
#pragma once

#include <cstdint>

#include "cpu/cpu_effect.h"

namespace spindrift::cpu {

// The births the driver planned for this step, every emitter in order. Birth i of n sits at
// sub-step fraction (i + 0.5) / n: a moving emitter is interpolated there and the newborn is
// pre-aged by the rest of the step. A full pool drops the birth (drop_new) or replaces the
// oldest particle (replace_oldest); both are counted.
void spawnPlanned(CpuEffect& fx);

// Sub-emitter event births, per step: beginEventBirths, then planEventBirths for each event in
// queue order, then writeEventBirths. Planning takes the children's ordinals, counts births,
// drops and replacements as if each child were written at once (planSlots' rules), and queues
// the children's own birth events; writing then writes only the children that survive the step,
// each slot once, so a replace_oldest child asked for far more children than it holds costs its
// capacity, not the children asked for (docs/cpu-backend.md, "Bounded work").
void beginEventBirths(CpuEffect& fx);

// count children of emitter from the event fx.events[event_index]: the child's shape centred on
// the event position, the event's inherited velocity added, age 0.
void planEventBirths(CpuEffect& fx, uint32_t emitter, uint32_t event_index, uint32_t count);

void writeEventBirths(CpuEffect& fx);

// The reference (CpuConfig::reference_event_births): the event's children planned (planSlots)
// and written at once, their birth events queued as each is written.
void spawnEventBirthsAtOnce(CpuEffect& fx, uint32_t emitter, uint32_t event_index, uint32_t count);

} // namespace spindrift::cpu
