// The GPU radix sort (src/gpu/sort/) against a device copy of the same bytes, measured in the
// same run (DESIGN rule 8): random 32-bit keys with 32-bit payloads, device time from timestamp
// queries around the recorded sort alone (the restore of the unsorted input is outside them).
//
// The reference is sort_copy.comp, a compute copy of count keys and count payloads (16 bytes a
// key read + written: what one scatter pass moves at least); not vkCmdCopyBuffer, which runs far
// below the memory's bandwidth on the H200. `vs_copy` = sort time / copy time: an LSD sort of
// 4 passes moves about 4.25 such copies, so a sort bound by bandwidth shows about 4.3.
//
// Both scans run in every iteration, in the same submission (each on a fresh copy of the
// input): the chained scan (the default; `sort_ms`) and reduce-then-scan (`rts_ms`), with
// `chained_vs_rts` = sort_ms / rts_ms (below 1: the chained scan is faster). `fallbacks`: the
// look-back fallbacks of one chained sort (predecessor tiles counted from their keys).
// SPINDRIFT_SORT_SPINS sets the chained scan's look_back_spins (default: the device's).
//
// Device: SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`; empty picks the first GPU,
// else lavapipe). Sizes: SPINDRIFT_SORT_SIZES, comma-separated key counts (suffix K or M, powers
// of two: 1M = 2^20; default "1M,16M,100M" where 100M = 10^8 and is skipped when device memory
// is short; on a CPU device "64K,1M"). After timing, every size is read back and checked
// (ascending keys, each payload pointing at its key). Run: build/bin/gpu_sort_bench.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/bench_effects.h"
#include "embedded_shaders.h"
#include "gpu/sort/gpu_radix_sort.h"
#include "gpu/sort/radix_sort_shared.h"
#include "gpu/sort/sort_context.h"
#include "vulkan/compute.h"
#include "vulkan/vk_error.h"

