// The GPU radix sort (src/gpu/sort/) against a device copy of the same bytes, measured in the
// same run (DESIGN rule 8): random 32-bit keys with 32-bit payloads, device time from timestamp
// queries around the recorded sort alone (the restore of the unsorted input is outside them).
//
// The reference is sort_copy.comp, a compute copy of count keys and count payloads (16 bytes a
// key read + written: what one scatter pass moves at least); not vkCmdCopyBuffer, which runs far
// below the memory's bandwidth on the H200. `vs_copy` = sort time / copy time: an LSD sort of
// 4 passes moves about 4.25 such copies, so a sort bound by bandwidth shows about 4.3.
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

// Everything one size needs, kept for all its iterations.
struct SortCase {
    uint32_t count = 0;
    std::optional<GpuRadixSort> sort;
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
    GpuRadixSortConfig config;
    config.max_count = count;
    c.sort = createGpuRadixSort(device, config, diagnostics);
    if (!c.sort) return false;
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
    query_info.queryCount = 4 + kGpuSortPhaseQueries;
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

// Device time of the sort's phases in one profiled run (timestamps between every dispatch).
struct Phases {
    double histogram_ms = 0, upsweep_ms = 0, scan_ms = 0, downsweep_ms = 0;
};

// One submission: restore the input, then [t0] sort [t1], then [t2] reference copy [t3]. With
// phases, the sort also stamps after each dispatch (queries 4..16).
bool runOnce(SortContext& ctx, SortCase& c, double& sort_ms, double& copy_ms,
             std::vector<Diagnostic>& diagnostics, Phases* phases = nullptr) {
    bool recorded = true;
    const uint32_t query_count = 4 + kGpuSortPhaseQueries;
    GpuSortTimestamps stamps_at;
    if (phases != nullptr) stamps_at = {c.queries.get(), 4};
    auto record = [&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, c.queries.get(), 0, query_count);
        recordCopy(cmd, c, c.source_keys.address, c.source_payloads.address, c.keys.address,
                   c.payloads.address);
        vk::computeBarrier(cmd);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 0);
        recorded = recordGpuRadixSort(cmd, *c.sort, c.keys.address, c.payloads.address, c.count,
                                      diagnostics, stamps_at);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 1);
        vk::computeBarrier(cmd);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 2);
        recordCopy(cmd, c, c.source_keys.address, c.source_payloads.address, c.copy_keys.address,
                   c.copy_payloads.address);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries.get(), 3);
    };
    if (!ctx.runner->run("sort bench", record, diagnostics) || !recorded) return false;
    uint64_t stamps[4 + kGpuSortPhaseQueries] = {};
    const uint32_t read_count = phases != nullptr ? query_count : 4u;
    if (!vk::check(vkGetQueryPoolResults(ctx.device->handle(), c.queries.get(), 0, read_count,
                                         read_count * sizeof(uint64_t), stamps, sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults", diagnostics)) {
        return false;
    }
    const double period_ms = ctx.device->support().timestamp_period_ns * 1e-6;
    sort_ms = static_cast<double>(stamps[1] - stamps[0]) * period_ms;
    copy_ms = static_cast<double>(stamps[3] - stamps[2]) * period_ms;
    if (phases != nullptr) {
        auto span = [&](uint32_t from, uint32_t to) {
            return static_cast<double>(stamps[to] - stamps[from]) * period_ms;
        };
        phases->histogram_ms = span(0, 4);
        for (uint32_t pass = 0; pass < kSortPasses; ++pass) {
            const uint32_t before = 4 + 3 * pass; // the stamp ending the previous phase
            phases->upsweep_ms += span(before, before + 1);
            phases->scan_ms += span(before + 1, before + 2);
            phases->downsweep_ms += span(before + 2, before + 3);
        }
    }
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
    // Six key-sized buffers here plus the sort's two and its tile counts, with headroom.
    const VkDeviceSize need = VkDeviceSize{count} * 4 * 9;
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
    double sort_total = 0, copy_total = 0;
    std::vector<double> sorts;
    for (auto _ : state) {
        double sort_ms = 0, copy_ms = 0;
        if (!runOnce(*ctx, c, sort_ms, copy_ms, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return;
        }
        state.SetIterationTime(sort_ms * 1e-3);
        sort_total += sort_ms;
        copy_total += copy_ms;
        sorts.push_back(sort_ms);
    }
    Phases phases;
    double profiled_sort_ms = 0, profiled_copy_ms = 0;
    if (!runOnce(*ctx, c, profiled_sort_ms, profiled_copy_ms, diagnostics, &phases)) {
        state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    std::string problem;
    if (!verify(*ctx, c, problem, diagnostics)) {
        state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
        return;
    }
    if (!problem.empty()) {
        state.SkipWithError(problem.c_str());
        return;
    }
    const double n = static_cast<double>(state.iterations());
    std::sort(sorts.begin(), sorts.end());
    const double sort_ms = sort_total / n, copy_ms = copy_total / n;
    state.counters["sort_ms"] = sort_ms;
    state.counters["sort_ms_min"] = sorts.front();
    state.counters["Gkeys/s"] = count / (sort_ms * 1e-3) * 1e-9;
    state.counters["copy_ms"] = copy_ms;
    state.counters["copy_TB/s"] = 16.0 * count / (copy_ms * 1e-3) * 1e-12;
    state.counters["vs_copy"] = sort_ms / copy_ms;
    // One profiled run (a timestamp between every dispatch): where the time goes.
    state.counters["hist_ms"] = phases.histogram_ms;
    state.counters["up_ms"] = phases.upsweep_ms;
    state.counters["scan_ms"] = phases.scan_ms;
    state.counters["down_ms"] = phases.downsweep_ms;
    // One downsweep (a pass's scatter: 16 B a key read + written) against the copy of the same
    // bytes: 1 would be copy bandwidth.
    state.counters["down_vs_copy"] = phases.downsweep_ms / kSortPasses / copy_ms;
    state.counters["ballot"] = c.sort->subgroup_ranking ? 1 : 0;
    state.counters["subgroup"] = c.sort->subgroup_size;
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
