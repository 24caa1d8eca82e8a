// The GPU simulation backend (src/gpu/, issue 5 item 6): one effect, one emitter of capacity N
// with the basic stack (gravity + drag + colour/size over life, the CPU benchmark's "basic"
// effect), in three cases:
//
//   GpuSimBasic       fresh pool: N particles born by bursts in the first steps, living 1000 s, so
//                     nothing dies and the alive list stays in slot order;
//   GpuSimBasicChurn  steady-state churn: a steady rate of 0.8 N per second, lifetimes uniform in
//                     [0.5, 1.5] s (about 0.8 N live), timed after 3 s of warm-up (180 steps):
//                     every slot has died and been reborn, deaths are scattered through the pool,
//                     and the alive list is in birth order, not slot order — what a long-running
//                     effect looks like. The per-particle figures count the particles updated.
//   GpuSimStableChurn the same churn with stable_order: the alive list is kept in birth order by
//                     the ordered compaction (gpu_ordered_compact.comp), timed with the update,
//                     which also moves the survivors so slot order stays birth order
//                     (src/gpu/birth_order.h, relocation);
//   GpuSimStableChurnPinned  the same without relocation (GpuConfig::relocate_birth_order off):
//                     slots never move, so after one lifetime the birth-ordered list visits
//                     them at random (the reference the relocation is measured against).
//   GpuSimPlaneCollision, GpuSimDepthCollision  the fresh pool with one collision op more: a
//                     plane far below (no contact, the heavy update variant's reference), or
//                     depth_buffer against a 1920 x 1080 scene depth seen from (0, 0, 20)
//                     looking down -z, a wall 30 m away behind the whole cloud: every particle
//                     is projected, reads its pixel and neighbours and takes the plane test
//                     (sdContactSceneDepth), without contact, so the pool stays N.
//
// Each stepped once per iteration.
// Device times come from timestamp queries, each figure against a reference measured in the
// same run (DESIGN rule 8):
//
//   update_ms   the update pass of one step with its compaction (the ordered compaction's passes
//               for a birth-order emitter; gpu_timing.h's hooks in recordStep);
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
// suffix (decimal: 1M = 10^6; default "1M,10M,100M"; on lavapipe pick small ones). Every size up
// to the emitter maximum (2^27) fits: the pool spreads over buffers of at most 4 GiB - 2 MiB
// (docs/gpu-backend.md, "The pool"); a size past the device's memory is refused with the
// backend's error. Passes: SPINDRIFT_SIM_PASSES = "update" (update only: no draw records, keys,
// sort or their buffers) or "all" (default). Cases: SPINDRIFT_SIM_CASES, a comma-separated subset
// of "fresh,churn,stable,pinned,plane,depth" (default "fresh,churn"). Iterations:
// SPINDRIFT_SIM_ITERATIONS (default 30). SPINDRIFT_SIM_MAX_BUFFER_BYTES: the backend's buffer limit
// (GpuConfig::max_buffer_bytes; to check on a small device that split pools and chunked draw
// records time and sort correctly). SPINDRIFT_SIM_UPDATE_GROUPS: the update dispatch's workgroup
// cap (GpuConfig:: update_max_workgroups; default 0, by the live bound: updateWorkgroupCap; for
// sweeps). SPINDRIFT_BENCH_VALIDATION set: validation on, and any message fails the case. After
// timing, a fresh pool's live count must still be N, a churning one's within (0, N], and the sorted
// keys ascending, else the case fails.
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
#include "common/gpu_copy_reference.h"
#include "compiler/compile_effect.h"
#include "gpu/gpu_buffers.h"
#include "gpu/gpu_effect.h"
#include "gpu/gpu_timing.h"
#include "gpu/pool_layout.h"
#include "gpu/sort/gpu_radix_sort.h"
#include "gpu/sort/radix_sort_shared.h"
#include "gpu/sort/sort_keys_pass.h"
#include "spindrift/effect_desc.h"
#include "vulkan/compute.h"
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
// understates the pass by 4/88). The compaction's atomics (one per subgroup, or per workgroup
// without ballot: shaders/gpu_compact.glsl) move no particle bytes and are not counted.
constexpr double kUpdateReadBytes = 44;
constexpr double kUpdateWrittenBytes = 44;
constexpr double kUpdateBytes = kUpdateReadBytes + kUpdateWrittenBytes;
// sort_copy.comp copies `count` uints from each of two arrays (8 bytes read + 8 written per
// count): kUpdateBytes per particle is count = 5.5 per particle.
constexpr uint64_t kCopyCountPerTwoParticles = 11;

