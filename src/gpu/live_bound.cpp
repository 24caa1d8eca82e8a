#include "gpu/live_bound.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/birth.h"

namespace spindrift::gpu {

LiveWindow makeLiveWindow(const EmitterRecord& emitter, float dt) {
    // The lifetime range may be mirrored (min > max); births clamp it below by kMinLifetimeS.
    const double longest = std::max(
        {double{emitter.lifetime_min_s}, double{emitter.lifetime_max_s}, double{kMinLifetimeS}});
    const double steps = std::ceil(longest / std::max(double{dt}, 1e-9)) + 2.0;
    const uint64_t window_steps = steps < 1e15 ? static_cast<uint64_t>(steps) : uint64_t(1) << 50;
    LiveWindow w;
    w.steps_per_bucket = (window_steps + kLiveWindowBuckets - 1) / kLiveWindowBuckets;
    // A bucket is retired when the cursor comes back to it, after (buckets - 1) full buckets:
    // at least window_steps steps after its last birth.
    const uint64_t buckets = (window_steps + w.steps_per_bucket - 1) / w.steps_per_bucket + 1;
    w.buckets.assign(buckets, 0);
    w.capacity = emitter.capacity;
    return w;
}

void beginLiveWindowStep(LiveWindow& window) {
    if (window.steps_in_bucket < window.steps_per_bucket) return;
    window.current = static_cast<uint32_t>((window.current + 1) % window.buckets.size());
    window.sum -= window.buckets[window.current];
    window.buckets[window.current] = 0;
    window.steps_in_bucket = 0;
}

uint32_t liveBound(const LiveWindow& window) {
    return static_cast<uint32_t>(std::min<uint64_t>(window.sum, window.capacity));
}

void addLiveWindowBirths(LiveWindow& window, uint32_t births) {
    window.buckets[window.current] += births;
    window.sum += births;
    ++window.steps_in_bucket;
}

void continueLiveWindow(const LiveWindow& old, LiveWindow& fresh) {
    // A bucket is kept (buckets - 1) full buckets after its last birth (makeLiveWindow).
    auto kept = [](const LiveWindow& w) { return (w.buckets.size() - 1) * w.steps_per_bucket; };
    if (kept(old) >= kept(fresh)) {
        fresh = old;
        return;
    }
    fresh.buckets[fresh.current] += old.sum;
    fresh.sum += old.sum;
}

namespace {

uint64_t saturatingMul(uint64_t a, uint64_t b) {
    if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
    return a * b;
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

uint64_t collisionOps(const CompiledEffect& effect, const EmitterRecord& e) {
    uint64_t n = 0;
    for (uint32_t k = 0; k < e.op_count; ++k) n += effect.ops[e.op_first + k].op == kOpCollision;
    return n;
}

} // namespace

uint64_t boundEventBirths(const CompiledEffect& effect, std::span<const LiveWindow> windows,
                          const SpawnPlan& plan, std::span<uint64_t> event_births) {
    const auto emitters = static_cast<uint32_t>(effect.emitters.size());
    constexpr uint64_t kMaxEvents = 1u << 16; // cpu::kMaxEventsPerStep, kGpuMaxEvents
    uint64_t events = 0;
    std::fill(event_births.begin(), event_births.end(), 0);
    // Links form no cycle (validateEffect), so after `emitters` rounds every chain has settled.
    for (uint32_t round = 0; round <= emitters; ++round) {
        events = 0;
        std::array<uint64_t, kMaxEmitters> births{}; // no allocation while stepping
        for (uint32_t p = 0; p < emitters; ++p) {
            const EmitterRecord& parent = effect.emitters[p];
            const uint64_t live = liveBound(windows[p]);
            for (uint32_t l = 0; l < parent.sub_emitter_count; ++l) {
                const SubEmitterRecord& sub = effect.sub_emitters[parent.sub_emitter_first + l];
                uint64_t link_events = live;
                if (sub.event == kEventCollision) {
                    link_events = saturatingMul(live, collisionOps(effect, parent));
                } else if (sub.event == kEventBirth) {
                    link_events = saturatingAdd(plan.emitters[p].count, event_births[p]);
                }
                link_events = std::min(link_events, kMaxEvents);
                events = saturatingAdd(events, link_events);
                const uint64_t per_event =
                    std::min<uint64_t>(sub.count_max, effect.emitters[sub.emitter].capacity);
                births[sub.emitter] =
                    saturatingAdd(births[sub.emitter], saturatingMul(link_events, per_event));
            }
        }
        const bool settled = std::equal(event_births.begin(), event_births.end(), births.begin());
        std::copy(births.begin(), births.begin() + emitters, event_births.begin());
        if (settled) break;
    }
    return std::min(events, kMaxEvents);
}

void clearLiveWindow(LiveWindow& window) {
    std::fill(window.buckets.begin(), window.buckets.end(), 0);
    window.sum = 0;
    window.steps_in_bucket = 0;
    window.current = 0;
}

} // namespace spindrift::gpu
