// The GPU simulation backend (src/gpu/, issue 5 item 6): one effect, one emitter holding N live
// particles with the basic stack (gravity + drag + colour/size over life, the CPU benchmark's
// "basic" effect), filled by bursts in the first steps and then stepped once per iteration.
// Device times come from timestamp queries, each figure against a reference measured in the
// same run (DESIGN rule 8):
//
//   update_ms   the update(+compaction) pass of one step (gpu_timing.h's hook in recordStep);
//   copy_ms     sort_copy.comp (a compute copy, not vkCmdCopyBuffer: gpu-facts.md) of exactly
//               the bytes the update pass moves for this stack, kUpdateBytes per particle;
//   of_copy     copy_ms / update_ms: the fraction of copy bandwidth the update reaches (the
//               issue's target is >= 0.75);
//   draw_ms     the draw-record pass (one 64-byte DrawRecord per particle; colour and size over
//               life are evaluated here, as on the CPU);
//   keys_ms     the sort-key pass (back to front from an eye outside the cloud);
//   sort_ms     the radix sort of the N keys + payloads (src/gpu/sort/);
//   frame_ms    update + draw + keys + sort: what simulate + sort costs a frame.
// The raster draw at 1920x1080 is not measured: there is no device-side path from the backend's
// draw records to the renderer yet (docs/benchmarks.md says why a readback path would not be an
// honest figure).
//
// Device: SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`; "" picks the first discrete
// GPU). Sizes: SPINDRIFT_SIM_SIZES, comma-separated particle counts with an optional K or M
// suffix (decimal: 1M = 10^6; default "1M,10M,100M"; on lavapipe pick small ones). A size whose
// pool passes the backend's 4 GiB - 2 MiB buffer limit is reported and replaced by the largest
// size that fits. Iterations: SPINDRIFT_SIM_ITERATIONS (default 30). SPINDRIFT_BENCH_VALIDATION
// set: validation on, and any message fails the case. After timing, the live
// count must still be N and the sorted keys ascending, else the case fails.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/bench_effects.h"
#include "compiler/compile_effect.h"
#include "embedded_shaders.h"
#include "gpu/gpu_effect.h"
#include "gpu/gpu_timing.h"
#include "gpu/pool_layout.h"
#include "gpu/sort/gpu_radix_sort.h"
#include "gpu/sort/radix_sort_shared.h"
#include "gpu/sort/sort_keys_pass.h"
#include "vulkan/compute.h"
#include "spindrift/effect_desc.h"
#include "vulkan/vk_error.h"