enum class Churn {
    fresh,
    steady,
    steady_stable,
    steady_stable_pinned,
    fresh_plane_collision,
    fresh_depth_collision
};

bool isFresh(Churn churn) {
    return churn == Churn::fresh || churn == Churn::fresh_plane_collision ||
           churn == Churn::fresh_depth_collision;
}

constexpr uint32_t kDepthWidth = 1920;
constexpr uint32_t kDepthHeight = 1080;

// Everything one size needs, kept for all its iterations.
struct SimCase {
    uint32_t particles = 0; // the capacity, N
    Churn churn = Churn::fresh;
    bool sort_passes = true; // draw records, keys and sort timed too
    std::unique_ptr<GpuEffect> fx;
    std::unique_ptr<GpuStepTimer> timer;
    std::optional<GpuRadixSort> sort;
    std::optional<GpuSortKeyPass> keys_pass;
    bench::GpuCopyReference copy; // of kUpdateBytes per particle
    vk::OwnedQueryPool queries;   // 6: draw, keys, sort boundaries; copy begin, end
    vk::Buffer keys, payloads;
    vk::Buffer depth;   // the depth case's scene depth, read at its address
    WorldInputs inputs; // what the collision cases' op meets
};

const vk::Device& deviceOf(const SimCase& c) {
    return *c.fx->gpu->device;
}

bool fail(std::vector<Diagnostic>& diagnostics, const std::string& message) {
    diagnostics.push_back({Severity::error, "", 0, 0, 0, "", message});
    return false;
}

// The basic stack, fresh (bursts, 1000 s lives) or churning (a steady rate, 0.5-1.5 s lives),
// in birth order for the stable cases.
EffectDesc benchEffect(uint32_t particles, Churn churn) {
    EffectDesc fx = bench::makeStackEffect(bench::Stack::basic, particles);
    if (churn == Churn::fresh_plane_collision || churn == Churn::fresh_depth_collision) {
        CollisionModule collision;
        if (churn == Churn::fresh_plane_collision) {
            collision.planes.push_back(CollisionPlane{{0, -100, 0}, {0, 1, 0}});
        } else {
            collision.depth_buffer = true;
        }
        UpdateModule module;
        module.module = collision;
        fx.emitters[0].update.push_back(module);
    }
    if (!isFresh(churn)) {
        EmitterDesc& e = fx.emitters[0];
        e.spawn.bursts.clear();
        e.spawn.rate_per_s = 0.8f * static_cast<float>(particles);
        e.init.lifetime_s = {0.5f, 1.5f};
        e.render.stable_order =
            churn == Churn::steady_stable || churn == Churn::steady_stable_pinned;
    }
    return fx;
}

// Steps until the fresh pool holds N, or through the churning one's warm-up.
bool fill(SimCase& c, std::vector<Diagnostic>& diagnostics) {
    GpuEffect& fx = *c.fx;
    const int steps = !isFresh(c.churn) ? 180 : 64;
    for (int step = 0; step < steps; ++step) {
        if (isFresh(c.churn) && liveCount(fx) >= c.particles) break;
        advanceFrame(fx, fx.effect->effect.fixed_timestep_s);
        if (!fx.errors.empty()) {
            diagnostics.insert(diagnostics.end(), fx.errors.begin(), fx.errors.end());
            return false;
        }
    }
    const uint64_t live = liveCount(fx);
    const bool ok = isFresh(c.churn) ? live == c.particles : live > 0 && live <= c.particles;
    if (!ok) {
        return fail(diagnostics, "filled " + std::to_string(live) + " of " +
                                     std::to_string(c.particles) + " particles");
    }
    return true;
}

