#include "gpu/sort/sort_context.h"

#include <optional>

namespace spindrift::gpu {

bool openSortContext(bool validation, const std::string& device_request, SortContext& context,
                     std::vector<Diagnostic>& diagnostics) {
    context.instance = vk::Instance::create(validation, diagnostics);
    if (!context.instance) return false;
    std::vector<vk::PhysicalDevice> devices =
        vk::enumeratePhysicalDevices(context.instance->handle(), diagnostics);
    if (devices.empty()) return false;
    std::optional<size_t> chosen = vk::selectPhysicalDevice(devices, device_request, diagnostics);
    if (!chosen) return false;
    context.physical = devices[*chosen];
    vk::DeviceSupport support;
    if (!vk::checkDeviceSupport(context.physical, support, diagnostics)) return false;
    context.device = vk::Device::create(context.physical, support, diagnostics);
    if (!context.device) return false;
    context.runner = vk::CommandRunner::create(*context.device, diagnostics);
    return context.runner != nullptr;
}

} // namespace spindrift::gpu
