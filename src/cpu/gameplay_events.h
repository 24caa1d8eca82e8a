// Events to gameplay on the CPU (docs/runtime-api.md, "Events"): the births, deaths, collider
// contacts and threshold crossings of the emitters whose events block asks for them, captured
// while stepping and handed to the runtime after each frame. Also the threshold crossings that
// fire sub-emitter links on kEventThreshold (events.cpp reads them).
//
// Bounded and never silent: per emitter and step at most EmitterEventsRecord::max_per_step
// events are kept — the first in canonical order (kind, particle key, detail) — and the rest are
// counted as dropped. Which ones are kept therefore depends only on the step's events, not on
// slots, chunks or threads. Everything is allocated by createGameplayCapture; stepping allocates
// nothing. An effect without emitter_events gets no capture at all (CpuEffect::gameplay null) and
// pays one pointer test per step and per birth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "compiler/compiled_effect.h"
#include "cpu/particle_pool.h"
#include "driver/gameplay_event.h"
#include "driver/placement.h"

namespace spindrift::cpu {

struct CpuEffect;

using spindrift::canonicalLess;
using spindrift::GameplayEventRecord;

struct GameplayCapture {
    std::vector<EmitterEventsRecord> records; // per emitter
    // Per emitter: this step's kept events, a max-heap on canonicalLess of at most max_per_step
    // (capacity reserved), and the events past the bound.
    std::vector<std::vector<GameplayEventRecord>> kept;
    std::vector<uint64_t> dropped; // per emitter, since the last take
    // Threshold work space (emitters with a threshold): the quantity at the start of the step
    // per slot, and per chunk the slots that crossed (from the chunk's first slot on).
    std::vector<std::vector<float>> threshold_before;
    std::vector<std::vector<uint32_t>> threshold_slots;
    std::vector<uint32_t> threshold_counts; // per chunk (CpuEffect::chunk_first numbering)
    // Per emitter with collision events: 4 floats per contact entry (normal xyz, collision op
    // ordinal), beside ParticlePool::contact_slots.
    std::vector<std::vector<float>> contact_normals;
    // The frame's events in canonical order, capacity frame_capacity; past it counted.
    std::vector<GameplayEventRecord> frame;
    size_t frame_capacity = 0;
    uint64_t frame_dropped = 0; // since the last take: past max_per_step or frame_capacity
};

// Null when the effect has no emitter_events. steps_per_frame sizes the frame buffer (the
// driver's catch-up cap); chunk_count is CpuEffect::chunk_results' size. Points the pools of
// emitters with collision events at their normal lists.
std::unique_ptr<GameplayCapture> createGameplayCapture(const CompiledEffect& effect,
                                                       std::vector<ParticlePool>& pools,
                                                       size_t chunk_count,
                                                       uint32_t steps_per_frame);

// True when emitter e watches a threshold (for events or sub-emitter links).
inline bool watchesThreshold(const GameplayCapture* g, uint32_t e) {
    return g != nullptr && g->records[e].threshold_quantity != kThresholdNone;
}

// Around one chunk's update (cpu_effect.cpp, updateAllChunks): the quantity before, then the
// crossings after (sdThresholdQuantity, sdThresholdCrossed: src/kernels/threshold.h).
void thresholdBefore(CpuEffect& fx, uint32_t e, uint32_t begin, uint32_t end);
void thresholdAfter(CpuEffect& fx, uint32_t e, uint32_t chunk, uint32_t begin, uint32_t end);

// A newborn written into its pool (spawn.cpp, storeBirth), in simulation space.
void captureBirth(CpuEffect& fx, uint32_t e, uint32_t key, vec3 position, vec3 velocity);

// After the update, before the dead are removed: deaths, contacts and crossings of the step.
void captureStepEvents(CpuEffect& fx);

// At the end of the step: the kept events of every emitter, in canonical order, join the frame.
void finishStepEvents(CpuEffect& fx);

// Moves the frame's events to the end of out (canonical order) and returns the events dropped
// since the last take; the capture starts the next frame empty.
uint64_t takeGameplayEvents(CpuEffect& fx, std::vector<GameplayEventRecord>& out);

// Whether events (or drops) are waiting for takeGameplayEvents.
bool gameplayPending(const CpuEffect& fx);

// Forgets the captured events (a seek replays steps whose events are not delivered).
void discardGameplayEvents(CpuEffect& fx);

} // namespace spindrift::cpu
