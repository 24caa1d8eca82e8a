// The driver: one clock for every host (runtime, CLI, editor preview, tests). It turns host
// frame times into whole fixed steps of the effect (catch-up capped, the excess dropped and
// reported) and plans each step's births per emitter: rate with a fractional carry, bursts
// (time, cycles, interval, count range, probability), rate per metre travelled, delay, looping,
// the end of a non-looping effect, a global spawn scale and per-emitter enable bits. Every
// number it produces depends only on the compiled effect, the step index and the config, never
// on how the host paced its frames. Exact rules and formulas: docs/driver.md.
//
// Use, once per host frame:
//     FrameReport report;
//     uint32_t steps = beginFrame(state, effect, frame_dt_s, config, report);
//     for (uint32_t i = 0; i < steps; ++i) {
//         planStep(state, effect, config, travel_m, plan); // plans plan.step_index, advances
//         ... simulate one step of effect.effect.fixed_timestep_s with plan ...
//     }
//
// Not thread-safe per state; distinct states are independent. Nothing here allocates.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "compiler/compiled_effect.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

// Births planned for one emitter in one step are clamped to this before the capacity clamp, so
// no count or ordinal arithmetic can overflow whatever the rates (2^40: sixteen bursts of
// kMaxBurstCount particles each firing kMaxBurstCycles times in one step fit).
inline constexpr uint64_t kMaxPlannedBirthsPerStep = uint64_t(1) << 40;
// Cycles of one burst examined in one step; further cycles of that burst in that step are
// skipped and counted (only a burst repeating for ever with interval_s < dt / 65536 reaches it).
inline constexpr uint64_t kMaxBurstCyclesPerStep = kMaxBurstCycles;
// A frame's accumulated time that falls short of a whole step by at most this fraction of a
// step still runs the step (the shortfall is carried as a small debt), so a host whose frame
// time equals the step up to rounding runs exactly one step per frame.
inline constexpr double kStepSnapFraction = 1.0 / 1024.0;

// Fixed steps one run may simulate from time 0: `simulate --time`, and a scene instance's time
// at a frame, its pre-roll included (docs/driver.md, "Limits"). Ten million steps are 46 hours of
// a 60 Hz effect and 2.8 hours at the finest step (1 ms); a day of any effect of 60 Hz or
// coarser fits. Hosts refuse a run past it with an error that names the numbers, and count in
// double before converting, so no time, however large, overflows a step count.
inline constexpr uint64_t kMaxSimulatedSteps = 10'000'000;

// Births a host asked for on one emitter (the runtime's emit): added to that emitter's births in
// step step_index, whether or not the emitter is enabled or its effect is still emitting, and not
// multiplied by spawn_scale (the host named the count). Capacity clamps them like any birth.
struct HostBurst {
    uint64_t step_index = 0;
    uint32_t emitter = 0;
    uint32_t count = 0;
};

// Host settings; may change between frames.
struct DriverConfig {
    uint32_t max_steps_per_frame = 8; // catch-up cap; 0 is treated as 1
    float spawn_scale = 1;            // multiplies every birth count; < 0 or non-finite acts as 0
    uint64_t enabled_mask = ~0ull;    // bit e enables compiled emitter e
    // Host bursts; the host owns the array and keeps it alive while the config is used. Entries
    // for other steps or emitters past the effect's are ignored.
    std::span<const HostBurst> host_bursts;
};

// Per-emitter clock. Carries are in births, in [0, 1) between steps.
struct EmitterClock {
    double spawn_carry = 0;    // rate_per_s births
    double burst_carry = 0;    // scaled burst births (exactly 0 when spawn_scale is 1)
    double distance_carry = 0; // rate_per_m births
    uint64_t next_ordinal = 0; // spawn ordinal of the next birth
    uint32_t enabled = 0;      // 1 when the last planned step had this emitter enabled
    uint32_t pad0 = 0;
};

struct DriverStats {
    uint64_t discarded_steps = 0;      // steps dropped by the catch-up cap, all frames
    double discarded_s = 0;            // their time
    uint64_t skipped_burst_cycles = 0; // burst cycles past kMaxBurstCyclesPerStep
    uint64_t dropped_births = 0;       // planned births past an emitter's capacity in one step
    uint64_t rejected_frames = 0;      // beginFrame calls with a negative or non-finite frame time
};

// The whole clock as plain data: trivially copyable, no pointers, no implicit padding, so a
// snapshot is its bytes and equal states have equal bytes.
struct DriverState {
    uint64_t step_index = 0;  // the next step to plan; step k starts at k * fixed_timestep_s
    double accumulator_s = 0; // frame time not yet turned into steps, in [-snap, dt)
    uint64_t loop_index = 0;  // loop of the last planned step
    uint32_t emitter_count = 0;
    uint32_t finished = 0; // 1 once updateFinished saw the end (see effectFinished)
    DriverStats stats = {};
    EmitterClock emitters[kMaxEmitters] = {};
};
static_assert(std::is_trivially_copyable_v<DriverState>);
static_assert(sizeof(EmitterClock) == 40);
static_assert(sizeof(DriverStats) == 40);
static_assert(sizeof(DriverState) == 72 + 40 * kMaxEmitters, "DriverState has no hidden padding");

