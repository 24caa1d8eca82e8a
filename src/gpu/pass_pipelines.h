// The compute pipelines of the simulation passes (shaders/gpu_*.comp), one set per device and
// variant, shared by every GPU effect instance on that device.
//
// Compiling a pipeline is the dearest part of making an instance (on lavapipe ~80 ms each, twelve
// of them, 80 % of a small instance's creation; a real driver's compiler is faster but not free).
// Instances of any effect use the same passes, so the first instance on a device compiles what it
// needs and every later one (another effect, a reload, a restart on the GPU) finds them made. A
// pass no instance has used yet is not compiled: an effect without sub-emitters never compiles
// the event passes.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/context.h"
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
    trail_gather,    // ribbon trails for the host (ribbon_strips.h)
    events,          // the sub-emitter event walker (sub_emitters.h)
    event_spawn,     // event births of one child emitter (sub_emitters.h)
    list_pad,        // pads an alive list before its slot sort (alive_list_order.h)
    ribbon_strips,   // ribbon strips for a renderer drawing from the device (ribbon_strips.h)
    // The update pass specialised for emitters without heavy ops (kHeavyOps false in
    // gpu_update.comp: no curl noise, force fields, attractors or collision).
    update_light,
    count
};

inline constexpr int kPassCount = static_cast<int>(Pass::count);

// Which shader a variant compiles for the update and ribbon strip passes.
struct PassVariant {
    // The update pass's compaction appends with one atomic per subgroup (subgroup ballot), else
    // one per workgroup through shared memory (shaders/gpu_compact.glsl).
    bool subgroup_append = false;
    // The ribbon strip pass gives each ribbon a subgroup, one lane per point (subgroup
    // arithmetic), else one invocation per ribbon (shaders/gpu_ribbon_strips.comp).
    bool subgroup_strips = false;
};

struct PassPipelines {
    VkDevice device = VK_NULL_HANDLE;
    PassVariant variant;
    vk::OwnedPipelineLayout layout; // push constants only (GpuPushConstants)
    std::mutex mutex;               // guards pipelines and compiled
    vk::OwnedPipeline pipelines[kPassCount];
    uint32_t compiled = 0; // pipelines compiled so far on this device, in this variant
};

// The device's pass pipelines in this variant (vk::sharedObject), with the layout made and no
// pipeline compiled yet the first time; nullptr with the reasons if the layout cannot be made.
std::shared_ptr<PassPipelines> sharedPassPipelines(vk::Context& context, PassVariant variant,
                                                   std::vector<Diagnostic>& diagnostics);

// The pass's pipeline, compiled now if no instance on the device has used it before.
// VK_NULL_HANDLE with the reasons on failure (a later call tries again). Thread-safe.
VkPipeline passPipeline(PassPipelines& passes, Pass pass, std::vector<Diagnostic>& diagnostics);

// How many pipelines the set has compiled (tests: a second instance compiles none).
uint32_t compiledPipelines(PassPipelines& passes);

} // namespace spindrift::gpu
