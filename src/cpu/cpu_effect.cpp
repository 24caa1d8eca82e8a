#include "cpu/cpu_effect.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <stdexcept>

#include "compiler/structural_hash.h"
#include "cpu/birth_order.h"
#include "cpu/events.h"
#include "cpu/spawn.h"
#include "cpu/update_ops.h"
#include "kernels/forces.h"
#include "kernels/random.h"
#include "kernels/sd_math.h"

namespace spindrift::cpu {

namespace {

template <typename T> uint64_t hashVector(const std::vector<T>& v, uint64_t state) {
    return v.empty() ? state : fnv1a64(v.data(), v.size() * sizeof(T), state);
}

uint64_t effectIdentity(const CompiledEffect& e) {
    uint64_t h = fnv1a64(&e.effect, sizeof(e.effect));
    h = hashVector(e.emitters, h);
    h = hashVector(e.ops, h);
    h = hashVector(e.bursts, h);
    h = hashVector(e.colliders, h);
    h = hashVector(e.force_fields, h);
    h = hashVector(e.mesh_points, h);
    h = hashVector(e.sub_emitters, h);
    h = hashVector(e.emitter_events, h); // nothing for an effect without events
    h = hashVector(e.lut, h);
    h = fnv1a64(e.strings.data(), e.strings.size(), h);
    return fnv1a64(&e.structural_hash, sizeof(e.structural_hash), h);
}

uint32_t chunksFor(uint32_t count) {
    return (count + kChunkParticles - 1) / kChunkParticles;
}

// Runs every emitter's chunks on the thread pool; chunk results land in per-chunk slots.
void updateAllChunks(CpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    uint32_t total = 0;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        fx.chunk_first[e] = total;
        total += chunksFor(fx.pools[e].count);
    }
    fx.chunk_first[fx.pools.size()] = total;
    std::vector<ChunkResult>& results = fx.chunk_results;
    const bool timed = fx.timing.on;
    auto job = [&](uint32_t chunk) {
        const uint64_t job_start = timed ? timingNowNs() : 0;
        // Emitters are few (<= 64); find the one owning this chunk.
        uint32_t e = 0;
        while (fx.chunk_first[e + 1] <= chunk) ++e;
        ParticlePool& pool = fx.pools[e];
        const uint32_t begin = (chunk - fx.chunk_first[e]) * kChunkParticles;
        const uint32_t end = std::min(begin + kChunkParticles, pool.count);
        const bool threshold = watchesThreshold(fx.gameplay.get(), e);
        if (threshold) thresholdBefore(fx, e, begin, end);
        results[chunk] =
            updateChunk(effect, fx.scratch, fx.scratch.emitters[e], pool, begin, end, timed);
        if (threshold) thresholdAfter(fx, e, chunk, begin, end);
        // After integration and collision: the trail records where the particle ended the step.
        if (hasTrails(fx.trails[e])) recordTrails(fx.trails[e], pool, begin, end);
        if (timed) results[chunk].job_ns = timingNowNs() - job_start;
    };
    JobQueue& queue = fx.jobs != nullptr ? *fx.jobs : *fx.threads;
    queue.run(total, job);
}

// Splits the update's wall time between the update and the collision stages. Chunks run on
// several threads, so their own times add up to more than the wall time: the collision stage
// gets the wall time in the share its chunks' collision time has of their whole time, which is
// exact on one thread and keeps the two stages within the wall time on any number.
void splitUpdateTime(CpuEffect& fx, uint64_t wall_ns) {
    uint64_t job_ns = 0;
    uint64_t collision_ns = 0;
    for (uint32_t chunk = 0; chunk < fx.chunk_first[fx.pools.size()]; ++chunk) {
        job_ns += fx.chunk_results[chunk].job_ns;
        collision_ns += fx.chunk_results[chunk].collision_ns;
    }
    const uint64_t collision =
        job_ns == 0 ? 0
                    : static_cast<uint64_t>(static_cast<double>(wall_ns) *
                                            (static_cast<double>(std::min(collision_ns, job_ns)) /
                                             static_cast<double>(job_ns)));
    fx.timing.collision_ns += collision;
    fx.timing.update_ns += wall_ns - collision;
}

// A stable-order emitter: survivors shift down in order (birth_order.h). Each chunk's dead list
// is ascending and chunks are in slot order, so one cursor walks them as removal asks in order.
void removeDeadKeepingOrder(CpuEffect& fx, uint32_t e) {
    ParticlePool& pool = fx.pools[e];
    EmitterStats& stats = fx.stats[e];
    const uint32_t first_chunk = fx.chunk_first[e];
    const uint32_t end_chunk = fx.chunk_first[e + 1];
    for (uint32_t chunk = first_chunk; chunk < end_chunk; ++chunk) {
        stats.contacts += fx.chunk_results[chunk].contacts;
        stats.deaths += fx.chunk_results[chunk].dead_count;
    }
    uint32_t chunk = first_chunk;
    uint32_t at = 0;
    removeKeepingOrder(pool, fx.trails[e], [&](uint32_t slot) {
        while (chunk < end_chunk && at == fx.chunk_results[chunk].dead_count) {
            ++chunk;
            at = 0;
        }
        if (chunk == end_chunk) return false;
        const uint32_t begin = (chunk - first_chunk) * kChunkParticles;
        if (pool.dead_slots[begin + at] != slot) return false;
        ++at;
        return true;
    });
}

void removeDead(CpuEffect& fx) {
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        if (keepsBirthOrder(*fx.effect, e)) {
            removeDeadKeepingOrder(fx, e);
            continue;
        }
        ParticlePool& pool = fx.pools[e];
        TrailStore& trails = fx.trails[e];
        EmitterStats& stats = fx.stats[e];
        // Descending slot order: chunks last to first, each chunk's list back to front.
        for (uint32_t chunk = fx.chunk_first[e + 1]; chunk-- > fx.chunk_first[e];) {
            const uint32_t begin = (chunk - fx.chunk_first[e]) * kChunkParticles;
            const ChunkResult& r = fx.chunk_results[chunk];
            stats.contacts += r.contacts;
            stats.deaths += r.dead_count;
            const uint32_t* slots = pool.dead_slots.get() + begin;
            for (uint32_t i = r.dead_count; i-- > 0;) {
                // removeDescending fills the hole with the last particle; its trail follows.
                if (hasTrails(trails) && slots[i] != pool.count - 1)
                    moveTrail(trails, pool.count - 1, slots[i]);
                removeDescending(pool, slots + i, 1);
            }
        }
    }
}

