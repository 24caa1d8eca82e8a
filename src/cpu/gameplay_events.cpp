#include "cpu/gameplay_events.h"

#include <algorithm>

#include "cpu/cpu_effect.h"
#include "kernels/threshold.h"

namespace spindrift::cpu {

namespace {

bool delivers(const GameplayCapture& g, uint32_t e, uint32_t kind) {
    return (g.records[e].kinds & (1u << kind)) != 0;
}

// world_from_simulation at the end of the step: events are reported in world space, and a height
// threshold reads its row 1 before and after the step alike (the GPU's step header holds this
// one transform: src/gpu/shader/gpu_sim.h, GpuStepHeader).
Rows3x4 worldFromSimAtEnd(const CpuEffect& fx) {
    return worldFromSim(fx.step_end, fx.effect->effect.space);
}

// One event of emitter e, kept if it is among the step's max_per_step first in canonical order.
void offer(CpuEffect& fx, uint32_t e, uint32_t kind, uint32_t key, uint32_t detail, vec3 position,
           vec3 velocity, vec3 normal) {
    GameplayCapture& g = *fx.gameplay;
    GameplayEventRecord r;
    r.step = fx.plan.step_index;
    r.emitter = e;
    r.kind = kind;
    r.key = key;
    r.detail = detail;
    const Rows3x4 world = worldFromSimAtEnd(fx);
    r.position = transformPoint(world, position);
    r.velocity = transformVector(world, velocity);
    r.normal = transformVector(world, normal);
    std::vector<GameplayEventRecord>& kept = g.kept[e];
    const size_t bound = g.records[e].max_per_step;
    if (kept.size() < bound) {
        kept.push_back(r);
        std::push_heap(kept.begin(), kept.end(), canonicalLess);
        return;
    }
    ++g.dropped[e];
    if (!canonicalLess(r, kept.front())) return;
    std::pop_heap(kept.begin(), kept.end(), canonicalLess);
    kept.back() = r;
    std::push_heap(kept.begin(), kept.end(), canonicalLess);
}

void offerSlot(CpuEffect& fx, uint32_t e, uint32_t kind, uint32_t slot, uint32_t detail,
               vec3 normal) {
    const ParticlePool& p = fx.pools[e];
    offer(fx, e, kind, p.key[slot], detail,
          vec3(p.position_x[slot], p.position_y[slot], p.position_z[slot]),
          vec3(p.velocity_x[slot], p.velocity_y[slot], p.velocity_z[slot]), normal);
}

} // namespace

std::unique_ptr<GameplayCapture> createGameplayCapture(const CompiledEffect& effect,
                                                       std::vector<ParticlePool>& pools,
                                                       size_t chunk_count,
                                                       uint32_t steps_per_frame) {
    if (effect.emitter_events.empty()) return nullptr;
    auto g = std::make_unique<GameplayCapture>();
    const size_t n = effect.emitters.size();
    g->records = effect.emitter_events;
    g->kept.resize(n);
    g->dropped.assign(n, 0);
    g->threshold_before.resize(n);
    g->threshold_slots.resize(n);
    g->threshold_counts.assign(chunk_count, 0);
    g->contact_normals.resize(n);
    size_t per_step = 0;
    for (size_t e = 0; e < n; ++e) {
        const EmitterEventsRecord& r = g->records[e];
        const uint32_t capacity = pools[e].capacity;
        if (r.kinds != 0) {
            g->kept[e].reserve(r.max_per_step);
            per_step += r.max_per_step;
        }
        if (r.threshold_quantity != kThresholdNone) {
            g->threshold_before[e].resize(capacity);
            g->threshold_slots[e].resize(capacity);
        }
        if ((r.kinds & (1u << kEventCollision)) != 0) {
            g->contact_normals[e].resize(size_t{capacity} * pools[e].contact_lists * 4);
            pools[e].contact_normals = g->contact_normals[e].data();
        }
    }
    g->frame_capacity = per_step * std::max(steps_per_frame, 1u);
    g->frame.reserve(g->frame_capacity);
    return g;
}

void thresholdBefore(CpuEffect& fx, uint32_t e, uint32_t begin, uint32_t end) {
    GameplayCapture& g = *fx.gameplay;
    const uint32_t quantity = g.records[e].threshold_quantity;
    const vec4 row = worldFromSimAtEnd(fx).rows[1];
    const ParticlePool& p = fx.pools[e];
    float* before = g.threshold_before[e].data();
    for (uint32_t i = begin; i < end; ++i) {
        before[i] =
            sdThresholdQuantity(quantity, vec3(p.position_x[i], p.position_y[i], p.position_z[i]),
                                vec3(p.velocity_x[i], p.velocity_y[i], p.velocity_z[i]), p.age_s[i],
                                p.lifetime_s[i], row);
    }
}

void thresholdAfter(CpuEffect& fx, uint32_t e, uint32_t chunk, uint32_t begin, uint32_t end) {
    GameplayCapture& g = *fx.gameplay;
    const EmitterEventsRecord& r = g.records[e];
    const vec4 row = worldFromSimAtEnd(fx).rows[1];
    const ParticlePool& p = fx.pools[e];
    const float* before = g.threshold_before[e].data();
    uint32_t* out = g.threshold_slots[e].data() + begin;
    uint32_t count = 0;
    for (uint32_t i = begin; i < end; ++i) {
        const float after = sdThresholdQuantity(
            r.threshold_quantity, vec3(p.position_x[i], p.position_y[i], p.position_z[i]),
            vec3(p.velocity_x[i], p.velocity_y[i], p.velocity_z[i]), p.age_s[i], p.lifetime_s[i],
            row);
        if (sdThresholdCrossed(r.threshold_quantity, r.threshold_direction, r.threshold_value,
                               before[i], after)) {
            out[count++] = i;
        }
    }
    g.threshold_counts[chunk] = count;
}

void captureBirth(CpuEffect& fx, uint32_t e, uint32_t key, vec3 position, vec3 velocity) {
    if (!delivers(*fx.gameplay, e, kEventBirth)) return;
    offer(fx, e, kEventBirth, key, 0, position, velocity, vec3(0.0f));
}

void captureStepEvents(CpuEffect& fx) {
    GameplayCapture& g = *fx.gameplay;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        if (g.records[e].kinds == 0) continue;
        const ParticlePool& pool = fx.pools[e];
        const bool deaths = delivers(g, e, kEventDeath);
        const bool contacts = delivers(g, e, kEventCollision);
        const bool crossings = delivers(g, e, kEventThreshold);
        for (uint32_t chunk = fx.chunk_first[e]; chunk < fx.chunk_first[e + 1]; ++chunk) {
            const uint32_t begin = (chunk - fx.chunk_first[e]) * kChunkParticles;
            const ChunkResult& result = fx.chunk_results[chunk];
            if (deaths) {
                const uint32_t* slots = pool.dead_slots.get() + begin;
                for (uint32_t i = 0; i < result.dead_count; ++i)
                    offerSlot(fx, e, kEventDeath, slots[i], 0, vec3(0.0f));
            }
            if (contacts) {
                const size_t first = size_t{begin} * pool.contact_lists;
                const uint32_t* slots = pool.contact_slots.get() + first;
                const float* normals = pool.contact_normals + first * 4;
                for (uint32_t i = 0; i < result.contact_count; ++i) {
                    const float* n = normals + size_t{i} * 4;
                    offerSlot(fx, e, kEventCollision, slots[i], static_cast<uint32_t>(n[3]),
                              vec3(n[0], n[1], n[2]));
                }
            }
            if (crossings) {
                const uint32_t* slots = g.threshold_slots[e].data() + begin;
                for (uint32_t i = 0; i < g.threshold_counts[chunk]; ++i)
                    offerSlot(fx, e, kEventThreshold, slots[i], 0, vec3(0.0f));
            }
        }
    }
}