namespace spindrift::gpu {
namespace {

// The device, opened on first use and closed by main before it returns: a static destroyed after
// main crashed inside the NVIDIA driver, whose own teardown had already run.
std::unique_ptr<SortContext>& contextHolder() {
    static std::unique_ptr<SortContext> holder = std::make_unique<SortContext>();
    return holder;
}

SortContext* sharedContext() {
    SortContext& context = *contextHolder();
    static bool opened = [&context] {
        const char* device = std::getenv("SPINDRIFT_BENCH_DEVICE");
        std::vector<Diagnostic> diagnostics;
        bool ok = openSortContext(false, device != nullptr ? device : "", context, diagnostics);
        for (const Diagnostic& d : diagnostics)
            std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
        if (ok) {
            std::fprintf(stderr, "gpu_sort_bench: device %s (%s)\n", context.physical.name.c_str(),
                         context.physical.driver.c_str());
        }
        return ok;
    }();
    return opened ? &context : nullptr;
}

VkDeviceSize deviceLocalBytes(const vk::Device& device) {
    VkDeviceSize largest = 0;
    const VkPhysicalDeviceMemoryProperties& m = device.memory();
    for (uint32_t i = 0; i < m.memoryHeapCount; ++i) {
        if ((m.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0)
            largest = std::max(largest, m.memoryHeaps[i].size);
    }
    return largest;
}

uvec2 split(VkDeviceAddress a) {
    return uvec2(static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32));
}

// The scans compared, in the order of their timestamps; the first is the default.
constexpr GpuSortScan kScans[] = {GpuSortScan::chained, GpuSortScan::reduce_then_scan};
constexpr uint32_t kScanCount = 2;
// Timestamps: a pair around each scan's sort, a pair around the copy, then one sort's phases,
// then a pair around each cut sort (the sort cut after phase k, k = 1 .. kGpuSortPhaseQueries).
constexpr uint32_t kCopyQuery = 2 * kScanCount;
constexpr uint32_t kPhaseQuery = kCopyQuery + 2;
constexpr uint32_t kCutQuery = kPhaseQuery + kGpuSortPhaseQueries;
constexpr uint32_t kQueryCount = kCutQuery + 2 * kGpuSortPhaseQueries;

// Everything one size needs, kept for all its iterations.
struct SortCase {
    uint32_t count = 0;
    std::optional<GpuRadixSort> sorts[kScanCount]; // as kScans
    vk::OwnedPipelineLayout copy_layout;
    vk::OwnedPipeline copy;
    vk::OwnedQueryPool queries;
    vk::Buffer keys, payloads;               // sorted in place
    vk::Buffer source_keys, source_payloads; // the unsorted input, restored before each sort
    vk::Buffer copy_keys, copy_payloads;     // the reference copy's destination
    std::vector<uint32_t> host_keys;
};

void recordCopy(VkCommandBuffer cmd, const SortCase& c, VkDeviceAddress src_keys,
                VkDeviceAddress src_payloads, VkDeviceAddress dst_keys,
                VkDeviceAddress dst_payloads) {
    RadixSortPush push{};
    push.src_keys = split(src_keys);
    push.src_payloads = split(src_payloads);
    push.dst_keys = split(dst_keys);
    push.dst_payloads = split(dst_payloads);
    push.count = c.count;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c.copy.get());
    vkCmdPushConstants(cmd, c.copy_layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                       &push);
    // Enough groups to fill any GPU; the shader loops grid-stride.
    const uint32_t groups = std::min(c.count / kSortWorkgroupSize + 1u, 8192u);
    vkCmdDispatch(cmd, groups, 1, 1);
}

bool prepare(SortContext& ctx, uint32_t count, SortCase& c, std::vector<Diagnostic>& diagnostics) {
    const vk::Device& device = *ctx.device;
    c.count = count;
    for (uint32_t s = 0; s < kScanCount; ++s) {
        GpuRadixSortConfig config;
        config.max_count = count;
        config.scan = kScans[s];
        if (const char* spins = std::getenv("SPINDRIFT_SORT_SPINS")) {
            config.look_back_spins = static_cast<uint32_t>(std::strtoul(spins, nullptr, 10));
        }
        c.sorts[s] = createGpuRadixSort(device, config, diagnostics);
        if (!c.sorts[s]) return false;
    }
    c.copy_layout =
        vk::createComputeLayout(device.handle(), sizeof(RadixSortPush), "copy", diagnostics);
    if (!c.copy_layout) return false;
    const shaders::SpirvCode& code = shaders::kSortCopyComp;
    c.copy =
        vk::createComputePipeline(device.handle(), c.copy_layout.get(),
                                  {code.words, code.word_count}, code.source, nullptr, diagnostics);
    if (!c.copy) return false;

    VkQueryPoolCreateInfo query_info{};
    query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = kQueryCount;
    VkQueryPool pool = VK_NULL_HANDLE;
    if (!vk::check(vkCreateQueryPool(device.handle(), &query_info, nullptr, &pool),
                   "vkCreateQueryPool", diagnostics)) {
        return false;
    }
    c.queries = vk::OwnedQueryPool(device.handle(), pool);

    const VkDeviceSize bytes = VkDeviceSize{count} * sizeof(uint32_t);
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    for (vk::Buffer* b : {&c.keys, &c.payloads, &c.source_keys, &c.source_payloads, &c.copy_keys,
                          &c.copy_payloads}) {
        *b = vk::createBuffer(device, bytes, usage, vk::MemoryUse::device_local, "bench buffer",
                              diagnostics);
        if (!*b) return false;
    }

    c.host_keys.resize(count);
    std::mt19937 rng(12345u);
    for (uint32_t& k : c.host_keys) k = static_cast<uint32_t>(rng());
    std::vector<uint32_t> indices(count);
    for (uint32_t i = 0; i < count; ++i) indices[i] = i;
    for (auto [data, target] : {std::pair{c.host_keys.data(), &c.source_keys},
                                std::pair{indices.data(), &c.source_payloads}}) {
        vk::Buffer upload = vk::createBuffer(device, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                             vk::MemoryUse::upload, "bench upload", diagnostics);
        if (!upload) return false;
        std::memcpy(upload.mapped, data, bytes);
        VkBuffer dst = target->get();
        if (!ctx.runner->run(
                "bench upload",
                [&](VkCommandBuffer cmd) {
                    VkBufferCopy region{0, 0, bytes};
                    vkCmdCopyBuffer(cmd, upload.get(), dst, 1, &region);
                },
                diagnostics)) {
            return false;
        }
    }
    return true;
}

// Device time of one sort's phases (the cut profile: differences of the sort cut after each).
struct Phases {
    double histogram_ms = 0, upsweep_ms = 0, scan_ms = 0, downsweep_ms = 0;
};

double periodMs(const SortContext& ctx) {
    return ctx.device->support().timestamp_period_ns * 1e-6;
}

// Queries first .. first + count - 1 into stamps[first ..]; every one must have been written.
bool readStamps(SortContext& ctx, const SortCase& c, uint32_t first, uint32_t count,
                uint64_t* stamps, std::vector<Diagnostic>& diagnostics) {
    return vk::check(vkGetQueryPoolResults(ctx.device->handle(), c.queries.get(), first, count,
                                           count * sizeof(uint64_t), stamps + first,
                                           sizeof(uint64_t),
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                     "vkGetQueryPoolResults", diagnostics);
}

// Restores the unsorted input into the buffers the sorts sort in place.
void recordRestore(VkCommandBuffer cmd, const SortCase& c) {
    recordCopy(cmd, c, c.source_keys.address, c.source_payloads.address, c.keys.address,
               c.payloads.address);
    vk::computeBarrier(cmd);
}

// One submission: per scan, restore the input then [t 2s] sort [t 2s+1]; then [t4] reference
// copy [t5]. The last scan's result stays in c.keys.
bool runOnce(SortContext& ctx, SortCase& c, double (&sort_ms)[kScanCount], double& copy_ms,
             std::vector<Diagnostic>& diagnostics) {
    bool recorded = true;
    auto record = [&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, c.queries.get(), 0, kQueryCount);
        for (uint32_t s = 0; s < kScanCount; ++s) {
            recordRestore(cmd, c);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 2 * s);
            recorded = recorded && recordGpuRadixSort(cmd, *c.sorts[s], c.keys.address,
                                                      c.payloads.address, c.count, diagnostics);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(),
                                 2 * s + 1);
            vk::computeBarrier(cmd);
        }
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(),
                             kCopyQuery);
        recordCopy(cmd, c, c.source_keys.address, c.source_payloads.address, c.copy_keys.address,
                   c.copy_payloads.address);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(),
                             kCopyQuery + 1);
    };
    if (!ctx.runner->run("sort bench", record, diagnostics) || !recorded) return false;
    uint64_t stamps[kPhaseQuery] = {};
    if (!readStamps(ctx, c, 0, kPhaseQuery, stamps, diagnostics)) return false;
    const double period_ms = periodMs(ctx);
    for (uint32_t s = 0; s < kScanCount; ++s) {
        sort_ms[s] = static_cast<double>(stamps[2 * s + 1] - stamps[2 * s]) * period_ms;
    }
    copy_ms = static_cast<double>(stamps[kCopyQuery + 1] - stamps[kCopyQuery]) * period_ms;
    return true;
}

