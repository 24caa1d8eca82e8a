#include "gpu/sort/gpu_radix_sort.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <string>

#include "embedded_shaders.h"
#include "gpu/sort/radix_sort_shared.h"
#include "gpu/subgroup_support.h"
#include "vulkan/compute.h"
#include "vulkan/physical_device.h"
#include "vulkan/vk_error.h"

namespace spindrift::gpu {

namespace {

// The chained scan's status words hold counts of keys below 2^30, under their flag bits.
static_assert(kGpuSortMaxCount <= kSortStatusValueMask);

// Each buffer at most 4 GiB - 2 MiB (../shared/gpu-facts.md: larger ones misbehave on the H200).
constexpr VkDeviceSize kMaxBufferBytes = (VkDeviceSize{4} << 30) - (VkDeviceSize{2} << 20);

// The subgroup path (ballot ranking, subgroup scans) needs ballot, shuffle and arithmetic, and a
// power-of-two subgroup that divides the workgroup, has 8 lanes or more (at most 32 ranking
// groups fit the shared counters) and 128 or fewer (a uvec4 ballot).
bool subgroupPathFits(const SubgroupSupport& s) {
    const bool power_of_two = s.size != 0 && (s.size & (s.size - 1)) == 0;
    return s.ballot && s.arithmetic && power_of_two && s.size >= 8 && s.size <= 128;
}

uvec2 splitAddress(VkDeviceAddress address) {
    return uvec2(static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32));
}

uint32_t tilesFor(uint32_t count) {
    return count / kSortTileKeys + (count % kSortTileKeys != 0 ? 1u : 0u);
}

std::span<const uint32_t> words(const shaders::SpirvCode& code) {
    return {code.words, code.word_count};
}

vk::Buffer scratchBuffer(const vk::Device& device, VkDeviceSize bytes, VkBufferUsageFlags usage,
                         VkDeviceSize limit, const char* what,
                         std::vector<Diagnostic>& diagnostics) {
    if (bytes > limit) {
        diagnostics.push_back(vk::vulkanSetupError(
            "createGpuRadixSort", std::string(what) + " needs " + std::to_string(bytes) +
                                      " bytes, above the per-buffer limit of " +
                                      std::to_string(limit)));
        return {};
    }
    return vk::createBuffer(device, bytes,
                            usage | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                            vk::MemoryUse::device_local, what, diagnostics);
}

void dispatch(VkCommandBuffer cmd, const GpuRadixSort& sort, const vk::OwnedPipeline& pipeline,
              const RadixSortPush& push, uint32_t groups) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
    vkCmdPushConstants(cmd, sort.pipelines->layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof push, &push);
    vkCmdDispatch(cmd, groups, 1, 1);
}

