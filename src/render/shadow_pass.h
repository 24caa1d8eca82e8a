// The shadow maps (docs/rendering.md, "Shadows"; render/shader/shadow.h): the sun's cascade atlas
// (kShadowCascadeCapacity square depth tiles side by side), drawn from the sun's views by the
// opaque primitives, the opaque mesh particles and the cutout billboards and strips, and the
// opacity map (RGBA16F, four depth slices of optical depth), drawn by the other alpha-blended and
// premultiplied billboards and strips (ribbons and beams); and the local lights' atlas
// (render/shader/local_shadow.h: a perspective depth tile per shadowed spot light, six per point
// light, drawn by the same casters as the cascades) with its opacity atlas (RGBA16F, the same
// tiles, drawn by the casters of the sun's opacity map, sliced along each tile's linear depth).
// All are drawn before the opaque pass of an offscreen frame (and of a host frame) and sampled by
// the receivers (opaque pass, lit meshes, lit billboards and strips on both raster paths) through
// the frame set's shadow bindings (addShadowBindings). Between frames every map stays in
// SHADER_READ_ONLY_OPTIMAL, so a frame without shadows binds them as they are and never reads
// them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/local_shadows.h"
#include "render/renderer.h"
#include "render/shader/frame_globals.h"
#include "render/sun_shadows.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/commands.h"
#include "vulkan/device.h"
#include "vulkan/image.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class MeshStore;
class TextureStore;
class BillboardPass;
class StripPass;
class DeviceDrawArgs;
struct RecordSource; // render/particle_pass.h

// The cascade atlas's depth format and the opacity map's format.
inline constexpr VkFormat kShadowAtlasFormat = VK_FORMAT_D32_SFLOAT;
inline constexpr VkFormat kShadowOpacityFormat = VK_FORMAT_R16G16B16A16_SFLOAT;

// What the receivers' frame sets bind (image views in SHADER_READ_ONLY_OPTIMAL).
struct ShadowMaps {
    VkImageView atlas = VK_NULL_HANDLE;
    VkSampler atlas_sampler = VK_NULL_HANDLE; // linear, comparison LESS_OR_EQUAL, clamped
    VkImageView opacity = VK_NULL_HANDLE;
    VkSampler opacity_sampler = VK_NULL_HANDLE; // linear, clamped
    VkImageView local_atlas = VK_NULL_HANDLE;   // through atlas_sampler
    VkImageView local_opacity = VK_NULL_HANDLE; // through opacity_sampler
};

// The receivers' shadow bindings (the sun's atlas and opacity map, the local lights' atlas and
// opacity atlas), each a combined image sampler: what their descriptor pools make room for.
inline constexpr uint32_t kShadowBindingCount = 4;

// Writes the kShadowBindingCount shadow bindings of a receiver's frame set.
void writeShadowBindings(VkDevice device, VkDescriptorSet set, const ShadowMaps& maps);
// The kShadowBindingCount shadow bindings of a receiver's frame set layout, for `stages`.
void addShadowBindings(std::vector<VkDescriptorSetLayoutBinding>& bindings,
                       VkShaderStageFlags stages);

// What a frame's shadow draws read from the rest of the renderer.
struct ShadowDrawContext {
    const TextureStore& textures;
    const MeshStore& meshes;
    const BillboardPass& billboards; // its draw-record buffer holds the host records
    const DeviceDrawArgs& draw_args; // the indirect arguments of device batches
    const StripPass& strips;         // its buffers hold the host strips' points and segments
    uint32_t slot = 0;
};

class ShadowPass {
public:
    // The smallest maps (kMinShadowResolution), in SHADER_READ_ONLY_OPTIMAL, the caster pipelines
    // and the light views' globals of each of the renderer's `slots` frame slots
    // (FrameTargets::globals: 1 offscreen, frames_in_flight in a host frame). nullptr and an error
    // on failure.
    static std::unique_ptr<ShadowPass> create(const vk::Device& device, vk::CommandRunner& runner,
                                              const TextureStore& textures, uint32_t slots,
                                              std::vector<Diagnostic>& diagnostics);

    // Makes the maps `resolution` (each cascade and local tile) and `opacity_resolution` texels a
    // side (a local opacity tile: sdLocalOpacityResolution of it) unless they are already;
    // `replaced` says whether they were (the receivers' sets must then be written again: maps()).
    // With wait_device_idle it waits for the device to be idle first (else the caller made sure no
    // recorded work reads the maps). An error (and false) when the atlas would be wider than the
    // device allows or a Vulkan call fails.
    bool ensureSize(uint32_t resolution, uint32_t opacity_resolution, bool wait_device_idle,
                    bool& replaced, std::vector<Diagnostic>& diagnostics);
    // Whether ensureSize would make new maps.
    bool needsResize(uint32_t resolution, uint32_t opacity_resolution) const {
        return resolution != resolution_ || opacity_resolution != opacity_resolution_;
    }

    // Creates the opacity and cutout caster pipelines the frame's casting billboard and strip
    // batches need.
    bool preparePipelines(std::span<const DrawBatch> batches, std::vector<Diagnostic>& diagnostics);