// The emitters this step reads the resolved uniforms of (resolveStep's mask): those with live
// particles, planned births, or children that events may give them (sub-emitter targets). An
// emitter with none of these costs no transform and no per-step factor.
uint64_t emittersInStep(const CpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    uint64_t needed = 0;
    for (uint32_t e = 0; e < fx.pools.size() && e < 64; ++e) {
        const EmitterSpawn& spawn = fx.plan.emitters[e];
        if (fx.pools[e].count != 0 || spawn.count != 0 || spawn.dropped != 0)
            needed |= uint64_t{1} << e;
    }
    for (const SubEmitterRecord& link : effect.sub_emitters)
        if (link.emitter < 64) needed |= uint64_t{1} << link.emitter;
    // Past 64 emitters (none today: kMaxEmitters) everything is resolved.
    return fx.pools.size() > 64 ? ~uint64_t{0} : needed;
}

bool sameRows(const Rows3x4& a, const Rows3x4& b) {
    return std::memcmp(&a, &b, sizeof(Rows3x4)) == 0;
}

// Whether the world's inputs add nothing to a resolved step (no colliders, attractors or distance
// field): then the op, collider and force-field cursors of each emitter are the same whichever
// emitters are resolved, and a resolved emitter stays valid while records and transforms do.
bool worldAddsNothing(const WorldInputs* world) {
    return world == nullptr ||
           (world->colliders.empty() && world->attractors.empty() &&
            world->distance_field.sample == nullptr && world->scene_depth.host_address == 0);
}

