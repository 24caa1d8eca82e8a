#include "render/compute_raster.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "render/particle_pass.h"
#include "render/shader/frame_globals.h"
#include "render/shader_code.h"
#include "vulkan/compute.h"
#include "vulkan/descriptors.h"
#include "vulkan/image.h"
#include "vulkan/pipeline.h"
#include "vulkan/vk_error.h"

namespace spindrift::render {

namespace {

constexpr uint32_t kMaxGroups = 65535; // per dispatch dimension, portable
constexpr uint64_t kMinPairs = 1u << 16;

Diagnostic rasterError(std::string message) {
    return vk::vulkanSetupError("compute raster", std::move(message));
}

uint64_t batchParticles(const BillboardBatch& b) {
    return b.device.records != 0 ? b.device.max_records : b.records.size();
}

// The specialisation values of a batch's blend variant (kSpecBillboard* ids 0..5: the graphics
// pipeline's, without the OIT flag, which the rasteriser never draws).
std::array<uint32_t, kSpecBillboardFrameBlend + 1> variantOf(const BillboardBatch& batch) {
    const BillboardParams& p = batch.params;
    const uint32_t textured = batch.texture == kNoTexture ? 0u : 1u;
    std::array<uint32_t, kSpecBillboardFrameBlend + 1> v{};
    v[kSpecBillboardBlend] = p.blend;
    v[kSpecBillboardAlignment] = p.alignment;
    v[kSpecBillboardTextured] = textured;
    v[kSpecBillboardLit] = sdBillboardLitVariant(p.render_flags);
    v[kSpecBillboardSoftFade] = p.soft_fade_distance > 0.0f ? 1u : 0u;
    v[kSpecBillboardFrameBlend] =
        textured & ((p.render_flags & kRenderFlagFrameBlend) != 0 ? 1u : 0u);
    return v;
}

VkBufferUsageFlags storageUsage() {
    return VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
           VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
}

} // namespace

bool drawsByCompute(const FrameView& view, const BillboardBatch& batch) {
    if (view.raster == RasterPath::graphics) return false;
    // Distortion billboards read a copy of the finished frame: the graphics path's last phase.
    if (!drawsAnything(batch) || drawsThroughOit(view.transparency, batch.params.blend) ||
        isDistortion(batch.params)) {
        return false;
    }
    if (view.raster == RasterPath::compute) return true;
    return batchParticles(batch) >= view.compute_raster_threshold;
}

void ComputeRaster::bindShadows(const ShadowMaps& maps) const {
    writeShadowBindings(device_.handle(), set_, maps);
}

std::unique_ptr<ComputeRaster> ComputeRaster::create(const vk::Device& device,
                                                     const FrameTargets& targets,
                                                     const TextureStore& textures,
                                                     std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<ComputeRaster> r(new ComputeRaster(device));
    const VkDevice d = device.handle();
    r->tiles_x_ = (targets.width + kRasterTileSize - 1) / kRasterTileSize;
    r->tiles_y_ = (targets.height + kRasterTileSize - 1) / kRasterTileSize;
    r->depth_sampler_ = vk::createSampler(device, vk::Filter::nearest, diagnostics);
    if (!r->depth_sampler_) return nullptr;

    VkDescriptorSetLayoutBinding bindings[3]{};
    bindings[0].binding = kBindingFrameGlobals;
    bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    bindings[1].binding = kBindingSceneDepth;
    bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    bindings[2].binding = kBindingRasterFrame;
    bindings[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    for (VkDescriptorSetLayoutBinding& b : bindings) {
        b.descriptorCount = 1;
        b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    static_assert(kBindingRasterFrame != kBindingShadowAtlas &&
                  kBindingRasterFrame != kBindingShadowOpacity &&
                  kBindingRasterFrame != kBindingLocalShadowAtlas &&
                  kBindingRasterFrame != kBindingLocalShadowOpacity);
    std::vector<VkDescriptorSetLayoutBinding> set_bindings = {bindings[0], bindings[1],
                                                              bindings[2]};
    addShadowBindings(set_bindings, VK_SHADER_STAGE_COMPUTE_BIT);
    r->set_layout_ = vk::createDescriptorSetLayout(d, set_bindings, "the compute raster set layout",
                                                   diagnostics);
    if (!r->set_layout_) return nullptr;
    static_assert(kSetFrame == 0 && kSetTexture == 1);
    r->layout_ = vk::createPipelineLayout(d, {r->set_layout_.get(), textures.layout()},
                                          sizeof(RasterPush), "the compute raster layout",
                                          diagnostics, VK_SHADER_STAGE_COMPUTE_BIT);
    if (!r->layout_) return nullptr;
    r->pool_ = vk::createDescriptorPool(d, 1, 1, 1 + kShadowBindingCount, diagnostics, 1);
    if (!r->pool_) return nullptr;
    r->set_ = vk::allocateDescriptorSet(d, r->pool_.get(), r->set_layout_.get(), diagnostics);
    if (r->set_ == VK_NULL_HANDLE) return nullptr;
    // The offscreen frame has one slot (renderer_state.h).
    vk::writeUniformBuffer(d, r->set_, kBindingFrameGlobals, targets.globals[0].get(),
                           sizeof(FrameGlobals));
    vk::writeCombinedImageSampler(d, r->set_, kBindingSceneDepth, targets.linear_depth.view.get(),
                                  r->depth_sampler_.get(),
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    vk::writeStorageImage(d, r->set_, kBindingRasterFrame, targets.color.view);

    auto pipeline = [&](const shaders::SpirvCode& code) {
        return vk::createComputePipeline(d, r->layout_.get(), spirvWords(code), code.source,
                                         nullptr, diagnostics);
    };
    r->project_ = pipeline(shaders::kRasterProjectComp);
    r->scan_ = pipeline(shaders::kRasterScanComp);
    r->emit_ = pipeline(shaders::kRasterEmitComp);
    r->ranges_pipeline_ = pipeline(shaders::kRasterRangesComp);
    if (!r->project_ || !r->scan_ || !r->emit_ || !r->ranges_pipeline_) return nullptr;

    r->counters_ =
        vk::createBuffer(device, 4 * sizeof(uint32_t), storageUsage(), vk::MemoryUse::readback,
                         "the compute raster counters", diagnostics);
    if (!r->counters_) return nullptr;
    if (device.support().timestamps) {
        VkQueryPoolCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = 2;
        VkQueryPool pool = VK_NULL_HANDLE;
        if (!vk::check(vkCreateQueryPool(d, &info, nullptr, &pool), "vkCreateQueryPool",
                       diagnostics, "compute raster timestamps")) {
            return nullptr;
        }
        r->timestamps_ = vk::OwnedQueryPool(d, pool);
    }
    return r;
}

bool ComputeRaster::ensureVariant(const std::array<uint32_t, kSpecBillboardFrameBlend + 1>& values,
                                  std::vector<Diagnostic>& diagnostics) {
    const uint32_t key = ParticlePass::variantKey(values);
    if (blend_variants_.count(key) != 0) return true;
    const vk::UintSpecialization specialization(values);
    vk::OwnedPipeline p = vk::createComputePipeline(
        device_.handle(), layout_.get(), spirvWords(shaders::kRasterBlendComp),
        shaders::kRasterBlendComp.source, &specialization.info, diagnostics);
    if (!p) return false;
    blend_variants_.emplace(key, std::move(p));
    return true;
}

bool ComputeRaster::grow(vk::Buffer& buffer, uint64_t bytes, const char* what,
                         std::vector<Diagnostic>& diagnostics) const {
    bytes = std::max<uint64_t>(bytes, 16);
    if (buffer && buffer.size >= bytes) return true;
    // Doubling stops at 2 GiB, the most any of these buffers needs (the frame limits of
    // compute_raster.h), so no buffer passes the 4 GiB an H200 buffer may have.
    const uint64_t size = std::max<uint64_t>(
        bytes, buffer ? std::min<uint64_t>(2 * buffer.size, uint64_t{2} << 30) : 0);
    buffer = vk::createBuffer(device_, size, storageUsage(), vk::MemoryUse::device_local, what,
                              diagnostics);
    return static_cast<bool>(buffer);
}

RasterPush ComputeRaster::push(uint32_t job, uint32_t count) const {
    RasterPush p{};
    p.grid = uvec4(job, tiles_x_, tiles_y_, count);
    p.jobs = splitAddress(jobs_.address);
    p.rects = splitAddress(rects_.address);
    p.chunk_sums = splitAddress(chunk_sums_.address);
    p.total = splitAddress(counters_.address);
    p.keys = splitAddress(keys_ ? keys_.address : 0);
    p.payloads = splitAddress(payloads_ ? payloads_.address : 0);
    p.ranges = splitAddress(ranges_ ? ranges_.address : 0);
    return p;
}

void ComputeRaster::dispatch(VkCommandBuffer cmd, VkPipeline pipeline, const RasterPush& p,
                             uint32_t groups_x, uint32_t groups_y) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
    vkCmdDispatch(cmd, groups_x, groups_y, 1);
}

bool ComputeRaster::prepare(vk::CommandRunner& runner, const FrameView& view,
                            std::span<const DrawBatch> batches, const BillboardPass& billboards,
                            uint32_t slot, FrameStats& stats,
                            std::vector<Diagnostic>& diagnostics) {
    jobs_planned_.clear();
    job_of_batch_.assign(batches.size(), -1);
    total_chunks_ = 0;
    pairs_ = 0;
    const uint64_t tiles = uint64_t{tiles_x_} * tiles_y_;
    uint64_t first_record = 0; // where BillboardPass::upload put each batch's host records
    uint64_t particles = 0;
    for (size_t i = 0; i < batches.size(); ++i) {
        const std::span<const DrawRecord> records = hostRecords(batches[i]);
        const uint64_t host_first = first_record;
        first_record += records.size();
        const BillboardBatch* b = std::get_if<BillboardBatch>(&batches[i]);
        if (b == nullptr || !drawsByCompute(view, *b)) continue;
        const uint64_t n = batchParticles(*b);
        if (n > kMaxComputeRasterBatchParticles) {
            diagnostics.push_back(
                rasterError("batch " + std::to_string(i) + " has " + std::to_string(n) +
                            " particles, more than the compute rasteriser takes in one batch (" +
                            std::to_string(kMaxComputeRasterBatchParticles) + ")"));
            return false;
        }
        if (n > kMaxComputeRasterFrameParticles - particles) {
            diagnostics.push_back(rasterError("batch " + std::to_string(i) +
                                              ": the frame's compute-rastered batches have more "
                                              "than kMaxComputeRasterFrameParticles (" +
                                              std::to_string(kMaxComputeRasterFrameParticles) +
                                              ") particles"));
            return false;
        }
        const uint64_t job_index = jobs_planned_.size();
        if ((job_index + 1) * tiles > kMaxComputeRasterKeys) {
            diagnostics.push_back(rasterError("batch " + std::to_string(i) +
                                              ": more compute-rastered batches than "
                                              "kMaxComputeRasterKeys (" +
                                              std::to_string(kMaxComputeRasterKeys) +
                                              ") keys can name at " + std::to_string(tiles) +
                                              " tiles a batch"));
            return false;
        }
        Job job;
        job.batch = i;
        job.variant = variantOf(*b);
        job.chunks = static_cast<uint32_t>((n + kRasterChunk - 1) / kRasterChunk);
        RasterJob& rec = job.record;
        rec.params = b->params;
        rec.params.textured = job.variant[kSpecBillboardTextured];
        rec.overrides = b->overrides;
        if (b->device.records != 0) {
            rec.records = uvec4(splitAddress(b->device.records), b->device.chunk_records,
                                b->device.first_in_chunk);
            rec.order = uvec4(splitAddress(b->device.order), 0u, 0u);
            rec.count = uvec4(splitAddress(b->device.count), b->device.max_records,
                              static_cast<uint32_t>(particles));
        } else {
            rec.records = uvec4(splitAddress(billboards.recordsAddress(slot, host_first)), 0u, 0u);
            rec.count = uvec4(0u, 0u, static_cast<uint32_t>(n), static_cast<uint32_t>(particles));
        }
        rec.bases = uvec4(total_chunks_, static_cast<uint32_t>(job_index * tiles), job.chunks, 0u);
        if (!ensureVariant(job.variant, diagnostics)) return false;
        job_of_batch_[i] = static_cast<int32_t>(job_index);
        jobs_planned_.push_back(job);
        total_chunks_ += job.chunks;
        particles += n;
    }
    if (jobs_planned_.empty()) return true;

    if (!jobs_ || jobs_.size < jobs_planned_.size() * sizeof(RasterJob)) {
        const uint64_t bytes = std::max<uint64_t>(jobs_planned_.size(), 16) * sizeof(RasterJob);
        jobs_ = vk::createBuffer(device_, bytes, storageUsage(), vk::MemoryUse::upload,
                                 "the compute raster jobs", diagnostics);
        if (!jobs_) return false;
    }
    auto* out = static_cast<RasterJob*>(jobs_.mapped);
    for (size_t j = 0; j < jobs_planned_.size(); ++j) out[j] = jobs_planned_[j].record;
    if (!grow(rects_, particles * sizeof(uvec2), "the compute raster rectangles", diagnostics) ||
        !grow(chunk_sums_, uint64_t{total_chunks_} * sizeof(uint32_t),
              "the compute raster chunk sums", diagnostics) ||
        !grow(ranges_, jobs_planned_.size() * tiles * sizeof(uvec2), "the compute raster ranges",
              diagnostics)) {
        return false;
    }
    std::memset(counters_.mapped, 0, 4 * sizeof(uint32_t));
    if (!binOnDevice(runner, stats.gpu_raster_bin_ms, diagnostics)) return false;

    uint32_t total = 0;
    std::memcpy(&total, counters_.mapped, sizeof(total));
    const uint64_t limit = std::min(view.compute_raster_max_pairs, kMaxComputeRasterPairs);
    if (total > limit) {
        const std::string count =
            total == kRasterSaturated ? "over 4294967294" : std::to_string(total);
        if (view.raster == RasterPath::automatic) {
            job_of_batch_.assign(batches.size(), -1);
            jobs_planned_.clear();
            stats.raster_fallbacks = 1;
            return true;
        }
        diagnostics.push_back(rasterError(
            "the frame's compute-rastered particles cover " + count +
            " tile entries, more than the limit of " + std::to_string(limit) +
            " (FrameView::compute_raster_max_pairs, at most kMaxComputeRasterPairs = " +
            std::to_string(kMaxComputeRasterPairs) +
            "); draw it with raster graphics or automatic, or with fewer or smaller particles"));
        return false;
    }
    pairs_ = total;
    if (!grow(keys_, uint64_t{total} * sizeof(uint32_t), "the compute raster keys", diagnostics) ||
        !grow(payloads_, uint64_t{total} * sizeof(uint32_t), "the compute raster payloads",
              diagnostics)) {
        return false;
    }
    if (total > 1 && (!sort_ || sort_->max_count < total)) {
        const uint64_t want = std::clamp<uint64_t>(
            std::max<uint64_t>(total, sort_ ? 2 * uint64_t{sort_->max_count} : kMinPairs),
            kMinPairs, kMaxComputeRasterPairs);
        sort_.reset();
        gpu::GpuRadixSortConfig config;
        config.max_count = static_cast<uint32_t>(want);
        sort_ = gpu::createGpuRadixSort(device_, config, diagnostics);
        if (!sort_) return false;
    }
    stats.raster_batches = static_cast<uint32_t>(jobs_planned_.size());
    stats.raster_pairs = total;
    return true;
}

bool ComputeRaster::binOnDevice(vk::CommandRunner& runner, double& gpu_ms,
                                std::vector<Diagnostic>& diagnostics) {
    VkCommandBuffer cmd = runner.begin(diagnostics);
    if (cmd == VK_NULL_HANDLE) return false;
    VkQueryPool queries = timestamps_.get();
    if (queries != VK_NULL_HANDLE) {
        vkCmdResetQueryPool(cmd, queries, 0, 2);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, queries, 0);
    }
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), kSetFrame, 1, &set_,
                            0, nullptr);
    for (size_t j = 0; j < jobs_planned_.size(); ++j) {
        dispatch(cmd, project_.get(), push(static_cast<uint32_t>(j), 0), jobs_planned_[j].chunks,
                 1);
    }
    vk::computeBarrier(cmd);
    dispatch(cmd, scan_.get(), push(0, total_chunks_), 1, 1);
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    if (queries != VK_NULL_HANDLE) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 1);
    }
    if (!runner.submitAndWait("compute raster binning", diagnostics)) return false;
    if (queries != VK_NULL_HANDLE) {
        uint64_t ticks[2] = {};
        if (vkGetQueryPoolResults(
                device_.handle(), queries, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS &&
            ticks[1] >= ticks[0]) {
            gpu_ms = static_cast<double>(ticks[1] - ticks[0]) *
                     device_.support().timestamp_period_ns * 1.0e-6;
        }
    }
    return true;
}