// A profile's submission begins with its queries reset and one unprofiled sort of scan s on a
// restored input, so the device is busy and at its working clock when the profiled work starts
// (a lone profiled sort after the host's checks ran at idle clocks).
bool recordWarmUp(VkCommandBuffer cmd, const SortCase& c, uint32_t s,
                  std::vector<Diagnostic>& diagnostics) {
    vkCmdResetQueryPool(cmd, c.queries.get(), 0, kQueryCount);
    recordRestore(cmd, c);
    const bool recorded = recordGpuRadixSort(cmd, *c.sorts[s], c.keys.address, c.payloads.address,
                                             c.count, diagnostics);
    vk::computeBarrier(cmd);
    return recorded;
}

// The stamped profile: one submission of restore, an unprofiled sort (the device busy and at its
// working clock), restore, [t0] the sort of scan s with a stamp after every dispatch. Kept to
// show what stamps between dispatches do to a sort: its whole span (last stamp - t0) against
// the timed sort (`stamped_vs_sort`). Its result stays in c.keys.
bool stampedOnce(SortContext& ctx, SortCase& c, uint32_t s, double& whole_ms,
                 std::vector<Diagnostic>& diagnostics) {
    bool recorded = true;
    auto record = [&](VkCommandBuffer cmd) {
        recorded = recordWarmUp(cmd, c, s, diagnostics);
        recordRestore(cmd, c);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 0);
        recorded =
            recorded && recordGpuRadixSort(cmd, *c.sorts[s], c.keys.address, c.payloads.address,
                                           c.count, diagnostics, {c.queries.get(), kPhaseQuery});
    };
    if (!ctx.runner->run("sort bench stamped profile", record, diagnostics) || !recorded) {
        return false;
    }
    uint64_t stamps[kQueryCount] = {};
    if (!readStamps(ctx, c, 0, 1, stamps, diagnostics) ||
        !readStamps(ctx, c, kPhaseQuery, kGpuSortPhaseQueries, stamps, diagnostics)) {
        return false;
    }
    whole_ms = static_cast<double>(stamps[kPhaseQuery + kGpuSortPhaseQueries - 1] - stamps[0]) *
               periodMs(ctx);
    return true;
}

