// GPU sub-emitters at scale (src/gpu/sub_emitters.h, docs/gpu-backend.md "Sub-emitters"): a
// parent emitter of capacity N with the basic stack in steady churn — a rate of 0.8 N per second,
// lifetimes uniform in [0.5, 1.5] s, so about 0.8 N live and 0.8 N / 60 deaths a step — and an
// on-death sub-emitter: every death spawns 2–4 children (drop_new, capacity N, lifetimes
// 0.1–0.3 s). Past 65 536 deaths a step (N above about 5M) the rest are dropped and counted, as
// on the CPU (kGpuMaxEvents). Timed after 2 s of warm-up (120 steps), one step per iteration.
//
// Device times come from the backend's step timer (gpu_timing.h), all of the same step:
//
//   events_ms   the sub-emitter passes: gather_ms (death events of the parent's alive list, in
//               the CPU's order, into the event queue) + births_ms (children's ordinals and
//               slots, then the event spawn pass);
//   update_ms   the update(+compaction) of the same step, parent and children: the same-run
//               reference (a pass that touches every live particle once);
//   step_ms     the whole step from before the update to after the slot sorts;
//   of_update   events_ms / update_ms;  of_step  events_ms / step_ms.
// events/step, children/step: what the step gathered and spawned (the stats' deltas, so the
// figures are per real event, not per bound).
//
// Device: SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`; "" picks the first discrete
// GPU). Sizes: SPINDRIFT_SUB_SIZES, comma-separated parent capacities with an optional K or M
// suffix (decimal: 1M = 10^6; default "10K,100K,1M,10M"; on lavapipe pick small ones).
// Iterations: SPINDRIFT_SUB_ITERATIONS (default 30). SPINDRIFT_SUB_PINNED set: the parent (a
// birth-order emitter: it has death links) keeps its slots instead of relocating
// (GpuConfig::relocate_birth_order off), for a same-run comparison. SPINDRIFT_SUB_CHILD=replace:
// a replace_oldest child of capacity N / 8, full, replacing every step (its children still get
// the parallel assignment: at most 4 per event). SPINDRIFT_SUB_SERIAL set: the serial walker
// assigns every event (GpuConfig::force_serial_event_assign), the same-run reference for it.
// SPINDRIFT_BENCH_VALIDATION set: validation on, and any message fails the case. After timing, the
// case fails unless the parent lived and died, children were born and none past capacity, events
// were dropped only when a step could have more than 65 536, and every figure is positive.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/bench_effects.h"
#include "gpu/gpu_effect.h"
#include "gpu/gpu_timing.h"
#include "gpu/shader/gpu_sim.h"
#include "spindrift/effect_desc.h"

namespace spindrift::gpu {
namespace {

constexpr uint32_t kParent = 0;
constexpr uint32_t kChild = 1;
constexpr int kWarmUpSteps = 120;

UpdateModule module(UpdateModuleVariant m) {
    return UpdateModule{true, std::move(m)};
}

// SPINDRIFT_SUB_CHILD=replace: the child is replace_oldest with an eighth of the capacity, so it
// is full and its births replace the oldest every step.
bool replacingChild() {
    const char* env = std::getenv("SPINDRIFT_SUB_CHILD");
    return env != nullptr && std::string(env) == "replace";
}

// The parent: the basic stack in steady churn; the child: small sparks, 2-4 per death.
EffectDesc subEmitterEffect(uint32_t particles) {
    EffectDesc fx = bench::makeStackEffect(bench::Stack::basic, particles);
    fx.name = "bench_sub_emitters";
    fx.capacity = 2 * particles;
    EmitterDesc& parent = fx.emitters[0];
    parent.name = "parent";
    parent.spawn.bursts.clear();
    parent.spawn.rate_per_s = 0.8f * static_cast<float>(particles);
    parent.init.lifetime_s = {0.5f, 1.5f};
    parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 1.0f, {2, 4}, 0.3f});