// resolveStep for the emitters this step needs (emittersInStep). A step that repeats the previous
// step's records and transforms (an instance standing still) reuses the emitters resolved then:
// resolveStep would write the same values, all but the step's time, which is set here. The
// result is the same bits either way.
void resolveForStep(CpuEffect& fx, uint64_t needed) {
    CpuEffect::ResolvedFrom& from = fx.resolved;
    const CompiledEffect& effect = *fx.effect;
    const bool reuse = from.valid && worldAddsNothing(fx.world) && effect.emitters.size() <= 64 &&
                       sameRows(from.step_start, fx.step_start) &&
                       sameRows(from.step_end, fx.step_end);
    if (!reuse) {
        resolveStep(effect, fx.step_start, fx.step_end, fx.plan.time_s, fx.scratch, fx.world,
                    needed);
        // Resolved with the world's inputs in it: not reusable once they are gone.
        from.valid = worldAddsNothing(fx.world);
        from.emitters = needed;
        from.step_start = fx.step_start;
        from.step_end = fx.step_end;
        return;
    }
    const uint64_t missing = needed & ~from.emitters;
    if (missing != 0) {
        resolveStep(effect, fx.step_start, fx.step_end, fx.plan.time_s, fx.scratch, fx.world,
                    missing);
        from.emitters |= missing;
    }
    const float time_s = static_cast<float>(fx.plan.time_s);
    for (uint64_t rest = needed & ~missing; rest != 0; rest &= rest - 1) {
        fx.scratch.emitters[static_cast<uint32_t>(std::countr_zero(rest))].time_s = time_s;
    }
}

} // namespace

bool checkCpuLimits(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics) {
    return checkTrailLimits(effect, diagnostics, "the CPU backend's");
}

std::unique_ptr<CpuEffect> createCpuEffect(std::shared_ptr<const CompiledEffect> effect,
                                           const CpuConfig& config) {
    std::vector<Diagnostic> diagnostics;
    std::unique_ptr<CpuEffect> fx = createCpuEffect(std::move(effect), config, diagnostics);
    if (fx == nullptr) throw std::length_error(formatDiagnostic(diagnostics.front()));
    return fx;
}

std::unique_ptr<CpuEffect> createCpuEffect(std::shared_ptr<const CompiledEffect> effect,
                                           const CpuConfig& config,
                                           std::vector<Diagnostic>& diagnostics) {
    if (!checkCpuLimits(*effect, diagnostics)) return nullptr;
    auto fx = std::make_unique<CpuEffect>();
    fx->effect = std::move(effect);
    fx->config = config;
    fx->config.threads = std::max(config.threads, 1u);
    fx->threads = std::make_unique<ThreadPool>(fx->config.threads);
    const CompiledEffect& compiled = *fx->effect;
    fx->driver = makeDriverState(compiled);
    const size_t emitters = compiled.emitters.size();
    fx->pools.resize(emitters);
    fx->trails.resize(emitters);
    fx->stats.resize(emitters);
    uint32_t max_chunks = 0;
    uint32_t largest = 0;
    for (size_t e = 0; e < emitters; ++e) {
        const uint32_t capacity = compiled.emitters[e].capacity;
        uint32_t collision_ops = 0;
        const EmitterRecord& emitter = compiled.emitters[e];
        for (uint32_t k = 0; k < emitter.op_count; ++k) {
            collision_ops += compiled.ops[emitter.op_first + k].op == kOpCollision ? 1u : 0u;
        }
        allocatePool(fx->pools[e], capacity, collision_ops);
        allocateTrails(fx->trails[e], compiled.emitters[e]);
        max_chunks += chunksFor(capacity);
        largest = std::max(largest, capacity);
    }
    fx->chunk_results.resize(max_chunks);
    fx->chunk_first.resize(emitters + 1);
    fx->events.reserve(kMaxEventsPerStep);
    fx->event_batches.reserve(kMaxEventsPerStep);
    fx->event_births.resize(emitters);
    fx->replace_order.resize(largest);
    allocateStepScratch(compiled, fx->scratch);
    fx->travel_m.resize(emitters);
    fx->effect_identity = effectIdentity(compiled);
    fx->gameplay = createGameplayCapture(compiled, fx->pools, fx->chunk_results.size(),
                                         fx->config.driver.max_steps_per_frame);
    return fx;
}

