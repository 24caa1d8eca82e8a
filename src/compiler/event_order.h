// Which emitters must keep their particles in birth order on both backends because of their
// sub-emitter events (docs/gpu-backend.md, "Sub-emitters"). The CPU gathers a step's death,
// collision and threshold events in slot order; the GPU walks its alive list. Both are birth
// order (ascending spawn ordinal) only when the emitter keeps it, so an emitter with a death,
// collision or threshold link does, and its children get the same ordinals on both backends. Birth
// events need nothing: births happen in ordinal order on both.
#pragma once

#include <cstdint>

#include "compiler/compiled_effect.h"

namespace spindrift {

// True when emitter e has a sub-emitter link on death, collision or a threshold crossing.
inline bool hasOrderedEvents(const CompiledEffect& effect, uint32_t e) {
    const EmitterRecord& emitter = effect.emitters[e];
    for (uint32_t l = 0; l < emitter.sub_emitter_count; ++l) {
        const uint32_t event = effect.sub_emitters[emitter.sub_emitter_first + l].event;
        if (event == kEventDeath || event == kEventCollision || event == kEventThreshold)
            return true;
    }
    return false;
}

} // namespace spindrift