    EmitterDesc child;
    child.name = "child";
    child.capacity = particles;
    if (replacingChild()) {
        child.capacity = std::max(particles / 8, 8u);
        child.overflow = OverflowPolicy::replace_oldest;
    }
    child.spawn.rate_per_s = 0;
    child.shape.type = ShapeKind::sphere;
    child.shape.radius = 0.05f;
    child.init.lifetime_s = {0.1f, 0.3f};
    child.init.size = {0.02f, 0.05f};
    child.init.speed = {0.5f, 2.0f};
    child.update.push_back(module(GravityModule{}));
    fx.emitters.push_back(std::move(child));
    return fx;
}

struct SubCase {
    uint32_t particles = 0;
    std::unique_ptr<GpuEffect> fx;
    std::unique_ptr<GpuStepTimer> timer;
};

bool fail(std::vector<Diagnostic>& diagnostics, const std::string& message) {
    diagnostics.push_back({Severity::error, "", 0, 0, 0, "", message});
    return false;
}

bool step(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    advanceFrame(fx, fx.effect->effect.fixed_timestep_s);
    if (fx.errors.empty()) return true;
    diagnostics.insert(diagnostics.end(), fx.errors.begin(), fx.errors.end());
    return false;
}

bool prepare(uint32_t particles, SubCase& c, std::vector<Diagnostic>& diagnostics) {
    c.particles = particles;
    const std::shared_ptr<const CompiledEffect> compiled =
        bench::compileOrNull(subEmitterEffect(particles));
    if (!compiled) return fail(diagnostics, "the benchmark effect does not compile");
    GpuConfig config;
    if (const char* device = std::getenv("SPINDRIFT_BENCH_DEVICE")) config.device = device;
    config.validation = std::getenv("SPINDRIFT_BENCH_VALIDATION") != nullptr;
    config.relocate_birth_order = std::getenv("SPINDRIFT_SUB_PINNED") == nullptr;
    config.force_serial_event_assign = std::getenv("SPINDRIFT_SUB_SERIAL") != nullptr;
    c.fx = createGpuEffect(compiled, config, diagnostics);
    if (!c.fx) return false;
    for (int s = 0; s < kWarmUpSteps; ++s) {
        if (!step(*c.fx, diagnostics)) return false;
    }
    c.timer = createGpuStepTimer(*c.fx->gpu->device, diagnostics);
    if (!c.timer) return false;
    c.fx->step_timer = c.timer.get();
    return true;
}

struct Totals {
    uint64_t parent_deaths = 0, child_births = 0, child_dropped = 0, child_replaced = 0,
             events_dropped = 0;
};

Totals totals(const GpuEffect& fx) {
    Totals t;
    t.parent_deaths = fx.stats[kParent].deaths;
    t.child_births = fx.stats[kChild].births;
    t.child_dropped = fx.stats[kChild].overflow_dropped;
    t.child_replaced = fx.stats[kChild].overflow_replaced;
    t.events_dropped = fx.stats[kParent].events_dropped;
    return t;
}

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

// What the timed steps must show (see the header); empty when they do.
std::string check(const SubCase& c, const Totals& before, const Totals& after, double events_ms,
                  double update_ms, double step_ms) {
    if (!validationMessages(*c.fx).empty()) return validationMessages(*c.fx).front();
    const uint64_t deaths = after.parent_deaths - before.parent_deaths;
    const uint64_t births = after.child_births - before.child_births;
    if (liveCount(*c.fx) == 0 || deaths == 0) return "the parent neither lived nor died";
    if (births == 0) return "no child was born";
    if (replacingChild() && after.child_replaced == before.child_replaced) {
        return "the replace_oldest child replaced nothing";
    }
    if (c.fx->stats[kChild].live > c.particles) return "children past the child's capacity";
    // Deaths a step stay below 65 536 while 0.8 N / 60 (+ rate rounding) does.
    const bool may_drop = uint64_t{c.particles} * 8 / 600 * 3 / 2 > kGpuMaxEvents;
    if (!may_drop && after.events_dropped != before.events_dropped) return "events dropped";
    if (!(events_ms > 0 && update_ms > 0 && step_ms >= events_ms)) return "implausible times";
    return "";
}

