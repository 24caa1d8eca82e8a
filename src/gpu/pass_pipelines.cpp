#include "gpu/pass_pipelines.h"

#include <span>
#include <string>

#include "embedded_shaders.h"
#include "gpu/shader/gpu_sim.h"
#include "vulkan/compute.h"

namespace spindrift::gpu {

namespace {

const shaders::SpirvCode& passCode(Pass pass, PassVariant variant) {
    switch (pass) {
    case Pass::pool_reset:
        return shaders::kGpuPoolResetComp;
    case Pass::counters:
        return shaders::kGpuCountersComp;
    case Pass::update:
    case Pass::update_light:
        return variant.subgroup_append ? shaders::kGpuUpdateSubgroupComp : shaders::kGpuUpdateComp;
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
        return variant.subgroup_strips ? shaders::kGpuRibbonStripsSubgroupComp
                                       : shaders::kGpuRibbonStripsComp;
    case Pass::draw_records:
    case Pass::count:
        break;
    }
    return shaders::kGpuDrawRecordsComp;
}

} // namespace

std::shared_ptr<PassPipelines> sharedPassPipelines(vk::Context& context, PassVariant variant,
                                                   std::vector<Diagnostic>& diagnostics) {
    const std::string key = std::string("gpu pass pipelines, ") +
                            (variant.subgroup_append ? "subgroup" : "portable") + " append, " +
                            (variant.subgroup_strips ? "subgroup" : "portable") + " strips";
    return vk::sharedObject<PassPipelines>(context, key, [&]() -> std::shared_ptr<PassPipelines> {
        auto passes = std::make_shared<PassPipelines>();
        passes->device = context.device->handle();
        passes->variant = variant;
        passes->layout = vk::createComputeLayout(passes->device, sizeof(GpuPushConstants),
                                                 "GPU simulation passes", diagnostics);
        if (!passes->layout) return nullptr;
        return passes;
    });
}

VkPipeline passPipeline(PassPipelines& passes, Pass pass, std::vector<Diagnostic>& diagnostics) {
    const int index = static_cast<int>(pass);
    if (index >= kPassCount) return VK_NULL_HANDLE;
    const std::lock_guard<std::mutex> lock(passes.mutex);
    vk::OwnedPipeline& pipeline = passes.pipelines[index];
    if (pipeline) return pipeline.get();
    const shaders::SpirvCode& code = passCode(pass, passes.variant);
    const VkBool32 heavy = VK_FALSE;
    const VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
    const VkSpecializationInfo light{1, &entry, sizeof(heavy), &heavy};
    pipeline = vk::createComputePipeline(
        passes.device, passes.layout.get(), std::span<const uint32_t>(code.words, code.word_count),
        code.source, pass == Pass::update_light ? &light : nullptr, diagnostics);
    if (pipeline) ++passes.compiled;
    return pipeline.get();
}

uint32_t compiledPipelines(PassPipelines& passes) {
    const std::lock_guard<std::mutex> lock(passes.mutex);
    return passes.compiled;
}

} // namespace spindrift::gpu
