// The deterministic CPU backend: one effect instance simulated on the CPU.
//
// A CpuEffect owns the driver clock (src/driver/driver.h), one column pool per compiled emitter,
// per-step work space and statistics. Everything is allocated by createCpuEffect; stepping
// allocates nothing. Given the same compiled effect, seed, transforms and frame times, the state
// is bit-identical for any thread count, across snapshot/restore, and after a seek.
//
// The step, in order (docs/cpu-backend.md):
//   1. the driver plans this step's births (rate carry, bursts, rate per metre, delay, looping);
//   2. every live particle runs its emitter's ops in compiled order, then integrates
//      (semi-implicit Euler: v from the ops, then p += v dt, rotation += w dt, age += dt) and is
//      tested for death (age >= lifetime, or killed by an attractor or a collision); a particle
//      of a ribbon emitter then records a trail point if it moved far enough (trail_store.h);
//   3. sub-emitter events (death, collision) of this step become births of the child emitters;
//   4. dead particles are removed (the last live particle fills each hole, with its trail);
//   5. planned births and event births are added, spread over the step (birth i of n at
//      fraction (i + 0.5) / n: a moving emitter's position is interpolated and the newborn is
//      pre-aged by the rest of the step); birth events queue births of their children.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "cpu/gameplay_events.h"
#include "cpu/particle_pool.h"
#include "cpu/step_context.h"
#include "cpu/step_timing.h"
#include "cpu/thread_pool.h"
#include "cpu/trail_store.h"
#include "cpu/update_ops.h"
#include "driver/driver.h"
#include "driver/placement.h"

namespace spindrift::cpu {

// Particles per chunk: the unit of work handed to a thread. Fixed, so results never depend on
// the thread count.
inline constexpr uint32_t kChunkParticles = 1024;
// Sub-emitter events handled per step for the whole effect; more are counted and dropped.
inline constexpr uint32_t kMaxEventsPerStep = 1u << 16;

struct EmitterStats {
    uint64_t births = 0; // particles added (planned and from events)
    uint64_t deaths = 0;
    uint64_t overflow_dropped = 0;  // births refused because the pool was full (drop_new)
    uint64_t overflow_replaced = 0; // oldest particles replaced by births (replace_oldest)
    uint64_t events_dropped = 0;    // sub-emitter events past kMaxEventsPerStep
    uint64_t contacts = 0;          // collider contacts
};

struct CpuConfig {
    uint32_t threads = 1;
    DriverConfig driver;
    // Tests and benchmarks: write every event's children at once, one event after the other
    // (planSlots per event, O(capacity) each), instead of planning the step's children and
    // writing the survivors once. Same state, bit for bit; work follows the children requested.
    bool reference_event_births = false;
};

struct PendingEvent {
    uint32_t link = 0; // SubEmitterRecord index
    uint32_t key = 0;  // random key of the event
    vec4 position;     // xyz, sim space
    vec4 velocity;     // xyz, inherited share already applied
};

// The children one event gave one emitter in the current step (spawn.cpp, planEventBirths).
// They are written after every event of the step is planned, so a child that a later event of
// the same step would replace is never written.
struct EventBatch {
    uint32_t event_index = 0;   // into CpuEffect::events
    uint32_t first_birth = 0;   // its first kept child among the emitter's event births this step
    uint32_t kept = 0;          // children kept (appended or replacing); the rest were dropped
    uint32_t previous = 0;      // the emitter's previous batch this step, kNoEventBatch for none
    uint64_t first_ordinal = 0; // of its first child (dropped children take ordinals too)
};
inline constexpr uint32_t kNoEventBatch = UINT32_MAX;

// One emitter's event births of the current step.
struct EventBirths {
    uint32_t start_count = 0;            // live particles when the step's event births began
    uint32_t births = 0;                 // children kept so far: child j of the step is the j-th
    uint32_t last_batch = kNoEventBatch; // its latest EventBatch
    uint32_t pad0 = 0;
};

// Work of the last step, for tests and benchmarks (docs/cpu-backend.md, "Bounded work"). Not
// state: not hashed, not in snapshots.
struct StepWork {
    uint64_t event_births_written = 0;   // children written into pools: at most each emitter's
                                         // capacity per step
    uint64_t event_births_evaluated = 0; // children evaluated only for their birth events: at
                                         // most kMaxEventsPerStep per step, plus one per event
};

struct CpuEffect {
    std::shared_ptr<const CompiledEffect> effect;
    uint64_t effect_identity = 0; // hash of every compiled record: snapshots name their effect
    CpuConfig config;
    DriverState driver;
    std::vector<ParticlePool> pools; // one per compiled emitter
    std::vector<TrailStore> trails;  // one per compiled emitter; empty unless it draws ribbons
    std::vector<EmitterStats> stats;
    Rows3x4 world_from_effect;      // at the end of the last step
    Rows3x4 next_world_from_effect; // set by the host for the coming frame
    std::unique_ptr<ThreadPool> threads;
    // Set by a host that runs many instances (the runtime's world): the step's chunk jobs run
    // here instead of on `threads`. Not owned; results do not depend on it.
    JobQueue* jobs = nullptr;