// The cut profile: one submission of restore, an unprofiled sort, then for k = 1 .. 13: restore,
// [t] the sort of scan s cut after phase k (GpuSortTimestamps::phase_count), [t]. Each cut is
// timed as the timed sorts are (a stamp before and after, none between its dispatches), so
// phase k - 1 costs cut[k] - cut[k - 1] and the phases add up to the full sort (cut[13]). At
// 100M a stamp after every dispatch made the reduce-then-scan sort 3x slower than the same sort
// timed whole (docs/benchmarks.md); cut runs cannot be moved that way. The last cut is the full
// sort: its result stays in c.keys.
bool cutOnce(SortContext& ctx, SortCase& c, uint32_t s, double (&cut_ms)[kGpuSortPhaseQueries + 1],
             std::vector<Diagnostic>& diagnostics) {
    bool recorded = true;
    auto record = [&](VkCommandBuffer cmd) {
        recorded = recordWarmUp(cmd, c, s, diagnostics);
        for (uint32_t k = 1; k <= kGpuSortPhaseQueries; ++k) {
            recordRestore(cmd, c);
            const uint32_t q = kCutQuery + 2 * (k - 1);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), q);
            GpuSortTimestamps cut;
            cut.phase_count = k;
            recorded =
                recorded && recordGpuRadixSort(cmd, *c.sorts[s], c.keys.address, c.payloads.address,
                                               c.count, diagnostics, cut);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), q + 1);
            vk::computeBarrier(cmd);
        }
    };
    if (!ctx.runner->run("sort bench cut profile", record, diagnostics) || !recorded) return false;
    uint64_t stamps[kQueryCount] = {};
    if (!readStamps(ctx, c, kCutQuery, 2 * kGpuSortPhaseQueries, stamps, diagnostics)) return false;
    const double period_ms = periodMs(ctx);
    cut_ms[0] = 0;
    for (uint32_t k = 1; k <= kGpuSortPhaseQueries; ++k) {
        const uint32_t q = kCutQuery + 2 * (k - 1);
        cut_ms[k] = static_cast<double>(stamps[q + 1] - stamps[q]) * period_ms;
    }
    return true;
}

// Each cut's median over kProfileRuns cut profiles, then the phases as differences of the
// medians (a phase of a few microseconds can come out slightly negative: noise, left as
// measured); and the median whole span of kProfileRuns stamped profiles.
constexpr int kProfileRuns = 5;
bool profileMedian(SortContext& ctx, SortCase& c, uint32_t s, Phases& phases, double& full_ms,
                   double& stamped_ms, std::vector<Diagnostic>& diagnostics) {
    double cuts[kProfileRuns][kGpuSortPhaseQueries + 1];
    double stamped[kProfileRuns];
    for (int r = 0; r < kProfileRuns; ++r) {
        if (!stampedOnce(ctx, c, s, stamped[r], diagnostics)) return false;
    }
    for (auto& run : cuts) {
        if (!cutOnce(ctx, c, s, run, diagnostics)) return false;
    }
    auto median = [](double* values) {
        std::nth_element(values, values + kProfileRuns / 2, values + kProfileRuns);
        return values[kProfileRuns / 2];
    };
    double cut[kGpuSortPhaseQueries + 1];
    for (uint32_t k = 0; k <= kGpuSortPhaseQueries; ++k) {
        double values[kProfileRuns];
        for (int r = 0; r < kProfileRuns; ++r) values[r] = cuts[r][k];
        cut[k] = median(values);
    }
    phases = {};
    phases.histogram_ms = cut[1];
    for (uint32_t pass = 0; pass < kSortPasses; ++pass) {
        const uint32_t before = 1 + 3 * pass; // the cut ending the previous phase
        phases.upsweep_ms += cut[before + 1] - cut[before];
        phases.scan_ms += cut[before + 2] - cut[before + 1];
        phases.downsweep_ms += cut[before + 3] - cut[before + 2];
    }
    full_ms = cut[kGpuSortPhaseQueries];
    stamped_ms = median(stamped);
    return true;
}

