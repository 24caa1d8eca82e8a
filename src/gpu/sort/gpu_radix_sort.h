// GPU radix sort: sorts count 32-bit keys with 32-bit payloads (e.g. record indices) on the
// device, ascending and stable (equal keys keep their input order), in place. LSD radix sort,
// 8-bit digits (docs/gpu-sort.md): one histogram sweep, then per pass one kernel that ranks tiles
// and finds their output positions by a chained scan (decoupled look-back with fallback), or,
// where asked, reduce-then-scan (an upsweep, a scan and a downsweep per pass); a pass whose digit
// is the same for every key only copies.
//
// Scratch (a second key and payload buffer, tile counts, the histogram) is sized at creation for
// max_count keys and reused; recording allocates nothing. The sort records into the caller's
// command buffer, so it can follow simulation passes in the same submission. One GpuRadixSort
// holds one scratch: sorts recorded on one queue run in order (each begins with a barrier
// against earlier compute and transfer work), but two queues must not share one. Not
// thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/commands.h"
#include "vulkan/context.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::gpu {

// The most keys one sort takes: each buffer (keys or payloads, 4 bytes a key) stays within
// 4 GiB - 2 MiB (larger buffers misbehave on the H200; ../shared/gpu-facts.md).
inline constexpr uint32_t kGpuSortMaxCount = (4u << 28) - (1u << 19); // 2^30 - 2^19

// automatic: reduce-then-scan on a GPU, the chained scan on a CPU device. Measured in the same
// runs (docs/benchmarks.md, "GPU radix sort"): on the H200 the chained scan's look-back, exposed
// at two workgroups per SM, makes 16M keys 1.09x slower (1.06 against 0.97 ms); on lavapipe,
// where the scan kernels' dispatches and barriers dominate, it takes 0.36-0.84x the time.
enum class GpuSortScan : uint8_t { chained = 0, reduce_then_scan = 1, automatic = 2 };

inline constexpr uint32_t kGpuSortLookBackSpinsAuto = UINT32_MAX;
inline constexpr uint32_t kGpuSortLookBackSpinsGpu = 64;
// Fewer on a CPU device (lavapipe): a predecessor whose thread the OS has descheduled is
// milliseconds away, while counting its 4096 keys takes microseconds.
inline constexpr uint32_t kGpuSortLookBackSpinsCpu = 16;
// Above this, a look-back could exceed lavapipe's 65 535 loop iterations per invocation.
inline constexpr uint32_t kGpuSortLookBackSpinsMax = 4096;

struct GpuRadixSortConfig {
    uint32_t max_count = 0; // 1..kGpuSortMaxCount; scratch is sized for it
    // Rank with the portable shared-memory path even where subgroup ballot exists (tests use it
    // to cover the path devices without ballot take).
    bool force_portable_ranking = false;
    // How tiles find their output positions: the chained scan (one kernel per pass; correct on
    // any device, since no tile ever waits on another without a bound) or reduce-then-scan
    // (upsweep + scan + downsweep per pass); gpu_sort_bench runs both.
    GpuSortScan scan = GpuSortScan::automatic;
    // Chained scan: reads of a predecessor's unpublished status word a tile makes (in all, per
    // tile) before it counts that predecessor's digits itself. kGpuSortLookBackSpinsAuto: the
    // device's default (kGpuSortLookBackSpinsGpu, or kGpuSortLookBackSpinsCpu on a CPU device).
    uint32_t look_back_spins = kGpuSortLookBackSpinsAuto;
    // Tests: every tile counts its nearest predecessor's digits itself (the fallback path).
    bool force_look_back_fallback = false;
};

// The sort's compute pipelines for one resolved configuration: the same for every sort of that
// configuration on a device, so sorts made with a vk::Context share them (vk::sharedObject).
struct GpuRadixSortPipelines {
    vk::OwnedPipelineLayout layout;
    vk::OwnedPipeline histogram;
    vk::OwnedPipeline upsweep; // reduce-then-scan only
    vk::OwnedPipeline scan;    // reduce-then-scan only
    vk::OwnedPipeline downsweep;
};

