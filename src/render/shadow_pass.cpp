#include "render/shadow_pass.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "embedded_shaders.h"
#include "render/billboard_pass.h"
#include "render/device_draw_args.h"
#include "render/mesh_store.h"
#include "render/opaque_pass.h"
#include "render/particle_bindings.h"
#include "render/particle_pass.h"
#include "render/record_cursor.h"
#include "render/shader/strip_draw.h"
#include "render/shader_code.h"
#include "render/strip_pass.h"
#include "render/texture_store.h"
#include "vulkan/descriptors.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"
#include "vulkan/vk_error.h"

namespace spindrift::render {

namespace {

// The stages that sample the shadow maps: the vertex stage of billboards lit per particle
// (billboard_lit.vert), every receiver's fragment stage and the compute rasteriser.
constexpr VkPipelineStageFlags2 kShadowReaderStages = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                                      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;

// The views the casters draw with: the sun's cascades, the opacity map, the local lights' depth
// tiles, then their opacity tiles (the same views at the opacity tiles' resolution).
constexpr uint32_t kSunViews = kShadowCascadeCapacity + 1;
constexpr uint32_t kOpacityView = kShadowCascadeCapacity;
constexpr uint32_t kLocalViews = kSunViews;
constexpr uint32_t kLocalOpacityViews = kLocalViews + kLocalShadowTiles;
constexpr uint32_t kViews = kLocalOpacityViews + kLocalShadowTiles;

// The globals and set of view `view` in frame slot `slot`.
constexpr uint32_t viewIndex(uint32_t slot, uint32_t view) {
    return slot * kViews + view;
}
// Both atlases lay their tiles out kLocalShadowColumns a row (the sun's one row of cascades).
static_assert(kShadowCascadeCapacity == kLocalShadowColumns);
// Slope-scaled depth bias of the casters (in units of the depth slope): with the receivers'
// normal offset and constant bias it keeps grazing surfaces from shadowing themselves.
constexpr float kCasterSlopeBias = 1.5f;

Diagnostic shadowError(std::string message) {
    return vk::vulkanSetupError("shadows", std::move(message));
}

vk::OwnedSampler createCompareSampler(const vk::Device& device,
                                      std::vector<Diagnostic>& diagnostics) {
    VkSamplerCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    info.magFilter = VK_FILTER_LINEAR;
    info.minFilter = VK_FILTER_LINEAR;
    info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.compareEnable = VK_TRUE;
    info.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    info.maxLod = 0.0f;
    VkSampler sampler = VK_NULL_HANDLE;
    if (!vk::check(vkCreateSampler(device.handle(), &info, nullptr, &sampler), "vkCreateSampler",
                   diagnostics, "the shadow comparison sampler")) {
        return {};
    }
    return vk::OwnedSampler(device.handle(), sampler);
}

// The billboard specialisation values of a batch's opacity or cutout caster: its blend,
// alignment, texture and frame blending; unlit, no soft fade, not OIT.
std::array<uint32_t, kSpecBillboardCount> casterVariant(const BillboardBatch& batch) {
    std::array<uint32_t, kSpecBillboardCount> v{};
    const uint32_t textured = batch.texture == kNoTexture ? 0u : 1u;
    v[kSpecBillboardBlend] = batch.params.blend;
    v[kSpecBillboardAlignment] = batch.params.alignment;
    v[kSpecBillboardTextured] = textured;
    v[kSpecBillboardFrameBlend] =
        textured & ((batch.params.render_flags & kRenderFlagFrameBlend) != 0 ? 1u : 0u);
    return v;
}

// The strip specialisation values of a batch's caster: its blend, texture and device blocks, and
// which caster (kStripCasterOpacity or kStripCasterCutout); unlit, no soft fade, not OIT.
std::array<uint32_t, kSpecStripCount> stripCasterVariant(const StripBatch& batch) {
    std::array<uint32_t, kSpecStripCount> v{};
    v[kSpecStripBlend] = batch.params.blend;
    v[kSpecStripTextured] = batch.texture == kNoTexture ? 0u : 1u;
    v[kSpecStripBlocks] = batch.device.points != 0 ? 1u : 0u;
    v[kSpecStripCaster] = castsCutoutShadow(batch) ? kStripCasterCutout : kStripCasterOpacity;
    return v;
}

// Calls draw(entry, source) for each billboard and mesh batch with records, where the frame's
// draws find them (RecordCursor).
template <typename Draw>
void forEachRecordSource(std::span<const DrawBatch> batches, const ShadowDrawContext& context,
                         Draw draw) {
    RecordCursor cursor(context.draw_args, context.billboards, context.slot);
    for (const DrawBatch& entry : batches) {
        if (const StripBatch* s = std::get_if<StripBatch>(&entry)) {
            StripSource unused;
            cursor.nextStrip(*s, unused);
            continue;
        }
        RecordSource source;
        if (cursor.next(entry, source)) draw(entry, source);
    }
}

// The draw of a batch of DrawRecords with push constants `push` (records and order filled here).
template <typename Push>
void drawRecords(VkCommandBuffer cmd, VkPipelineLayout layout, Push push,
                 const DeviceRecords& device, const RecordSource& source, uint32_t vertices,
                 uint32_t instances) {
    const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    if (device.records != 0) {
        push.records =
            uvec4(splitAddress(device.records), device.chunk_records, device.first_in_chunk);
        push.order = uvec4(splitAddress(device.order), 0u, 0u);
        vkCmdPushConstants(cmd, layout, stages, 0, sizeof(push), &push);
        vkCmdDrawIndirect(cmd, source.indirect.buffer, source.indirect.offset, 1,
                          sizeof(VkDrawIndirectCommand));
        return;
    }
    push.records = uvec4(splitAddress(source.host_address), 0u, 0u);
    vkCmdPushConstants(cmd, layout, stages, 0, sizeof(push), &push);
    vkCmdDraw(cmd, vertices, instances, 0, 0);
}

void setViewport(VkCommandBuffer cmd, int32_t x, int32_t y, uint32_t side) {
    VkViewport viewport{};
    viewport.x = static_cast<float>(x);
    viewport.y = static_cast<float>(y);
    viewport.width = static_cast<float>(side);
    viewport.height = static_cast<float>(side);
    viewport.maxDepth = 1.0f;
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    VkRect2D scissor{{x, y}, {side, side}};
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

} // namespace

void writeShadowBindings(VkDevice device, VkDescriptorSet set, const ShadowMaps& maps) {
    vk::writeCombinedImageSampler(device, set, kBindingShadowAtlas, maps.atlas, maps.atlas_sampler,
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    vk::writeCombinedImageSampler(device, set, kBindingShadowOpacity, maps.opacity,
                                  maps.opacity_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    vk::writeCombinedImageSampler(device, set, kBindingLocalShadowAtlas, maps.local_atlas,
                                  maps.atlas_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    vk::writeCombinedImageSampler(device, set, kBindingLocalShadowOpacity, maps.local_opacity,
                                  maps.opacity_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

void addShadowBindings(std::vector<VkDescriptorSetLayoutBinding>& bindings,
                       VkShaderStageFlags stages) {
    for (const uint32_t binding : {kBindingShadowAtlas, kBindingShadowOpacity,
                                   kBindingLocalShadowAtlas, kBindingLocalShadowOpacity}) {
        VkDescriptorSetLayoutBinding b{};
        b.binding = binding;
        b.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        b.descriptorCount = 1;
        b.stageFlags = stages;
        bindings.push_back(b);
    }
}

std::unique_ptr<ShadowPass> ShadowPass::create(const vk::Device& device, vk::CommandRunner& runner,
                                               const TextureStore& textures, uint32_t slots,
                                               std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<ShadowPass> pass(new ShadowPass(device, runner));
    const VkDevice d = device.handle();
    pass->compare_sampler_ = createCompareSampler(device, diagnostics);
    pass->linear_sampler_ = vk::createSampler(device, vk::Filter::linear, diagnostics);
    if (!pass->compare_sampler_ || !pass->linear_sampler_) return nullptr;

    VkDescriptorSetLayoutBinding globals{};
    globals.binding = kBindingFrameGlobals;
    globals.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    globals.descriptorCount = 1;
    globals.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    pass->set_layout_ =
        vk::createDescriptorSetLayout(d, {globals}, "the shadow caster set layout", diagnostics);
    if (!pass->set_layout_) return nullptr;
    static_assert(kSetFrame == 0 && kSetTexture == 1);
    pass->opaque_layout_ =
        vk::createPipelineLayout(d, {pass->set_layout_.get()}, sizeof(OpaqueDraw),
                                 "the opaque shadow caster layout", diagnostics);
    pass->particle_layout_ = vk::createPipelineLayout(
        d, {pass->set_layout_.get(), textures.layout()}, kParticlePushConstantBytes,
        "the particle shadow caster layout", diagnostics);
    if (!pass->opaque_layout_ || !pass->particle_layout_) return nullptr;

    const uint32_t sets = kViews * slots;
    pass->pool_ = vk::createDescriptorPool(d, sets, sets, 0, diagnostics);
    if (!pass->pool_) return nullptr;
    for (uint32_t i = 0; i < sets; ++i) {
        vk::Buffer buffer =
            vk::createBuffer(device, sizeof(FrameGlobals), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                             vk::MemoryUse::upload, "a sun view's uniform buffer", diagnostics);
        if (!buffer) return nullptr;
        const VkDescriptorSet set =
            vk::allocateDescriptorSet(d, pass->pool_.get(), pass->set_layout_.get(), diagnostics);
        if (set == VK_NULL_HANDLE) return nullptr;
        vk::writeUniformBuffer(d, set, kBindingFrameGlobals, buffer.get(), sizeof(FrameGlobals));
        pass->globals_.push_back(std::move(buffer));
        pass->sets_.push_back(set);
    }

    auto module = [&](const shaders::SpirvCode& code) {
        return vk::createShaderModule(d, spirvWords(code), code.source, diagnostics);
    };
    pass->opaque_vertex_ = module(shaders::kOpaqueVert);
    pass->mesh_vertex_ = module(shaders::kMeshVert);
    pass->billboard_vertex_ = module(shaders::kBillboardVert);
    pass->opacity_fragment_ = module(shaders::kShadowOpacityFrag);
    pass->cutout_fragment_ = module(shaders::kShadowCutoutFrag);
    pass->strip_vertex_ = module(shaders::kStripVert);
    pass->strip_fragment_ = module(shaders::kStripShadowFrag);
    if (!pass->opaque_vertex_ || !pass->mesh_vertex_ || !pass->billboard_vertex_ ||
        !pass->opacity_fragment_ || !pass->cutout_fragment_ || !pass->strip_vertex_ ||
        !pass->strip_fragment_) {
        return nullptr;
    }

    // Depth only: no fragment stage, no colour.
    vk::GraphicsPipelineDesc desc;
    desc.vertex = pass->opaque_vertex_.get();
    desc.layout = pass->opaque_layout_.get();
    desc.depth_format = kShadowAtlasFormat;
    desc.depth_bias_slope = kCasterSlopeBias;
    pass->opaque_depth_ =
        vk::createGraphicsPipeline(d, desc, "the opaque shadow caster pipeline", diagnostics);
    if (!pass->opaque_depth_) return nullptr;

    // Opaque mesh particles: the mesh vertex shader's opaque, unlit, untextured variant.
    std::array<uint32_t, kSpecMeshCount> mesh_values{};
    mesh_values[kSpecMeshBlend] = kBlendOpaque;
    const vk::UintSpecialization specialization(mesh_values);
    desc.vertex = pass->mesh_vertex_.get();
    desc.layout = pass->particle_layout_.get();
    desc.specialization = &specialization.info;
    pass->mesh_depth_ =
        vk::createGraphicsPipeline(d, desc, "the mesh shadow caster pipeline", diagnostics);
    if (!pass->mesh_depth_) return nullptr;

    if (!pass->createMaps(kMinShadowResolution, kMinShadowResolution, diagnostics)) return nullptr;
    return pass;
}

bool ShadowPass::createMaps(uint32_t resolution, uint32_t opacity_resolution,
                            std::vector<Diagnostic>& diagnostics) {
    // The local lights' atlas is as wide (kLocalShadowColumns tiles) and kLocalShadowRows high:
    // one check for both; the same for the local opacity atlas's.
    static_assert(kLocalShadowRows <= kLocalShadowColumns);
    const uint32_t width = resolution * kShadowCascadeCapacity;
    const uint32_t local_opacity_side = sdLocalOpacityResolution(opacity_resolution);
    const VkPhysicalDeviceLimits& limits = device_.limits();
    const uint32_t most = std::min(
        {limits.maxImageDimension2D, limits.maxFramebufferWidth, limits.maxFramebufferHeight});
    if (width > most || opacity_resolution > most ||
        local_opacity_side * kLocalShadowColumns > most) {
        diagnostics.push_back(shadowError(
            "a shadow resolution of " + std::to_string(resolution) + " needs an atlas " +
            std::to_string(width) + " texels wide (" + std::to_string(kShadowCascadeCapacity) +
            " cascades side by side) and an opacity map of " + std::to_string(opacity_resolution) +
            ", but this device allows at most " + std::to_string(most)));
        return false;
    }
    atlas_ =
        vk::createImage2D(device_, kShadowAtlasFormat, {width, resolution},
                          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                          "the shadow cascade atlas", diagnostics);
    opacity_ =
        vk::createImage2D(device_, kShadowOpacityFormat, {opacity_resolution, opacity_resolution},
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                          "the opacity shadow map", diagnostics);
    local_atlas_ =
        vk::createImage2D(device_, kShadowAtlasFormat,
                          {resolution * kLocalShadowColumns, resolution * kLocalShadowRows},
                          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                          "the local lights' shadow atlas", diagnostics);
    local_opacity_ = vk::createImage2D(
        device_, kShadowOpacityFormat,
        {local_opacity_side * kLocalShadowColumns, local_opacity_side * kLocalShadowRows},
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        "the local lights' opacity atlas", diagnostics);
    if (!atlas_ || !opacity_ || !local_atlas_ || !local_opacity_) return false;
    resolution_ = resolution;
    opacity_resolution_ = opacity_resolution;
    local_opacity_resolution_ = local_opacity_side;
    // Readable from the start: frames without shadows bind them as they are.
    VkCommandBuffer cmd = runner_.begin(diagnostics);
    if (cmd == VK_NULL_HANDLE) return false;
    vk::ImageBarrier atlas{atlas_.get(),
                           VK_IMAGE_ASPECT_DEPTH_BIT,
                           VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                           VK_PIPELINE_STAGE_2_NONE,
                           VK_ACCESS_2_NONE,
                           kShadowReaderStages,
                           VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    vk::ImageBarrier opacity = atlas;
    opacity.image = opacity_.get();
    opacity.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    vk::ImageBarrier local = atlas;
    local.image = local_atlas_.get();
    vk::ImageBarrier local_opacity = opacity;
    local_opacity.image = local_opacity_.get();
    vk::imageBarriers(cmd, {atlas, opacity, local, local_opacity});
    return runner_.submitAndWait("the shadow maps' first layout", diagnostics);
}

bool ShadowPass::ensureSize(uint32_t resolution, uint32_t opacity_resolution, bool wait_device_idle,
                            bool& replaced, std::vector<Diagnostic>& diagnostics) {
    replaced = false;
    if (!needsResize(resolution, opacity_resolution)) return true;
    if (wait_device_idle && !vk::check(vkDeviceWaitIdle(device_.handle()), "vkDeviceWaitIdle",
                                       diagnostics, "replacing the shadow maps")) {
        return false;
    }
    replaced = true;
    return createMaps(resolution, opacity_resolution, diagnostics);
}

vk::OwnedPipeline ShadowPass::createCaster(VkShaderModule vertex, VkShaderModule fragment,
                                           std::span<const uint32_t> values, bool cutout,
                                           std::vector<Diagnostic>& diagnostics) const {
    const vk::UintSpecialization specialization(values);
    vk::GraphicsPipelineDesc desc;
    desc.vertex = vertex;
    desc.fragment = fragment;
    desc.layout = particle_layout_.get();
    desc.specialization = &specialization.info;
    if (cutout) {
        // Into the cascades' depth, like the opaque casters.
        desc.depth_format = kShadowAtlasFormat;
        desc.depth_bias_slope = kCasterSlopeBias;
    } else {
        // Optical depth summed into the opacity map, no depth.
        desc.color_formats = {kShadowOpacityFormat};
        desc.blends = {vk::BlendState::additive};
        desc.depth_test = false;
        desc.depth_write = false;
    }
    return vk::createGraphicsPipeline(device_.handle(), desc,
                                      cutout ? "the cutout shadow caster pipeline"
                                             : "the opacity shadow caster pipeline",
                                      diagnostics);
}

bool ShadowPass::preparePipelines(std::span<const DrawBatch> batches,
                                  std::vector<Diagnostic>& diagnostics) {
    for (const DrawBatch& entry : batches) {
        if (const StripBatch* s = std::get_if<StripBatch>(&entry)) {
            if (!castsOpacityShadow(*s) && !castsCutoutShadow(*s)) continue;
            const std::array<uint32_t, kSpecStripCount> values = stripCasterVariant(*s);
            const uint32_t key = ParticlePass::variantKey(values);
            if (strip_variants_.count(key) != 0) continue;
            vk::OwnedPipeline pipeline =
                createCaster(strip_vertex_.get(), strip_fragment_.get(), values,
                             values[kSpecStripCaster] == kStripCasterCutout, diagnostics);
            if (!pipeline) return false;
            strip_variants_.emplace(key, std::move(pipeline));
            continue;
        }
        const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
        if (b == nullptr) continue;
        const bool cutout = castsCutoutShadow(*b);
        if (!cutout && !castsOpacityShadow(*b)) continue;
        const std::array<uint32_t, kSpecBillboardCount> values = casterVariant(*b);
        const uint32_t key = ParticlePass::variantKey(values);
        std::map<uint32_t, vk::OwnedPipeline>& variants =
            cutout ? cutout_variants_ : opacity_variants_;
        if (variants.count(key) != 0) continue;
        vk::OwnedPipeline pipeline = createCaster(
            billboard_vertex_.get(), cutout ? cutout_fragment_.get() : opacity_fragment_.get(),
            values, cutout, diagnostics);
        if (!pipeline) return false;
        variants.emplace(key, std::move(pipeline));
    }
    return true;
}

void ShadowPass::drawStrips(VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                            uint32_t caster, const ShadowDrawContext& context) const {
    RecordCursor cursor(context.draw_args, context.billboards, context.slot);
    VkPipeline bound = VK_NULL_HANDLE;
    for (const DrawBatch& entry : batches) {
        const StripBatch* s = std::get_if<StripBatch>(&entry);
        if (s == nullptr) {
            RecordSource unused;
            cursor.next(entry, unused);
            continue;
        }
        StripSource source;
        if (!cursor.nextStrip(*s, source)) continue;
        if (!castsOpacityShadow(*s) && !castsCutoutShadow(*s)) continue;
        const std::array<uint32_t, kSpecStripCount> values = stripCasterVariant(*s);
        if (values[kSpecStripCaster] != caster) continue;
        const VkPipeline pipeline = strip_variants_.at(ParticlePass::variantKey(values)).get();
        if (pipeline != bound) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            bound = pipeline;
        }
        const VkDescriptorSet texture = context.textures.set(s->texture);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, particle_layout_.get(),
                                kSetTexture, 1, &texture, 0, nullptr);
        StripPushConstants push{};
        push.params = s->params;
        push.params.textured = values[kSpecStripTextured];
        push.overrides = s->overrides;
        context.strips.setSource(push, context.slot, *s, source);
        vkCmdPushConstants(cmd, particle_layout_.get(),
                           VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(push), &push);
        if (source.device) {
            vkCmdDrawIndirect(cmd, source.indirect.buffer, source.indirect.offset, 1,
                              sizeof(VkDrawIndirectCommand));
        } else {
            vkCmdDraw(cmd, static_cast<uint32_t>(s->segments.size() * kStripVerticesPerSegment), 1,
                      0, 0);
        }
    }
}

void ShadowPass::drawBillboards(VkCommandBuffer cmd, const BillboardBatch& b,
                                const RecordSource& source,
                                const std::map<uint32_t, vk::OwnedPipeline>& variants,
                                VkPipeline& bound, const ShadowDrawContext& context) const {
    const std::array<uint32_t, kSpecBillboardCount> values = casterVariant(b);
    const VkPipeline pipeline = variants.at(ParticlePass::variantKey(values)).get();
    if (pipeline != bound) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        bound = pipeline;
    }
    const VkDescriptorSet texture = context.textures.set(b.texture);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, particle_layout_.get(),
                            kSetTexture, 1, &texture, 0, nullptr);
    BillboardPushConstants push{};
    push.params = b.params;
    push.params.textured = values[kSpecBillboardTextured];
    push.overrides = b.overrides;
    drawRecords(cmd, particle_layout_.get(), push, b.device, source,
                static_cast<uint32_t>(b.records.size() * kBillboardVerticesPerQuad), 1);
}

void ShadowPass::upload(uint32_t slot, const FrameGlobals& camera, const SunShadowFit& fit,
                        const LocalShadowFit& local) {
    for (uint32_t t = 0; t < local.count; ++t) {
        const FrameGlobals g = sunViewGlobals(camera, local.views[t], resolution_, resolution_);
        std::memcpy(globals_[viewIndex(slot, kLocalViews + t)].mapped, &g, sizeof(g));
        if (local.opacity_batches == 0) continue;
        FrameGlobals o = sunViewGlobals(camera, local.views[t], local_opacity_resolution_,
                                        local_opacity_resolution_);
        o.eye.w = local.shadows.params[t].w; // where the tile's slices end (opacityCasterDepth)
        std::memcpy(globals_[viewIndex(slot, kLocalOpacityViews + t)].mapped, &o, sizeof(o));
    }
    for (uint32_t c = 0; c < fit.cascades; ++c) {
        const FrameGlobals g =
            sunViewGlobals(camera, fit.cascade_views[c], resolution_, resolution_);
        std::memcpy(globals_[viewIndex(slot, c)].mapped, &g, sizeof(g));
    }
    if (fit.opacity) {
        const FrameGlobals g =
            sunViewGlobals(camera, fit.opacity_view, opacity_resolution_, opacity_resolution_);
        std::memcpy(globals_[viewIndex(slot, kOpacityView)].mapped, &g, sizeof(g));
    }
}

ShadowMaps ShadowPass::maps() const {
    return {atlas_.view.get(),     compare_sampler_.get(),  opacity_.view.get(),
            linear_sampler_.get(), local_atlas_.view.get(), local_opacity_.view.get()};
}

void ShadowPass::record(VkCommandBuffer cmd, const FrameView& view,
                        std::span<const DrawBatch> batches, const SunShadowFit& fit,
                        const LocalShadowFit& local, const ShadowDrawContext& context) const {
    if (fit.cascades > 0) {
        recordDepthTiles(cmd, view, batches, atlas_, fit.cascades, 0, context);
        if (fit.opacity) {
            recordOpacity(cmd, batches, opacity_, opacity_resolution_, 1, kOpacityView, context);
        }
    }
    if (local.count > 0) {
        recordDepthTiles(cmd, view, batches, local_atlas_, local.count, kLocalViews, context);
        if (local.opacity_batches > 0) {
            recordOpacity(cmd, batches, local_opacity_, local_opacity_resolution_, local.count,
                          kLocalOpacityViews, context);
        }
    }
}

void ShadowPass::drawDepthCasters(VkCommandBuffer cmd, const FrameView& view,
                                  std::span<const DrawBatch> batches, VkDescriptorSet set,
                                  const ShadowDrawContext& context) const {
    // The primitives (the ground casts on nothing: it is below everything it could shadow).
    if (!view.primitives.empty()) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, opaque_depth_.get());
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, opaque_layout_.get(),
                                kSetFrame, 1, &set, 0, nullptr);
        for (const PrimitiveDesc& p : view.primitives) {
            const OpaqueDraw d = opaquePrimitiveDraw(p);
            vkCmdPushConstants(cmd, opaque_layout_.get(),
                               VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                               sizeof(OpaqueDraw), &d);
            vkCmdDraw(cmd, opaqueVertexCount(d.kind), 1, 0, 0);
        }
    }
    // Opaque mesh particles.
    bool bound = false;
    forEachRecordSource(batches, context, [&](const DrawBatch& entry, const RecordSource& source) {
        const MeshBatch* m = std::get_if<MeshBatch>(&entry);
        if (m == nullptr || m->params.blend != kBlendOpaque) return;
        if (!bound) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, mesh_depth_.get());
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, particle_layout_.get(),
                                    kSetFrame, 1, &set, 0, nullptr);
            const VkDescriptorSet texture = context.textures.set(kNoTexture);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, particle_layout_.get(),
                                    kSetTexture, 1, &texture, 0, nullptr);
            bound = true;
        }
        MeshPushConstants push{};
        push.params = m->params;
        push.params.vertex_count = context.meshes.vertexCount(m->mesh);
        push.vertices = uvec4(splitAddress(context.meshes.address(m->mesh)), 0u, 0u);
        push.overrides = m->overrides;
        drawRecords(cmd, particle_layout_.get(), push, m->device, source, push.params.vertex_count,
                    static_cast<uint32_t>(m->records.size()));
    });
    // Cutout billboards: alpha-tested into the depth.
    VkPipeline cutout_bound = VK_NULL_HANDLE;
    forEachRecordSource(batches, context, [&](const DrawBatch& entry, const RecordSource& source) {
        const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
        if (b == nullptr || !castsCutoutShadow(*b)) return;
        if (cutout_bound == VK_NULL_HANDLE) {
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, particle_layout_.get(),
                                    kSetFrame, 1, &set, 0, nullptr);
        }
        drawBillboards(cmd, *b, source, cutout_variants_, cutout_bound, context);
    });
    // Cutout strips, the same way (the frame set is bound again: no billboard may have).
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, particle_layout_.get(), kSetFrame,
                            1, &set, 0, nullptr);
    drawStrips(cmd, batches, kStripCasterCutout, context);
}

