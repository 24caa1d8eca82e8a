// One event to gameplay as both backends hand it to the runtime, and the canonical order of a
// stream of them (docs/runtime-api.md, "Events"). Below both backends, so the CPU capture
// (src/cpu/gameplay_events.h) and the GPU readback (src/gpu/gameplay_capture.h) keep the same
// events per step and sort them the same way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "compiler/compiled_effect.h"
#include "kernels/effect_records.h"
#include "kernels/shared_types.h"

namespace spindrift {

// One event, in world space (a local-space effect's values moved by the placement at the end of
// its step).
struct GameplayEventRecord {
    uint64_t step = 0;    // the instance's step index (driver), 0 = the first after a (re)start
    uint32_t emitter = 0; // compiled emitter index
    uint32_t kind = 0;    // kEvent*
    uint32_t key = 0;     // the particle's stable random key (sdParticleKey)
    uint32_t detail = 0;  // collision: the ordinal of the emitter's collision op; else 0
    // Host frames between the frame that ran its step and the one it is handed over in: 0 on
    // the CPU; a GPU readback's lateness (src/gpu/gameplay_capture.h). Not part of the order.
    uint32_t latency_frames = 0;
    vec3 position = vec3(0.0f);
    vec3 velocity = vec3(0.0f);
    vec3 normal = vec3(0.0f); // collision: the contact normal; else 0
};

// The canonical order: (step, emitter, kind, key, detail), then the bits of position, velocity
// and normal (ties past the key are two contacts of one particle in one op, or a 32-bit key
// shared by two particles).
inline bool canonicalLess(const GameplayEventRecord& a, const GameplayEventRecord& b) {
    if (a.step != b.step) return a.step < b.step;
    if (a.emitter != b.emitter) return a.emitter < b.emitter;
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.key != b.key) return a.key < b.key;
    if (a.detail != b.detail) return a.detail < b.detail;
    if (int c = std::memcmp(&a.position, &b.position, sizeof(vec3)); c != 0) return c < 0;
    if (int c = std::memcmp(&a.velocity, &b.velocity, sizeof(vec3)); c != 0) return c < 0;
    return std::memcmp(&a.normal, &b.normal, sizeof(vec3)) < 0;
}

// Sorts events[from, end) canonically and keeps, of each (step, emitter), the first
// max_per_step (EmitterEventsRecord); returns how many it removed. What the CPU capture keeps
// step by step, for a backend that gathers a step's events unsorted.
inline uint64_t keepFirstPerStep(const CompiledEffect& effect,
                                 std::vector<GameplayEventRecord>& events, size_t from) {
    std::sort(events.begin() + static_cast<std::ptrdiff_t>(from), events.end(), canonicalLess);
    size_t out = from;
    uint64_t removed = 0;
    for (size_t i = from; i < events.size();) {
        size_t j = i;
        while (j < events.size() && events[j].step == events[i].step &&
               events[j].emitter == events[i].emitter) {
            ++j;
        }
        const size_t bound = emitterEvents(effect, events[i].emitter).max_per_step;
        const size_t keep = std::min(j - i, bound);
        for (size_t k = 0; k < keep; ++k) events[out++] = events[i + k];
        removed += j - i - keep;
        i = j;
    }
    events.resize(out);
    return removed;
}

} // namespace spindrift