// The pipelines of the sort's resolved configuration (ranking path, scan, look-back spins,
// subgroup size, and the tests' forced fallback); nullptr with the reasons.
std::shared_ptr<GpuRadixSortPipelines> makePipelines(VkDevice d, const GpuRadixSort& sort,
                                                     bool force_fallback,
                                                     std::vector<Diagnostic>& diagnostics) {
    auto p = std::make_shared<GpuRadixSortPipelines>();
    p->layout = vk::createComputeLayout(d, sizeof(RadixSortPush), "radix sort", diagnostics);
    if (!p->layout) return nullptr;
    const shaders::SpirvCode& downsweep = sort.subgroup_ranking
                                              ? shaders::kSortDownsweepSubgroupComp
                                              : shaders::kSortDownsweepPortableComp;
    struct Stage {
        vk::OwnedPipeline* pipeline;
        const shaders::SpirvCode* code;
    };
    // Every module gets every constant; a module ignores the ones it does not declare.
    struct SpecializationData {
        uint32_t subgroup_size;
        VkBool32 chained_scan;
        uint32_t look_back_spins;
        VkBool32 force_fallback;
    };
    const SpecializationData data{sort.subgroup_size, sort.chained_scan ? VK_TRUE : VK_FALSE,
                                  sort.look_back_spins, force_fallback ? VK_TRUE : VK_FALSE};
    const VkSpecializationMapEntry entries[] = {
        {kSortSpecSubgroupSize, offsetof(SpecializationData, subgroup_size), sizeof(uint32_t)},
        {kSortSpecChainedScan, offsetof(SpecializationData, chained_scan), sizeof(VkBool32)},
        {kSortSpecLookBackSpins, offsetof(SpecializationData, look_back_spins), sizeof(uint32_t)},
        {kSortSpecForceFallback, offsetof(SpecializationData, force_fallback), sizeof(VkBool32)}};
    VkSpecializationInfo specialization{};
    specialization.mapEntryCount = static_cast<uint32_t>(std::size(entries));
    specialization.pMapEntries = entries;
    specialization.dataSize = sizeof data;
    specialization.pData = &data;
    std::vector<Stage> stages = {Stage{&p->histogram, &shaders::kSortHistogramComp},
                                 Stage{&p->downsweep, &downsweep}};
    if (!sort.chained_scan) {
        stages.push_back(Stage{&p->upsweep, &shaders::kSortUpsweepComp});
        stages.push_back(Stage{&p->scan, sort.subgroup_ranking ? &shaders::kSortScanSubgroupComp
                                                               : &shaders::kSortScanComp});
    }
    for (Stage stage : stages) {
        *stage.pipeline =
            vk::createComputePipeline(d, p->layout.get(), words(*stage.code), stage.code->source,
                                      &specialization, diagnostics);
        if (!*stage.pipeline) return nullptr;
    }
    return p;
}

} // namespace

std::optional<GpuRadixSort> createGpuRadixSort(const vk::Device& device,
                                               const GpuRadixSortConfig& config,
                                               std::vector<Diagnostic>& diagnostics,
                                               vk::Context* shared) {
    if (config.max_count == 0 || config.max_count > kGpuSortMaxCount) {
        diagnostics.push_back(vk::vulkanSetupError(
            "createGpuRadixSort", "max_count " + std::to_string(config.max_count) +
                                      " is outside 1.." + std::to_string(kGpuSortMaxCount)));
        return std::nullopt;
    }
    if (config.look_back_spins != kGpuSortLookBackSpinsAuto &&
        config.look_back_spins > kGpuSortLookBackSpinsMax) {
        diagnostics.push_back(vk::vulkanSetupError(
            "createGpuRadixSort", "look_back_spins " + std::to_string(config.look_back_spins) +
                                      " is above " + std::to_string(kGpuSortLookBackSpinsMax)));
        return std::nullopt;
    }
    const SubgroupSupport subgroups = querySubgroups(device.physical());
    GpuRadixSort sort;
    sort.max_count = config.max_count;
    sort.subgroup_size = subgroups.size;
    sort.subgroup_ranking = !config.force_portable_ranking && subgroupPathFits(subgroups);
    const bool cpu_device = vk::isCpuDevice(device.physical());
    sort.chained_scan =
        config.scan == GpuSortScan::automatic ? cpu_device : config.scan == GpuSortScan::chained;
    sort.look_back_spins = config.look_back_spins;
    if (sort.look_back_spins == kGpuSortLookBackSpinsAuto) {
        sort.look_back_spins = cpu_device ? kGpuSortLookBackSpinsCpu : kGpuSortLookBackSpinsGpu;
    }

    const bool force_fallback = config.force_look_back_fallback;
    auto make = [&]() -> std::shared_ptr<GpuRadixSortPipelines> {
        return makePipelines(device.handle(), sort, force_fallback, diagnostics);
    };
    if (shared != nullptr) {
        const std::string key = "gpu radix sort, ranking " +
                                std::to_string(sort.subgroup_ranking ? 1 : 0) + ", chained " +
                                std::to_string(sort.chained_scan ? 1 : 0) + ", spins " +
                                std::to_string(sort.look_back_spins) + ", fallback " +
                                std::to_string(force_fallback ? 1 : 0) + ", subgroup " +
                                std::to_string(sort.subgroup_size);
        sort.pipelines = vk::sharedObject<GpuRadixSortPipelines>(*shared, key, make);
    } else {
        sort.pipelines = make();
    }
    if (!sort.pipelines) return std::nullopt;

    const VkDeviceSize limit = std::min(kMaxBufferBytes, subgroups.max_allocation_bytes);
    const VkDeviceSize pair_bytes = VkDeviceSize{config.max_count} * sizeof(uint32_t);
    // The chained scan alternates two regions of status words (even and odd passes).
    const VkDeviceSize tile_bytes = VkDeviceSize{tilesFor(config.max_count)} * kSortRadix *
                                    sizeof(uint32_t) * (sort.chained_scan ? 2 : 1);
    sort.alt_keys = scratchBuffer(device, pair_bytes, 0, limit, "sort keys", diagnostics);
    if (!sort.alt_keys) return std::nullopt;
    sort.alt_payloads = scratchBuffer(device, pair_bytes, 0, limit, "sort payloads", diagnostics);
    if (!sort.alt_payloads) return std::nullopt;
    sort.tile_counts = scratchBuffer(device, tile_bytes, 0, limit, "sort tile counts", diagnostics);
    if (!sort.tile_counts) return std::nullopt;
    sort.digit_counts =
        scratchBuffer(device, VkDeviceSize{kSortCounterWords} * sizeof(uint32_t),
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, limit,
                      "sort counters", diagnostics);
    if (!sort.digit_counts) return std::nullopt;
    return sort;
}

