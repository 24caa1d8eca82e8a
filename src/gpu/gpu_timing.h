// Device timestamps around the update(+compaction) pass of each step: the hook the GPU
// simulation benchmark (bench/gpu/gpu_sim_bench.cpp) times the pass with. Off unless a host sets
// GpuEffect::step_timer; then recordStep stamps before the first and after the last update
// dispatch of each step (ALL_COMMANDS stamps: the begin waits for the counters pass before it,
// the end for every update dispatch). Costs nothing when unset: two null checks per step.
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

struct GpuStepTimer {
    vk::OwnedQueryPool queries; // 4 per step: update begin, end; slot order begin, end
    double period_ms = 0;       // one timestamp tick
    uint32_t steps = 0;         // steps stamped since the last takeUpdateTimes
};

// nullptr with an error when the device's queue writes no timestamps.
std::unique_ptr<GpuStepTimer> createGpuStepTimer(const vk::Device& device,
                                                 std::vector<Diagnostic>& diagnostics);

// Called by recordStep around the update dispatches, then around the alive lists' slot sorts
// (alive_list_order.h; an empty interval when none sorts); a null timer records nothing.
void stampUpdateBegin(GpuStepTimer* timer, VkCommandBuffer cmd);
void stampUpdateEnd(GpuStepTimer* timer, VkCommandBuffer cmd);
void stampOrderBegin(GpuStepTimer* timer, VkCommandBuffer cmd);
void stampOrderEnd(GpuStepTimer* timer, VkCommandBuffer cmd);

// After the submission's fence: the device time of each stamped step's update pass and of its
// slot sorts, in ms (in step order), and the timer ready for the next submission. False with an
// error on failure.
bool takeUpdateTimes(const vk::Device& device, GpuStepTimer& timer, std::vector<double>& ms,
                     std::vector<double>& order_ms, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::gpu
