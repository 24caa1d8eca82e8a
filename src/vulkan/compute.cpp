#include "vulkan/compute.h"

#include "vulkan/commands.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"
#include "vulkan/vk_error.h"

namespace spindrift::vk {

OwnedPipelineLayout createComputeLayout(VkDevice device, uint32_t push_constant_bytes,
                                        std::string_view what,
                                        std::vector<Diagnostic>& diagnostics) {
    return createPipelineLayout(device, {}, push_constant_bytes, what, diagnostics,
                                VK_SHADER_STAGE_COMPUTE_BIT);
}

OwnedPipeline createComputePipeline(VkDevice device, VkPipelineLayout layout,
                                    std::span<const uint32_t> code, std::string_view name,
                                    const VkSpecializationInfo* specialization,
                                    std::vector<Diagnostic>& diagnostics) {
    OwnedShaderModule module = createShaderModule(device, code, name, diagnostics);
    if (!module) return {};
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.get();
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = specialization;
    info.layout = layout;
    VkPipeline handle = VK_NULL_HANDLE;
    if (!check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &handle),
               "vkCreateComputePipelines", diagnostics, name)) {
        return {};
    }
    return OwnedPipeline(device, handle);
}

void computeBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

} // namespace spindrift::vk