void ShadowPass::recordDepthTiles(VkCommandBuffer cmd, const FrameView& view,
                                  std::span<const DrawBatch> batches, const vk::Image2D& atlas,
                                  uint32_t tiles, uint32_t first_set,
                                  const ShadowDrawContext& context) const {
    // Sampled by the last frame's receivers -> written here (its contents discarded).
    vk::ImageBarrier to_attachment{atlas.get(),
                                   VK_IMAGE_ASPECT_DEPTH_BIT,
                                   VK_IMAGE_LAYOUT_UNDEFINED,
                                   VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                   kShadowReaderStages,
                                   VK_ACCESS_2_NONE,
                                   VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                       VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
    vk::imageBarriers(cmd, {to_attachment});
    VkRenderingAttachmentInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    depth.imageView = atlas.view.get();
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {1.0f, 0};
    const uint32_t columns = std::min(tiles, kLocalShadowColumns);
    const uint32_t rows = (tiles + kLocalShadowColumns - 1) / kLocalShadowColumns;
    vk::beginRendering(cmd, {resolution_ * columns, resolution_ * rows}, {}, &depth);
    for (uint32_t t = 0; t < tiles; ++t) {
        setViewport(cmd, static_cast<int32_t>(t % kLocalShadowColumns * resolution_),
                    static_cast<int32_t>(t / kLocalShadowColumns * resolution_), resolution_);
        drawDepthCasters(cmd, view, batches, sets_[viewIndex(context.slot, first_set + t)],
                         context);
    }
    vkCmdEndRendering(cmd);
    vk::ImageBarrier to_sampled{atlas.get(),
                                VK_IMAGE_ASPECT_DEPTH_BIT,
                                VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                kShadowReaderStages,
                                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    vk::imageBarriers(cmd, {to_sampled});
}

void ShadowPass::recordOpacity(VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                               const vk::Image2D& map, uint32_t side, uint32_t tiles,
                               uint32_t first_set, const ShadowDrawContext& context) const {
    vk::ImageBarrier to_attachment{map.get(),
                                   VK_IMAGE_ASPECT_COLOR_BIT,
                                   VK_IMAGE_LAYOUT_UNDEFINED,
                                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                   kShadowReaderStages,
                                   VK_ACCESS_2_NONE,
                                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
    vk::imageBarriers(cmd, {to_attachment});
    std::vector<VkRenderingAttachmentInfo> color(1);
    color[0].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    color[0].imageView = map.view.get();
    color[0].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color[0].clearValue.color = {{0.0f, 0.0f, 0.0f, 0.0f}};
    const uint32_t columns = std::min(tiles, kLocalShadowColumns);
    const uint32_t rows = (tiles + kLocalShadowColumns - 1) / kLocalShadowColumns;
    vk::beginRendering(cmd, {side * columns, side * rows}, color, nullptr);
    VkPipeline bound = VK_NULL_HANDLE;
    for (uint32_t t = 0; t < tiles; ++t) {
        setViewport(cmd, static_cast<int32_t>(t % kLocalShadowColumns * side),
                    static_cast<int32_t>(t / kLocalShadowColumns * side), side);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, particle_layout_.get(),
                                kSetFrame, 1, &sets_[viewIndex(context.slot, first_set + t)], 0,
                                nullptr);
        forEachRecordSource(batches, context,
                            [&](const DrawBatch& entry, const RecordSource& source) {
                                const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
                                if (b == nullptr || !castsOpacityShadow(*b)) return;
                                drawBillboards(cmd, *b, source, opacity_variants_, bound, context);
                            });
        drawStrips(cmd, batches, kStripCasterOpacity, context);
    }
    vkCmdEndRendering(cmd);
    vk::ImageBarrier to_sampled{map.get(),
                                VK_IMAGE_ASPECT_COLOR_BIT,
                                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                kShadowReaderStages,
                                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    vk::imageBarriers(cmd, {to_sampled});
}

} // namespace spindrift::render
