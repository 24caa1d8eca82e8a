#include "gpu/live_bound.h"

#include <algorithm>
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

void clearLiveWindow(LiveWindow& window) {
    std::fill(window.buckets.begin(), window.buckets.end(), 0);
    window.sum = 0;
    window.steps_in_bucket = 0;
    window.current = 0;
}

} // namespace spindrift::gpu