bool ComputeRaster::recordBinning(VkCommandBuffer cmd, std::vector<Diagnostic>& diagnostics) {
    if (jobs_planned_.empty() || pairs_ == 0) return true;
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), kSetFrame, 1, &set_,
                            0, nullptr);
    const uint64_t range_bytes = jobs_planned_.size() * uint64_t{tiles_x_} * tiles_y_ * 8;
    vkCmdFillBuffer(cmd, ranges_.get(), 0, range_bytes, 0);
    for (size_t j = 0; j < jobs_planned_.size(); ++j) {
        dispatch(cmd, emit_.get(), push(static_cast<uint32_t>(j), 0), jobs_planned_[j].chunks, 1);
    }
    if (pairs_ > 1 && !gpu::recordGpuRadixSort(cmd, *sort_, keys_.address, payloads_.address,
                                               pairs_, diagnostics)) {
        return false;
    }
    // The sort's writes (or, for one pair, the emit's) and the fill before the ranges pass.
    vk::memoryBarrier(cmd,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ranges_pipeline_.get());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), kSetFrame, 1, &set_,
                            0, nullptr);
    const uint32_t groups = static_cast<uint32_t>(std::min<uint64_t>(
        (uint64_t{pairs_} + kRasterGroupSize - 1) / kRasterGroupSize, kMaxGroups));
    dispatch(cmd, ranges_pipeline_.get(), push(0, pairs_), groups, 1);
    vk::computeBarrier(cmd);
    return true;
}

