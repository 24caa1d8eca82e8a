#include "cpu/events.h"

#include "cpu/spawn.h"
#include "kernels/effect_records.h"
#include "kernels/random.h"
#include "kernels/sub_emitter.h"

namespace spindrift::cpu {

namespace {

// One event of one particle on one link, or a drop past kMaxEventsPerStep.
void queueEvent(CpuEffect& fx, uint32_t emitter_index, uint32_t link, uint32_t event,
                uint32_t particle_key, vec3 position, vec3 velocity) {
    if (fx.events.size() >= kMaxEventsPerStep) {
        ++fx.stats[emitter_index].events_dropped;
        return;
    }
    const SubEmitterRecord& sub = fx.effect->sub_emitters[link];
    PendingEvent ev;
    ev.link = link;
    ev.key = sdEventKey(particle_key, link, static_cast<uint32_t>(fx.plan.step_index), event);
    ev.position = vec4(position, 0);
    ev.velocity = vec4(velocity, 0) * sub.inherit_velocity;
    fx.events.push_back(ev);
}

} // namespace

void queueEvents(CpuEffect& fx, uint32_t emitter_index, uint32_t event, const uint32_t* slots,
                 uint32_t slot_count) {
    const CompiledEffect& effect = *fx.effect;
    const EmitterRecord& emitter = effect.emitters[emitter_index];
    const ParticlePool& pool = fx.pools[emitter_index];
    for (uint32_t l = 0; l < emitter.sub_emitter_count; ++l) {
        const uint32_t link = emitter.sub_emitter_first + l;
        if (effect.sub_emitters[link].event != event) continue;
        for (uint32_t i = 0; i < slot_count; ++i) {
            const uint32_t slot = slots[i];
            queueEvent(fx, emitter_index, link, event, pool.key[slot],
                       vec3(pool.position_x[slot], pool.position_y[slot], pool.position_z[slot]),
                       vec3(pool.velocity_x[slot], pool.velocity_y[slot], pool.velocity_z[slot]));
        }
    }
}

void queueBirthEvents(CpuEffect& fx, uint32_t emitter_index, uint32_t particle_key, vec3 position,
                      vec3 velocity) {
    const CompiledEffect& effect = *fx.effect;
    const EmitterRecord& emitter = effect.emitters[emitter_index];
    for (uint32_t l = 0; l < emitter.sub_emitter_count; ++l) {
        const uint32_t link = emitter.sub_emitter_first + l;
        if (effect.sub_emitters[link].event != kEventBirth) continue;
        queueEvent(fx, emitter_index, link, kEventBirth, particle_key, position, velocity);
    }
}

uint32_t birthLinkCount(const CompiledEffect& effect, uint32_t emitter_index) {
    const EmitterRecord& emitter = effect.emitters[emitter_index];
    uint32_t links = 0;
    for (uint32_t l = 0; l < emitter.sub_emitter_count; ++l) {
        links += effect.sub_emitters[emitter.sub_emitter_first + l].event == kEventBirth ? 1 : 0;
    }
    return links;
}

void collectEvents(CpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        if (effect.emitters[e].sub_emitter_count == 0) continue;
        ParticlePool& pool = fx.pools[e];
        for (uint32_t chunk = fx.chunk_first[e]; chunk < fx.chunk_first[e + 1]; ++chunk) {
            const uint32_t begin = (chunk - fx.chunk_first[e]) * kChunkParticles;
            const ChunkResult& r = fx.chunk_results[chunk];
            queueEvents(fx, e, kEventCollision,
                        pool.contact_slots.get() + size_t{begin} * pool.contact_lists,
                        r.contact_count);
            queueEvents(fx, e, kEventDeath, pool.dead_slots.get() + begin, r.dead_count);
            // Crossings of the emitter's threshold (gameplay_events.h), after its deaths.
            if (watchesThreshold(fx.gameplay.get(), e)) {
                queueEvents(fx, e, kEventThreshold, fx.gameplay->threshold_slots[e].data() + begin,
                            fx.gameplay->threshold_counts[chunk]);
            }
        }
    }
}

void spawnFromEvents(CpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    beginEventBirths(fx);
    // Children queue their own birth events as they are planned: the loop reaches them too.
    for (size_t n = 0; n < fx.events.size(); ++n) {
        const PendingEvent& ev = fx.events[n];
        const SubEmitterRecord& sub = effect.sub_emitters[ev.link];
        if (sdRandom01(ev.key, kEventDrawProbability) >= sub.probability) continue;
        const uint32_t count = sdRandomCount(ev.key, kEventDrawCount, sub.count_min, sub.count_max);
        if (fx.config.reference_event_births) {
            spawnEventBirthsAtOnce(fx, sub.emitter, static_cast<uint32_t>(n), count);
        } else {
            planEventBirths(fx, sub.emitter, static_cast<uint32_t>(n), count);
        }
    }
    writeEventBirths(fx);
}

} // namespace spindrift::cpu
