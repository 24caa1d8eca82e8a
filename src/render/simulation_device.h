// What device a GPU-simulated instance would run on, for chooseBackend
// (runtime/backend_choice.h): the device a request names (RendererConfig::device rules) and
// whether it is a GPU or a CPU device (lavapipe).
#pragma once

#include <string>

#include "runtime/backend_choice.h"

namespace spindrift::render {

// Lists the Vulkan devices and picks the one `device_request` names ("" the first discrete GPU,
// else integrated, else the first). Discrete, integrated and virtual GPUs are DeviceKind::gpu;
// CPU devices and devices of an unknown type are DeviceKind::cpu (auto never picks them). No
// driver or no matching device gives DeviceKind::none with the reason in why_none; nothing is
// printed. Creates and destroys a Vulkan instance: call it once per host, not per frame.
SimulationDevice probeSimulationDevice(const std::string& device_request);

struct DeviceInfo; // renderer.h

// The simulation device a device already chosen is (the renderer's, for instances that share it).
SimulationDevice simulationDeviceOf(const DeviceInfo& info);

} // namespace spindrift::render
