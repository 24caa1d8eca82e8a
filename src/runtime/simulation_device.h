// What device a GPU-simulated instance would run on, for chooseBackend
// (runtime/backend_choice.h): the device a request names (RendererConfig::device rules, the same
// vk::selectPhysicalDevice) and whether it is a GPU or a CPU device (lavapipe). Needs Vulkan, not
// the renderer: the runtime probes before any renderer exists, and a host with a renderer passes
// the renderer's device (simulationDeviceOf).
#pragma once

#include <string>
#include <string_view>

#include "runtime/backend_choice.h"

namespace spindrift {

// Lists the Vulkan devices and picks the one `device_request` names ("" the first discrete GPU,
// else integrated, else the first). Discrete, integrated and virtual GPUs are DeviceKind::gpu;
// CPU devices and devices of an unknown type are DeviceKind::cpu (auto never picks them). No
// driver or no matching device gives DeviceKind::none with the reason in why_none; nothing is
// printed. Creates and destroys a Vulkan instance: call it once per host, not per frame.
SimulationDevice probeSimulationDevice(const std::string& device_request);

// The simulation device a device already chosen is (the renderer's, for instances that share
// it), from its name and its type as vk::PhysicalDevice and render::DeviceInfo spell it
// ("discrete", "integrated", "virtual", "cpu" or "other").
SimulationDevice simulationDeviceOf(std::string_view name, std::string_view type);

} // namespace spindrift