bool recordGpuRadixSort(VkCommandBuffer cmd, const GpuRadixSort& sort, VkDeviceAddress keys,
                        VkDeviceAddress payloads, uint32_t count,
                        std::vector<Diagnostic>& diagnostics, const GpuSortTimestamps& timestamps) {
    if (count > sort.max_count) {
        diagnostics.push_back(vk::vulkanSetupError(
            "recordGpuRadixSort", std::to_string(count) + " keys exceed the scratch's " +
                                      std::to_string(sort.max_count)));
        return false;
    }
    if (count < 2) return true;

    // Earlier writes of the keys (a simulation pass, an upload) before the sort reads them, and
    // an earlier sort's reads of the scratch before this one rewrites it.
    vk::memoryBarrier(cmd,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                          VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, sort.digit_counts.get(), 0, VK_WHOLE_SIZE, 0);
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);

    const uint32_t tiles = tilesFor(count);
    const uint32_t tile_groups = std::min(tiles, kSortMaxGroups);
    const uvec2 user_keys = splitAddress(keys);
    const uvec2 user_payloads = splitAddress(payloads);
    const uvec2 alt_keys = splitAddress(sort.alt_keys.address);
    const uvec2 alt_payloads = splitAddress(sort.alt_payloads.address);

    RadixSortPush push{};
    push.src_keys = user_keys;
    push.src_payloads = user_payloads;
    push.tile_counts = splitAddress(sort.tile_counts.address);
    push.digit_counts = splitAddress(sort.digit_counts.address);
    push.count = count;
    push.tile_count = tiles;
    uint32_t phase = 0;
    // Whether the current phase is dispatched (GpuSortTimestamps::phase_count), and the stamp
    // that ends it.
    auto recorded = [&] { return phase < timestamps.phase_count; };
    auto endPhase = [&] {
        if (timestamps.pool != VK_NULL_HANDLE) {
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, timestamps.pool,
                                 timestamps.first_query + phase);
        }
        ++phase;
    };
    if (recorded())
        dispatch(cmd, sort, sort.pipelines->histogram, push, std::min(tiles, kSortHistogramGroups));
    endPhase();
    vk::computeBarrier(cmd);

    // Four passes ping-pong user -> scratch -> user -> scratch -> user: the result lands in the
    // caller's buffers.
    for (uint32_t pass = 0; pass < kSortPasses; ++pass) {
        const bool from_user = pass % 2 == 0;
        push.src_keys = from_user ? user_keys : alt_keys;
        push.src_payloads = from_user ? user_payloads : alt_payloads;
        push.dst_keys = from_user ? alt_keys : user_keys;
        push.dst_payloads = from_user ? alt_payloads : user_payloads;
        push.shift = pass * kSortRadixBits;
        push.pass_index = pass;
        if (!sort.chained_scan) {
            if (recorded()) dispatch(cmd, sort, sort.pipelines->upsweep, push, tile_groups);
            endPhase();
            vk::computeBarrier(cmd);
            if (recorded()) dispatch(cmd, sort, sort.pipelines->scan, push, kSortRadix);
            endPhase();
            vk::computeBarrier(cmd);
        } else {
            endPhase(); // no upsweep
            endPhase(); // no scan
        }
        if (recorded()) dispatch(cmd, sort, sort.pipelines->downsweep, push, tile_groups);
        endPhase();
        if (pass + 1 < kSortPasses) vk::computeBarrier(cmd);
    }
    return true;
}

