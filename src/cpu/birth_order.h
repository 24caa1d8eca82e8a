// Birth order on the CPU: an emitter with stable_order (or death, collision or threshold
// sub-emitter events) keeps its live particles in slot order =
// birth order (= spawn ordinal order, since births append in ordinal order), so unsorted
// particles draw in the same order every frame and the GPU backend (which keeps the same order,
// docs/gpu-backend.md, "Birth order") draws them in the same order too. Removal then shifts the
// survivors down instead of filling each hole with the last particle.
#pragma once

#include <cstdint>

#include "compiler/compiled_effect.h"
#include "compiler/event_order.h"
#include "cpu/particle_pool.h"
#include "cpu/trail_store.h"

namespace spindrift::cpu {

// stable_order asks for it; an emitter with death, collision or threshold events needs it, so that
// its events come in the order the GPU backend gathers them (compiler/event_order.h).
inline bool keepsBirthOrder(const CompiledEffect& effect, uint32_t e) {
    return (effect.emitters[e].render_flags & kRenderFlagStableOrder) != 0 ||
           hasOrderedEvents(effect, e);
}

// Removes the particles for which dead(slot) is true, keeping the survivors' order; each
// survivor's trail moves with it. O(count).
template <typename Dead>
void removeKeepingOrder(ParticlePool& pool, TrailStore& trails, Dead&& dead) {
    uint32_t write = 0;
    for (uint32_t read = 0; read < pool.count; ++read) {
        if (dead(read)) continue;
        if (read != write) {
            moveParticle(pool, read, write);
            if (hasTrails(trails)) moveTrail(trails, read, write);
        }
        ++write;
    }
    pool.count = write;
}

} // namespace spindrift::cpu