    // Work space, sized once.
    std::vector<ChunkResult> chunk_results; // per chunk (all emitters' chunks, in order)
    std::vector<uint32_t> chunk_first;      // per emitter + 1: index of its first chunk
    std::vector<float> travel_m;            // per emitter: distance moved this step
    std::vector<PendingEvent> events;       // capacity kMaxEventsPerStep
    std::vector<EventBatch> event_batches;  // capacity kMaxEventsPerStep (one per event at most)
    std::vector<EventBirths> event_births;  // per emitter
    std::vector<uint32_t> replace_order;    // replace_oldest scratch, capacity of the largest pool
    StepWork work;
    // Wall time per stage of the steps (step_timing.h): off unless a host turns timing.on.
    StepTiming timing;
    StepScratch scratch;
    const WorldInputs* world = nullptr; // the host's colliders and distance field (may be null)
    SpawnPlan plan;
    Rows3x4 step_start; // world_from_effect at the start and end of the step being run
    Rows3x4 step_end;
    // What `scratch` was last resolved from (cpu_effect.cpp, resolveForStep): resolveStep's
    // result depends on the records, the step's transforms and the world's inputs, not on the
    // step's time, so a step that repeats them resolves only the emitters it has not resolved
    // yet. Not state: not hashed, not in snapshots.
    struct ResolvedFrom {
        bool valid = false;    // false: resolve everything the step needs
        uint64_t emitters = 0; // resolveStep's mask: the emitters resolved since
        Rows3x4 step_start;
        Rows3x4 step_end;
    } resolved;
    // Events to gameplay and thresholds (gameplay_events.h); null when the effect has none.
    std::unique_ptr<GameplayCapture> gameplay;
};

// The CPU backend's own limits on a compiled effect, beyond what the compiler checks: today the
// trail storage of ribbon emitters (kMaxTrailPoints, compiler/trail_limits.h). Appends an error per
// excess (with the JSON path of what to lower) and returns false.
bool checkCpuLimits(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics);

// Builds an instance with pools (and ribbon trails) sized from each emitter's capacity.
// config.threads >= 1 (0 reads as 1). When the effect fails checkCpuLimits, returns nullptr and
// appends its diagnostics.
std::unique_ptr<CpuEffect> createCpuEffect(std::shared_ptr<const CompiledEffect> effect,
                                           const CpuConfig& config,
                                           std::vector<Diagnostic>& diagnostics);

// The same for an effect known to pass checkCpuLimits; one that does not throws
// std::length_error with the diagnostic's text rather than trying to allocate it.
std::unique_ptr<CpuEffect> createCpuEffect(std::shared_ptr<const CompiledEffect> effect,
                                           const CpuConfig& config);

// Replaces fx.effect by `effect`, which differs from it only in record values (user parameters,
// compiler/parameter_bindings.h: same arrays, same sizes); the next step reads the new values.
// `identity` becomes fx.effect_identity, what snapshots name the records by (the caller derives
// it from the values it wrote, rather than hashing every record again on each change).
void replaceRecords(CpuEffect& fx, std::shared_ptr<const CompiledEffect> effect, uint64_t identity);

// Moves the instance: world_from_effect at the end of the next frame. Births during the frame
// interpolate between the previous and this transform. Particles of a world-space effect stay
// where they were born; those of a local-space effect follow.
void setTransform(CpuEffect& fx, const Rows3x4& world_from_effect);

// Advances by one host frame: the driver turns frame_dt_s into fixed steps (capped per frame;
// the dropped time is in the report) and each runs. Returns the report.
FrameReport advanceFrame(CpuEffect& fx, double frame_dt_s);

// Runs exactly one fixed step.
void stepOnce(CpuEffect& fx);

// Back to time 0 with no particles (statistics kept).
void restart(CpuEffect& fx);

uint64_t liveCount(const CpuEffect& fx);
bool finished(const CpuEffect& fx);
double simulationTime(const CpuEffect& fx); // seconds at the start of the next step

// 64-bit hash of the whole state: driver state, every live particle's every column (slot order),
// every live particle's trail points (oldest to newest) and the statistics. Equal hashes = equal
// states (up to hash collisions).
uint64_t stateHash(const CpuEffect& fx);

} // namespace spindrift::cpu