bool gpuSortAndWait(const vk::Device& device, vk::CommandRunner& runner, const GpuRadixSort& sort,
                    std::span<uint32_t> keys, std::span<uint32_t> payloads,
                    std::vector<Diagnostic>& diagnostics) {
    if (keys.size() != payloads.size() || keys.size() > sort.max_count) {
        diagnostics.push_back(vk::vulkanSetupError(
            "gpuSortAndWait", std::to_string(keys.size()) + " keys and " +
                                  std::to_string(payloads.size()) +
                                  " payloads: need equal counts within the scratch's " +
                                  std::to_string(sort.max_count)));
        return false;
    }
    const uint32_t count = static_cast<uint32_t>(keys.size());
    if (count < 2) return true;
    const VkDeviceSize bytes = VkDeviceSize{count} * sizeof(uint32_t);
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const VkBufferUsageFlags staging_usage =
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    vk::Buffer device_keys =
        vk::createBuffer(device, bytes, usage, vk::MemoryUse::device_local, "keys", diagnostics);
    vk::Buffer device_payloads = vk::createBuffer(device, bytes, usage, vk::MemoryUse::device_local,
                                                  "payloads", diagnostics);
    vk::Buffer upload = vk::createBuffer(device, 2 * bytes, staging_usage, vk::MemoryUse::upload,
                                         "sort upload", diagnostics);
    vk::Buffer readback = vk::createBuffer(device, 2 * bytes, staging_usage,
                                           vk::MemoryUse::readback, "sort readback", diagnostics);
    if (!device_keys || !device_payloads || !upload || !readback) return false;
    std::memcpy(upload.mapped, keys.data(), bytes);
    std::memcpy(static_cast<char*>(upload.mapped) + bytes, payloads.data(), bytes);

    bool recorded = true;
    auto record = [&](VkCommandBuffer cmd) {
        VkBufferCopy first{0, 0, bytes};
        VkBufferCopy second{bytes, 0, bytes};
        vkCmdCopyBuffer(cmd, upload.get(), device_keys.get(), 1, &first);
        vkCmdCopyBuffer(cmd, upload.get(), device_payloads.get(), 1, &second);
        recorded = recordGpuRadixSort(cmd, sort, device_keys.address, device_payloads.address,
                                      count, diagnostics);
        vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferCopy back_keys{0, 0, bytes};
        VkBufferCopy back_payloads{0, bytes, bytes};
        vkCmdCopyBuffer(cmd, device_keys.get(), readback.get(), 1, &back_keys);
        vkCmdCopyBuffer(cmd, device_payloads.get(), readback.get(), 1, &back_payloads);
        vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    };
    if (!runner.run("GPU radix sort", record, diagnostics) || !recorded) return false;
    std::memcpy(keys.data(), readback.mapped, bytes);
    std::memcpy(payloads.data(), static_cast<const char*>(readback.mapped) + bytes, bytes);
    return true;
}

} // namespace spindrift::gpu
