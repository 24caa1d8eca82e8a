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

// count births of emitter from one sub-emitter event: the child's shape is centred on the event
// position, the event's inherited velocity is added, and age starts at 0.
void spawnEventBirths(CpuEffect& fx, uint32_t emitter, const PendingEvent& event, uint32_t count);

} // namespace spindrift::cpu
