// One Vulkan instance and logical device, shared by everything that works on the same GPU: the
// renderer and the GPU simulation instances it draws. Sharing the device is what lets the
// renderer read particles straight from the simulation's buffers (no readback); each user keeps
// its own command pool and fence, and all submit to the device's one queue from one thread.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
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

    // Objects made once per device and shared by all its users, kept as long as the context
    // (sharedObject). Declared after the device, so they are destroyed before it.
    struct Shared {
        std::mutex mutex;
        std::vector<std::pair<std::string, std::shared_ptr<void>>> objects;
    } shared;
};

// The object stored under `key` on this context, made by make() (a std::shared_ptr<T>, null on
// failure: nothing is stored then) the first time it is asked for. Every user of the device gets
// the same one, and it lives until the context goes, whatever its users do: the GPU backend's pass
// pipelines are compiled once per device, not once per effect instance. Thread-safe; make() runs
// under the context's lock, so it must not ask for another shared object.
template <typename T>
std::shared_ptr<T> sharedObject(Context& context, std::string_view key,
                                const std::function<std::shared_ptr<T>()>& make) {
    const std::lock_guard<std::mutex> lock(context.shared.mutex);
    for (const auto& [name, object] : context.shared.objects) {
        if (name == key) return std::static_pointer_cast<T>(object);
    }
    std::shared_ptr<T> made = make();
    if (made) context.shared.objects.emplace_back(std::string(key), made);
    return made;
}

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