void BM_GpuSubEmitters(benchmark::State& state) {
    const auto particles = static_cast<uint32_t>(state.range(0));
    std::vector<Diagnostic> diagnostics;
    SubCase c;
    const auto skip = [&](const char* fallback) {
        for (const Diagnostic& d : diagnostics) {
            std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
        }
        state.SkipWithError(diagnostics.empty() ? fallback
                                                : formatDiagnostic(diagnostics.back()).c_str());
    };
    if (!prepare(particles, c, diagnostics)) return skip("prepare failed");
    std::fprintf(stderr, "gpu_sub_emitter_bench: parent capacity %u, %llu live, on %s\n", particles,
                 static_cast<unsigned long long>(liveCount(*c.fx)), c.fx->gpu->device_name.c_str());
    const Totals before = totals(*c.fx);
    std::vector<double> events, gather, births, update, step_times;
    for (auto _ : state) {
        if (!step(*c.fx, diagnostics)) return skip("step failed");
        GpuStepTimes t;
        if (!takeStepTimes(*c.fx->gpu->device, *c.timer, t, diagnostics)) {
            return skip("timestamps failed");
        }
        if (t.step_ms.size() != 1) return skip("expected one timed step per frame");
        state.SetIterationTime(t.step_ms[0] * 1e-3);
        events.push_back(t.gather_ms[0] + t.births_ms[0]);
        gather.push_back(t.gather_ms[0]);
        births.push_back(t.births_ms[0]);
        update.push_back(t.update_ms[0]);
        step_times.push_back(t.step_ms[0]);
    }
    const Totals after = totals(*c.fx);
    const double events_ms = mean(events), update_ms = mean(update), step_ms = mean(step_times);
    const std::string problem = check(c, before, after, events_ms, update_ms, step_ms);
    if (!problem.empty()) return state.SkipWithError(problem.c_str());
    const auto steps = static_cast<double>(events.size());
    const double deaths = static_cast<double>(after.parent_deaths - before.parent_deaths) / steps;
    const double dropped =
        static_cast<double>(after.events_dropped - before.events_dropped) / steps;
    state.counters["events/step"] = deaths - dropped;
    state.counters["dropped/step"] = dropped;
    state.counters["children/step"] =
        static_cast<double>(after.child_births - before.child_births) / steps;
    state.counters["replaced/step"] =
        static_cast<double>(after.child_replaced - before.child_replaced) / steps;
    state.counters["events_ms"] = events_ms;
    state.counters["events_ms_min"] = *std::min_element(events.begin(), events.end());
    state.counters["gather_ms"] = mean(gather);
    state.counters["births_ms"] = mean(births);
    state.counters["update_ms"] = update_ms;
    state.counters["step_ms"] = step_ms;
    state.counters["of_update"] = events_ms / update_ms;
    state.counters["of_step"] = events_ms / step_ms;
    state.counters["Mevents/s"] = (deaths - dropped) / (events_ms * 1e-3) * 1e-6;
}

void registerSizes() {
    std::string sizes = "10K,100K,1M,10M";
    if (const char* env = std::getenv("SPINDRIFT_SUB_SIZES")) sizes = env;
    int iterations = 30;
    if (const char* env = std::getenv("SPINDRIFT_SUB_ITERATIONS")) iterations = std::atoi(env);
    iterations = std::max(iterations, 1);
    // K and M are decimal here (1M = 10^6), as docs/benchmarks.md reports these sizes.
    for (const uint64_t n : bench::parseCounts(sizes, 1000)) {
        const uint64_t count = std::min<uint64_t>(n, kMaxEmitterCapacity);
        if (count < 100) continue;
        benchmark::RegisterBenchmark("GpuSubEmitterDeaths", BM_GpuSubEmitters)
            ->Arg(static_cast<int64_t>(count))
            ->Iterations(iterations)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    }
}

} // namespace
} // namespace spindrift::gpu

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    spindrift::gpu::registerSizes();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
