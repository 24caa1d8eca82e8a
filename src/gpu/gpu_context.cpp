#include "gpu/gpu_context.h"

#include <algorithm>
#include <optional>
#include <span>

#include "embedded_shaders.h"
#include "vulkan/physical_device.h"
#include "vulkan/shader_module.h"
#include "vulkan/vk_error.h"

namespace spindrift::gpu {

namespace {

const shaders::SpirvCode& passCode(Pass pass) {
    switch (pass) {
    case Pass::pool_reset:
        return shaders::kGpuPoolResetComp;
    case Pass::counters:
        return shaders::kGpuCountersComp;
    case Pass::update:
        return shaders::kGpuUpdateComp;
    case Pass::spawn:
        return shaders::kGpuSpawnComp;
    case Pass::ordered_compact:
        return shaders::kGpuOrderedCompactComp;
    case Pass::draw_records:
    case Pass::count:
        break;
    }
    return shaders::kGpuDrawRecordsComp;
}

vk::OwnedPipelineLayout createLayout(VkDevice device, std::vector<Diagnostic>& diagnostics) {
    VkPushConstantRange range{};
    range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    range.size = sizeof(GpuPushConstants);
    VkPipelineLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    info.pushConstantRangeCount = 1;
    info.pPushConstantRanges = &range;
    VkPipelineLayout handle = VK_NULL_HANDLE;
    if (!vk::check(vkCreatePipelineLayout(device, &info, nullptr, &handle),
                   "vkCreatePipelineLayout", diagnostics, "GPU simulation passes")) {
        return {};
    }
    return vk::OwnedPipelineLayout(device, handle);
}

vk::OwnedPipeline createPipeline(VkDevice device, VkPipelineLayout layout, Pass pass,
                                 std::vector<Diagnostic>& diagnostics) {
    const shaders::SpirvCode& code = passCode(pass);
    vk::OwnedShaderModule module = vk::createShaderModule(
        device, std::span<const uint32_t>(code.words, code.word_count), code.source, diagnostics);
    if (!module) return {};
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.get();
    info.stage.pName = "main";
    info.layout = layout;
    VkPipeline handle = VK_NULL_HANDLE;
    if (!vk::check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &handle),
                   "vkCreateComputePipelines", diagnostics, code.source)) {
        return {};
    }
    return vk::OwnedPipeline(device, handle);
}

} // namespace

std::unique_ptr<GpuContext> createGpuContext(const std::string& device_request, bool validation,
                                             std::vector<Diagnostic>& diagnostics) {
    auto gpu = std::make_unique<GpuContext>();
    gpu->instance = vk::Instance::create(validation, diagnostics);
    if (!gpu->instance) return nullptr;
    std::vector<vk::PhysicalDevice> devices =
        vk::enumeratePhysicalDevices(gpu->instance->handle(), diagnostics);
    if (devices.empty()) return nullptr;
    const std::optional<size_t> chosen =
        vk::selectPhysicalDevice(devices, device_request, diagnostics);
    if (!chosen) return nullptr;
    const vk::PhysicalDevice& physical = devices[*chosen];
    vk::DeviceSupport support;
    if (!vk::checkDeviceSupport(physical, support, diagnostics)) return nullptr;
    gpu->device = vk::Device::create(physical, support, diagnostics);
    if (!gpu->device) return nullptr;
    gpu->device_name = physical.name;
    gpu->runner = vk::CommandRunner::create(*gpu->device, diagnostics);
    if (!gpu->runner) return nullptr;
    const VkDevice device = gpu->device->handle();
    gpu->layout = createLayout(device, diagnostics);
    if (!gpu->layout) return nullptr;
    for (int p = 0; p < static_cast<int>(Pass::count); ++p) {
        gpu->pipelines[p] =
            createPipeline(device, gpu->layout.get(), static_cast<Pass>(p), diagnostics);
        if (!gpu->pipelines[p]) return nullptr;
    }
    return gpu;
}

void dispatchPass(const GpuContext& gpu, VkCommandBuffer cmd, Pass pass,
                  const GpuPushConstants& push, uint32_t invocations) {
    if (invocations == 0) return;
    const uint32_t groups =
        std::min((invocations + kGpuWorkgroupSize - 1) / kGpuWorkgroupSize, kGpuMaxWorkgroups);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                      gpu.pipelines[static_cast<int>(pass)].get());
    vkCmdPushConstants(cmd, gpu.layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatch(cmd, groups, 1, 1);
}

void computeBarrier(VkCommandBuffer cmd) {
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

} // namespace spindrift::gpu