// The chained sort's counter of look-back fallbacks (its last sort's).
bool readFallbacks(SortContext& ctx, const GpuRadixSort& sort, uint32_t& fallbacks,
                   std::vector<Diagnostic>& diagnostics) {
    vk::Buffer back =
        vk::createBuffer(*ctx.device, sizeof(uint32_t), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::readback, "bench fallbacks", diagnostics);
    if (!back) return false;
    if (!ctx.runner->run(
            "bench fallbacks",
            [&](VkCommandBuffer cmd) {
                VkBufferCopy region{kSortFallbackWord * sizeof(uint32_t), 0, sizeof(uint32_t)};
                vkCmdCopyBuffer(cmd, sort.digit_counts.get(), back.get(), 1, &region);
                vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                                  VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                                  VK_ACCESS_2_HOST_READ_BIT);
            },
            diagnostics)) {
        return false;
    }
    std::memcpy(&fallbacks, back.mapped, sizeof fallbacks);
    return true;
}

// Reads the sorted pairs back: keys ascending and payload[i] the input index of key[i].
bool verify(SortContext& ctx, const SortCase& c, std::string& problem,
            std::vector<Diagnostic>& diagnostics) {
    const VkDeviceSize bytes = VkDeviceSize{c.count} * sizeof(uint32_t);
    vk::Buffer back = vk::createBuffer(*ctx.device, 2 * bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                       vk::MemoryUse::readback, "bench readback", diagnostics);
    if (!back) return false;
    if (!ctx.runner->run(
            "bench readback",
            [&](VkCommandBuffer cmd) {
                VkBufferCopy k{0, 0, bytes};
                VkBufferCopy p{0, bytes, bytes};
                vkCmdCopyBuffer(cmd, c.keys.get(), back.get(), 1, &k);
                vkCmdCopyBuffer(cmd, c.payloads.get(), back.get(), 1, &p);
                vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                                  VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                                  VK_ACCESS_2_HOST_READ_BIT);
            },
            diagnostics)) {
        return false;
    }
    const uint32_t* keys = static_cast<const uint32_t*>(back.mapped);
    const uint32_t* payloads = keys + c.count;
    for (uint32_t i = 0; i < c.count; ++i) {
        if (payloads[i] >= c.count || c.host_keys[payloads[i]] != keys[i] ||
            (i > 0 && keys[i - 1] > keys[i]) ||
            (i > 0 && keys[i - 1] == keys[i] && payloads[i - 1] > payloads[i])) {
            problem = "wrong result at " + std::to_string(i);
            return true;
        }
    }
    return true;
}

