#include "gpu/sort/sort_context.h"

namespace spindrift::gpu {

bool openSortContext(bool validation, const std::string& device_request, SortContext& context,
                     std::vector<Diagnostic>& diagnostics) {
    context.vulkan = vk::createContext(device_request, validation, diagnostics);
    if (!context.vulkan) return false;
    context.instance = context.vulkan->instance.get();
    context.device = context.vulkan->device.get();
    context.physical = context.vulkan->physical;
    context.runner = vk::CommandRunner::create(*context.device, diagnostics);
    return context.runner != nullptr;
}

} // namespace spindrift::gpu
