// The billboard pass: every batch's DrawRecords in one host-visible storage buffer (read through
// its device address), drawn vertex-pulled in the order given, with the batch's blend pipeline,
// texture and push constants, depth-tested against the opaque pass without writing depth.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "kernels/effect_records.h"
#include "render/frame_targets.h"
#include "render/renderer.h"
#include "render/texture_store.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class BillboardPass {
public:
    static std::unique_ptr<BillboardPass> create(const vk::Device& device,
                                                 const FrameTargets& targets,
                                                 const TextureStore& textures,
                                                 std::vector<Diagnostic>& diagnostics);

    // Copies every batch's records, in order, into the draw buffer. The buffer grows (to at
    // least double, at most kMaxDrawRecords records) only when the frame has more records than
    // it holds; otherwise nothing is allocated. The caller has checked the total against
    // kMaxDrawRecords. False with an error when growing fails.
    bool upload(std::span<const BillboardBatch> batches, uint64_t total_records,
                std::vector<Diagnostic>& diagnostics);

    // Creates the pipeline variants the batches need that do not exist yet (each batch's blend,
    // alignment and features, as specialisation constants: kSpecBillboard*). Variants are kept
    // for the renderer's life. False with an error when a pipeline cannot be created.
    bool preparePipelines(std::span<const BillboardBatch> batches,
                          std::vector<Diagnostic>& diagnostics);

    // Records the pass. Expects colour in COLOR_ATTACHMENT_OPTIMAL (the opaque result), depth in
    // DEPTH_ATTACHMENT_OPTIMAL and linear depth in SHADER_READ_ONLY_OPTIMAL, and the batches
    // uploaded and their pipelines prepared.
    void record(VkCommandBuffer cmd, const FrameTargets& targets, const TextureStore& textures,
                std::span<const BillboardBatch> batches) const;

    uint64_t capacityRecords() const { return capacity_records_; }
    size_t pipelineVariants() const { return pipelines_.size(); }

private:
    explicit BillboardPass(const vk::Device& device) : device_(device) {}
    const vk::Device& device_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    vk::OwnedSampler depth_sampler_;
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedPipelineLayout layout_;
    std::map<uint32_t, vk::OwnedPipeline> pipelines_; // by variantKey()
    vk::OwnedDescriptorPool pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE; // frame globals + scene depth; freed with the pool
    vk::Buffer records_;
    uint64_t capacity_records_ = 0;
};

} // namespace spindrift::render
