#include "vulkan/shader_module.h"

#include <string>

#include "vulkan/vk_error.h"

namespace spindrift::vk {

namespace {
constexpr uint32_t kSpirvMagic = 0x07230203u;
}

OwnedShaderModule createShaderModule(VkDevice device, std::span<const uint32_t> code,
                                     std::string_view name, std::vector<Diagnostic>& diagnostics) {
    if (code.size() < 5 || code[0] != kSpirvMagic) {
        diagnostics.push_back(
            vulkanSetupError("vkCreateShaderModule",
                             "shader " + std::string(name) + " is not SPIR-V (bad embedded code)"));
        return {};
    }
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = code.size_bytes();
    info.pCode = code.data();
    VkShaderModule handle = VK_NULL_HANDLE;
    if (!check(vkCreateShaderModule(device, &info, nullptr, &handle), "vkCreateShaderModule",
               diagnostics, name)) {
        return {};
    }
    return OwnedShaderModule(device, handle);
}

} // namespace spindrift::vk
