#include "driver/driver.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "kernels/random.h"

namespace spindrift {

namespace {

// Cycle count of a burst that repeats for ever: larger than any cycle index a loop of at most
// 3600 s can reach at a representable interval, small enough to convert to double exactly.
constexpr uint64_t kForeverCycles = uint64_t(1) << 53;
// Corrections applied to a cycle-index estimate; the estimate is off by at most one except where
// double precision can no longer tell neighbouring cycles apart.
constexpr int kCycleCorrections = 8;

double stepSeconds(const CompiledEffect& effect) {
    return static_cast<double>(effect.effect.fixed_timestep_s);
}

bool isLooping(const CompiledEffect& effect) {
    return (effect.effect.flags & kEffectFlagLooping) != 0;
}

double sanitizedScale(const DriverConfig& config) {
    const double scale = config.spawn_scale;
    return std::isfinite(scale) && scale > 0 ? scale : 0;
}

// Removes the whole births from a carry and returns them, clamped to kMaxPlannedBirthsPerStep.
// The fraction left stays in [0, 1).
uint64_t takeWholeBirths(double& carry) {
    const double whole = std::floor(carry);
    if (!(whole > 0)) return 0;
    carry -= whole;
    if (whole >= static_cast<double>(kMaxPlannedBirthsPerStep)) return kMaxPlannedBirthsPerStep;
    return static_cast<uint64_t>(whole);
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// The host's births for emitter e in step `step` (HostBurst), summed without overflow.
uint64_t hostBirths(const DriverConfig& config, uint64_t step, uint32_t e) {
    uint64_t births = 0;
    for (const HostBurst& burst : config.host_bursts) {
        if (burst.step_index == step && burst.emitter == e) births += burst.count;
        if (births >= kMaxPlannedBirthsPerStep) return kMaxPlannedBirthsPerStep;
    }
    return births;
}

// Seconds of the step [j dt, (j + 1) dt) (cycle-local) at or after the emitter's delay.
double activeSeconds(uint64_t cycle_step, double dt, double delay_s) {
    const double start = static_cast<double>(cycle_step) * dt;
    const double end = static_cast<double>(cycle_step + 1) * dt;
    if (start >= delay_s) return dt;
    if (end <= delay_s) return 0;
    return end - delay_s;
}

// One burst's timing in cycle-local steps. Cycle c happens at base_s + c * interval_s and fires
// in step floor(that / dt): the one definition both sides of every step boundary use, so each
// cycle belongs to exactly one step. Only cycles before the duration exist (see cycleLimit).
struct BurstTiming {
    double base_s;     // delay_s + time_s
    double interval_s; // > 0, or 0 for a single cycle
    double dt;
    uint64_t cycles; // authored cycles (kForeverCycles for "for ever"), then cut by cycleLimit

    double cycleTime(uint64_t c) const { return base_s + static_cast<double>(c) * interval_s; }
    double cycleStep(uint64_t c) const { return std::floor(cycleTime(c) / dt); }

    // The first cycle c in [0, cycles] for which later(c) holds, given that later is monotonic
    // in c; the estimate comes from inverting cycleTime. Both cycleTime and the floor are
    // monotonic in c, so every later() used below is too.
    template <typename Later> uint64_t firstCycle(double estimate, Later later) const {
        uint64_t c = 0;
        if (estimate >= static_cast<double>(cycles)) {
            c = cycles;
        } else if (estimate > 0) {
            c = static_cast<uint64_t>(estimate);
        }
        for (int i = 0; i < kCycleCorrections && c > 0 && later(c - 1); ++i) --c;
        for (int i = 0; i < kCycleCorrections && c < cycles && !later(c); ++i) ++c;
        return c;
    }

    // Cuts `cycles` to the cycles that happen before end_s (the effect's duration): a cycle at
    // or after the end of its loop never fires.
    void cycleLimit(double end_s) {
        if (interval_s <= 0) {
            cycles = base_s < end_s ? cycles : 0;
            return;
        }
        cycles = firstCycle(std::ceil((end_s - base_s) / interval_s),
                            [&](uint64_t c) { return cycleTime(c) >= end_s; });
    }

    // The first cycle whose step is after step m (m >= -1), or `cycles` when there is none.
    uint64_t firstCycleAfter(int64_t m) const {
        if (m < 0) return 0; // every cycle's step is >= 0
        const double last = static_cast<double>(m);
        if (interval_s <= 0) return cycleStep(0) > last ? 0 : cycles;
        return firstCycle(std::ceil((static_cast<double>(m + 1) * dt - base_s) / interval_s),
                          [&](uint64_t c) { return cycleStep(c) > last; });
    }
};

// Particles the cycles of one burst that fall in cycle-local step j produce, before spawn scale.
uint64_t burstBirths(const CompiledEffect& effect, uint32_t emitter, uint32_t burst_index,
                     uint64_t cycle_step, uint64_t loop_index, uint64_t& skipped_cycles) {
    const EmitterRecord& record = effect.emitters[emitter];
    const BurstRecord& burst = effect.bursts[record.burst_first + burst_index];
    BurstTiming timing;
    timing.base_s = static_cast<double>(record.delay_s) + static_cast<double>(burst.time_s);
    timing.dt = stepSeconds(effect);
    const bool single = burst.cycles == 1 || !(burst.interval_s > 0);
    timing.interval_s = single ? 0 : static_cast<double>(burst.interval_s);
    timing.cycles = single ? 1 : (burst.cycles == 0 ? kForeverCycles : burst.cycles);
    timing.cycleLimit(static_cast<double>(effect.effect.duration_s));

    const int64_t j = static_cast<int64_t>(cycle_step);
    const uint64_t first = timing.firstCycleAfter(j - 1);
    const uint64_t end = timing.firstCycleAfter(j);
    if (end <= first) return 0;
    const uint64_t examined = std::min(end - first, kMaxBurstCyclesPerStep);
    skipped_cycles = saturatingAdd(skipped_cycles, end - first - examined);

    uint64_t births = 0;
    for (uint64_t c = first; c < first + examined; ++c) {
        // Cycle and loop indices enter the key modulo 2^32 (the kernels hash 32-bit words).
        const uint key = sdBurstKey(effect.effect.seed, emitter, burst_index, static_cast<uint>(c),
                                    static_cast<uint>(loop_index));
        if (burst.probability < 1.0f &&
            !(sdRandom01(key, kBurstDrawProbability) < burst.probability)) {
            continue;
        }
        births += burst.count_max > burst.count_min
                      ? sdRandomCount(key, kBurstDrawCount, burst.count_min, burst.count_max)
                      : burst.count_min;
    }
    return births;
}

} // namespace

uint64_t stepsPerCycle(const CompiledEffect& effect) {
    const double steps =
        std::round(static_cast<double>(effect.effect.duration_s) / stepSeconds(effect));
    if (!(steps >= 1)) return 1;
    if (steps >= static_cast<double>(kForeverCycles)) return kForeverCycles;
    return static_cast<uint64_t>(steps);
}

DriverState makeDriverState(const CompiledEffect& effect) {
    DriverState state{};
    state.emitter_count =
        static_cast<uint32_t>(std::min<size_t>(effect.emitters.size(), kMaxEmitters));
    for (uint32_t e = 0; e < state.emitter_count; ++e) state.emitters[e].enabled = 1;
    return state;
}

void restartDriver(DriverState& state) {
    const uint32_t emitter_count = state.emitter_count;
    state = DriverState{};
    state.emitter_count = emitter_count;
    for (uint32_t e = 0; e < emitter_count; ++e) state.emitters[e].enabled = 1;
}

void continueClock(const DriverState& from, DriverState& to, std::span<const int32_t> old_emitter) {
    assert(old_emitter.size() == to.emitter_count);
    to.step_index = from.step_index;
    to.accumulator_s = from.accumulator_s;
    to.loop_index = from.loop_index;
    to.stats = from.stats;
    for (uint32_t e = 0; e < to.emitter_count; ++e) {
        if (old_emitter[e] < 0) continue;
        assert(static_cast<uint32_t>(old_emitter[e]) < from.emitter_count);
        to.emitters[e] = from.emitters[old_emitter[e]];
    }
}

uint32_t beginFrame(DriverState& state, const CompiledEffect& effect, double frame_dt_s,
                    const DriverConfig& config, FrameReport& report) {
    report = FrameReport{};
    if (!std::isfinite(frame_dt_s) || frame_dt_s < 0) {
        frame_dt_s = 0;
        report.frame_rejected = 1;
        state.stats.rejected_frames = saturatingAdd(state.stats.rejected_frames, 1);
    }
    if (state.finished != 0) return 0;

    const double dt = stepSeconds(effect);
    const double snap = dt * kStepSnapFraction;
    double accumulator = state.accumulator_s + frame_dt_s;
    // Capped at 2^53 steps so an absurd frame time still yields finite reports.
    const double whole = std::min(std::floor((accumulator + snap) / dt), 0x1p53);
    accumulator -= whole * dt;
    // Past 2^53 steps of backlog the subtraction above has no precision left; the remainder is
    // then meaningless and restarts at 0.
    if (!(accumulator >= -2 * snap && accumulator < dt)) accumulator = 0;
    state.accumulator_s = std::clamp(accumulator, -snap, dt);

    const uint32_t cap = std::max<uint32_t>(config.max_steps_per_frame, 1);
    if (!(whole > cap)) {
        report.steps = whole > 0 ? static_cast<uint32_t>(whole) : 0;
        return report.steps;
    }
    const double discarded = whole - cap;
    const auto discarded_steps = static_cast<uint64_t>(discarded);
    report.steps = cap;
    report.discarded_steps = static_cast<uint32_t>(std::min<uint64_t>(discarded_steps, UINT32_MAX));
    report.discarded_s = discarded * dt;
    state.stats.discarded_steps = saturatingAdd(state.stats.discarded_steps, discarded_steps);
    state.stats.discarded_s += report.discarded_s;
    return cap;
}

void planStep(DriverState& state, const CompiledEffect& effect, const DriverConfig& config,
              std::span<const float> emitter_travel_m, SpawnPlan& out) {
    assert(state.emitter_count <= effect.emitters.size() && "planStep: state of another effect");
    const double dt = stepSeconds(effect);
    const uint64_t cycle_steps = stepsPerCycle(effect);
    const uint64_t step = state.step_index;
    const bool looping = isLooping(effect);
    const uint64_t loop = looping ? step / cycle_steps : 0;
    const uint64_t cycle_step = step - loop * cycle_steps;
    const bool emitting = cycle_step < cycle_steps;
    const double scale = sanitizedScale(config);

    out.step_index = step;
    out.time_s = static_cast<double>(step) * dt;
    out.loop_index = loop;
    out.cycle_step = cycle_step;
    out.emitter_count = state.emitter_count;
    state.loop_index = loop;

    for (uint32_t e = 0; e < state.emitter_count; ++e) {
        EmitterClock& clock = state.emitters[e];
        EmitterSpawn& spawn = out.emitters[e];
        spawn = EmitterSpawn{};
        spawn.first_ordinal = clock.next_ordinal;
        clock.enabled = ((config.enabled_mask >> e) & 1u) != 0 ? 1 : 0;
        uint64_t births = hostBirths(config, step, e);
        if ((clock.enabled == 0 || !emitting) && births == 0) continue;

        const EmitterRecord& record = effect.emitters[e];
        const double active_s =
            clock.enabled != 0 && emitting ? activeSeconds(cycle_step, dt, record.delay_s) : 0.0;
        if (active_s > 0) {
            clock.spawn_carry += static_cast<double>(record.rate_per_s) * active_s * scale;
            births += takeWholeBirths(clock.spawn_carry);

            const float travel = e < emitter_travel_m.size() ? emitter_travel_m[e] : 0.0f;
            if (std::isfinite(travel) && travel > 0 && record.rate_per_m > 0) {
                // Only the part of the step after the delay counts (the host moves the emitter
                // at a steady speed within a step).
                clock.distance_carry += static_cast<double>(record.rate_per_m) *
                                        static_cast<double>(travel) * (active_s / dt) * scale;
                births += takeWholeBirths(clock.distance_carry);
            }
        }

        uint64_t burst_births = 0;
        for (uint32_t b = 0; clock.enabled != 0 && emitting && b < record.burst_count; ++b) {
            burst_births +=
                burstBirths(effect, e, b, cycle_step, loop, state.stats.skipped_burst_cycles);
        }
        if (burst_births > 0) {
            clock.burst_carry += static_cast<double>(burst_births) * scale;
            births += takeWholeBirths(clock.burst_carry);
        }

        births = std::min(births, kMaxPlannedBirthsPerStep);
        const uint64_t born = std::min<uint64_t>(births, record.capacity);
        spawn.count = static_cast<uint32_t>(born);
        spawn.dropped = births - born;
        clock.next_ordinal += births;
        state.stats.dropped_births = saturatingAdd(state.stats.dropped_births, spawn.dropped);
    }
    state.step_index = step + 1;
}

uint64_t takeOrdinals(DriverState& state, uint32_t emitter, uint64_t count) {
    assert(emitter < state.emitter_count && "takeOrdinals: emitter index out of range");
    if (emitter >= state.emitter_count) return 0;
    const uint64_t first = state.emitters[emitter].next_ordinal;
    state.emitters[emitter].next_ordinal = first + count;
    return first;
}

double stepsInTime(double time_s, float fixed_timestep_s) {
    const double steps = time_s / static_cast<double>(fixed_timestep_s);
    // Below 2^52 rounding is exact enough to matter; above it every double is a whole number.
    return std::fabs(steps) < 0x1p52 ? std::round(steps) : steps;
}

bool boundedStepsInTime(double time_s, float fixed_timestep_s, uint64_t& steps) {
    if (!(fixed_timestep_s > 0)) return false;
    const double count = stepsInTime(time_s, fixed_timestep_s);
    if (!(count >= 0 && count <= static_cast<double>(kMaxSimulatedSteps))) return false;
    steps = static_cast<uint64_t>(count);
    return true;
}

double stepTime(const DriverState& state, const CompiledEffect& effect) {
    return static_cast<double>(state.step_index) * stepSeconds(effect);
}

bool effectFinished(const DriverState& state, const CompiledEffect& effect, uint64_t live_count) {
    return !isLooping(effect) && state.step_index >= stepsPerCycle(effect) && live_count == 0;
}

bool updateFinished(DriverState& state, const CompiledEffect& effect, uint64_t live_count) {
    if (state.finished == 0 && effectFinished(state, effect, live_count)) state.finished = 1;
    return state.finished != 0;
}

} // namespace spindrift