void BM_GpuRadixSort(benchmark::State& state) {
    SortContext* ctx = sharedContext();
    if (ctx == nullptr) {
        state.SkipWithError("no Vulkan device (see stderr)");
        return;
    }
    const uint32_t count = static_cast<uint32_t>(state.range(0));
    // Six key-sized buffers here plus each sort's two and its tile counts, with headroom.
    const VkDeviceSize need = VkDeviceSize{count} * 4 * 11;
    if (need > deviceLocalBytes(*ctx->device) / 10 * 8) {
        state.SkipWithError("not enough device memory for this size");
        return;
    }
    std::vector<Diagnostic> diagnostics;
    SortCase c;
    if (!prepare(*ctx, count, c, diagnostics)) {
        state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    double sort_total[kScanCount] = {}, copy_total = 0;
    std::vector<double> sorts;
    for (auto _ : state) {
        double sort_ms[kScanCount] = {}, copy_ms = 0;
        if (!runOnce(*ctx, c, sort_ms, copy_ms, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return;
        }
        state.SetIterationTime(sort_ms[0] * 1e-3);
        for (uint32_t s = 0; s < kScanCount; ++s) sort_total[s] += sort_ms[s];
        copy_total += copy_ms;
        sorts.push_back(sort_ms[0]);
    }
    // Per scan: the stamped and the cut profiles, then the last result (a full sort) checked.
    Phases phases[kScanCount];
    double full_ms[kScanCount] = {}, stamped_ms[kScanCount] = {};
    uint32_t fallbacks = 0;
    for (uint32_t s = 0; s < kScanCount; ++s) {
        std::string problem;
        if (!profileMedian(*ctx, c, s, phases[s], full_ms[s], stamped_ms[s], diagnostics) ||
            (s == 0 && !readFallbacks(*ctx, *c.sorts[0], fallbacks, diagnostics)) ||
            !verify(*ctx, c, problem, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return;
        }
        if (!problem.empty()) {
            problem += s == 0 ? " (chained scan)" : " (reduce-then-scan)";
            state.SkipWithError(problem.c_str());
            return;
        }
    }
    const double n = static_cast<double>(state.iterations());
    std::sort(sorts.begin(), sorts.end());
    const double sort_ms = sort_total[0] / n, rts_ms = sort_total[1] / n, copy_ms = copy_total / n;
    state.counters["sort_ms"] = sort_ms;
    state.counters["sort_ms_min"] = sorts.front();
    state.counters["Gkeys/s"] = count / (sort_ms * 1e-3) * 1e-9;
    state.counters["copy_ms"] = copy_ms;
    state.counters["copy_TB/s"] = 16.0 * count / (copy_ms * 1e-3) * 1e-12;
    state.counters["vs_copy"] = sort_ms / copy_ms;
    state.counters["rts_ms"] = rts_ms;
    state.counters["rts_vs_copy"] = rts_ms / copy_ms;
    state.counters["chained_vs_rts"] = sort_ms / rts_ms;
    // The cut profile of each (medians of the sort cut after each phase): where the time goes.
    // The chained scan's downsweep includes its look-back; it has no upsweep or scan.
    state.counters["hist_ms"] = phases[0].histogram_ms;
    state.counters["down_ms"] = phases[0].downsweep_ms;
    state.counters["rts_up_ms"] = phases[1].upsweep_ms;
    state.counters["rts_scan_ms"] = phases[1].scan_ms;
    state.counters["rts_down_ms"] = phases[1].downsweep_ms;
    // The profiled phases (they add up to the cut profile's full sort) against the timed sort:
    // near 1 when the cut runs describe the timed sorts. And the stamped profile's whole span
    // against the timed sort: what stamps after every dispatch do to it.
    auto total = [](const Phases& p) {
        return p.histogram_ms + p.upsweep_ms + p.scan_ms + p.downsweep_ms;
    };
    state.counters["profile_vs_sort"] = total(phases[0]) / sort_ms;
    state.counters["rts_profile_vs_rts"] = total(phases[1]) / rts_ms;
    state.counters["full_cut_ms"] = full_ms[0];
    state.counters["rts_full_cut_ms"] = full_ms[1];
    state.counters["stamped_vs_sort"] = stamped_ms[0] / sort_ms;
    state.counters["rts_stamped_vs_rts"] = stamped_ms[1] / rts_ms;
    // One downsweep (a pass's scatter: 16 B a key read + written) against the copy of the same
    // bytes: 1 would be copy bandwidth.
    state.counters["down_vs_copy"] = phases[0].downsweep_ms / kSortPasses / copy_ms;
    state.counters["rts_down_vs_copy"] = phases[1].downsweep_ms / kSortPasses / copy_ms;
    state.counters["fallbacks"] = fallbacks;
    state.counters["spins"] = c.sorts[0]->look_back_spins;
    state.counters["ballot"] = c.sorts[0]->subgroup_ranking ? 1 : 0;
    state.counters["subgroup"] = c.sorts[0]->subgroup_size;
}

void registerSizes() {
    std::string sizes;
    if (const char* env = std::getenv("SPINDRIFT_SORT_SIZES")) {
        sizes = env;
    } else {
        SortContext* ctx = sharedContext();
        sizes = ctx != nullptr && ctx->physical.type == "cpu" ? "64K,1M" : "1M,16M,100000000";
    }
    // K and M are binary here (1M = 2^20), as docs/benchmarks.md reports these sizes.
    for (const uint64_t n : bench::parseCounts(sizes, 1024)) {
        const uint64_t count = std::min<uint64_t>(n, kGpuSortMaxCount);
        if (count > 1) {
            benchmark::RegisterBenchmark("GpuRadixSort", BM_GpuRadixSort)
                ->Arg(static_cast<int64_t>(count))
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
