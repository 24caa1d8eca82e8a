// The compute rasteriser of billboards (docs/rendering.md, "Compute rasteriser"): for devices
// whose hardware raster is weak (the H200 is a compute part) and for very large counts. It draws
// the billboard batches a frame gives it with the same records, the same quad placement and the
// same appearance function as the graphics path (shaders/billboard_shade.glsl), in five compute
// passes over 16 x 16-pixel tiles (maths: render/shader/compute_raster.h):
//
//   before the frame, its own submission (waited for):
//     project   per particle: its tile rectangle; per chunk of particles: the tiles covered
//     scan      the chunks' first pairs; the frame's pair count, read by the CPU to size the sort
//   in the frame's command buffer, before the opaque pass:
//     emit      per particle, in draw order: a (job's first key + tile, draw index) pair per tile
//     sort      the GPU radix sort (stable): each tile's pairs stay in draw order
//     ranges    each key's [first, end)
//   in the particle phase, in the batch's place among the others:
//     blend     a workgroup per tile composites the batch's particles front to back over the frame
//
// Only the offscreen frame uses it (its colour is a storage image); a host frame draws every
// batch with the graphics path. Not thread-safe, like the renderer.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/sort/gpu_radix_sort.h"
#include "render/billboard_pass.h"
#include "render/frame_targets.h"
#include "render/renderer.h"
#include "render/shader/compute_raster.h"
#include "render/shadow_pass.h"
#include "render/texture_store.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/commands.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

// The most (tile, particle) pairs one frame may bin: 16 bytes each with the sort's scratch, so
// 4 GiB. A frame that needs more is refused (raster compute) or drawn by the graphics path
// (automatic), and FrameStats says which.
inline constexpr uint64_t kMaxComputeRasterPairs = uint64_t{1} << 28;
static_assert(FrameView{}.compute_raster_max_pairs == kMaxComputeRasterPairs);
// The most particles one batch may have on this path: a projection workgroup per kRasterChunk
// particles, at most 65 535 workgroups in a dispatch (../shared/gpu-facts.md).
inline constexpr uint64_t kMaxComputeRasterBatchParticles = uint64_t{65535} * kRasterChunk;
// The most particles and keys (jobs x tiles) one frame may have on this path: their rectangles
// and ranges (8 bytes each) stay in buffers of at most 2 GiB, well under the 4 GiB a buffer may
// have on the H200 (../shared/gpu-facts.md).
inline constexpr uint64_t kMaxComputeRasterFrameParticles = uint64_t{1} << 28;
inline constexpr uint64_t kMaxComputeRasterKeys = uint64_t{1} << 28;

// Whether `batch` is drawn by the compute rasteriser in a frame with `view` (when the renderer
// has one: offscreen frames): raster compute takes every billboard batch that draws into the
// frame (not through OIT, not a distortion batch: isDistortion), automatic those with at least
// view.compute_raster_threshold particles (host records, or a device batch's max_records), graphics
// none.
bool drawsByCompute(const FrameView& view, const BillboardBatch& batch);

class ComputeRaster {
public:
    // For the offscreen frame's targets (colour with storage usage) and the renderer's texture
    // store (its set layout is the raster blend's set kSetTexture). nullptr and an error on
    // failure.
    static std::unique_ptr<ComputeRaster> create(const vk::Device& device,
                                                 const FrameTargets& targets,
                                                 const TextureStore& textures,
                                                 std::vector<Diagnostic>& diagnostics);

    // Plans and bins the frame: a job for every batch drawsByCompute picks (host records read
    // where billboards.upload put them in `slot`), the blend variants they need, the projection
    // and scan submitted on `runner` and waited for, and the buffers and the sort grown to the
    // pairs the scan counted. The frame globals of `slot` must be written. Sets stats'
    // raster_batches, raster_pairs, raster_fallbacks and gpu_raster_bin_ms. When the pairs
    // exceed kMaxComputeRasterPairs: with view.raster automatic the frame's batches go to the
    // graphics path (raster_fallbacks = 1); otherwise false with an error naming the count and the
    // limit. False with an error when a Vulkan call fails, a batch has more than
    // kMaxComputeRasterBatchParticles particles, or the frame more than
    // kMaxComputeRasterFrameParticles particles or kMaxComputeRasterKeys keys.
    // Points the frame set's shadow bindings at the sun's shadow maps (the tile blend receives sun
    // shadows on lit billboards, as the fragment shader does). Not while a frame is pending.
    void bindShadows(const ShadowMaps& maps) const;

