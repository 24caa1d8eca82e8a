// The Vulkan side of one GPU effect instance: instance, device, command submission and the
// compute pipelines of the simulation passes (shaders/gpu_*.comp). Nothing outside src/gpu/
// sees a Vulkan type.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "kernels/gpu_sim.h"
#include "spindrift/diagnostic.h"
#include "vulkan/commands.h"
#include "vulkan/device.h"
#include "vulkan/instance.h"
#include "vulkan/owned.h"

namespace spindrift::gpu {

// The passes, one compute pipeline each (docs/gpu-backend.md, "Passes").
enum class Pass : uint8_t {
    pool_reset,
    counters,
    update,
    spawn,
    draw_records,
    ordered_compact, // birth-order emitters (ordered_list.h)
    count
};

// Declaration order is destruction order reversed: pipelines before the device, the device
// before the instance.
struct GpuContext {
    std::unique_ptr<vk::Instance> instance;
    std::unique_ptr<vk::Device> device;
    std::unique_ptr<vk::CommandRunner> runner;
    std::string device_name;
    vk::OwnedPipelineLayout layout; // push constants only (GpuPushConstants)
    vk::OwnedPipeline pipelines[static_cast<int>(Pass::count)];
};

// Creates the instance (validation on request), picks the device (`device_request` as
// RendererConfig::device: "" the first discrete GPU, else integrated, else the first), checks it
// has what the passes need (Vulkan 1.3, buffer device addresses) and builds the pipelines.
// nullptr with the reasons on failure (no Vulkan driver, no device, a failed call).
std::unique_ptr<GpuContext> createGpuContext(const std::string& device_request, bool validation,
                                             std::vector<Diagnostic>& diagnostics);

// Binds the pass's pipeline, pushes the constants and dispatches enough workgroups for
// `invocations` (capped at kGpuMaxWorkgroups: the passes loop grid-stride). Nothing is recorded
// for 0 invocations.
void dispatchPass(const GpuContext& gpu, VkCommandBuffer cmd, Pass pass,
                  const GpuPushConstants& push, uint32_t invocations);

// Compute writes before compute reads and writes (every pass boundary).
void computeBarrier(VkCommandBuffer cmd);

} // namespace spindrift::gpu