// The depth case's scene depth: a wall 30 m in front of a camera at (0, 0, 20) looking down -z,
// 1920 x 1080, 45 degrees vertically, in device memory the host can write (the update pass reads
// it at its address).
bool makeSceneDepth(SimCase& c, std::vector<Diagnostic>& diagnostics) {
    const VkDeviceSize bytes = VkDeviceSize{kDepthWidth} * kDepthHeight * sizeof(float);
    c.depth = vk::createBuffer(deviceOf(c), bytes,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                               vk::MemoryUse::upload, "bench scene depth", diagnostics);
    if (!c.depth) return false;
    auto* samples = static_cast<float*>(c.depth.mapped);
    std::fill(samples, samples + size_t{kDepthWidth} * kDepthHeight, 30.0f);
    SceneDepthInput& in = c.inputs.scene_depth;
    const float tan_y = 0.41421356f; // tan(22.5 degrees)
    in.camera.kind = kColliderSceneDepth;
    in.camera.position = vec4(0.0f, 0.0f, 20.0f, tan_y * kDepthWidth / kDepthHeight);
    in.camera.extent = vec4(0.0f, 0.0f, -1.0f, tan_y);
    in.camera.axis_u = vec4(1.0f, 0.0f, 0.0f, float(kDepthWidth));
    in.camera.axis_v = vec4(0.0f, 1.0f, 0.0f, float(kDepthHeight));
    in.near_m = 0.1f;
    in.device_address = c.depth.address;
    return true;
}

bool prepare(uint32_t particles, Churn churn, bool sort_passes, SimCase& c,
             std::vector<Diagnostic>& diagnostics) {
    c.particles = particles;
    c.churn = churn;
    c.sort_passes = sort_passes;
    const std::shared_ptr<const CompiledEffect> compiled =
        bench::compileOrNull(benchEffect(particles, churn));
    if (!compiled) return fail(diagnostics, "the benchmark effect does not compile");
    GpuConfig config;
    if (const char* device = std::getenv("SPINDRIFT_BENCH_DEVICE")) config.device = device;
    config.validation = std::getenv("SPINDRIFT_BENCH_VALIDATION") != nullptr;
    if (const char* limit = std::getenv("SPINDRIFT_SIM_MAX_BUFFER_BYTES")) {
        config.max_buffer_bytes = std::strtoull(limit, nullptr, 10);
    }
    if (const char* groups = std::getenv("SPINDRIFT_SIM_UPDATE_GROUPS")) {
        config.update_max_workgroups = static_cast<uint32_t>(std::strtoul(groups, nullptr, 10));
    }
    config.relocate_birth_order = churn != Churn::steady_stable_pinned;
    c.fx = createGpuEffect(compiled, config, diagnostics);
    if (!c.fx) return false;
    if (churn == Churn::fresh_depth_collision && !makeSceneDepth(c, diagnostics)) return false;
    c.fx->world = &c.inputs;
    if (!fill(c, diagnostics)) return false;
    const vk::Device& device = deviceOf(c);
    c.timer = createGpuStepTimer(device, diagnostics);
    if (!c.timer) return false;
    c.fx->step_timer = c.timer.get();

    if (c.sort_passes) {
        GpuRadixSortConfig sort_config;
        sort_config.max_count = particles;
        c.sort = createGpuRadixSort(device, sort_config, diagnostics);
        c.keys_pass = createGpuSortKeyPass(device, diagnostics);
        if (!c.sort || !c.keys_pass) return false;
    }
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

    const uint64_t copy_count = (uint64_t{particles} * kCopyCountPerTwoParticles + 1) / 2;
    if (!bench::createGpuCopyReference(device, copy_count, c.copy, diagnostics)) return false;
    if (!c.sort_passes) return true;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    const VkDeviceSize key_bytes = VkDeviceSize{particles} * sizeof(uint32_t);
    c.keys = vk::createBuffer(device, key_bytes, usage, vk::MemoryUse::device_local, "bench keys",
                              diagnostics);
    c.payloads = vk::createBuffer(device, key_bytes, usage, vk::MemoryUse::device_local,
                                  "bench payloads", diagnostics);
    return c.keys && c.payloads;
}

