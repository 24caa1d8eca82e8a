#include "gpu/sort/sort_keys_pass.h"

#include <algorithm>

#include "embedded_shaders.h"
#include "gpu/sort/radix_sort_shared.h"
#include "vulkan/commands.h"
#include "vulkan/compute.h"

namespace spindrift::gpu {

std::optional<GpuSortKeyPass> createGpuSortKeyPass(const vk::Device& device,
                                                   std::vector<Diagnostic>& diagnostics) {
    GpuSortKeyPass pass;
    pass.layout =
        vk::createComputeLayout(device.handle(), sizeof(SortKeyPush), "sort key pass", diagnostics);
    if (!pass.layout) return std::nullopt;
    const shaders::SpirvCode& code = shaders::kSortKeysComp;
    pass.pipeline =
        vk::createComputePipeline(device.handle(), pass.layout.get(), {code.words, code.word_count},
                                  code.source, nullptr, diagnostics);
    if (!pass.pipeline) return std::nullopt;
    return pass;
}

std::shared_ptr<const GpuSortKeyPass> sharedSortKeyPass(vk::Context& context,
                                                        std::vector<Diagnostic>& diagnostics) {
    return vk::sharedObject<GpuSortKeyPass>(
        context, "gpu sort key pass", [&]() -> std::shared_ptr<GpuSortKeyPass> {
            std::optional<GpuSortKeyPass> pass = createGpuSortKeyPass(*context.device, diagnostics);
            return pass ? std::make_shared<GpuSortKeyPass>(std::move(*pass)) : nullptr;
        });
}

void recordSortKeys(VkCommandBuffer cmd, const GpuSortKeyPass& pass,
                    const DeviceDrawRecords& records, uint32_t count, uint32_t sort_mode, vec3 eye,
                    VkDeviceAddress keys, VkDeviceAddress payloads, VkDeviceAddress valid) {
    vk::memoryBarrier(cmd,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
    if (count == 0) return;
    auto split = [](VkDeviceAddress a) {
        return uvec2(static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32));
    };
    SortKeyPush push{};
    push.records = split(records.address);
    push.chunk_records = records.chunk_records;
    push.first_in_chunk = records.first_in_chunk;
    push.keys = split(keys);
    push.payloads = split(payloads);
    push.valid = split(valid);
    push.count = count;
    push.sort_mode = sort_mode;
    push.eye = vec4(eye, 0.0f);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pass.pipeline.get());
    vkCmdPushConstants(cmd, pass.layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    const uint32_t groups = count / kSortWorkgroupSize + (count % kSortWorkgroupSize != 0);
    vkCmdDispatch(cmd, std::min(groups, kSortMaxGroups), 1, 1);
}

} // namespace spindrift::gpu