namespace spindrift::gpu {
namespace {

// ---------------------------------------------------------------------------------------------
// Bytes per particle the update pass moves for the basic stack (shaders/gpu_update.comp): it
// reads the slot from the alive list (4) and ten state columns — position xyz, velocity xyz,
// age, lifetime, rotation, flags (40) — and writes the same ten columns back (40, stored
// unconditionally) and the slot to the other alive list (4). Angular velocity is read only by
// spinning emitters; size only by collision ops (its load is passed to applyCollisionOps, which
// does nothing without one; counted as not read — if the driver does load it, the ratio below
// understates the pass by 4/88). The one atomicAdd per particle (compaction) moves no particle
// bytes and is not counted.
constexpr double kUpdateReadBytes = 44;
constexpr double kUpdateWrittenBytes = 44;
constexpr double kUpdateBytes = kUpdateReadBytes + kUpdateWrittenBytes;
// sort_copy.comp copies `count` uints from each of two arrays (8 bytes read + 8 written per
// count): kUpdateBytes per particle is count = 5.5 per particle.
constexpr uint64_t kCopyCountPerTwoParticles = 11;

// ---------------------------------------------------------------------------------------------
// The largest particle count whose pool and draw records pass layoutPool (pure arithmetic).
uint32_t largestFittingCount(uint32_t wanted) {
    auto fits = [](uint32_t n) {
        const std::shared_ptr<const CompiledEffect> compiled =
            bench::compileOrNull(bench::makeStackEffect(bench::Stack::basic, n));
        PoolLayout layout;
        std::vector<Diagnostic> ignored;
        return compiled && layoutPool(*compiled, kGpuMaxBufferBytes, layout, ignored);
    };
    if (fits(wanted)) return wanted;
    uint32_t lo = 1, hi = wanted; // fits(lo), !fits(hi)
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

uvec2 split(VkDeviceAddress a) {
    return uvec2(static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32));
}

// Everything one size needs, kept for all its iterations.
struct SimCase {
    uint32_t particles = 0;
    std::unique_ptr<GpuEffect> fx;
    std::unique_ptr<GpuStepTimer> timer;
    std::optional<GpuRadixSort> sort;
    std::optional<GpuSortKeyPass> keys_pass;
    vk::OwnedPipelineLayout copy_layout;
    vk::OwnedPipeline copy;
    vk::OwnedQueryPool queries; // 6: draw, keys, sort boundaries; copy begin, end
    vk::Buffer keys, payloads;
    vk::Buffer copy_src, copy_dst; // two arrays each, of copy_count uints
    uint64_t copy_count = 0;
};

const vk::Device& deviceOf(const SimCase& c) {
    return *c.fx->gpu->device;
}

bool fail(std::vector<Diagnostic>& diagnostics, const std::string& message) {
    diagnostics.push_back({Severity::error, "", 0, 0, 0, "", message});
    return false;
}

bool prepare(uint32_t particles, SimCase& c, std::vector<Diagnostic>& diagnostics) {
    c.particles = particles;
    const std::shared_ptr<const CompiledEffect> compiled =
        bench::compileOrNull(bench::makeStackEffect(bench::Stack::basic, particles));
    if (!compiled) return fail(diagnostics, "the benchmark effect does not compile");
    GpuConfig config;
    if (const char* device = std::getenv("SPINDRIFT_BENCH_DEVICE")) config.device = device;
    config.validation = std::getenv("SPINDRIFT_BENCH_VALIDATION") != nullptr;
    c.fx = createGpuEffect(compiled, config, diagnostics);
    if (!c.fx) return false;
    // Fill: the bursts are born in the first ceil(N / (15 x 2^20)) steps.
    for (int step = 0; step < 64 && liveCount(*c.fx) < particles; ++step) {
        advanceFrame(*c.fx, compiled->effect.fixed_timestep_s);
        if (!c.fx->errors.empty()) {
            diagnostics.insert(diagnostics.end(), c.fx->errors.begin(), c.fx->errors.end());
            return false;
        }
    }
    if (liveCount(*c.fx) != particles) {
        return fail(diagnostics, "filled " + std::to_string(liveCount(*c.fx)) + " of " +
                                     std::to_string(particles) + " particles");
    }
    const vk::Device& device = deviceOf(c);
    c.timer = createGpuStepTimer(device, diagnostics);
    if (!c.timer) return false;
    c.fx->step_timer = c.timer.get();

    GpuRadixSortConfig sort_config;
    sort_config.max_count = particles;
    c.sort = createGpuRadixSort(device, sort_config, diagnostics);
    c.keys_pass = createGpuSortKeyPass(device, diagnostics);
    if (!c.sort || !c.keys_pass) return false;
    c.copy_layout = vk::createComputeLayout(device.handle(), sizeof(RadixSortPush), "copy", diagnostics);
    if (!c.copy_layout) return false;
    const shaders::SpirvCode& code = shaders::kSortCopyComp;
    c.copy = vk::createComputePipeline(device.handle(), c.copy_layout.get(), {code.words, code.word_count},
                                code.source, nullptr, diagnostics);
    if (!c.copy) return false;

    VkQueryPoolCreateInfo query_info{};
    query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 6;
    VkQueryPool pool = VK_NULL_HANDLE;
    if (!vk::check(vkCreateQueryPool(device.handle(), &query_info, nullptr, &pool),
                   "vkCreateQueryPool", diagnostics)) {
        return false;
    }
    c.queries = vk::OwnedQueryPool(device.handle(), pool);

    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    const VkDeviceSize key_bytes = VkDeviceSize{particles} * sizeof(uint32_t);
    c.copy_count = (uint64_t{particles} * kCopyCountPerTwoParticles + 1) / 2;
    const VkDeviceSize copy_bytes = 2 * c.copy_count * sizeof(uint32_t);
    if (copy_bytes > kGpuMaxBufferBytes) return fail(diagnostics, "copy reference too large");
    c.keys = vk::createBuffer(device, key_bytes, usage, vk::MemoryUse::device_local, "bench keys",
                              diagnostics);
    c.payloads = vk::createBuffer(device, key_bytes, usage, vk::MemoryUse::device_local,
                                  "bench payloads", diagnostics);
    c.copy_src = vk::createBuffer(device, copy_bytes, usage, vk::MemoryUse::device_local,
                                  "bench copy source", diagnostics);
    c.copy_dst = vk::createBuffer(device, copy_bytes, usage, vk::MemoryUse::device_local,
                                  "bench copy destination", diagnostics);
    return c.keys && c.payloads && c.copy_src && c.copy_dst;
}

void recordCopy(VkCommandBuffer cmd, const SimCase& c) {
    const VkDeviceSize half = c.copy_count * sizeof(uint32_t);
    RadixSortPush push{};
    push.src_keys = split(c.copy_src.address);
    push.src_payloads = split(c.copy_src.address + half);
    push.dst_keys = split(c.copy_dst.address);
    push.dst_payloads = split(c.copy_dst.address + half);
    push.count = static_cast<uint32_t>(c.copy_count);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c.copy.get());
    vkCmdPushConstants(cmd, c.copy_layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                       &push);
    // As gpu_sort_bench: enough groups to fill any GPU; the shader loops grid-stride.
    const auto groups =
        static_cast<uint32_t>(std::min<uint64_t>(c.copy_count / kSortWorkgroupSize + 1, 8192));
    vkCmdDispatch(cmd, groups, 1, 1);
}

struct Times {
    double update_ms = 0, draw_ms = 0, keys_ms = 0, sort_ms = 0, copy_ms = 0;
};

void stamp(VkCommandBuffer cmd, const SimCase& c, uint32_t query) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), query);
}

