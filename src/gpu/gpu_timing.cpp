#include "gpu/gpu_timing.h"

#include <string>
#include <utility>

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
    info.queryCount = kGpuStampsPerStep * kGpuTimedStepsMax + kGpuOutputStamps;
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

// Writes the current step's stamp `which`.
void stamp(GpuStepTimer* timer, VkCommandBuffer cmd, GpuStamp which) {
    if (timer == nullptr || timer->steps >= kGpuTimedStepsMax) return;
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timer->queries.get(),
                         kGpuStampsPerStep * timer->steps + static_cast<uint32_t>(which));
}

// The first output query, after every step's.
constexpr uint32_t kGpuOutputBase = kGpuStampsPerStep * kGpuTimedStepsMax;

double interval(const std::vector<uint64_t>& stamps, uint32_t step, GpuStamp begin, GpuStamp end,
                double period_ms) {
    const size_t base = size_t{kGpuStampsPerStep} * step;
    return static_cast<double>(stamps[base + static_cast<uint32_t>(end)] -
                               stamps[base + static_cast<uint32_t>(begin)]) *
           period_ms;
}

} // namespace

void stampUpdateBegin(GpuStepTimer* timer, VkCommandBuffer cmd) {
    if (timer == nullptr || timer->steps >= kGpuTimedStepsMax) return;
    // Each pair is reset just before it is written, so a submission needs no separate reset.
    vkCmdResetQueryPool(cmd, timer->queries.get(), kGpuStampsPerStep * timer->steps,
                        kGpuStampsPerStep);
    stamp(timer, cmd, GpuStamp::update_begin);
}

void stampUpdateEnd(GpuStepTimer* timer, VkCommandBuffer cmd) {
    stamp(timer, cmd, GpuStamp::update_end);
}

void stampOrderBegin(GpuStepTimer* timer, VkCommandBuffer cmd) {
    stamp(timer, cmd, GpuStamp::order_begin);
}

void stampOrderEnd(GpuStepTimer* timer, VkCommandBuffer cmd) {
    stamp(timer, cmd, GpuStamp::order_end);
    if (timer != nullptr && timer->steps < kGpuTimedStepsMax) timer->steps += 1;
}

void stampEvents(GpuStepTimer* timer, VkCommandBuffer cmd, GpuStamp which) {
    stamp(timer, cmd, which);
}

void stampOutput(GpuStepTimer* timer, VkCommandBuffer cmd, GpuOutputStamp which) {
    if (timer == nullptr) return;
    const auto index = static_cast<uint32_t>(which);
    if (which == GpuOutputStamp::draw_begin) {
        vkCmdResetQueryPool(cmd, timer->queries.get(), kGpuOutputBase, kGpuOutputStamps);
    }
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timer->queries.get(),
                         kGpuOutputBase + index);
    if (which == GpuOutputStamp::strips_end) timer->output_stamped = true;
}

bool takeOutputTimes(const vk::Device& device, GpuStepTimer& timer, GpuOutputTimes& times,
                     std::vector<Diagnostic>& diagnostics) {
    times = GpuOutputTimes{};
    if (!timer.output_stamped) {
        diagnostics.push_back(
            {Severity::error, "", 0, 0, 0, "", "no draw output stamped since the last times"});
        return false;
    }
    timer.output_stamped = false;
    uint64_t s[kGpuOutputStamps] = {};
    if (!vk::check(vkGetQueryPoolResults(device.handle(), timer.queries.get(), kGpuOutputBase,
                                         kGpuOutputStamps, sizeof s, s, sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics)) {
        return false;
    }
    const auto ms = [&](GpuOutputStamp begin, GpuOutputStamp end) {
        return static_cast<double>(s[static_cast<uint32_t>(end)] -
                                   s[static_cast<uint32_t>(begin)]) *
               timer.period_ms;
    };
    times.draw_ms = ms(GpuOutputStamp::draw_begin, GpuOutputStamp::draw_end);
    times.sorts_ms = ms(GpuOutputStamp::draw_end, GpuOutputStamp::strips_begin);
    times.strips_ms = ms(GpuOutputStamp::strips_begin, GpuOutputStamp::strips_end);
    return true;
}

bool takeStepTimes(const vk::Device& device, GpuStepTimer& timer, GpuStepTimes& times,
                   std::vector<Diagnostic>& diagnostics) {
    times = GpuStepTimes{};
    const uint32_t steps = timer.steps;
    timer.steps = 0;
    if (steps == 0) return true;
    std::vector<uint64_t> stamps(size_t{kGpuStampsPerStep} * steps);
    if (!vk::check(vkGetQueryPoolResults(
                       device.handle(), timer.queries.get(), 0, kGpuStampsPerStep * steps,
                       stamps.size() * sizeof(uint64_t), stamps.data(), sizeof(uint64_t),
                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics)) {
        return false;
    }
    const double p = timer.period_ms;
    for (uint32_t s = 0; s < steps; ++s) {
        times.update_ms.push_back(
            interval(stamps, s, GpuStamp::update_begin, GpuStamp::update_end, p));
        times.order_ms.push_back(
            interval(stamps, s, GpuStamp::order_begin, GpuStamp::order_end, p));
        times.gather_ms.push_back(
            interval(stamps, s, GpuStamp::event_gather_begin, GpuStamp::event_gather_end, p));
        times.spawn_ms.push_back(
            interval(stamps, s, GpuStamp::event_gather_end, GpuStamp::event_births_begin, p));
        times.births_ms.push_back(
            interval(stamps, s, GpuStamp::event_births_begin, GpuStamp::event_births_end, p));
        times.step_ms.push_back(
            interval(stamps, s, GpuStamp::update_begin, GpuStamp::order_end, p));
    }
    return true;
}

bool takeUpdateTimes(const vk::Device& device, GpuStepTimer& timer, std::vector<double>& ms,
                     std::vector<double>& order_ms, std::vector<Diagnostic>& diagnostics) {
    GpuStepTimes times;
    if (!takeStepTimes(device, timer, times, diagnostics)) return false;
    ms = std::move(times.update_ms);
    order_ms = std::move(times.order_ms);
    return true;
}

} // namespace spindrift::gpu
