// Sub-emitter decisions both backends make (docs/cpu-backend.md, "Sub-emitters";
// docs/gpu-backend.md, "Sub-emitters"): the random key of one event. The event's probability
// and child count are draws of this key (sdRandom01(key, 0), sdRandomCount(key, 1, min, max)).
//
// FROZEN: changing the derivation changes every effect with sub-emitters.
#ifndef SPINDRIFT_KERNELS_SUB_EMITTER_H
#define SPINDRIFT_KERNELS_SUB_EMITTER_H

#include "effect_records.h"
#include "random.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// Draw indices of an event's key. Frozen.
SD_CONST uint kEventDrawProbability = 0u; // the event spawns when sdRandom01 < probability
SD_CONST uint kEventDrawCount = 1u;       // sdRandomCount(key, kEventDrawCount, min, max)

// The key of event `event` (kEvent*) of the particle with key particle_key on link `link` (its
// SubEmitterRecord index). Death and birth happen once per particle; collisions and threshold
// crossings may repeat, so their key also takes the step (its low 32 bits).
SD_FUNC uint sdEventKey(uint particle_key, uint link, uint step_index_lo, uint event) {
    uint h = sdHash(particle_key ^ sdHash(link ^ 0x51ED270Bu));
    if (event == kEventCollision || event == kEventThreshold) h = sdHash(h ^ step_index_lo);
    return h;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_SUB_EMITTER_H