// One iteration: a frame of one step (update timed by the hook), then one submission:
// [q0] draw records [q1] keys [q2] sort [q3], barrier, [q4] copy reference [q5].
bool runOnce(SimCase& c, Times& t, std::vector<Diagnostic>& diagnostics) {
    GpuEffect& fx = *c.fx;
    advanceFrame(fx, fx.effect->effect.fixed_timestep_s);
    if (!fx.errors.empty()) {
        diagnostics.insert(diagnostics.end(), fx.errors.begin(), fx.errors.end());
        return false;
    }
    std::vector<double> update_ms;
    if (!takeUpdateTimes(deviceOf(c), *c.timer, update_ms, diagnostics)) return false;
    if (update_ms.size() != 1) return fail(diagnostics, "expected one timed step per frame");
    t.update_ms = update_ms[0];

    const auto live = static_cast<uint32_t>(liveCount(fx));
    // Outside the cloud (radius 4 and growing slowly), so every particle has a distance.
    const vec3 eye(0.0f, 2.0f, 30.0f);
    bool recorded = true;
    const bool ok = fx.gpu->runner->run(
        "sim bench",
        [&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, c.queries.get(), 0, 6);
            vk::computeBarrier(cmd);
            stamp(cmd, c, 0);
            recordDrawRecordsPass(fx, cmd);
            stamp(cmd, c, 1);
            recordSortKeys(cmd, *c.keys_pass, fx.buffers.draw_records.address, live,
                           kSortBackToFront, eye, c.keys.address, c.payloads.address);
            stamp(cmd, c, 2);
            recorded = recordGpuRadixSort(cmd, *c.sort, c.keys.address, c.payloads.address, live,
                                          diagnostics);
            stamp(cmd, c, 3);
            vk::computeBarrier(cmd);
            stamp(cmd, c, 4);
            recordCopy(cmd, c);
            stamp(cmd, c, 5);
        },
        diagnostics);
    if (!ok || !recorded) return false;
    uint64_t s[6] = {};
    if (!vk::check(vkGetQueryPoolResults(deviceOf(c).handle(), c.queries.get(), 0, 6, sizeof s, s,
                                         sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics)) {
        return false;
    }
    const double period_ms = c.timer->period_ms;
    t.draw_ms = static_cast<double>(s[1] - s[0]) * period_ms;
    t.keys_ms = static_cast<double>(s[2] - s[1]) * period_ms;
    t.sort_ms = static_cast<double>(s[3] - s[2]) * period_ms;
    t.copy_ms = static_cast<double>(s[5] - s[4]) * period_ms;
    return true;
}

