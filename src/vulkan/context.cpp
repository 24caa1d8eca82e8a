#include "vulkan/context.h"

#include <optional>

namespace spindrift::vk {

std::shared_ptr<Context> createContext(const std::string& request, bool validation,
                                       std::vector<Diagnostic>& diagnostics) {
    auto context = std::make_shared<Context>();
    context->instance = Instance::create(validation, diagnostics);
    if (!context->instance) return nullptr;
    std::vector<PhysicalDevice> devices =
        enumeratePhysicalDevices(context->instance->handle(), diagnostics);
    if (devices.empty()) return nullptr;
    const std::optional<size_t> chosen = selectPhysicalDevice(devices, request, diagnostics);
    if (!chosen) return nullptr;
    context->physical = devices[*chosen];
    DeviceSupport support;
    if (!checkDeviceSupport(context->physical, support, diagnostics)) return nullptr;
    context->device = Device::create(context->physical, support, diagnostics);
    if (!context->device) return nullptr;
    return context;
}

std::shared_ptr<Context> borrowContext(const HostDevice& host,
                                       std::vector<Diagnostic>& diagnostics) {
    PhysicalDevice physical;
    DeviceSupport support;
    if (!checkHostDevice(host, physical, support, diagnostics)) return nullptr;
    auto context = std::make_shared<Context>();
    context->instance = Instance::borrow(host.instance);
    context->physical = physical;
    context->device = Device::borrow(physical, host.device, host.queue, support);
    return context;
}

} // namespace spindrift::vk