void finishStepEvents(CpuEffect& fx) {
    GameplayCapture& g = *fx.gameplay;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        std::vector<GameplayEventRecord>& kept = g.kept[e];
        if (kept.empty()) continue;
        std::sort_heap(kept.begin(), kept.end(), canonicalLess);
        for (const GameplayEventRecord& r : kept) {
            if (g.frame.size() < g.frame_capacity) {
                g.frame.push_back(r);
            } else {
                ++g.frame_dropped;
            }
        }
        kept.clear();
    }
}

uint64_t takeGameplayEvents(CpuEffect& fx, std::vector<GameplayEventRecord>& out) {
    if (fx.gameplay == nullptr) return 0;
    GameplayCapture& g = *fx.gameplay;
    out.insert(out.end(), g.frame.begin(), g.frame.end());
    uint64_t dropped = g.frame_dropped;
    for (uint64_t& d : g.dropped) {
        dropped += d;
        d = 0;
    }
    g.frame.clear();
    g.frame_dropped = 0;
    return dropped;
}

bool gameplayPending(const CpuEffect& fx) {
    if (fx.gameplay == nullptr) return false;
    const GameplayCapture& g = *fx.gameplay;
    if (!g.frame.empty() || g.frame_dropped != 0) return true;
    return std::any_of(g.dropped.begin(), g.dropped.end(), [](uint64_t d) { return d != 0; });
}

void discardGameplayEvents(CpuEffect& fx) {
    if (fx.gameplay == nullptr) return;
    GameplayCapture& g = *fx.gameplay;
    g.frame.clear();
    g.frame_dropped = 0;
    for (uint64_t& d : g.dropped) d = 0;
}

} // namespace spindrift::cpu
