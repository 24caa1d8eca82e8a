// Per-stage timing of a GPU instance's steps for a host (World::setStepTiming, StepTimes): what
// the editor's statistics show for an effect on the GPU backend.
//
// The device stamps are gpu_timing.h's (the benchmarks' timer), one GpuStepTimer per entry of
// the instance's command ring: a submission still in flight (GpuConfig::async_statistics) keeps
// its stamps while the next one writes its own. Its times are added to the sums when its fence
// has passed, where its statistics are taken (once per submission), so a host never waits for a
// stamp: with asynchronous statistics the sums lag the steps by a frame or two, and
// `pending_submissions` says how many stamped submissions are not in yet. The plan of each step
// (birth plan, uniforms, step slot) runs on the host and is timed with the host's clock.
// Timing changes no result: the stamps only read the clock between passes that are ordered
// anyway. Off (the default) it costs one null test per step and submission.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/gpu_timing.h"
#include "spindrift/diagnostic.h"

namespace spindrift::gpu {

struct GpuEffect;

// Summed since the host last took them (takeGpuStageSums zeroes them).
struct GpuStageSums {
    uint64_t steps = 0;         // steps whose stamps are in the sums
    uint64_t steps_untimed = 0; // steps past a submission's kGpuTimedStepsMax stamped ones
    double plan_ms = 0;         // host clock: birth plan, uniforms and the step slot
    double step_ms = 0;         // device: the update's first dispatch to the slot sorts' end
    double update_ms = 0;       // update + collision + compaction (one pass on the device)
    double events_ms = 0;       // the sub-emitter event gather (deaths and collisions)
    double births_ms = 0;       // planned births, the counters and the event births
    double order_ms = 0;        // the alive lists' slot sorts
    uint64_t outputs = 0;       // draw outputs whose stamps are in the sums
    double draw_ms = 0;         // device: the draw-record pass, the draw sorts and the strips
};

struct GpuStageTiming {
    std::vector<std::unique_ptr<GpuStepTimer>> per_entry; // one per command-ring entry
    std::vector<bool> in_flight;                          // per entry: stamps not taken yet
    std::vector<uint32_t> recorded_steps; // per entry: steps with dispatches (stamped or not)
    uint32_t current = 0;                 // the entry of the submission being recorded
    GpuStageSums sums;
};

// Turns the instance's stage timing on (timers made once) or off (timers dropped); either way
// the sums start at zero. False with an error when the device writes no timestamps (the
// instance stays untimed).
bool setGpuStageTiming(GpuEffect& fx, bool on, std::vector<Diagnostic>& diagnostics);
bool gpuStageTiming(const GpuEffect& fx);

// The sums since the last take, then zeroed, with every submission found finished (polled, not
// waited for) added first; `pending` gets the stamped submissions still in flight (their times
// come with a later take).
GpuStageSums takeGpuStageSums(GpuEffect& fx, uint32_t& pending);

// The command-ring hooks (gpu_effect.cpp): a submission begins on `entry` (its stamps go to
// that entry's timer), it reached the queue (its stamps will be written), a submission on
// `entry` has finished (its stamps are added, once; the caller knows its fence passed), the host
// planned one step in `plan_ns` (dispatched: the step records passes, so it is stamped unless
// past the submission's kGpuTimedStepsMax).
void beginStageEntry(GpuEffect& fx, uint32_t entry);
void submittedStageEntry(GpuEffect& fx, uint32_t entry);
void takeStageEntry(GpuEffect& fx, uint32_t entry);
void addStagePlan(GpuEffect& fx, uint64_t plan_ns, bool dispatched);
// Adds the times of every stamped submission whose fence has passed, without waiting.
void pollStageTimes(GpuEffect& fx);

} // namespace spindrift::gpu
