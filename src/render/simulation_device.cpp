#include "render/simulation_device.h"

#include <vector>

#include "render/renderer.h"
#include "vulkan/physical_device.h"

namespace spindrift::render {

SimulationDevice probeSimulationDevice(const std::string& device_request) {
    SimulationDevice device;
    std::vector<Diagnostic> diagnostics;
    const std::vector<DeviceInfo> infos = listDevices(diagnostics);
    // selectPhysicalDevice is pure: it reads names and types only, no handles.
    std::vector<vk::PhysicalDevice> candidates;
    for (const DeviceInfo& info : infos) {
        vk::PhysicalDevice d;
        d.index = info.index;
        d.name = info.name;
        d.type = info.type;
        candidates.push_back(std::move(d));
    }
    const auto chosen = infos.empty()
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
    return simulationDeviceOf(infos[*chosen]);
}

SimulationDevice simulationDeviceOf(const DeviceInfo& info) {
    SimulationDevice device;
    device.name = info.name;
    const bool is_gpu =
        info.type == "discrete" || info.type == "integrated" || info.type == "virtual";
    device.kind = is_gpu ? DeviceKind::gpu : DeviceKind::cpu;
    return device;
}

} // namespace spindrift::render
