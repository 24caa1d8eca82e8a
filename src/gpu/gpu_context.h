// The Vulkan side of one GPU effect instance: instance, device, command submission and the
// compute pipelines of the simulation passes (shaders/gpu_*.comp). Nothing outside src/gpu/
// sees a Vulkan type.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "compiler/compiled_effect.h"
#include "gpu/shader/gpu_sim.h"
#include "spindrift/diagnostic.h"
#include "vulkan/commands.h"
#include "vulkan/context.h"
#include "vulkan/owned.h"

namespace spindrift::gpu {

// Submissions an instance may have queued before it waits for the oldest: the entries of its
// command ring, and the sets of step-uniform slots and counter copies (one per submission).
inline constexpr uint32_t kGpuSubmissionsInFlight = 2;

// The passes, one compute pipeline each (docs/gpu-backend.md, "Passes").
enum class Pass : uint8_t {
    pool_reset,
    counters,
    update,
    spawn,
    draw_records,
    ordered_compact, // birth-order emitters (ordered_list.h)
    trail_gather,    // ribbon trails for the host (ribbon_strips.h)
    events,          // the sub-emitter event walker (sub_emitters.h)
    event_spawn,     // event births of one child emitter (sub_emitters.h)
    list_pad,        // pads an alive list before its slot sort (alive_list_order.h)
    ribbon_strips,   // ribbon strips for a renderer drawing from the device (ribbon_strips.h)
    count
};

// Declaration order is destruction order reversed: pipelines and the command pool before the
// shared device (which goes with its last user).
struct GpuContext {
    std::shared_ptr<vk::Context> vulkan; // instance and device, possibly the renderer's
    vk::Device* device = nullptr;        // vulkan->device
    std::unique_ptr<vk::CommandRunner> runner;
    std::string device_name;
    // The update pass's compaction appends with one atomic per subgroup (subgroup ballot), else
    // one per workgroup through shared memory (shaders/gpu_compact.glsl).
    bool subgroup_append = false;
    // The ribbon strip pass gives each ribbon a subgroup, one lane per point (subgroup
    // arithmetic), else one invocation per ribbon (shaders/gpu_ribbon_strips.comp).
    bool subgroup_strips = false;
    uint32_t subgroup_size = 0;     // the device's, for sizing the subgroup strip pass
    vk::OwnedPipelineLayout layout; // push constants only (GpuPushConstants)
    vk::OwnedPipeline pipelines[static_cast<int>(Pass::count)];
    // The update pass specialised for emitters without heavy ops (kHeavyOps false in
    // gpu_update.comp: no curl noise, force fields, attractors or collision).
    vk::OwnedPipeline light_update;
};

// Builds the command pool and the pipelines on `shared` (the renderer's device, so the renderer
// can draw from the pool) or, when shared is null, on a device of its own: vk::createContext
// with `device_request` (RendererConfig::device rules) and `validation`. The update and ribbon
// strip passes take their subgroup variants where the device allows them (subgroup_support.h)
// unless `portable` forces the portable ones (tests run both). nullptr with the reasons on
// failure (no Vulkan driver, no device, a failed call).
struct PortableVariants {
    bool append = false; // the update pass's compaction through shared memory
    bool strips = false; // the ribbon strip pass with one invocation per ribbon
};
std::unique_ptr<GpuContext> createGpuContext(std::shared_ptr<vk::Context> shared,
                                             const std::string& device_request, bool validation,
                                             std::vector<Diagnostic>& diagnostics,
                                             PortableVariants portable = {});

// Binds the pass's pipeline, pushes the constants and dispatches enough workgroups for
// `invocations`, capped at max_groups (within 1..kGpuMaxWorkgroups: the passes loop grid-stride).
// Nothing is recorded for 0 invocations.
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

// dispatchPass for the update pass of an emitter, with the light pipeline when `light`, in at
// most max_groups workgroups (at least 1; updateWorkgroupCap).
void dispatchUpdate(const GpuContext& gpu, VkCommandBuffer cmd, const GpuPushConstants& push,
                    uint32_t invocations, bool light, uint32_t max_groups);

// Compute writes before compute reads and writes (every pass boundary).
void computeBarrier(VkCommandBuffer cmd);

} // namespace spindrift::gpu
