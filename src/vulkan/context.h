// One Vulkan instance and logical device, shared by everything that works on the same GPU: the
// renderer and the GPU simulation instances it draws. Sharing the device is what lets the
// renderer read particles straight from the simulation's buffers (no readback); each user keeps
// its own command pool and fence, and all submit to the device's one queue from one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/host_device.h"
#include "vulkan/instance.h"
#include "vulkan/physical_device.h"

namespace spindrift::vk {

// Declaration order is destruction order reversed: the device before the instance. Whether they
// are Spindrift's own (createContext: destroyed with the context) or a host's (borrowContext:
// never destroyed) is decided once, by how Instance and Device were made; everything above this
// layer works the same on both.
struct Context {
    std::unique_ptr<Instance> instance;
    std::unique_ptr<Device> device;
    PhysicalDevice physical; // what was chosen (name, type, driver)
};

// Creates the instance (validation on request), picks the device `request` names
// (selectPhysicalDevice rules), checks it has what the renderer and the compute passes need
// (checkDeviceSupport) and creates it. nullptr with the reasons (no Vulkan driver, no device, no
// match, a missing feature, a failed call) on failure.
std::shared_ptr<Context> createContext(const std::string& request, bool validation,
                                       std::vector<Diagnostic>& diagnostics);

// A context on a host's instance, device and queue (checkHostDevice first): Spindrift's objects
// are made on them and its work submitted to the host's queue; the host's objects are never
// destroyed. nullptr with an error naming every problem (null handles, a missing feature, ...).
std::shared_ptr<Context> borrowContext(const HostDevice& host,
                                       std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::vk
