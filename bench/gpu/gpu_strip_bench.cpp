// GPU ribbon and beam strips (src/gpu/ribbon_strips.h, docs/gpu-backend.md "Ribbons" and "Beams"):
// the strips a renderer draws from the device, written by the strip pass
// (shaders/gpu_ribbon_strips.comp) after each frame's draw-record pass. Two cases, each one
// emitter with the basic stack (bench_effects.h), filled by bursts, living 1000 s (nothing dies),
// simulated by the GPU backend with device strips on (GpuConfig::device_strips), one step and
// one submitDrawOutput per iteration:
//
//   GpuRibbonStrips  N ribbon particles x P trail points (max_points; min_sample_distance 5 mm,
//                    so every particle records a point every step), timed after P + 2 warm-up
//                    steps: every ring is full and every strip has its P (or P + 1) points;
//   GpuBeamStrips    B beams x S segments (sag and jitter on): S + 1 points per beam.
//
// Device times come from timestamp queries (the backend's step timer, gpu_timing.h: around the
// update, the whole step and submitDrawOutput's passes), every figure of a case from the same
// iterations of the same process (DESIGN rule 8):
//
//   copy_ms     the reference: sort_copy.comp (bench/common/gpu_copy_reference.h) of the strip
//               bytes the pass writes for the live particles: per particle its full block of
//               48-byte StripPoints (a ribbon's P points, the head and P - 1 recorded ones after
//               the skip of a just-recorded newest point; a beam's S + 1) and its 4-byte point
//               count, read and written once. The ratios below use the copy time scaled to the
//               bytes the last frame's strips really hold (written_B, from the point counts read
//               back after timing);
//   strips_ms   the strip pass;                                  strips_vs_copy = strips / copy;
//   trail_ms    ribbons: the trail recording inside the update: update_ms of the ribbon emitter
//               less update_ms of its twin, the same emitter drawn as billboards (no trails), on
//               the same device in the same iterations (the recording is part of the update
//               dispatch, so it has no stamps of its own);       trail_vs_copy = trail / copy;
//   step_ms     the whole step (from before the update to after the slot sorts; nothing is born
//               while timed);                                    step_vs_copy = step / copy;
//   update_ms, draw_ms (the draw-record pass the strip pass reads): context.
//
// Device: SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`; "" picks the first discrete
// GPU). Sizes: SPINDRIFT_STRIP_RIBBONS, comma-separated "NxP" (N particles with an optional K or M
// suffix, decimal: 1M = 10^6; P trail points, 2..256; default "100Kx32,1Mx16", on a CPU device
// "10Kx16"; N x P at most 2^24, kMaxTrailPoints) and SPINDRIFT_STRIP_BEAMS, "BxS" (B beams, S
// segments, 1..256; default "10Kx64,100Kx128", on a CPU device "1Kx32"); "none" runs no case of
// that kind. Iterations: SPINDRIFT_STRIP_ITERATIONS (default 30). SPINDRIFT_BENCH_VALIDATION set:
// validation on, and any message fails the case. SPINDRIFT_STRIP_PORTABLE set: the ribbon strip
// pass's portable variant (one invocation per ribbon) even where the subgroup one runs.
// After timing, the case fails unless the live count is still N (the twin's too), every live
// particle's strip has at least 2 points and at most its block (a beam: exactly S + 1), the first
// and last strips' points are finite with widths of 0 or more, and the times are positive.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/bench_effects.h"
#include "common/gpu_copy_reference.h"
#include "gpu/gpu_effect.h"
#include "gpu/gpu_timing.h"
#include "gpu/ribbon_strips.h"
#include "kernels/beam.h"
#include "render/strip_params.h"
#include "spindrift/effect_desc.h"
#include "vulkan/context.h"
#include "vulkan/vk_error.h"