// The live count is still N and the sorted keys ascend (back to front: far first).
bool verify(SimCase& c, std::string& problem, std::vector<Diagnostic>& diagnostics) {
    if (liveCount(*c.fx) != c.particles) {
        problem =
            "live count " + std::to_string(liveCount(*c.fx)) + " != " + std::to_string(c.particles);
        return true;
    }
    const VkDeviceSize bytes = VkDeviceSize{c.particles} * sizeof(uint32_t);
    vk::Buffer back = vk::createBuffer(deviceOf(c), bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                       vk::MemoryUse::readback, "bench readback", diagnostics);
    if (!back) return false;
    if (!c.fx->gpu->runner->run(
            "bench readback",
            [&](VkCommandBuffer cmd) {
                VkBufferCopy region{0, 0, bytes};
                vkCmdCopyBuffer(cmd, c.keys.get(), back.get(), 1, &region);
                vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                                  VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                                  VK_ACCESS_2_HOST_READ_BIT);
            },
            diagnostics)) {
        return false;
    }
    const auto* keys = static_cast<const uint32_t*>(back.mapped);
    for (uint32_t i = 1; i < c.particles; ++i) {
        if (keys[i - 1] > keys[i]) {
            problem = "sorted keys descend at " + std::to_string(i);
            return true;
        }
    }
    return true;
}

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

void BM_GpuSimBasic(benchmark::State& state) {
    const auto wanted = static_cast<uint32_t>(state.range(0));
    const uint32_t particles = largestFittingCount(wanted);
    if (particles != wanted) {
        std::fprintf(stderr,
                     "gpu_sim_bench: %u particles do not fit the 4 GiB - 2 MiB pool buffer "
                     "(%d bytes a particle over %d columns); measuring the largest that does: "
                     "%u\n",
                     wanted, static_cast<int>(kGpuColumnCount * 4),
                     static_cast<int>(kGpuColumnCount), particles);
    }
    std::vector<Diagnostic> diagnostics;
    SimCase c;
    if (!prepare(particles, c, diagnostics)) {
        for (const Diagnostic& d : diagnostics)
            std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
        state.SkipWithError(diagnostics.empty() ? "prepare failed"
                                                : formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    std::fprintf(stderr, "gpu_sim_bench: %u particles on %s\n", particles,
                 c.fx->gpu->device_name.c_str());
    Times warm;
    if (!runOnce(c, warm, diagnostics)) { // warm-up: first use of each pipeline
        state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    std::vector<double> update, draw, keys, sort, copy;
    for (auto _ : state) {
        Times t;
        if (!runOnce(c, t, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return;
        }
        state.SetIterationTime(t.update_ms * 1e-3);
        update.push_back(t.update_ms);
        draw.push_back(t.draw_ms);
        keys.push_back(t.keys_ms);
        sort.push_back(t.sort_ms);
        copy.push_back(t.copy_ms);
    }
    std::string problem;
    if (!validationMessages(*c.fx).empty()) problem = validationMessages(*c.fx).front();
    if (problem.empty() && !verify(c, problem, diagnostics)) {
        state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    if (!problem.empty()) {
        state.SkipWithError(problem.c_str());
        return;
    }
    const double n = particles;
    const double update_ms = mean(update), copy_ms = mean(copy);
    state.counters["particles"] = n;
    state.counters["update_ms"] = update_ms;
    state.counters["update_ms_min"] = *std::min_element(update.begin(), update.end());
    state.counters["Gupd/s"] = n / (update_ms * 1e-3) * 1e-9;
    state.counters["update_TB/s"] = kUpdateBytes * n / (update_ms * 1e-3) * 1e-12;
    state.counters["copy_ms"] = copy_ms;
    state.counters["copy_TB/s"] = kUpdateBytes * n / (copy_ms * 1e-3) * 1e-12;
    state.counters["of_copy"] = copy_ms / update_ms;
    state.counters["draw_ms"] = mean(draw);
    state.counters["keys_ms"] = mean(keys);
    state.counters["sort_ms"] = mean(sort);
    state.counters["sim_sort_ms"] = update_ms + mean(draw) + mean(keys) + mean(sort);
}

void registerSizes() {
    std::string sizes = "1M,10M,100M";
    if (const char* env = std::getenv("SPINDRIFT_SIM_SIZES")) sizes = env;
    int iterations = 30;
    if (const char* env = std::getenv("SPINDRIFT_SIM_ITERATIONS")) iterations = std::atoi(env);
    iterations = std::max(iterations, 1);
    // K and M are decimal here (1M = 10^6), as docs/benchmarks.md reports these sizes.
    for (const uint64_t n : bench::parseCounts(sizes, 1000)) {
        const uint64_t count = std::min<uint64_t>(n, kMaxEmitterCapacity);
        if (count > 1) {
            benchmark::RegisterBenchmark("GpuSimBasic", BM_GpuSimBasic)
                ->Arg(static_cast<int64_t>(count))
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
    return 0;
}