    bool prepare(vk::CommandRunner& runner, const FrameView& view,
                 std::span<const DrawBatch> batches, const BillboardPass& billboards, uint32_t slot,
                 FrameStats& stats, std::vector<Diagnostic>& diagnostics);

    // Whether batch `index` of the frame prepare planned is drawn here (recordBlend) rather than by
    // the graphics path.
    bool draws(size_t index) const {
        return index < job_of_batch_.size() && job_of_batch_[index] >= 0;
    }

    // Records emit, sort and ranges for the planned frame (nothing when it has no pairs). Before
    // any recordBlend, in the same command buffer.
    bool recordBinning(VkCommandBuffer cmd, std::vector<Diagnostic>& diagnostics);

    // Records the blend of batch `index` (draws(index)) over the frame colour, outside any
    // rendering scope: the colour goes from COLOR_ATTACHMENT_OPTIMAL (written by attachments) to
    // GENERAL and back; the linear depth is SHADER_READ_ONLY_OPTIMAL, readable by compute.
    void recordBlend(VkCommandBuffer cmd, const TextureStore& textures, const FrameTargets& targets,
                     size_t index, const BillboardBatch& batch) const;

    // After the frame finished: false with an error when a raster loop was cut short (lavapipe's
    // per-invocation loop budget), so the image would be wrong.
    bool checkFinished(std::vector<Diagnostic>& diagnostics) const;

    size_t blendVariants() const { return blend_variants_.size(); }

private:
    struct Job {
        size_t batch = 0;
        RasterJob record{};
        uint32_t chunks = 0;
        std::array<uint32_t, kSpecBillboardFrameBlend + 1> variant{};
    };

    ComputeRaster(const vk::Device& device) : device_(device) {}
    bool ensureVariant(const std::array<uint32_t, kSpecBillboardFrameBlend + 1>& values,
                       std::vector<Diagnostic>& diagnostics);
    bool grow(vk::Buffer& buffer, uint64_t bytes, const char* what,
              std::vector<Diagnostic>& diagnostics) const;
    bool binOnDevice(vk::CommandRunner& runner, double& gpu_ms,
                     std::vector<Diagnostic>& diagnostics);
    RasterPush push(uint32_t job, uint32_t count) const;
    void dispatch(VkCommandBuffer cmd, VkPipeline pipeline, const RasterPush& p, uint32_t groups_x,
                  uint32_t groups_y) const;

    const vk::Device& device_;
    uint32_t tiles_x_ = 0;
    uint32_t tiles_y_ = 0;
    vk::OwnedSampler depth_sampler_;
    vk::OwnedDescriptorSetLayout set_layout_;
    vk::OwnedPipelineLayout layout_;
    vk::OwnedDescriptorPool pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    vk::OwnedPipeline project_;
    vk::OwnedPipeline scan_;
    vk::OwnedPipeline emit_;
    vk::OwnedPipeline ranges_pipeline_;
    std::map<uint32_t, vk::OwnedPipeline> blend_variants_; // by ParticlePass::variantKey
    vk::OwnedQueryPool timestamps_;                        // 2: around the binning submission

    vk::Buffer jobs_;     // host-visible RasterJob per job
    vk::Buffer counters_; // host-visible: the pair total, the cut-short flag
    vk::Buffer rects_;    // uvec2 per particle
    vk::Buffer chunk_sums_;
    vk::Buffer keys_;
    vk::Buffer payloads_;
    vk::Buffer ranges_; // uvec2 per key
    std::optional<gpu::GpuRadixSort> sort_;

    // The planned frame.
    std::vector<Job> jobs_planned_;
    std::vector<int32_t> job_of_batch_; // per batch: its job, or -1
    uint32_t total_chunks_ = 0;
    uint32_t pairs_ = 0;
};

} // namespace spindrift::render
