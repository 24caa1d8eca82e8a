#include "runtime/simulation_device.h"

#include <memory>
#include <vector>

#include "vulkan/instance.h"
#include "vulkan/physical_device.h"

namespace spindrift {

SimulationDevice probeSimulationDevice(const std::string& device_request) {
    SimulationDevice device;
    std::vector<Diagnostic> diagnostics;
    std::vector<vk::PhysicalDevice> candidates;
    if (std::unique_ptr<vk::Instance> instance = vk::Instance::create(false, diagnostics)) {
        candidates = vk::enumeratePhysicalDevices(instance->handle(), diagnostics);
    }
    // selectPhysicalDevice is pure: it reads names and types only, no handles (the instance is
    // gone by now).
    const auto chosen = candidates.empty()
                            ? std::nullopt
                            : vk::selectPhysicalDevice(candidates, device_request, diagnostics);
    if (!chosen) {
        for (const Diagnostic& d : diagnostics) {
            if (d.severity != Severity::error) continue;
            device.why_none = d.message;
            break;
        }
        if (device.why_none.empty()) device.why_none = "no Vulkan device";
        return device;
    }
    return simulationDeviceOf(candidates[*chosen].name, candidates[*chosen].type);
}

SimulationDevice simulationDeviceOf(std::string_view name, std::string_view type) {
    SimulationDevice device;
    device.name = std::string(name);
    const bool is_gpu = type == "discrete" || type == "integrated" || type == "virtual";
    device.kind = is_gpu ? DeviceKind::gpu : DeviceKind::cpu;
    return device;
}

} // namespace spindrift