struct FrameReport {
    uint32_t steps = 0;           // steps to run now (what beginFrame returned)
    uint32_t discarded_steps = 0; // steps dropped by the cap this frame (saturated)
    double discarded_s = 0;       // their time
    uint32_t frame_rejected = 0;  // 1: frame_dt_s was negative or non-finite and was taken as 0
    uint32_t pad0 = 0;
};

// One emitter's births in one step: ordinals first_ordinal .. first_ordinal + count - 1. Birth i
// of count sits at sub-step fraction sdBirthFraction(i, count) (kernels/birth.h).
struct EmitterSpawn {
    uint32_t count = 0;
    uint32_t pad0 = 0;
    uint64_t first_ordinal = 0;
    uint64_t dropped = 0; // births of this step past the emitter's capacity: never born, counted as
                          // overflow; their ordinals are consumed after the born ones
};

struct SpawnPlan {
    uint64_t step_index = 0; // the step planned
    double time_s = 0;       // its start, seconds since the start of the effect
    uint64_t loop_index = 0; // which repetition of duration_s it is in (0 when not looping)
    uint64_t cycle_step = 0; // its index inside that loop (step_index when not looping)
    uint32_t emitter_count = 0;
    uint32_t pad0 = 0;
    EmitterSpawn emitters[kMaxEmitters] = {};
};

// A fresh clock at time 0 for the effect (every emitter enabled, no carries, ordinals 0).
DriverState makeDriverState(const CompiledEffect& effect);

// Back to time 0: the state becomes byte-equal to makeDriverState of the same effect (statistics
// too). The host clears its particles.
void restartDriver(DriverState& state);

// Hot reload (docs/runtime-api.md, "Hot reload"): `to`, a fresh clock of a new version of the
// effect, continues `from`: its step, loop, accumulator and receipts go on, and each new emitter e
// with old_emitter[e] >= 0 takes that old emitter's clock (carries, next ordinal, enabled), so
// the births to come get the ordinals, and thereby the random numbers, they would have had.
// Emitters with old_emitter[e] < 0 keep their fresh clock. old_emitter has one entry per emitter
// of `to`, each below from.emitter_count.
void continueClock(const DriverState& from, DriverState& to, std::span<const int32_t> old_emitter);

// Adds frame_dt_s (seconds of host time) and returns how many fixed steps to run now, at most
// config.max_steps_per_frame; whole steps beyond the cap are dropped (their time is reported in
// report and added to state.stats). A negative or non-finite frame_dt_s counts as 0 and sets
// report.frame_rejected. A finished state runs no steps.
uint32_t beginFrame(DriverState& state, const CompiledEffect& effect, double frame_dt_s,
                    const DriverConfig& config, FrameReport& report);

// Plans step state.step_index into out and advances the state to the next step.
// emitter_travel_m[e] is how far emitter e moved during this step (metres, for rate_per_m); it
// may be empty or shorter than the emitter count (missing entries are 0); negative or
// non-finite entries count as 0.
void planStep(DriverState& state, const CompiledEffect& effect, const DriverConfig& config,
              std::span<const float> emitter_travel_m, SpawnPlan& out);
inline void planStep(DriverState& state, const CompiledEffect& effect, const DriverConfig& config,
                     SpawnPlan& out) {
    planStep(state, effect, config, {}, out);
}

// Takes count ordinals from emitter's counter (sub-emitter children) and returns the first.
uint64_t takeOrdinals(DriverState& state, uint32_t emitter, uint64_t count);

// The whole fixed steps of a run of time_s seconds, round(time_s / fixed_timestep_s), as a double
// (not rounded when huge, NaN when time_s is): what a host compares with kMaxSimulatedSteps
// before it converts the count.
double stepsInTime(double time_s, float fixed_timestep_s);

// stepsInTime as a count when it is >= 0 and at most kMaxSimulatedSteps; false otherwise (a
// negative, non-finite or too large time, or a step that is not > 0), steps then left alone.
bool boundedStepsInTime(double time_s, float fixed_timestep_s, uint64_t& steps);

// Seconds at the start of the next step to plan: step_index * fixed_timestep_s.
double stepTime(const DriverState& state, const CompiledEffect& effect);

// Steps in one cycle of the effect: max(1, round(duration_s / fixed_timestep_s)). Looping
// effects repeat every this many steps; non-looping ones plan no births from this step on.
uint64_t stepsPerCycle(const CompiledEffect& effect);

// True when the effect has ended: not looping, every step that could plan births has been
// planned (step_index >= stepsPerCycle), and live_count (the backend's live particles) is 0.
bool effectFinished(const DriverState& state, const CompiledEffect& effect, uint64_t live_count);

// Latches effectFinished into state.finished (then beginFrame runs no more steps) and returns
// state.finished != 0.
bool updateFinished(DriverState& state, const CompiledEffect& effect, uint64_t live_count);

} // namespace spindrift
