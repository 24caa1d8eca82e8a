#include "render/post_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "render/shader_code.h"
#include "vulkan/commands.h"
#include "vulkan/compute.h"
#include "vulkan/descriptors.h"
#include "vulkan/pipeline.h"

namespace spindrift::render {

// The std430 layouts the post shaders read (post.h: vec4 and uvec4 only, so C++ and GLSL agree).
SD_ASSERT_RECORD(PostPush, 80);
SD_ASSERT_RECORD(PostState, 16);
static_assert(kHistogramBins * sizeof(uint32_t) == kPostStateOffsetBytes);
static_assert(kPostStateOffsetBytes + sizeof(PostState) == kPostBufferBytes);
static_assert(kTonemapCount == static_cast<uint32_t>(Tonemap::reinhard) + 1);

namespace {

VkExtent2D levelExtent(VkExtent2D frame, uint32_t level) {
    return {std::max(1u, frame.width >> (level + 1)), std::max(1u, frame.height >> (level + 1))};
}

vec2 inverse(VkExtent2D e) {
    return vec2(1.0f / float(e.width), 1.0f / float(e.height));
}

bool inRange(float v, float lo, float hi) {
    return std::isfinite(v) && v >= lo && v <= hi;
}

// Every image a post pass touches is in GENERAL (sampled and storage access both allow it).
vk::ImageBarrier toGeneral(VkImage image) {
    return {image,
            VK_IMAGE_ASPECT_COLOR_BIT,
            VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_GENERAL,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_NONE,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
}

} // namespace

std::string postProblem(const FrameView& v) {
    if (static_cast<uint32_t>(v.tonemap) >= kTonemapCount) {
        return "tonemap " + std::to_string(int(v.tonemap)) + " is unknown";
    }
    const ExposureDesc& e = v.exposure;
    if (e.mode != ExposureMode::manual && e.mode != ExposureMode::automatic) {
        return "exposure mode " + std::to_string(int(e.mode)) + " is unknown";
    }
    if (!inRange(e.ev, -kMaxExposureEv, kMaxExposureEv) ||
        !inRange(e.min_ev, -kMaxExposureEv, kMaxExposureEv) ||
        !inRange(e.max_ev, -kMaxExposureEv, kMaxExposureEv) || !(e.min_ev < e.max_ev)) {
        return "exposure ev, min_ev and max_ev must be finite in [-16, 16], min_ev < max_ev";
    }
    if (!inRange(e.low_percent, 0, 100) || !inRange(e.high_percent, 0, 100) ||
        !(e.low_percent < e.high_percent) || !inRange(e.speed, 0, kMaxExposureSpeed)) {
        return "exposure percentiles must satisfy 0 <= low < high <= 100 and speed be in "
               "[0, 100]";
    }
    if (!inRange(v.bloom.strength, 0, 1) || v.bloom.levels < 1 ||
        v.bloom.levels > kMaxBloomLevels) {
        return "bloom strength must be in [0, 1] and levels in [1, 8]";
    }
    if (!std::isfinite(v.time_s)) return "time_s must be finite";
    return {};
}

bool wantsPost(const FrameView& v) {
    return v.tonemap != Tonemap::none || v.bloom.strength > 0 ||
           v.exposure.mode == ExposureMode::automatic || v.exposure.ev != 0;
}

float adaptationStep(bool has_previous, float previous_time_s, float time_s) {
    if (!has_previous) return -1.0f;
    const float dt = time_s - previous_time_s;
    return dt > 0 && dt <= kMaxAdaptStep_s ? dt : -1.0f;
}

std::unique_ptr<PostPass> PostPass::create(const vk::Device& device, const FrameTargets& targets,
                                           std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<PostPass> pass(new PostPass());
    const VkDevice d = device.handle();
    pass->device_ = d;
    pass->frame_view_ = targets.color.view;
    pass->frame_extent_ = targets.extent();
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    for (uint32_t i = 0; i < kMaxBloomLevels; ++i) {
        const VkExtent2D e = levelExtent(pass->frame_extent_, i);
        const std::string what = "the bloom level " + std::to_string(i) + " (" +
                                 std::to_string(e.width) + "x" + std::to_string(e.height) + ")";
        pass->down_[i] = vk::createImage2D(device, kColorFormat, e, usage, what, diagnostics);
        pass->up_[i] = vk::createImage2D(device, kColorFormat, e, usage, what, diagnostics);
        if (!pass->down_[i] || !pass->up_[i]) return nullptr;
    }
    pass->sampler_ = vk::createSampler(device, vk::Filter::linear, diagnostics);
    if (!pass->sampler_) return nullptr;
    // The histogram's atomics and the adapted state stay in device memory (atomics on
    // host-visible memory cross the bus, one per bin per workgroup); only the 16-byte state is
    // copied out for exposureUsed.
    pass->state_ = vk::createBuffer(
        device, kPostBufferBytes,
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        vk::MemoryUse::device_local, "the exposure state", diagnostics);
    if (!pass->state_) return nullptr;
    pass->state_readback_ =
        vk::createBuffer(device, sizeof(PostState), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::readback, "the exposure state readback", diagnostics);
    if (!pass->state_readback_) return nullptr;
    std::memset(pass->state_readback_.mapped, 0, sizeof(PostState));

    VkDescriptorSetLayoutBinding bindings[3]{};
    bindings[0].binding = kBindingPostSource;
    bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    bindings[1].binding = kBindingPostTarget;
    bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    bindings[2].binding = kBindingPostSecond;
    bindings[2].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    for (VkDescriptorSetLayoutBinding& b : bindings) {
        b.descriptorCount = 1;
        b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    pass->set_layout_ = vk::createDescriptorSetLayout(d, {bindings[0], bindings[1], bindings[2]},
                                                      "the post set layout", diagnostics);
    if (!pass->set_layout_) return nullptr;
    static_assert(kSetPost == 0);
    pass->layout_ = vk::createPipelineLayout(d, {pass->set_layout_.get()}, sizeof(PostPush),
                                             "the post pipeline layout", diagnostics,
                                             VK_SHADER_STAGE_COMPUTE_BIT);
    if (!pass->layout_) return nullptr;
    auto pipeline = [&](const shaders::SpirvCode& code) {
        return vk::createComputePipeline(d, pass->layout_.get(), spirvWords(code), code.source,
                                         nullptr, diagnostics);
    };
    pass->down_pipeline_ = pipeline(shaders::kPostBloomDownComp);
    pass->up_pipeline_ = pipeline(shaders::kPostBloomUpComp);
    pass->histogram_pipeline_ = pipeline(shaders::kPostHistogramComp);
    pass->exposure_pipeline_ = pipeline(shaders::kPostExposureComp);
    pass->tonemap_pipeline_ = pipeline(shaders::kPostTonemapComp);
    if (!pass->down_pipeline_ || !pass->up_pipeline_ || !pass->histogram_pipeline_ ||
        !pass->exposure_pipeline_ || !pass->tonemap_pipeline_) {
        return nullptr;
    }

    // A set per downsample, per upsample and the final one (the histogram shares it).
    const uint32_t sets = 2 * kMaxBloomLevels + 1;
    pass->pool_ = vk::createDescriptorPool(d, sets, 0, 2 * sets, diagnostics, sets);
    if (!pass->pool_) return nullptr;
    auto allocate = [&](VkDescriptorSet& set) {
        set = vk::allocateDescriptorSet(d, pass->pool_.get(), pass->set_layout_.get(), diagnostics);
        return set != VK_NULL_HANDLE;
    };
    for (uint32_t i = 0; i < kMaxBloomLevels; ++i) {
        if (!allocate(pass->down_sets_[i]) || !allocate(pass->up_sets_[i])) return nullptr;
        const VkImageView source = i == 0 ? pass->frame_view_ : pass->down_[i - 1].view.get();
        // Every binding of a bound set is written (lavapipe reads them all, used or not).
        for (uint32_t binding : {kBindingPostSource, kBindingPostSecond}) {
            vk::writeCombinedImageSampler(d, pass->down_sets_[i], binding, source,
                                          pass->sampler_.get(), VK_IMAGE_LAYOUT_GENERAL);
        }
        vk::writeStorageImage(d, pass->down_sets_[i], kBindingPostTarget,
                              pass->down_[i].view.get());
    }
    if (!allocate(pass->final_set_)) return nullptr;
    vk::writeStorageImage(d, pass->final_set_, kBindingPostTarget, pass->frame_view_);
    vk::writeCombinedImageSampler(d, pass->final_set_, kBindingPostSource,
                                  pass->down_[0].view.get(), pass->sampler_.get(),
                                  VK_IMAGE_LAYOUT_GENERAL);
    pass->writeSets(1);
    return pass;
}

// The upward chain and the final pass read different levels for each level count: up[i] adds
// the level below it, which is the last downsample itself for the lowest one.
void PostPass::writeSets(uint32_t levels) {
    if (levels == written_levels_) return;
    for (uint32_t i = 0; i + 1 < levels; ++i) {
        const VkImageView below = i + 2 == levels ? down_[i + 1].view.get() : up_[i + 1].view.get();
        vk::writeCombinedImageSampler(device_, up_sets_[i], kBindingPostSource, below,
                                      sampler_.get(), VK_IMAGE_LAYOUT_GENERAL);
        vk::writeStorageImage(device_, up_sets_[i], kBindingPostTarget, up_[i].view.get());
        vk::writeCombinedImageSampler(device_, up_sets_[i], kBindingPostSecond, down_[i].view.get(),
                                      sampler_.get(), VK_IMAGE_LAYOUT_GENERAL);
    }
    const VkImageView bloom = levels > 1 ? up_[0].view.get() : down_[0].view.get();
    vk::writeCombinedImageSampler(device_, final_set_, kBindingPostSecond, bloom, sampler_.get(),
                                  VK_IMAGE_LAYOUT_GENERAL);
    written_levels_ = levels;
}

uint32_t PostPass::bloomLevels(const FrameView& view) const {
    return view.bloom.strength > 0 ? std::clamp(view.bloom.levels, 1u, kMaxBloomLevels) : 0u;
}

void PostPass::dispatch(VkCommandBuffer cmd, VkPipeline pipeline, VkDescriptorSet set,
                        const PostPush& push, VkExtent2D size, uint32_t group) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), kSetPost, 1, &set,
                            0, nullptr);
    vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatch(cmd, (size.width + group - 1) / group, (size.height + group - 1) / group, 1);
}

