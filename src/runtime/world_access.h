// The engine's own hosts' access to a World (include/spindrift/runtime.h) beyond the public API:
// what the scene player needs to run a world on the renderer's Vulkan device, report the backend
// diagnostics of an instance it made, and show a long timeline run's progress. A game never needs
// these; embedding on a host's own device is issue 16.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/effect_instance.h"
#include "runtime/simulation_device.h"
#include "spindrift/diagnostic.h"
#include "spindrift/runtime.h"

namespace spindrift {

// Where the world's GPU parts run: `device` as chooseBackend sees it; the device named `name`
// (RendererConfig::device) with the validation layer when asked; or, when shared_device is set,
// that device, their draw output then staying on it (device-resident draw-list batches).
struct WorldDevice {
    SimulationDevice device;
    std::string name;
    bool validation = false;
    std::shared_ptr<vk::Context> shared_device;
};

// Set before the first create: instances made later use it.
void setWorldDevice(World& world, const WorldDevice& device);

// The device setWorldDevice gave the world (null: none; its GPU instances share its own).
const std::shared_ptr<vk::Context>& worldSharedDevice(const World& world);

// The validation layer's messages on the device the world's GPU instances share when no
// shared device was set (WorldDevice::validation); nothing when there is none.
void appendWorldDeviceValidationMessages(const World& world, std::vector<std::string>& out);

// The diagnostics of the last instance the world made (its backend choice's warnings, or why it
// could not be made), with files and JSON paths.
const std::vector<Diagnostic>& lastInstanceDiagnostics(const World& world);

// The effect instance behind a live handle (null for a stale or invalid one): statistics, the
// backend choice and its reasons. Valid until the instance is destroyed, reseeded or reloaded.
EffectInstance* effectInstanceOf(World& world, InstanceHandle h);

// The engine's own renderer handing its opaque depth to the world (docs/runtime-api.md, "Scene
// depth"): depth's camera and size, its samples on the host when given (CPU instances read them
// there, not copied and not checked: the renderer writes positive depths or kNoSceneDepth; may
// be null) and on the world's shared device at device_address (GPU instances read it there; 0:
// none). The caller keeps both alive and unwritten while steps run until it calls again or
// World::clearSceneDepth, and the device buffer until those steps have finished.
RuntimeError setRendererSceneDepth(World& world, const SceneDepth& depth, uint64_t device_address);

// World::advanceTo, telling `listener` (may be null) how many steps of the run are done.
RuntimeError advanceInstanceTo(World& world, InstanceHandle h, double time_s,
                               StepListener* listener);

} // namespace spindrift
