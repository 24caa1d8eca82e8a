#include "render/particle_pass.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "render/shader_code.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

// "1 0 1 0": a variant's values, as errors name it.
std::string valueList(std::span<const uint32_t> values) {
    std::string out;
    for (const uint32_t v : values) out += (out.empty() ? "" : " ") + std::to_string(v);
    return out;
}

} // namespace

bool drawsAnything(const BillboardBatch& batch) {
    return !batch.records.empty() || batch.device.records != 0;
}

bool drawsAnything(const StripBatch& batch) {
    return !batch.segments.empty() || batch.device.points != 0;
}

bool drawsAnything(const MeshBatch& batch) {
    return !batch.records.empty() || batch.device.records != 0;
}

bool ParticlePass::createStages(const vk::Device& device, std::vector<Diagnostic>& diagnostics) {
    VkDevice d = device.handle();
    vertex_ =
        vk::createShaderModule(d, spirvWords(*desc_.vertex), desc_.vertex->source, diagnostics);
    fragment_ =
        vk::createShaderModule(d, spirvWords(*desc_.fragment), desc_.fragment->source, diagnostics);
    return vertex_ && fragment_;
}

uint32_t ParticlePass::variantKey(std::span<const uint32_t> values) {
    uint32_t key = 0;
    for (size_t id = 0; id < values.size(); ++id) {
#ifndef NDEBUG
        // Programmer error: the values come from batches checkBatches accepted (known enums).
        if (id >= kMaxValues || values[id] >> kKeyBitsPerValue != 0) {
            std::fprintf(stderr,
                         "ParticlePass::variantKey: specialisation value %zu of (%s) does not fit "
                         "a key of %u values of %u bits\n",
                         id, valueList(values).c_str(), kMaxValues, kKeyBitsPerValue);
            std::abort();
        }
#endif
        key |= values[id] << (id * kKeyBitsPerValue);
    }
    return key;
}

bool ParticlePass::ensure(std::span<const uint32_t> values, std::vector<Diagnostic>& diagnostics,
                          bool half_res) {
    const uint64_t key = mapKey(values, half_res);
    if (variants_.count(key) != 0) return true;
    const ParticleOutput output = desc_.motion                ? ParticleOutput::motion
                                  : values[desc_.oit_id] != 0 ? ParticleOutput::oit
                                  : half_res                  ? ParticleOutput::half_res
                                                              : ParticleOutput::frame;
    vk::OwnedPipeline pipeline = bindings_.createVariant(
        vertex_.get(), fragment_.get(), values, values[desc_.blend_id], output,
        "the " + std::string(desc_.name) + " pipeline variant (" + valueList(values) + ")",
        diagnostics, desc_.cull_back_faces);
    if (!pipeline) return false;
    variants_.emplace(key, std::move(pipeline));
    return true;
}

void ParticlePass::bind(VkCommandBuffer cmd, std::span<const uint32_t> values,
                        VkDescriptorSet texture, VkPipeline& bound, bool half_res) const {
    const VkPipeline pipeline = variants_.at(mapKey(values, half_res)).get();
    if (pipeline != bound) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        bound = pipeline;
    }
    bindings_.bindTexture(cmd, texture);
}

} // namespace spindrift::render
