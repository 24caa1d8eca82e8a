// The Vulkan side of one GPU effect instance: instance, device, command submission and the
// compute pipelines of the simulation passes (shaders/gpu_*.comp). Nothing outside src/gpu/
// sees a Vulkan type.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "compiler/compiled_effect.h"
#include "gpu/pass_pipelines.h"
#include "gpu/shader/gpu_sim.h"
#include "spindrift/diagnostic.h"
#include "vulkan/commands.h"
#include "vulkan/context.h"
#include "vulkan/owned.h"

namespace spindrift::gpu {

// Submissions an instance may have queued before it waits for the oldest: the entries of its
// command ring, and the sets of step-uniform slots and counter copies (one per submission).
inline constexpr uint32_t kGpuSubmissionsInFlight = 2;

// Declaration order is destruction order reversed: pipelines and the command pool before the
// shared device (which goes with its last user).
struct GpuContext {
    std::shared_ptr<vk::Context> vulkan; // instance and device, possibly the renderer's
    vk::Device* device = nullptr;        // vulkan->device
    std::unique_ptr<vk::CommandRunner> runner;
    std::string device_name;
    // The device's pass pipelines (pass_pipelines.h), shared with every other instance on it.
    // Its variant (passes->variant) says which shaders the update and ribbon strip passes run.
    std::shared_ptr<PassPipelines> passes;
    uint32_t subgroup_size = 0; // the device's, for sizing the subgroup strip pass
    // A pass whose pipeline could not be compiled when it was first recorded: nothing was
    // recorded for it, and the submission that held it reports these (endSubmission) and fails.
    mutable std::vector<Diagnostic> dispatch_errors;
};

// Builds the command pool on `shared` (the renderer's device, so the renderer can draw from the
// pool) or, when shared is null, on a device of its own: vk::createContext with `device_request`
// (RendererConfig::device rules) and `validation`, and finds the device's pass pipelines
// (sharedPassPipelines: none compiled here; see preparePasses). The update and ribbon strip passes
// take their subgroup variants where the device allows them (subgroup_support.h) unless
// `portable` forces the portable ones (tests run both). nullptr with the reasons on failure (no
// Vulkan driver, no device, a failed call).
struct PortableVariants {
    bool append = false; // the update pass's compaction through shared memory
    bool strips = false; // the ribbon strip pass with one invocation per ribbon
};
std::unique_ptr<GpuContext> createGpuContext(std::shared_ptr<vk::Context> shared,
                                             const std::string& device_request, bool validation,
                                             std::vector<Diagnostic>& diagnostics,
                                             PortableVariants portable = {});

// Compiles the pipelines of these passes now unless an instance on the device already has: an
// instance prepares what every step records when it is made, so that its first frame compiles
// nothing and a failure is reported by its creation. A pass recorded without being prepared is
// compiled when first recorded (dispatchPass). False with the reasons on failure.
bool preparePasses(const GpuContext& gpu, std::span<const Pass> passes,
                   std::vector<Diagnostic>& diagnostics);

// Binds the pass's pipeline, pushes the constants and dispatches enough workgroups for
// `invocations`, capped at max_groups (within 1..kGpuMaxWorkgroups: the passes loop grid-stride).
// Nothing is recorded for 0 invocations, nor when the pipeline cannot be compiled (the reasons go
// to gpu.dispatch_errors).
void dispatchPass(const GpuContext& gpu, VkCommandBuffer cmd, Pass pass,
                  const GpuPushConstants& push, uint32_t invocations,
                  uint32_t max_groups = kGpuMaxWorkgroups);

// Whether emitter e of effect runs only light ops (none is sdIsHeavyUpdateOp): its update
// dispatches may use GpuContext::light_update.
bool updatesLight(const CompiledEffect& effect, uint32_t emitter);

// The update's workgroup cap for an emitter with this live bound: `configured`
// (GpuConfig::update_max_workgroups) when not 0, else kGpuUpdateMaxWorkgroups,
// kGpuUpdateMidWorkgroups past kGpuUpdateMidBound, or kGpuUpdateLargeWorkgroups past
// kGpuUpdateLargeBound (src/gpu/shader/gpu_sim.h says why).
uint32_t updateWorkgroupCap(uint32_t configured, uint32_t live_bound);

// dispatchPass for the update pass of an emitter, with Pass::update_light when `light`, in at
// most max_groups workgroups (at least 1; updateWorkgroupCap).
void dispatchUpdate(const GpuContext& gpu, VkCommandBuffer cmd, const GpuPushConstants& push,
                    uint32_t invocations, bool light, uint32_t max_groups);

// Compute writes before compute reads and writes (every pass boundary).
void computeBarrier(VkCommandBuffer cmd);

} // namespace spindrift::gpu
