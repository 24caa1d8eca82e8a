// A Vulkan instance, device and command runner for the sort's tests and benchmark: the device
// the renderer would pick for the same request (vk::selectPhysicalDevice rules).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spindrift/diagnostic.h"
#include "vulkan/commands.h"
#include "vulkan/context.h"

namespace spindrift::gpu {

struct SortContext {
    // Declared in creation order: destroyed runner first, the shared context last.
    std::shared_ptr<vk::Context> vulkan; // vk::createContext
    vk::Instance* instance = nullptr;    // vulkan->instance
    vk::Device* device = nullptr;        // vulkan->device
    std::unique_ptr<vk::CommandRunner> runner;
    vk::PhysicalDevice physical; // vulkan->physical
};

// False with errors when no device matches `device_request` or it lacks what the Vulkan layer
// needs. With validation, instance->messages() collects every validation message.
bool openSortContext(bool validation, const std::string& device_request, SortContext& context,
                     std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::gpu