void PostPass::record(VkCommandBuffer cmd, const FrameTargets& targets, const FrameView& view,
                      float dt_s) {
    const uint32_t levels = bloomLevels(view);
    writeSets(std::max(levels, 1u));
    const bool automatic = view.exposure.mode == ExposureMode::automatic;
    manual_last_ = !automatic;
    manual_scale_ = std::exp2(view.exposure.ev);

    // The particles' attachment writes before every read here; the bloom levels' old contents
    // are discarded.
    vk::ImageBarrier frame{targets.color.image,
                           VK_IMAGE_ASPECT_COLOR_BIT,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                           VK_IMAGE_LAYOUT_GENERAL,
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                           VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_SAMPLED_READ_BIT |
                               VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                               VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    std::vector<vk::ImageBarrier> barriers{frame};
    for (uint32_t i = 0; i < kMaxBloomLevels; ++i) {
        barriers.push_back(toGeneral(down_[i].get()));
        barriers.push_back(toGeneral(up_[i].get()));
    }
    vk::imageBarriers(cmd, barriers);

    PostPush push{};
    push.mode = uvec4(0u, static_cast<uint32_t>(view.tonemap), automatic ? 1u : 0u, levels);
    push.values = vec4(manual_scale_, view.bloom.strength, dt_s, view.exposure.speed);
    push.range = vec4(view.exposure.min_ev, view.exposure.max_ev,
                      view.exposure.low_percent / 100.0f, view.exposure.high_percent / 100.0f);
    push.state = uvec4(static_cast<uint32_t>(state_.address),
                       static_cast<uint32_t>(state_.address >> 32), 0u, 0u);

    if (automatic) {
        // The first automatic frame also clears the state (adaptation starts converged then,
        // adaptationStep, but the state must not hold whatever the allocation held).
        vkCmdFillBuffer(cmd, state_.get(), 0,
                        state_cleared_ ? kPostStateOffsetBytes : VK_WHOLE_SIZE, 0);
        state_cleared_ = true;
        vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                          VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                              VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        dispatch(cmd, histogram_pipeline_.get(), final_set_, push, frame_extent_,
                 kHistogramGroupSize);
        vk::computeBarrier(cmd);
        dispatch(cmd, exposure_pipeline_.get(), final_set_, push, {1, 1}, 1);
        vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                          VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                          VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
        const VkBufferCopy state{kPostStateOffsetBytes, 0, sizeof(PostState)};
        vkCmdCopyBuffer(cmd, state_.get(), state_readback_.get(), 1, &state);
    }

    // Bloom: down the chain from the frame, then back up.
    for (uint32_t i = 0; i < levels; ++i) {
        const VkExtent2D source = i == 0 ? frame_extent_ : levelExtent(frame_extent_, i - 1);
        const VkExtent2D target = levelExtent(frame_extent_, i);
        push.mode.x = i == 0 ? 1u : 0u;
        push.texel = vec4(inverse(source), inverse(target));
        dispatch(cmd, down_pipeline_.get(), down_sets_[i], push, target, kPostGroupSize);
        vk::computeBarrier(cmd);
    }
    push.mode.x = 0u;
    for (uint32_t i = levels >= 2 ? levels - 1 : 0; i-- > 0;) {
        const VkExtent2D target = levelExtent(frame_extent_, i);
        push.texel = vec4(inverse(levelExtent(frame_extent_, i + 1)), inverse(target));
        dispatch(cmd, up_pipeline_.get(), up_sets_[i], push, target, kPostGroupSize);
        vk::computeBarrier(cmd);
    }

    push.texel = vec4(inverse(levelExtent(frame_extent_, 0)), inverse(frame_extent_));
    dispatch(cmd, tonemap_pipeline_.get(), final_set_, push, frame_extent_, kPostGroupSize);

    vk::ImageBarrier to_copy{targets.color.image,
                             VK_IMAGE_ASPECT_COLOR_BIT,
                             VK_IMAGE_LAYOUT_GENERAL,
                             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                             VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_COPY_BIT,
                             VK_ACCESS_2_TRANSFER_READ_BIT};
    vk::imageBarriers(cmd, {to_copy});
    if (automatic) {
        vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    }
}

float PostPass::exposureUsed() const {
    if (manual_last_) return manual_scale_;
    PostState state;
    std::memcpy(&state, state_readback_.mapped, sizeof(state));
    return state.scale;
}

} // namespace spindrift::render
