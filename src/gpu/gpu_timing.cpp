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
    info.queryCount = 2 * kGpuTimedStepsMax;
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

void stampUpdateBegin(GpuStepTimer* timer, VkCommandBuffer cmd) {
    if (timer == nullptr || timer->steps >= kGpuTimedStepsMax) return;
    // Each pair is reset just before it is written, so a submission needs no separate reset.
    vkCmdResetQueryPool(cmd, timer->queries.get(), 2 * timer->steps, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timer->queries.get(),
                         2 * timer->steps);
}

void stampUpdateEnd(GpuStepTimer* timer, VkCommandBuffer cmd) {
    if (timer == nullptr || timer->steps >= kGpuTimedStepsMax) return;
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timer->queries.get(),
                         2 * timer->steps + 1);
    timer->steps += 1;
}

bool takeUpdateTimes(const vk::Device& device, GpuStepTimer& timer, std::vector<double>& ms,
                     std::vector<Diagnostic>& diagnostics) {
    ms.clear();
    const uint32_t steps = timer.steps;
    timer.steps = 0;
    if (steps == 0) return true;
    std::vector<uint64_t> stamps(2 * size_t{steps});
    if (!vk::check(vkGetQueryPoolResults(device.handle(), timer.queries.get(), 0, 2 * steps,
                                         stamps.size() * sizeof(uint64_t), stamps.data(),
                                         sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics)) {
        return false;
    }
    for (uint32_t s = 0; s < steps; ++s) {
        ms.push_back(static_cast<double>(stamps[2 * s + 1] - stamps[2 * s]) * timer.period_ms);
    }
    return true;
}

} // namespace spindrift::gpu
