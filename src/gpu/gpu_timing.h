// Device timestamps around the update(+compaction) pass of each step: the hook the GPU
// simulation benchmark (bench/gpu/gpu_sim_bench.cpp) times the pass with. Off unless a host sets
// GpuEffect::step_timer; then recordStep stamps before the first and after the last update
// dispatch of each step (ALL_COMMANDS stamps: the begin waits for the counters pass before it,
// the end for every update dispatch), around the slot sorts, and the sub-emitter passes
// (sub_emitters.h) around the event gather and around the event births, so the sub-emitter
// benchmark (bench/gpu/gpu_sub_emitter_bench.cpp) can set the events against the whole step.
// submitDrawOutput stamps its own submission (the draw-record pass, the draw sorts, the strip
// pass) into queries after the steps', so the strip benchmark (bench/gpu/gpu_strip_bench.cpp) can
// set the strip pass against the step that fed it. Costs nothing when unset: a few null checks
// per step.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::gpu {

// Steps one submission can time; later steps of the same submission are not stamped.
inline constexpr uint32_t kGpuTimedStepsMax = 64;

// The stamps of one step, in the order they are written.
enum class GpuStamp : uint32_t {
    update_begin = 0,
    update_end = 1,
    event_gather_begin = 2, // empty intervals when the step records no event pass
    event_gather_end = 3,
    event_births_begin = 4,
    event_births_end = 5,
    order_begin = 6,
    order_end = 7,
};
inline constexpr uint32_t kGpuStampsPerStep = 8;

// The stamps of one submitDrawOutput, in the order they are written (after the steps' queries).
enum class GpuOutputStamp : uint32_t {
    draw_begin = 0, // before the draw-record pass
    draw_end = 1,   // after it, before the draw sorts (an empty interval to strips_begin without)
    strips_begin = 2,
    strips_end = 3, // after the strip pass (an empty interval without device strips)
};
inline constexpr uint32_t kGpuOutputStamps = 4;

struct GpuStepTimer {
    // kGpuStampsPerStep per step (GpuStamp), then kGpuOutputStamps (GpuOutputStamp).
    vk::OwnedQueryPool queries;
    double period_ms = 0;        // one timestamp tick
    uint32_t steps = 0;          // steps stamped since the last takeUpdateTimes
    bool output_stamped = false; // a submitDrawOutput stamped since the last takeOutputTimes
};

// nullptr with an error when the device's queue writes no timestamps.
std::unique_ptr<GpuStepTimer> createGpuStepTimer(const vk::Device& device,
                                                 std::vector<Diagnostic>& diagnostics);

// Called by recordStep around the update dispatches and the ordered compaction (ordered_list.h),
// then around the alive lists' slot sorts (alive_list_order.h; an empty interval when none
// sorts); a null timer records nothing.
void stampUpdateBegin(GpuStepTimer* timer, VkCommandBuffer cmd);
void stampUpdateEnd(GpuStepTimer* timer, VkCommandBuffer cmd);
void stampOrderBegin(GpuStepTimer* timer, VkCommandBuffer cmd);
void stampOrderEnd(GpuStepTimer* timer, VkCommandBuffer cmd);
// Called by the sub-emitter passes (sub_emitters.cpp) with the event_* stamps, every step (also
// when no event pass is recorded, so every query is written).
void stampEvents(GpuStepTimer* timer, VkCommandBuffer cmd, GpuStamp which);

// Called by submitDrawOutput with each GpuOutputStamp in order (draw_begin first: it resets the
// output queries); a null timer records nothing.
void stampOutput(GpuStepTimer* timer, VkCommandBuffer cmd, GpuOutputStamp which);

// The device times of one submission's stamped steps, in ms, in step order.
struct GpuStepTimes {
    std::vector<double> update_ms; // the update(+compaction) dispatches
    std::vector<double> order_ms;  // the alive lists' slot sorts
    std::vector<double> gather_ms; // the sub-emitter event gather
    std::vector<double> spawn_ms;  // the planned births and the counters, between the two
    std::vector<double> births_ms; // the sub-emitter event births (assignment and spawn)
    std::vector<double> step_ms;   // from before the update to after the slot sorts
};

// After the submission's fence: every stamped step's times, and the timer ready for the next
// submission. False with an error on failure.
bool takeStepTimes(const vk::Device& device, GpuStepTimer& timer, GpuStepTimes& times,
                   std::vector<Diagnostic>& diagnostics);

// takeStepTimes' update and slot-sort times only.
bool takeUpdateTimes(const vk::Device& device, GpuStepTimer& timer, std::vector<double>& ms,
                     std::vector<double>& order_ms, std::vector<Diagnostic>& diagnostics);

// The device times of the last stamped submitDrawOutput, in ms.
struct GpuOutputTimes {
    double draw_ms = 0;   // the draw-record pass
    double sorts_ms = 0;  // the draw sorts (keys and radix sort of the sorting emitters)
    double strips_ms = 0; // the strip pass (ribbon_strips.h, recordDeviceStrips)
};

// After that submission's fence: its times, and the timer ready for the next one. False with an
// error when no submitDrawOutput was stamped since the last call, or on failure.
bool takeOutputTimes(const vk::Device& device, GpuStepTimer& timer, GpuOutputTimes& times,
                     std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::gpu
