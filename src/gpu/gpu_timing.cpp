#include "gpu/gpu_timing.h"

#include <string>

#include "vulkan/vk_error.h"

namespace spindrift::gpu {

std::unique_ptr<GpuStepTimer> createGpuStepTimer(const vk::Device& device,
                                                 std::vector<Diagnostic>& diagnostics) {
    if (!device.support().timestamps) {
        diagnostics.push_back(
            {Severity::error, "", 0, 0, 0, "", "the device's compute queue writes no timestamps"});
        return nullptr;
    }
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 4 * kGpuTimedStepsMax;
    VkQueryPool pool = VK_NULL_HANDLE;
    if (!vk::check(vkCreateQueryPool(device.handle(), &info, nullptr, &pool), "vkCreateQueryPool",
                   diagnostics)) {
        return nullptr;
    }
    auto timer = std::make_unique<GpuStepTimer>();
    timer->queries = vk::OwnedQueryPool(device.handle(), pool);
    timer->period_ms = static_cast<double>(device.support().timestamp_period_ns) * 1e-6;
    return timer;
}

namespace {

// Writes the step's stamp k (0 update begin, 1 update end, 2 order begin, 3 order end).
void stamp(GpuStepTimer* timer, VkCommandBuffer cmd, uint32_t k) {
    if (timer == nullptr || timer->steps >= kGpuTimedStepsMax) return;
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timer->queries.get(),
                         4 * timer->steps + k);
}

} // namespace

void stampUpdateBegin(GpuStepTimer* timer, VkCommandBuffer cmd) {
    if (timer == nullptr || timer->steps >= kGpuTimedStepsMax) return;
    // Each pair is reset just before it is written, so a submission needs no separate reset.
    vkCmdResetQueryPool(cmd, timer->queries.get(), 4 * timer->steps, 4);
    stamp(timer, cmd, 0);
}

void stampUpdateEnd(GpuStepTimer* timer, VkCommandBuffer cmd) {
    stamp(timer, cmd, 1);
}

void stampOrderBegin(GpuStepTimer* timer, VkCommandBuffer cmd) {
    stamp(timer, cmd, 2);
}

void stampOrderEnd(GpuStepTimer* timer, VkCommandBuffer cmd) {
    stamp(timer, cmd, 3);
    if (timer != nullptr && timer->steps < kGpuTimedStepsMax) timer->steps += 1;
}

bool takeUpdateTimes(const vk::Device& device, GpuStepTimer& timer, std::vector<double>& ms,
                     std::vector<double>& order_ms, std::vector<Diagnostic>& diagnostics) {
    ms.clear();
    order_ms.clear();
    const uint32_t steps = timer.steps;
    timer.steps = 0;
    if (steps == 0) return true;
    std::vector<uint64_t> stamps(4 * size_t{steps});
    if (!vk::check(vkGetQueryPoolResults(device.handle(), timer.queries.get(), 0, 4 * steps,
                                         stamps.size() * sizeof(uint64_t), stamps.data(),
                                         sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics)) {
        return false;
    }
    for (uint32_t s = 0; s < steps; ++s) {
        ms.push_back(static_cast<double>(stamps[4 * s + 1] - stamps[4 * s]) * timer.period_ms);
        order_ms.push_back(static_cast<double>(stamps[4 * s + 3] - stamps[4 * s + 2]) *
                           timer.period_ms);
    }
    return true;
}

} // namespace spindrift::gpu
