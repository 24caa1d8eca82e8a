#include "gpu/gpu_context.h"

#include <algorithm>
#include <span>

#include "gpu/subgroup_support.h"
#include "kernels/update_step.h"
#include "vulkan/compute.h"

namespace spindrift::gpu {

std::unique_ptr<GpuContext> createGpuContext(std::shared_ptr<vk::Context> shared,
                                             const std::string& device_request, bool validation,
                                             std::vector<Diagnostic>& diagnostics,
                                             PortableVariants portable) {
    auto gpu = std::make_unique<GpuContext>();
    gpu->vulkan =
        shared ? std::move(shared) : vk::createContext(device_request, validation, diagnostics);
    if (!gpu->vulkan) return nullptr;
    gpu->device = gpu->vulkan->device.get();
    gpu->device_name = gpu->vulkan->physical.name;
    const SubgroupSupport subgroups = querySubgroups(gpu->device->physical());
    const PassVariant variant{!portable.append && subgroupAppendFits(subgroups),
                              !portable.strips && subgroups.arithmetic && subgroups.size != 0};
    gpu->subgroup_size = subgroups.size;
    gpu->runner = vk::CommandRunner::create(*gpu->device, diagnostics, kGpuSubmissionsInFlight);
    if (!gpu->runner) return nullptr;
    gpu->passes = sharedPassPipelines(*gpu->vulkan, variant, diagnostics);
    if (!gpu->passes) return nullptr;
    return gpu;
}

// The update pass sets the update step's flag bits (src/kernels/update_step.h) in the flags
// column, below the threshold bit and the contact mask, which it clears every step.
static_assert(((kParticleFlagStuck | kParticleFlagKilled) & ~kGpuParticleFlagBits) == 0u);
static_assert((kGpuThresholdCrossedBit & kGpuParticleFlagBits) == 0u &&
              kGpuThresholdCrossedBit < (1u << kGpuContactMaskShift) &&
              kGpuContactMaskShift + kGpuMaxContactOps <= 32u);

bool updatesLight(const CompiledEffect& effect, uint32_t emitter) {
    const EmitterRecord& e = effect.emitters[emitter];
    for (uint32_t k = 0; k < e.op_count; ++k) {
        if (sdIsHeavyUpdateOp(effect.ops[e.op_first + k].op)) return false;
    }
    return true;
}

uint32_t updateWorkgroupCap(uint32_t configured, uint32_t live_bound) {
    if (configured != 0) return configured;
    if (live_bound > kGpuUpdateLargeBound) return kGpuUpdateLargeWorkgroups;
    return live_bound > kGpuUpdateMidBound ? kGpuUpdateMidWorkgroups : kGpuUpdateMaxWorkgroups;
}

bool preparePasses(const GpuContext& gpu, std::span<const Pass> passes,
                   std::vector<Diagnostic>& diagnostics) {
    for (const Pass pass : passes) {
        if (passPipeline(*gpu.passes, pass, diagnostics) == VK_NULL_HANDLE) return false;
    }
    return true;
}

void dispatchUpdate(const GpuContext& gpu, VkCommandBuffer cmd, const GpuPushConstants& push,
                    uint32_t invocations, bool light, uint32_t max_groups) {
    dispatchPass(gpu, cmd, light ? Pass::update_light : Pass::update, push, invocations,
                 max_groups);
}

void dispatchPass(const GpuContext& gpu, VkCommandBuffer cmd, Pass pass,
                  const GpuPushConstants& push, uint32_t invocations, uint32_t max_groups) {
    if (invocations == 0) return;
    // Compiled now if no instance on the device has used it; a failure is recorded for the
    // submission (dispatch_errors) and nothing is dispatched.
    const VkPipeline pipeline = passPipeline(*gpu.passes, pass, gpu.dispatch_errors);
    if (pipeline == VK_NULL_HANDLE) return;
    const uint32_t groups = std::min((invocations + kGpuWorkgroupSize - 1) / kGpuWorkgroupSize,
                                     std::clamp(max_groups, 1u, kGpuMaxWorkgroups));
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdPushConstants(cmd, gpu.passes->layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push),
                       &push);
    vkCmdDispatch(cmd, groups, 1, 1);
}

void computeBarrier(VkCommandBuffer cmd) {
    vk::computeBarrier(cmd);
}

} // namespace spindrift::gpu
