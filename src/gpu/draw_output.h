// What a GPU effect instance hands the renderer so it draws straight from the device: the draw
// records of every emitter, and for sorting emitters a back-to-front order made by the GPU radix
// sort, written by one submission after the frame's steps (gpu_effect.h, submitDrawOutput). Nothing
// is read back: the renderer, on the same Vulkan device (GpuConfig::shared_device), draws
// min(*count, max_records) records with an indirect draw (docs/gpu-backend.md, "Drawing from the
// device").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/sort/gpu_radix_sort.h"
#include "gpu/sort/sort_keys_pass.h"
#include "kernels/shared_types.h"
#include "vulkan/buffer.h"

namespace spindrift::gpu {

// What submitDrawOutput makes.
struct GpuDrawRequest {
    vec3 eye{0.0f}; // the camera eye the sort keys are measured from
    // Per emitter: its sort mode (kSort*, kernels/sort_key.h); kSortNone (or a short vector)
    // leaves the emitter in alive-list order.
    std::vector<uint32_t> sort_modes;
};

// Where one piece of emitter e's records lies on the device after the last frame. An emitter's
// records are one piece unless they straddle draw-record chunks (pool_layout.h: more than
// 4 GiB / 64 B = 67M records in all), one draw each.
struct GpuDrawSource {
    VkDeviceAddress records = 0; // DrawRecords of this piece, in alive-list order
    VkDeviceAddress count = 0;   // a uint: the emitter's live count after the frame
    VkDeviceAddress order = 0;   // 0, or uint indices into records, back to front
    uint32_t skip = 0;           // the emitter's records before this piece
    uint32_t max_records = 0;    // the most this piece holds: min(piece, live bound - skip)
};

// The sort's work space, made on first need by submitDrawOutput for the largest sorting emitter.
// An emitter whose records straddle chunks is not sorted (its order would index two buffers).
struct GpuDrawSorting {
    std::optional<GpuRadixSort> sort;
    std::optional<GpuSortKeyPass> keys_pass;
    vk::Buffer keys;               // shared by the emitters, sorted one after the other
    std::vector<vk::Buffer> order; // per emitter; empty for one that does not sort
};

struct GpuEffect; // gpu_effect.h

// submitDrawOutput's parts. Makes the sort's work space for the emitters `request` sorts when it
// is missing or too small. False with an error when it cannot.
bool prepareDrawSorting(GpuEffect& fx, const GpuDrawRequest& request,
                        std::vector<Diagnostic>& diagnostics);
// Records, after the draw-record pass, each sorting emitter's keys over its live bound (records
// past the live count sort last) and the radix sort of its order (fx.draw's sort modes).
void recordDrawSorts(GpuEffect& fx, VkCommandBuffer cmd, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::gpu