    // Writes frame slot `slot`'s copy of the sun's and the local lights' views' globals (camera:
    // the frame's own globals); record draws with the context's slot.
    void upload(uint32_t slot, const FrameGlobals& camera, const SunShadowFit& fit,
                const LocalShadowFit& local);

    // Records the casters of the fitted maps (the sun's when fit.cascades > 0, the local lights'
    // when local.count > 0, their opacity atlas when local.opacity_batches > 0 too) and leaves
    // every map readable by the receivers' fragment and compute shaders.
    void record(VkCommandBuffer cmd, const FrameView& view, std::span<const DrawBatch> batches,
                const SunShadowFit& fit, const LocalShadowFit& local,
                const ShadowDrawContext& context) const;

    ShadowMaps maps() const;
    uint32_t resolution() const { return resolution_; }

private:
    explicit ShadowPass(const vk::Device& device, vk::CommandRunner& runner)
        : device_(device), runner_(runner) {}
    bool createMaps(uint32_t resolution, uint32_t opacity_resolution,
                    std::vector<Diagnostic>& diagnostics);
    // The depth casters into `tiles` tiles of a depth atlas (kLocalShadowColumns a row), tile t
    // drawn with sets_[first_set + t].
    void recordDepthTiles(VkCommandBuffer cmd, const FrameView& view,
                          std::span<const DrawBatch> batches, const vk::Image2D& atlas,
                          uint32_t tiles, uint32_t first_set,
                          const ShadowDrawContext& context) const;
    // One tile's depth casters: the primitives, opaque meshes, cutout billboards and strips.
    void drawDepthCasters(VkCommandBuffer cmd, const FrameView& view,
                          std::span<const DrawBatch> batches, VkDescriptorSet set,
                          const ShadowDrawContext& context) const;
    // The opacity casters (blended billboards and strips) into `tiles` tiles of `side` texels of
    // an opacity map (kLocalShadowColumns a row), tile t drawn with sets_[first_set + t].
    void recordOpacity(VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                       const vk::Image2D& map, uint32_t side, uint32_t tiles, uint32_t first_set,
                       const ShadowDrawContext& context) const;
    // One billboard batch with its variant of `variants` (opacity or cutout casters).
    void drawBillboards(VkCommandBuffer cmd, const BillboardBatch& batch,
                        const RecordSource& source,
                        const std::map<uint32_t, vk::OwnedPipeline>& variants, VkPipeline& bound,
                        const ShadowDrawContext& context) const;
    // The casting strip batches of one kind (kStripCasterOpacity or kStripCasterCutout), with
    // their variants of strip_variants_.
    void drawStrips(VkCommandBuffer cmd, std::span<const DrawBatch> batches, uint32_t caster,
                    const ShadowDrawContext& context) const;
    // A caster pipeline: cutout (kShadowAtlasFormat depth, tested and written, slope bias) or
    // opacity (kShadowOpacityFormat colour summed, no depth), specialised with `values`.
    vk::OwnedPipeline createCaster(VkShaderModule vertex, VkShaderModule fragment,
                                   std::span<const uint32_t> values, bool cutout,
                                   std::vector<Diagnostic>& diagnostics) const;

    const vk::Device& device_;
    vk::CommandRunner& runner_;
    uint32_t resolution_ = 0;
    uint32_t opacity_resolution_ = 0;
    vk::Image2D atlas_;
    vk::Image2D opacity_;
    vk::Image2D local_atlas_;
    vk::Image2D local_opacity_; // kLocalShadowTiles tiles of local_opacity_resolution_
    uint32_t local_opacity_resolution_ = 0;
    vk::OwnedSampler compare_sampler_;
    vk::OwnedSampler linear_sampler_;
    // One FrameGlobals per view (the sun's cascades, the opacity map, the local lights' depth and
    // opacity tiles) and frame slot (a host's frames in flight each keep theirs): viewIndex.
    std::vector<vk::Buffer> globals_;
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedDescriptorPool pool_;
    std::vector<VkDescriptorSet> sets_;
    vk::OwnedPipelineLayout opaque_layout_;   // sun set + OpaqueDraw push constants
    vk::OwnedPipelineLayout particle_layout_; // sun set + texture set + particle push constants
    vk::OwnedShaderModule opaque_vertex_;
    vk::OwnedShaderModule mesh_vertex_;
    vk::OwnedShaderModule billboard_vertex_;
    vk::OwnedShaderModule opacity_fragment_;
    vk::OwnedShaderModule cutout_fragment_;
    vk::OwnedShaderModule strip_vertex_;
    vk::OwnedShaderModule strip_fragment_;
    vk::OwnedPipeline opaque_depth_;
    vk::OwnedPipeline mesh_depth_;
    std::map<uint32_t, vk::OwnedPipeline> opacity_variants_; // by ParticlePass::variantKey
    std::map<uint32_t, vk::OwnedPipeline> cutout_variants_;  // by ParticlePass::variantKey
    // Strip casters of both kinds (kSpecStripCaster tells them apart), by ParticlePass::variantKey.
    std::map<uint32_t, vk::OwnedPipeline> strip_variants_;
};

} // namespace spindrift::render