struct GpuRadixSort {
    uint32_t max_count = 0;
    bool subgroup_ranking = false; // ballot ranking and subgroup scans (else the portable path)
    uint32_t subgroup_size = 0;    // the device's (VkPhysicalDeviceSubgroupProperties)
    bool chained_scan = false;     // else reduce-then-scan
    uint32_t look_back_spins = 0;  // chained scan: as resolved from the config
    std::shared_ptr<const GpuRadixSortPipelines> pipelines;
    vk::Buffer alt_keys;     // max_count uints: odd passes write here
    vk::Buffer alt_payloads; // max_count uints
    vk::Buffer tile_counts;  // kSortRadix uints per tile (chained scan: twice that)
    // kSortCounterWords uints (radix_sort_shared.h): histograms, tickets, and at
    // kSortFallbackWord the look-back fallbacks of the last sort (transfer source: tests and the
    // benchmark read it back)
    vk::Buffer digit_counts;
};

// Pipelines and scratch for sorts of up to config.max_count keys. The ballot path is chosen when
// the device's compute stage has basic, ballot and shuffle subgroup operations and its subgroup
// size is a power of two from 8 to 128; otherwise (or when forced) the portable path. std::nullopt
// with an error when max_count is 0 or above kGpuSortMaxCount, look_back_spins is above
// kGpuSortLookBackSpinsMax (and not auto), a scratch buffer exceeds the device's allocation
// limit, or a Vulkan call fails.
// With `shared` (the context of `device`), the pipelines are those of every other sort of the same
// configuration made on it, compiled by the first (a GPU instance's draw-order and alive-list sorts
// then compile nothing after the device's first); without, the sort's own.
std::optional<GpuRadixSort> createGpuRadixSort(const vk::Device& device,
                                               const GpuRadixSortConfig& config,
                                               std::vector<Diagnostic>& diagnostics,
                                               vk::Context* shared = nullptr);

// Records the sort of count keys at device address `keys` with their payloads at `payloads`
// (each count uints in buffers created with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT and
// storage usage); the sorted pairs end in the same buffers. First records a barrier that makes
// earlier compute-shader and transfer writes visible; the caller adds the barrier its reader
// needs after (the sort's last writes are compute-shader writes). count 0 and 1 record nothing.
// False with an error, recording nothing, when count > sort.max_count.
// Profiling: with a timestamp query pool, query first_query + k is written after phase k:
// 0 histogram, then per pass p: 1 + 3p upsweep, 2 + 3p scan, 3 + 3p downsweep
// (kGpuSortPhaseQueries in all; the caller resets them and writes its own start stamp). The
// chained scan has no upsweep or scan: their stamps follow the previous phase's at once.
// With phase_count < kGpuSortPhaseQueries only phases 0 .. phase_count - 1 are dispatched (the
// keys are then not sorted): a profiler times the sort cut after each phase and takes the
// differences, so each phase is measured without stamps between the dispatches
// (bench/gpu/gpu_sort_bench.cpp, docs/benchmarks.md).
inline constexpr uint32_t kGpuSortPhaseQueries = 13;
struct GpuSortTimestamps {
    VkQueryPool pool = VK_NULL_HANDLE;
    uint32_t first_query = 0;
    uint32_t phase_count = kGpuSortPhaseQueries;
};

bool recordGpuRadixSort(VkCommandBuffer cmd, const GpuRadixSort& sort, VkDeviceAddress keys,
                        VkDeviceAddress payloads, uint32_t count,
                        std::vector<Diagnostic>& diagnostics,
                        const GpuSortTimestamps& timestamps = {});

// Convenience for tests and tools: uploads keys and payloads (same size), sorts them on the
// device, waits, and reads the result back into the spans. Allocates staging buffers per call.
bool gpuSortAndWait(const vk::Device& device, vk::CommandRunner& runner, const GpuRadixSort& sort,
                    std::span<uint32_t> keys, std::span<uint32_t> payloads,
                    std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::gpu