void replaceRecords(CpuEffect& fx, std::shared_ptr<const CompiledEffect> effect,
                    uint64_t identity) {
    fx.effect = std::move(effect);
    fx.effect_identity = identity;
    fx.resolved.valid = false; // the records changed (possibly in place)
}

void setTransform(CpuEffect& fx, const Rows3x4& world_from_effect) {
    fx.next_world_from_effect = world_from_effect;
}

void stepOnce(CpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    // Every stage's time is a lap of one clock, so the stages never add up to more than the step.
    StageClock clock(fx.timing.on);
    const uint64_t step_start_ns = clock.last_ns;
    uint64_t rest_ns = 0; // gameplay capture and the finish test: in the step, in no stage
    // How far each emitter's origin moved this step: read only for rate_per_m (planStep).
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        if (effect.emitters[e].rate_per_m <= 0) {
            fx.travel_m[e] = 0;
            continue;
        }
        const vec3 a = transformPoint(
            simFromEmitter(fx.step_start, effect.emitters[e], kSpaceWorld), vec3(0.0f));
        const vec3 b = transformPoint(simFromEmitter(fx.step_end, effect.emitters[e], kSpaceWorld),
                                      vec3(0.0f));
        fx.travel_m[e] = length(b - a);
    }
    planStep(fx.driver, effect, fx.config.driver, fx.travel_m, fx.plan);
    resolveForStep(fx, emittersInStep(fx));
    clock.lap(fx.timing.plan_ns);

    fx.work = {};
    updateAllChunks(fx);
    if (clock.on) {
        uint64_t wall_ns = 0;
        clock.lap(wall_ns);
        splitUpdateTime(fx, wall_ns);
    }
    if (fx.gameplay != nullptr) captureStepEvents(fx);
    clock.lap(rest_ns);
    fx.events.clear();
    collectEvents(fx);
    removeDead(fx);
    clock.lap(fx.timing.deaths_ns);

    spawnPlanned(fx);
    spawnFromEvents(fx);
    clock.lap(fx.timing.births_ns);
    if (fx.gameplay != nullptr) finishStepEvents(fx);
    updateFinished(fx.driver, effect, liveCount(fx));
    if (clock.on) {
        clock.lap(rest_ns);
        fx.timing.step_ns += clock.last_ns - step_start_ns; // the laps' sum: the whole step
        fx.timing.steps += 1;
    }
}

FrameReport advanceFrame(CpuEffect& fx, double frame_dt_s) {
    FrameReport report;
    const uint32_t steps = beginFrame(fx.driver, *fx.effect, frame_dt_s, fx.config.driver, report);
    const Rows3x4 from = fx.world_from_effect;
    const Rows3x4 to = fx.next_world_from_effect;
    for (uint32_t i = 0; i < steps; ++i) {
        fx.step_start =
            blendTransforms(from, to, static_cast<float>(i) / static_cast<float>(steps));
        fx.step_end =
            blendTransforms(from, to, static_cast<float>(i + 1) / static_cast<float>(steps));
        stepOnce(fx);
    }
    fx.world_from_effect = to;
    fx.step_start = to;
    fx.step_end = to;
    return report;
}

void restart(CpuEffect& fx) {
    restartDriver(fx.driver);
    for (ParticlePool& pool : fx.pools) pool.count = 0;
}

uint64_t liveCount(const CpuEffect& fx) {
    uint64_t live = 0;
    for (const ParticlePool& pool : fx.pools) live += pool.count;
    return live;
}

bool finished(const CpuEffect& fx) {
    return fx.driver.finished != 0;
}

double simulationTime(const CpuEffect& fx) {
    return stepTime(fx.driver, *fx.effect);
}

} // namespace spindrift::cpu
