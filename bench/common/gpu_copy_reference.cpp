#include "common/gpu_copy_reference.h"

#include <algorithm>

#include "embedded_shaders.h"
#include "gpu/pool_layout.h"
#include "gpu/sort/radix_sort_shared.h"
#include "vulkan/compute.h"

namespace spindrift::bench {
namespace {

uvec2 split(VkDeviceAddress a) {
    return uvec2(static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32));
}

} // namespace

uint64_t copyCountFor(uint64_t bytes) {
    return (bytes + 7) / 8;
}

bool createGpuCopyReference(const vk::Device& device, uint64_t count, GpuCopyReference& copy,
                            std::vector<Diagnostic>& diagnostics) {
    copy.layout =
        vk::createComputeLayout(device.handle(), sizeof(RadixSortPush), "copy", diagnostics);
    if (!copy.layout) return false;
    const shaders::SpirvCode& code = shaders::kSortCopyComp;
    copy.pipeline =
        vk::createComputePipeline(device.handle(), copy.layout.get(), {code.words, code.word_count},
                                  code.source, nullptr, diagnostics);
    if (!copy.pipeline) return false;
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    copy.count = count;
    copy.piece_count = gpu::kGpuMaxBufferBytes / (2 * sizeof(uint32_t));
    for (uint64_t done = 0; done < count; done += copy.piece_count) {
        const VkDeviceSize bytes = 2 * std::min(copy.piece_count, count - done) * sizeof(uint32_t);
        copy.src.push_back(vk::createBuffer(device, bytes, usage, vk::MemoryUse::device_local,
                                            "bench copy source", diagnostics));
        copy.dst.push_back(vk::createBuffer(device, bytes, usage, vk::MemoryUse::device_local,
                                            "bench copy destination", diagnostics));
        if (!copy.src.back() || !copy.dst.back()) return false;
    }
    return true;
}

void recordGpuCopyReference(VkCommandBuffer cmd, const GpuCopyReference& copy) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, copy.pipeline.get());
    for (size_t k = 0; k < copy.src.size(); ++k) {
        const uint64_t count = std::min(copy.piece_count, copy.count - k * copy.piece_count);
        const VkDeviceSize half = count * sizeof(uint32_t);
        RadixSortPush push{};
        push.src_keys = split(copy.src[k].address);
        push.src_payloads = split(copy.src[k].address + half);
        push.dst_keys = split(copy.dst[k].address);
        push.dst_payloads = split(copy.dst[k].address + half);
        push.count = static_cast<uint32_t>(count);
        vkCmdPushConstants(cmd, copy.layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                           &push);
        // As gpu_sort_bench: enough groups to fill any GPU; the shader loops grid-stride.
        const auto groups =
            static_cast<uint32_t>(std::min<uint64_t>(count / kSortWorkgroupSize + 1, 8192));
        vkCmdDispatch(cmd, groups, 1, 1);
    }
}

} // namespace spindrift::bench
