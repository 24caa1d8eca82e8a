// The conservative live bound that sizes the GPU update dispatch (docs/gpu-backend.md): kept on
// the CPU from the driver's births alone, never read back. A particle born in step s with
// lifetime L is gone after at most ceil(L / dt) more steps (contact only shortens a life, kills
// end it sooner), so the live count entering a step is at most the births of the last
// W = ceil(L_max / dt) + 2 steps (2 steps of margin for float rounding of ages). Births are
// summed in at most kLiveWindowBuckets buckets of whole steps, so a long-lived emitter costs a
// fixed, small ring; a bucket is forgotten only once all its births are certainly dead. When
// births stop, the bound reaches 0 after W steps and the emitter dispatches nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/compiled_effect.h"
#include "driver/driver.h"

namespace spindrift::gpu {

inline constexpr uint32_t kLiveWindowBuckets = 256;

struct LiveWindow {
    std::vector<uint64_t> buckets; // births per bucket
    uint64_t steps_per_bucket = 1;
    uint64_t steps_in_bucket = 0; // steps recorded in the current bucket
    uint32_t current = 0;
    uint64_t sum = 0; // births in every bucket
    uint32_t capacity = 0;
};

// The window for the emitter (its largest possible lifetime, the effect's fixed step).
LiveWindow makeLiveWindow(const EmitterRecord& emitter, float dt);

// Call at the start of every step, before liveBound: retires the oldest bucket when the current
// one is full.
void beginLiveWindowStep(LiveWindow& window);
// The bound on the live count now: min(capacity, births still in the window).
uint32_t liveBound(const LiveWindow& window);
// After the step's births: adds them.
void addLiveWindowBirths(LiveWindow& window, uint32_t births);
// Back to no births (restart).
void clearLiveWindow(LiveWindow& window);

// Hot reload (state_carry.h): `fresh`, the window of a new version's emitter, takes over the
// births `old` still counts, staying conservative for the particles alive now (old lifetimes) and
// those to come (new ones). When old keeps a bucket at least as long as fresh would, fresh becomes
// old (an old particle is forgotten no earlier than before; a new one, no earlier than its new
// lifetime needs). Otherwise all of old's births go into fresh's current bucket, forgotten a full
// fresh window from now: later than any old particle can live. Both for the same capacity.
void continueLiveWindow(const LiveWindow& old, LiveWindow& fresh);

// Sub-emitter children (docs/gpu-backend.md, "Sub-emitters"): a conservative bound on this
// step's events and event births, from the CPU's live bounds and plan alone. Per link, events
// are at most the parent's live bound (death), its live bound times its collision ops (a
// particle touches each at most once: collision), or its planned births plus its own event
// births (birth: chains); at most kMaxEventsPerStep in all. Each event gives at most
// min(count_max, child capacity) births. windows[e] must have begun the step.
// event_births[e] receives emitter e's bound (births, not yet clamped to its capacity: each
// birth of a chain child fires its own birth events even when a later one replaces it); the
// return value is the bound on the step's events (0: no event can happen).
uint64_t boundEventBirths(const CompiledEffect& effect, std::span<const LiveWindow> windows,
                          const SpawnPlan& plan, std::span<uint64_t> event_births);

} // namespace spindrift::gpu
