// A stage clock for per-stage step timing, below both backends: the CPU step's stages
// (cpu/step_timing.h) and the host's planning of a GPU step (gpu/gpu_stage_timing.h) read the
// same clock the same way. It reads the clock only when timing is on.
#pragma once

#include <chrono>
#include <cstdint>

namespace spindrift {

// A monotonic clock in nanoseconds; read only where timing is on.
inline uint64_t timingNowNs() {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
}

// A stage's clock: reads the clock at construction and at lap() only when timing is on, and adds
// the time since the previous lap to the stage named at each lap.
struct StageClock {
    bool on = false;
    uint64_t last_ns = 0;
    explicit StageClock(bool timed) : on(timed), last_ns(timed ? timingNowNs() : 0) {}
    void lap(uint64_t& stage_ns) {
        if (!on) return;
        const uint64_t now = timingNowNs();
        stage_ns += now - last_ns;
        last_ns = now;
    }
};

} // namespace spindrift
