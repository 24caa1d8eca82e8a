#include "gpu/gpu_context.h"

#include <algorithm>
#include <optional>
#include <span>

#include "embedded_shaders.h"
#include "gpu/subgroup_support.h"
#include "kernels/update_step.h"
#include "vulkan/compute.h"

namespace spindrift::gpu {

namespace {

const shaders::SpirvCode& passCode(Pass pass, const GpuContext& gpu) {
    switch (pass) {
    case Pass::pool_reset:
        return shaders::kGpuPoolResetComp;
    case Pass::counters:
        return shaders::kGpuCountersComp;
    case Pass::update:
        return gpu.subgroup_append ? shaders::kGpuUpdateSubgroupComp : shaders::kGpuUpdateComp;
    case Pass::spawn:
        return shaders::kGpuSpawnComp;
    case Pass::ordered_compact:
        return shaders::kGpuOrderedCompactComp;
    case Pass::trail_gather:
        return shaders::kGpuTrailGatherComp;
    case Pass::events:
        return shaders::kGpuEventsComp;
    case Pass::event_spawn:
        return shaders::kGpuEventSpawnComp;
    case Pass::list_pad:
        return shaders::kGpuListPadComp;
    case Pass::ribbon_strips:
        return gpu.subgroup_strips ? shaders::kGpuRibbonStripsSubgroupComp
                                   : shaders::kGpuRibbonStripsComp;
    case Pass::draw_records:
    case Pass::count:
        break;
    }
    return shaders::kGpuDrawRecordsComp;
}

// Binds the pipeline, pushes the constants and dispatches enough workgroups for `invocations`
// (at most max_groups: the passes loop grid-stride); nothing for 0 invocations.
void dispatchWith(const GpuContext& gpu, VkCommandBuffer cmd, VkPipeline pipeline,
                  const GpuPushConstants& push, uint32_t invocations,
                  uint32_t max_groups = kGpuMaxWorkgroups) {
    if (invocations == 0) return;
    const uint32_t groups =
        std::min((invocations + kGpuWorkgroupSize - 1) / kGpuWorkgroupSize, max_groups);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdPushConstants(cmd, gpu.layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatch(cmd, groups, 1, 1);
}

} // namespace

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
    gpu->subgroup_append = !portable.append && subgroupAppendFits(subgroups);
    gpu->subgroup_strips = !portable.strips && subgroups.arithmetic && subgroups.size != 0;
    gpu->subgroup_size = subgroups.size;
    gpu->runner = vk::CommandRunner::create(*gpu->device, diagnostics, kGpuSubmissionsInFlight);
    if (!gpu->runner) return nullptr;
    const VkDevice device = gpu->device->handle();
    gpu->layout = vk::createComputeLayout(device, sizeof(GpuPushConstants), "GPU simulation passes",
                                          diagnostics);
    if (!gpu->layout) return nullptr;
    for (int p = 0; p < static_cast<int>(Pass::count); ++p) {
        const shaders::SpirvCode& code = passCode(static_cast<Pass>(p), *gpu);
        gpu->pipelines[p] = vk::createComputePipeline(
            device, gpu->layout.get(), std::span<const uint32_t>(code.words, code.word_count),
            code.source, nullptr, diagnostics);
        if (!gpu->pipelines[p]) return nullptr;
    }
    const shaders::SpirvCode& update = passCode(Pass::update, *gpu);
    const VkBool32 heavy = VK_FALSE;
    const VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
    VkSpecializationInfo light{1, &entry, sizeof(heavy), &heavy};
    gpu->light_update = vk::createComputePipeline(
        device, gpu->layout.get(), std::span<const uint32_t>(update.words, update.word_count),
        update.source, &light, diagnostics);
    if (!gpu->light_update) return nullptr;
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

void dispatchUpdate(const GpuContext& gpu, VkCommandBuffer cmd, const GpuPushConstants& push,
                    uint32_t invocations, bool light, uint32_t max_groups) {
    dispatchWith(gpu, cmd,
                 light ? gpu.light_update.get()
                       : gpu.pipelines[static_cast<int>(Pass::update)].get(),
                 push, invocations, std::clamp(max_groups, 1u, kGpuMaxWorkgroups));
}

void dispatchPass(const GpuContext& gpu, VkCommandBuffer cmd, Pass pass,
                  const GpuPushConstants& push, uint32_t invocations, uint32_t max_groups) {
    dispatchWith(gpu, cmd, gpu.pipelines[static_cast<int>(pass)].get(), push, invocations,
                 std::clamp(max_groups, 1u, kGpuMaxWorkgroups));
}

void computeBarrier(VkCommandBuffer cmd) {
    vk::computeBarrier(cmd);
}

} // namespace spindrift::gpu