// Keys of the emitter's `live` draw records in one pass over all its draw-record chunks
// (drawSource): payload i is its record i, whichever chunk holds it, as submitDrawOutput sorts.
void recordKeys(VkCommandBuffer cmd, const SimCase& c, uint32_t live, vec3 eye) {
    recordSortKeys(cmd, *c.keys_pass, drawSource(*c.fx, 0).records, live, kSortBackToFront, eye,
                   c.keys.address, c.payloads.address);
}

struct Times {
    double update_ms = 0, order_ms = 0, draw_ms = 0, keys_ms = 0, sort_ms = 0, copy_ms = 0,
           updated = 0;
};

void stamp(VkCommandBuffer cmd, const SimCase& c, uint32_t query) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), query);
}

// One iteration: a frame of one step (update timed by the hook), then one submission:
// [q0] draw records [q1] keys [q2] sort [q3], barrier, [q4] copy reference [q5] (without the
// sort passes, q0..q3 stamp nothing between them). t.updated: the particles the step updated.
bool runOnce(SimCase& c, Times& t, std::vector<Diagnostic>& diagnostics) {
    GpuEffect& fx = *c.fx;
    t.updated = static_cast<double>(liveCount(fx));
    advanceFrame(fx, fx.effect->effect.fixed_timestep_s);
    if (!fx.errors.empty()) {
        diagnostics.insert(diagnostics.end(), fx.errors.begin(), fx.errors.end());
        return false;
    }
    std::vector<double> update_ms, order_ms;
    if (!takeUpdateTimes(deviceOf(c), *c.timer, update_ms, order_ms, diagnostics)) return false;
    if (update_ms.size() != 1) return fail(diagnostics, "expected one timed step per frame");
    t.update_ms = update_ms[0];
    t.order_ms = order_ms[0];

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
            if (c.sort_passes) recordDrawRecordsPass(fx, cmd);
            stamp(cmd, c, 1);
            if (c.sort_passes) recordKeys(cmd, c, live, eye);
            stamp(cmd, c, 2);
            if (c.sort_passes) {
                recorded = recordGpuRadixSort(cmd, *c.sort, c.keys.address, c.payloads.address,
                                              live, diagnostics);
            }
            stamp(cmd, c, 3);
            vk::computeBarrier(cmd);
            stamp(cmd, c, 4);
            bench::recordGpuCopyReference(cmd, c.copy);
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

// A fresh pool's live count is still N (a churning one's in (0, N]) and the sorted keys ascend
// (back to front: far first).
bool verify(SimCase& c, std::string& problem, std::vector<Diagnostic>& diagnostics) {
    const uint64_t live = liveCount(*c.fx);
    if (isFresh(c.churn) ? live != c.particles : live == 0 || live > c.particles) {
        problem = "live count " + std::to_string(live) + " of " + std::to_string(c.particles);
        return true;
    }
    if (!c.sort_passes) return true;
    // The keys of the live particles the last iteration sorted (the draw pass ran after its step).
    const auto sorted = static_cast<uint32_t>(live);
    const VkDeviceSize bytes = VkDeviceSize{sorted} * sizeof(uint32_t);
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
    for (uint32_t i = 1; i < sorted; ++i) {
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

void BM_GpuSim(benchmark::State& state, Churn churn, bool sort_passes) {
    const auto particles = static_cast<uint32_t>(state.range(0));
    std::vector<Diagnostic> diagnostics;
    SimCase c;
    if (!prepare(particles, churn, sort_passes, c, diagnostics)) {
        for (const Diagnostic& d : diagnostics)
            std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
        state.SkipWithError(diagnostics.empty() ? "prepare failed"
                                                : formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    std::fprintf(stderr,
                 "gpu_sim_bench: capacity %u, %llu live, on %s (%s compaction, update in at most "
                 "%u groups)\n",
                 particles, static_cast<unsigned long long>(liveCount(*c.fx)),
                 c.fx->gpu->device_name.c_str(),
                 c.fx->gpu->passes->variant.subgroup_append ? "subgroup" : "portable",
                 updateWorkgroupCap(c.fx->config.update_max_workgroups, particles));
    Times warm;
    if (!runOnce(c, warm, diagnostics)) { // warm-up: first use of each pipeline
        state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    std::vector<double> update, order, draw, keys, sort, copy, updated;
    for (auto _ : state) {
        Times t;
        if (!runOnce(c, t, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return;
        }
        state.SetIterationTime(t.update_ms * 1e-3);
        update.push_back(t.update_ms);
        order.push_back(t.order_ms);
        draw.push_back(t.draw_ms);
        keys.push_back(t.keys_ms);
        sort.push_back(t.sort_ms);
        copy.push_back(t.copy_ms);
        updated.push_back(t.updated);
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
    // The update's rate over the particles it updated; the copy's over N particles' bytes.
    const double n = mean(updated);
    const double update_ms = mean(update), copy_ms = mean(copy);
    const double update_tbs = kUpdateBytes * n / (update_ms * 1e-3) * 1e-12;
    const double copy_tbs = kUpdateBytes * particles / (copy_ms * 1e-3) * 1e-12;
    state.counters["particles"] = n;
    state.counters["update_ms"] = update_ms;
    state.counters["update_ms_min"] = *std::min_element(update.begin(), update.end());
    state.counters["Gupd/s"] = n / (update_ms * 1e-3) * 1e-9;
    state.counters["update_TB/s"] = update_tbs;
    state.counters["copy_ms"] = copy_ms;
    state.counters["copy_TB/s"] = copy_tbs;
    state.counters["of_copy"] = update_tbs / copy_tbs;
    // The slot sort of the alive list after steps with births (alive_list_order.h): what keeps
    // the churning update's reads in order; 0 in the fresh case (nothing born while timed).
    state.counters["order_ms"] = mean(order);
    if (!sort_passes) return;
    state.counters["draw_ms"] = mean(draw);
    state.counters["keys_ms"] = mean(keys);
    state.counters["sort_ms"] = mean(sort);
    state.counters["sim_sort_ms"] = update_ms + mean(order) + mean(draw) + mean(keys) + mean(sort);
}

void registerSizes() {
    std::string sizes = "1M,10M,100M";
    if (const char* env = std::getenv("SPINDRIFT_SIM_SIZES")) sizes = env;
    int iterations = 30;
    if (const char* env = std::getenv("SPINDRIFT_SIM_ITERATIONS")) iterations = std::atoi(env);
    iterations = std::max(iterations, 1);
    const char* passes = std::getenv("SPINDRIFT_SIM_PASSES");
    const bool sort_passes = passes == nullptr || std::string(passes) != "update";
    std::string cases = "fresh,churn";
    if (const char* env = std::getenv("SPINDRIFT_SIM_CASES")) cases = env;
    struct Case {
        Churn churn;
        const char* option;
        const char* name;
    };
    const Case all[] = {{Churn::fresh, "fresh", "GpuSimBasic"},
                        {Churn::steady, "churn", "GpuSimBasicChurn"},
                        {Churn::steady_stable, "stable", "GpuSimStableChurn"},
                        {Churn::steady_stable_pinned, "pinned", "GpuSimStableChurnPinned"},
                        {Churn::fresh_plane_collision, "plane", "GpuSimPlaneCollision"},
                        {Churn::fresh_depth_collision, "depth", "GpuSimDepthCollision"}};
    // K and M are decimal here (1M = 10^6), as docs/benchmarks.md reports these sizes.
    for (const uint64_t n : bench::parseCounts(sizes, 1000)) {
        const uint64_t count = std::min<uint64_t>(n, kMaxEmitterCapacity);
        if (count <= 1) continue;
        for (const Case& c : all) {
            if (cases.find(c.option) == std::string::npos) continue;
            benchmark::RegisterBenchmark(c.name, BM_GpuSim, c.churn, sort_passes)
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