namespace spindrift::gpu {
namespace {

constexpr uint32_t kEmitter = 0;
constexpr uint64_t kStripPointBytes = sizeof(StripPoint);
constexpr uint64_t kPointCountBytes = sizeof(uint32_t);

enum class StripKind { ribbon, beam };

// One case's size: N ribbon particles x P trail points, or B beams x S segments.
struct StripSize {
    StripKind kind = StripKind::ribbon;
    uint32_t count = 0;
    uint32_t points = 0; // P or S
};

// The device every case runs on, opened once (SPINDRIFT_BENCH_DEVICE, SPINDRIFT_BENCH_VALIDATION)
// and closed by main before it returns: a static destroyed after main crashed inside the NVIDIA
// driver, whose own teardown had already run (gpu_sort_bench.cpp).
std::shared_ptr<vk::Context>& contextHolder() {
    static std::shared_ptr<vk::Context> holder;
    return holder;
}

vk::Context* sharedContext() {
    static bool opened = [] {
        const char* device = std::getenv("SPINDRIFT_BENCH_DEVICE");
        std::vector<Diagnostic> diagnostics;
        contextHolder() =
            vk::createContext(device != nullptr ? device : "",
                              std::getenv("SPINDRIFT_BENCH_VALIDATION") != nullptr, diagnostics);
        for (const Diagnostic& d : diagnostics)
            std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
        if (contextHolder()) {
            std::fprintf(stderr, "gpu_strip_bench: device %s (%s)\n",
                         contextHolder()->physical.name.c_str(),
                         contextHolder()->physical.driver.c_str());
        }
        return contextHolder() != nullptr;
    }();
    return opened ? contextHolder().get() : nullptr;
}

// The basic stack as ribbons (trails: P points, one recorded every step) or as beams (S
// segments), or as the ribbons' twin: the same emitter drawn as billboards, without trails.
EffectDesc stripEffect(const StripSize& size, bool twin) {
    EffectDesc fx = bench::makeStackEffect(bench::Stack::basic, size.count);
    fx.name = size.kind == StripKind::ribbon ? "bench_ribbons" : "bench_beams";
    RenderDesc& render = fx.emitters[kEmitter].render;
    if (twin) return fx;
    if (size.kind == StripKind::ribbon) {
        render.type = RenderType::ribbon;
        render.ribbon.max_points = size.points;
        // Speeds stay above 0.3 m/s (0.5-3 m/s at birth, drag 0.5/s, gravity): more than 5 mm a
        // step, so every step records a point.
        render.ribbon.min_sample_distance = 0.005f;
        render.ribbon.width = 0.05f;
    } else {
        render.type = RenderType::beam;
        render.beam.start = {-4, 0, 0};
        render.beam.end = {4, 1, 0};
        render.beam.start_tangent = {1, 2, 0};
        render.beam.end_tangent = {-1, 2, 1};
        render.beam.segments = size.points;
        render.beam.sag = 0.5f;
        render.beam.jitter = 0.2f;
        render.beam.jitter_frequency = 15;
    }
    return fx;
}

struct StripCase {
    StripSize size;
    std::unique_ptr<GpuEffect> fx;   // device strips on
    std::unique_ptr<GpuEffect> twin; // ribbons only: the same emitter as billboards
    std::unique_ptr<GpuStepTimer> timer, twin_timer;
    GpuDrawRequest request;
    bench::GpuCopyReference copy;
    vk::OwnedQueryPool queries; // the copy's begin and end
    uint64_t copy_bytes = 0;    // the strip bytes of N full blocks (copied, and read back)
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

std::unique_ptr<GpuEffect> createInstance(const StripSize& size, bool twin,
                                          std::vector<Diagnostic>& diagnostics) {
    const std::shared_ptr<const CompiledEffect> compiled =
        bench::compileOrNull(stripEffect(size, twin));
    if (!compiled) {
        fail(diagnostics, "the benchmark effect does not compile");
        return nullptr;
    }
    GpuConfig config;
    config.shared_device = contextHolder();
    config.device_strips = !twin;
    config.force_portable_strips = std::getenv("SPINDRIFT_STRIP_PORTABLE") != nullptr;
    return createGpuEffect(compiled, config, diagnostics);
}

// Steps until every particle is born and, for ribbons, every ring is full (P + 2 steps).
bool fill(StripCase& c, std::vector<Diagnostic>& diagnostics) {
    const uint32_t steps = c.size.kind == StripKind::ribbon ? c.size.points + 2 : 2;
    for (uint32_t s = 0; s < steps; ++s) {
        if (!step(*c.fx, diagnostics)) return false;
        if (c.twin && !step(*c.twin, diagnostics)) return false;
    }
    for (const GpuEffect* fx : {c.fx.get(), c.twin.get()}) {
        if (fx != nullptr && liveCount(*fx) != c.size.count) {
            return fail(diagnostics, "filled " + std::to_string(liveCount(*fx)) + " of " +
                                         std::to_string(c.size.count) + " particles");
        }
    }
    return true;
}

bool prepare(const StripSize& size, StripCase& c, std::vector<Diagnostic>& diagnostics) {
    c.size = size;
    if (sharedContext() == nullptr) return fail(diagnostics, "no Vulkan device");
    c.fx = createInstance(size, false, diagnostics);
    if (!c.fx) return false;
    if (size.kind == StripKind::ribbon) {
        c.twin = createInstance(size, true, diagnostics);
        if (!c.twin) return false;
    }
    if (!fill(c, diagnostics)) return false;
    const vk::Device& device = *c.fx->gpu->device;
    c.timer = createGpuStepTimer(device, diagnostics);
    if (!c.timer) return false;
    c.fx->step_timer = c.timer.get();
    if (c.twin) {
        c.twin_timer = createGpuStepTimer(device, diagnostics);
        if (!c.twin_timer) return false;
        c.twin->step_timer = c.twin_timer.get();
    }
    c.request.beams.resize(1);

    const GpuStripSource source = deviceStripSource(*c.fx, kEmitter);
    if (source.points == 0) return fail(diagnostics, "the emitter has no device strips");
    // A ribbon's full strip has P points (the head and P - 1 recorded ones: the newest, recorded
    // this step, is the head and skipped); a beam's S + 1, its whole block.
    const uint64_t points =
        size.kind == StripKind::ribbon ? source.points_per_strip - 1 : source.points_per_strip;
    c.copy_bytes = uint64_t{size.count} * (points * kStripPointBytes + kPointCountBytes);
    if (!bench::createGpuCopyReference(device, bench::copyCountFor(c.copy_bytes), c.copy,
                                       diagnostics)) {
        return false;
    }
    VkQueryPoolCreateInfo query_info{};
    query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 2;
    VkQueryPool pool = VK_NULL_HANDLE;
    if (!vk::check(vkCreateQueryPool(device.handle(), &query_info, nullptr, &pool),
                   "vkCreateQueryPool", diagnostics)) {
        return false;
    }
    c.queries = vk::OwnedQueryPool(device.handle(), pool);
    return true;
}

struct Times {
    double update_ms = 0, twin_update_ms = 0, step_ms = 0, draw_ms = 0, strips_ms = 0, copy_ms = 0;
};

// The step's update and whole-step times from a timer that stamped one step.
bool takeOneStep(const StripCase& c, GpuStepTimer& timer, double& update_ms, double& step_ms,
                 std::vector<Diagnostic>& diagnostics) {
    GpuStepTimes t;
    if (!takeStepTimes(*c.fx->gpu->device, timer, t, diagnostics)) return false;
    if (t.step_ms.size() != 1) return fail(diagnostics, "expected one timed step per frame");
    update_ms = t.update_ms[0];
    step_ms = t.step_ms[0];
    return true;
}

// The copy reference in a submission of its own: [q0] copy [q1].
bool timeCopy(StripCase& c, double& copy_ms, std::vector<Diagnostic>& diagnostics) {
    const bool ok = c.fx->gpu->runner->run(
        "strip bench copy",
        [&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, c.queries.get(), 0, 2);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 0);
            bench::recordGpuCopyReference(cmd, c.copy);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 1);
        },
        diagnostics);
    if (!ok) return false;
    uint64_t s[2] = {};
    if (!vk::check(vkGetQueryPoolResults(c.fx->gpu->device->handle(), c.queries.get(), 0, 2,
                                         sizeof s, s, sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics)) {
        return false;
    }
    copy_ms = static_cast<double>(s[1] - s[0]) * c.timer->period_ms;
    return true;
}

// One iteration: a step of the instance (and of its twin), its draw output with the strip pass
// (beams: the frame's curve and jitter cycle, as the scene player asks), then the copy.
bool runOnce(StripCase& c, Times& t, std::vector<Diagnostic>& diagnostics) {
    GpuEffect& fx = *c.fx;
    if (!step(fx, diagnostics)) return false;
    if (!takeOneStep(c, *c.timer, t.update_ms, t.step_ms, diagnostics)) return false;
    if (c.twin) {
        double twin_step_ms = 0;
        if (!step(*c.twin, diagnostics) ||
            !takeOneStep(c, *c.twin_timer, t.twin_update_ms, twin_step_ms, diagnostics)) {
            return false;
        }
    }
    if (c.size.kind == StripKind::beam) {
        BeamFrame& frame = c.request.beams[kEmitter];
        frame.curve = render::beamCurve(fx.effect->emitters[kEmitter], fx.world_from_effect);
        frame.jitter_cycle =
            sdBeamJitterCycle(static_cast<float>(simulationTime(fx)), frame.curve.end_frequency.w);
    }
    if (!submitDrawOutput(fx, c.request, diagnostics)) return false;
    GpuOutputTimes output;
    if (!takeOutputTimes(*fx.gpu->device, *c.timer, output, diagnostics)) return false;
    t.draw_ms = output.draw_ms;
    t.strips_ms = output.strips_ms;
    return timeCopy(c, t.copy_ms, diagnostics);
}

bool finitePoint(const StripPoint& p) {
    const float values[] = {p.position_width.x, p.position_width.y, p.position_width.z,
                            p.position_width.w, p.color.x,          p.tangent_u.w};
    return std::all_of(std::begin(values), std::end(values),
                       [](float v) { return std::isfinite(v); }) &&
           p.position_width.w >= 0; // a tapered ribbon's tail has width 0
}

// After timing: the live counts, and the strips of the last frame (see the header). written:
// the strip bytes they hold (points and counts). An empty problem when all is well.
bool verify(StripCase& c, uint64_t& written, std::string& problem,
            std::vector<Diagnostic>& diagnostics) {
    if (!validationMessages(*c.fx).empty()) {
        problem = validationMessages(*c.fx).front();
        return true;
    }
    for (const GpuEffect* fx : {c.fx.get(), c.twin.get()}) {
        if (fx != nullptr && liveCount(*fx) != c.size.count) {
            problem = "live count " + std::to_string(liveCount(*fx)) + " of " +
                      std::to_string(c.size.count);
            return true;
        }
    }
    std::vector<StripPoint> points;
    std::vector<uint32_t> counts;
    if (!readBackDeviceStripsForTest(*c.fx, kEmitter, points, counts, diagnostics)) return false;
    const uint32_t block = deviceStripSource(*c.fx, kEmitter).points_per_strip;
    uint64_t total_points = 0;
    for (uint32_t i = 0; i < c.size.count; ++i) {
        const uint32_t n = counts[i];
        const bool ok = c.size.kind == StripKind::beam ? n == block : n >= 2 && n <= block;
        if (!ok) {
            problem = "strip " + std::to_string(i) + " has " + std::to_string(n) +
                      " points (block " + std::to_string(block) + ")";
            return true;
        }
        total_points += n;
    }
    for (const uint32_t i : {0u, c.size.count - 1}) {
        for (uint32_t k = 0; k < counts[i]; ++k) {
            if (!finitePoint(points[uint64_t{i} * block + k])) {
                problem = "strip " + std::to_string(i) + " point " + std::to_string(k) +
                          " is not finite or has a negative width";
                return true;
            }
        }
    }
    written = total_points * kStripPointBytes + uint64_t{c.size.count} * kPointCountBytes;
    return true;
}

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

void BM_GpuStrips(benchmark::State& state, StripKind kind) {
    const StripSize size{kind, static_cast<uint32_t>(state.range(0)),
                         static_cast<uint32_t>(state.range(1))};
    std::vector<Diagnostic> diagnostics;
    StripCase c;
    const auto skip = [&](const char* fallback) {
        for (const Diagnostic& d : diagnostics)
            std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
        state.SkipWithError(diagnostics.empty() ? fallback
                                                : formatDiagnostic(diagnostics.back()).c_str());
    };
    if (!prepare(size, c, diagnostics)) return skip("prepare failed");
    std::fprintf(stderr, "gpu_strip_bench: %u %s x %u, %llu live, strips of %u points\n",
                 size.count, kind == StripKind::ribbon ? "ribbons" : "beams", size.points,
                 static_cast<unsigned long long>(liveCount(*c.fx)),
                 deviceStripSource(*c.fx, kEmitter).points_per_strip);
    Times warm;
    if (!runOnce(c, warm, diagnostics)) return skip("warm-up failed"); // first use of pipelines
    std::vector<double> update, twin_update, steps, draw, strips, copy;
    for (auto _ : state) {
        Times t;
        if (!runOnce(c, t, diagnostics)) return skip("iteration failed");
        state.SetIterationTime(t.strips_ms * 1e-3);
        update.push_back(t.update_ms);
        twin_update.push_back(t.twin_update_ms);
        steps.push_back(t.step_ms);
        draw.push_back(t.draw_ms);
        strips.push_back(t.strips_ms);
        copy.push_back(t.copy_ms);
    }
    uint64_t written = 0;
    std::string problem;
    if (!verify(c, written, problem, diagnostics)) return skip("verification failed");
    const double strips_ms = mean(strips), step_ms = mean(steps), copy_ms = mean(copy);
    if (problem.empty() && !(strips_ms > 0 && step_ms > 0 && copy_ms > 0)) {
        problem = "implausible times";
    }
    if (!problem.empty()) return state.SkipWithError(problem.c_str());
    // The copy of exactly the bytes the strips hold (the copy time is linear in its bytes).
    const double copy_written_ms =
        copy_ms * static_cast<double>(written) / static_cast<double>(c.copy_bytes);
    const double n = size.count;
    state.counters["live"] = static_cast<double>(liveCount(*c.fx));
    state.counters["points/strip"] =
        static_cast<double>(written - uint64_t{size.count} * kPointCountBytes) /
        static_cast<double>(kStripPointBytes) / n;
    state.counters["written_MB"] = static_cast<double>(written) * 1e-6;
    state.counters["copy_ms"] = copy_written_ms;
    state.counters["copy_GB/s"] = 2.0 * static_cast<double>(c.copy_bytes) / (copy_ms * 1e-3) * 1e-9;
    state.counters["strips_ms"] = strips_ms;
    state.counters["strips_ms_min"] = *std::min_element(strips.begin(), strips.end());
    state.counters["strips_vs_copy"] = strips_ms / copy_written_ms;
    state.counters["strips_GB/s"] = static_cast<double>(written) / (strips_ms * 1e-3) * 1e-9;
    state.counters["update_ms"] = mean(update);
    state.counters["step_ms"] = step_ms;
    state.counters["step_vs_copy"] = step_ms / copy_written_ms;
    state.counters["draw_ms"] = mean(draw);
    if (kind != StripKind::ribbon) return;
    // Both updates run the same stack over the same N; the difference is the trail recording.
    const double trail_ms = mean(update) - mean(twin_update);
    state.counters["twin_update_ms"] = mean(twin_update);
    state.counters["trail_ms"] = trail_ms;
    state.counters["trail_vs_copy"] = trail_ms / copy_written_ms;
}

// "NxP" entries of a comma-separated list (N with an optional decimal K or M suffix); an entry
// without "x" or out of range is skipped with a message.
std::vector<StripSize> parseSizes(StripKind kind, const std::string& list) {
    std::vector<StripSize> sizes;
    if (list == "none") return sizes;
    size_t begin = 0;
    while (begin <= list.size()) {
        const size_t end = std::min(list.find(',', begin), list.size());
        const std::string entry = list.substr(begin, end - begin);
        begin = end + 1;
        const size_t x = entry.find('x');
        const std::vector<uint64_t> count =
            bench::parseCounts(x == std::string::npos ? "" : entry.substr(0, x), 1000);
        const uint64_t points =
            x == std::string::npos ? 0 : std::strtoull(entry.c_str() + x + 1, nullptr, 10);
        const uint64_t max_points = kind == StripKind::ribbon ? kMaxRibbonPoints : kMaxBeamSegments;
        const uint64_t min_points = kind == StripKind::ribbon ? 2 : 1;
        const bool fits = count.size() == 1 && count[0] >= 1 && count[0] <= kMaxEmitterCapacity &&
                          points >= min_points && points <= max_points;
        if (!fits) {
            std::fprintf(stderr, "gpu_strip_bench: skipping size '%s' (NxP, P in %llu..%llu)\n",
                         entry.c_str(), static_cast<unsigned long long>(min_points),
                         static_cast<unsigned long long>(max_points));
            continue;
        }
        sizes.push_back({kind, static_cast<uint32_t>(count[0]), static_cast<uint32_t>(points)});
    }
    return sizes;
}

void registerSizes() {
    const vk::Context* context = sharedContext();
    const bool cpu = context != nullptr && context->physical.type == "cpu";
    std::string ribbons = cpu ? "10Kx16" : "100Kx32,1Mx16";
    std::string beams = cpu ? "1Kx32" : "10Kx64,100Kx128";
    if (const char* env = std::getenv("SPINDRIFT_STRIP_RIBBONS")) ribbons = env;
    if (const char* env = std::getenv("SPINDRIFT_STRIP_BEAMS")) beams = env;
    int iterations = 30;
    if (const char* env = std::getenv("SPINDRIFT_STRIP_ITERATIONS")) iterations = std::atoi(env);
    iterations = std::max(iterations, 1);
    for (const auto& [kind, list] :
         {std::pair{StripKind::ribbon, ribbons}, std::pair{StripKind::beam, beams}}) {
        for (const StripSize& size : parseSizes(kind, list)) {
            benchmark::RegisterBenchmark(
                kind == StripKind::ribbon ? "GpuRibbonStrips" : "GpuBeamStrips", BM_GpuStrips, kind)
                ->Args({size.count, size.points})
                ->Iterations(iterations)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace
} // namespace spindrift::gpu

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    spindrift::gpu::registerSizes();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    spindrift::gpu::contextHolder().reset();
    return 0;
}
