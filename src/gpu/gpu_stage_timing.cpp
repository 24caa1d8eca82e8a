#include "gpu/gpu_stage_timing.h"

#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

namespace {

double sum(const std::vector<double>& values) {
    double total = 0;
    for (double v : values) total += v;
    return total;
}

} // namespace

bool setGpuStageTiming(GpuEffect& fx, bool on, std::vector<Diagnostic>& diagnostics) {
    if (!on) {
        // The ring may still run stamped submissions; their stamps are dropped with the timers
        // only once nothing writes them.
        if (fx.stage_timing && fx.gpu && fx.gpu->runner) (void)fx.gpu->runner->waitAll(diagnostics);
        if (fx.stage_timing) fx.step_timer = nullptr;
        fx.stage_timing.reset();
        return true;
    }
    if (fx.stage_timing) {
        fx.stage_timing->sums = {};
        return true;
    }
    if (!fx.gpu || !fx.gpu->runner) return false;
    auto timing = std::make_unique<GpuStageTiming>();
    const uint32_t entries = fx.gpu->runner->entries();
    for (uint32_t e = 0; e < entries; ++e) {
        std::unique_ptr<GpuStepTimer> timer = createGpuStepTimer(*fx.gpu->device, diagnostics);
        if (!timer) return false;
        timing->per_entry.push_back(std::move(timer));
    }
    timing->in_flight.assign(entries, false);
    timing->recorded_steps.assign(entries, 0);
    fx.stage_timing = std::move(timing);
    return true;
}

bool gpuStageTiming(const GpuEffect& fx) {
    return fx.stage_timing != nullptr;
}

GpuStageSums takeGpuStageSums(GpuEffect& fx, uint32_t& pending) {
    pending = 0;
    if (!fx.stage_timing) return {};
    pollStageTimes(fx);
    for (bool flying : fx.stage_timing->in_flight) pending += flying ? 1 : 0;
    const GpuStageSums sums = fx.stage_timing->sums;
    fx.stage_timing->sums = {};
    return sums;
}

void beginStageEntry(GpuEffect& fx, uint32_t entry) {
    if (!fx.stage_timing) return;
    GpuStageTiming& t = *fx.stage_timing;
    GpuStepTimer& timer = *t.per_entry[entry];
    timer.steps = 0;
    timer.output_stamped = false;
    t.current = entry;
    t.recorded_steps[entry] = 0;
    fx.step_timer = &timer;
}

void submittedStageEntry(GpuEffect& fx, uint32_t entry) {
    if (fx.stage_timing) fx.stage_timing->in_flight[entry] = true;
}

void pollStageTimes(GpuEffect& fx) {
    if (!fx.stage_timing || !fx.gpu || !fx.gpu->runner) return;
    std::vector<Diagnostic> ignored; // a failed poll leaves the times for a later take
    for (uint32_t e = 0; e < fx.stage_timing->in_flight.size(); ++e) {
        if (fx.stage_timing->in_flight[e] && fx.gpu->runner->poll(e, ignored)) {
            takeStageEntry(fx, e);
        }
    }
}

void takeStageEntry(GpuEffect& fx, uint32_t entry) {
    // Only a submission that reached the queue (submittedStageEntry) wrote its stamps.
    if (!fx.stage_timing || !fx.stage_timing->in_flight[entry]) return;
    GpuStageTiming& t = *fx.stage_timing;
    t.in_flight[entry] = false;
    GpuStepTimer& timer = *t.per_entry[entry];
    GpuStageSums& s = t.sums;
    s.steps_untimed += t.recorded_steps[entry] - timer.steps;
    // The fence has passed: the queries are written and nothing waits. A failure to read them
    // (device lost) leaves these sums out; the next step reports the loss.
    std::vector<Diagnostic> ignored;
    if (timer.output_stamped) {
        GpuOutputTimes output;
        if (takeOutputTimes(*fx.gpu->device, timer, output, ignored)) {
            s.outputs += 1;
            s.draw_ms += output.draw_ms + output.sorts_ms + output.strips_ms;
        }
    }
    GpuStepTimes times;
    if (timer.steps == 0 || !takeStepTimes(*fx.gpu->device, timer, times, ignored)) return;
    s.steps += times.step_ms.size();
    s.step_ms += sum(times.step_ms);
    s.update_ms += sum(times.update_ms);
    s.events_ms += sum(times.gather_ms);
    s.births_ms += sum(times.spawn_ms) + sum(times.births_ms);
    s.order_ms += sum(times.order_ms);
}

void addStagePlan(GpuEffect& fx, uint64_t plan_ns, bool dispatched) {
    if (!fx.stage_timing) return;
    GpuStageTiming& t = *fx.stage_timing;
    t.sums.plan_ms += static_cast<double>(plan_ns) * 1e-6;
    if (dispatched) t.recorded_steps[t.current] += 1;
}

} // namespace spindrift::gpu