void ComputeRaster::recordBlend(VkCommandBuffer cmd, const TextureStore& textures,
                                const FrameTargets& targets, size_t index,
                                const BillboardBatch& batch) const {
    if (!draws(index) || pairs_ == 0) return;
    const Job& job = jobs_planned_[static_cast<size_t>(job_of_batch_[index])];
    vk::ImageBarrier to_general{targets.color.image,
                                VK_IMAGE_ASPECT_COLOR_BIT,
                                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                VK_IMAGE_LAYOUT_GENERAL,
                                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                                    VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    vk::imageBarriers(cmd, {to_general});
    const uint32_t key = ParticlePass::variantKey(job.variant);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, blend_variants_.at(key).get());
    const VkDescriptorSet sets[2] = {set_, textures.set(batch.texture)};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), kSetFrame, 2, sets,
                            0, nullptr);
    const RasterPush p = push(static_cast<uint32_t>(job_of_batch_[index]), pairs_);
    vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
    vkCmdDispatch(cmd, tiles_x_, tiles_y_, 1);
    vk::ImageBarrier back = to_general;
    back.old_layout = VK_IMAGE_LAYOUT_GENERAL;
    back.new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    back.src_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    back.src_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    back.dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    back.dst_access =
        VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    vk::imageBarriers(cmd, {back});
}

bool ComputeRaster::checkFinished(std::vector<Diagnostic>& diagnostics) const {
    if (jobs_planned_.empty()) return true;
    uint32_t words[2] = {};
    std::memcpy(words, counters_.mapped, sizeof(words));
    if (words[1] == 0) return true;
    diagnostics.push_back(rasterError(
        "a compute raster loop ended before its work (the device cut it short: lavapipe stops "
        "every loop of an invocation after 65535 iterations in all), so the frame is wrong; draw "
        "it with raster graphics, or with fewer particles in a tile"));
    return false;
}

} // namespace spindrift::render
