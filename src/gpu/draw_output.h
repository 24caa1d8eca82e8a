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
#include "kernels/beam.h"
#include "kernels/shared_types.h"
#include "vulkan/buffer.h"

namespace spindrift::gpu {

// What submitDrawOutput makes.
struct GpuDrawRequest {
    vec3 eye{0.0f}; // the camera eye the sort keys are measured from
    // Per emitter: its sort mode (kSort*, kernels/sort_key.h); kSortNone (or a short vector)
    // leaves the emitter in alive-list order.
    std::vector<uint32_t> sort_modes;
    // Per emitter: the curve and jitter cycle a beam emitter with device strips is drawn with
    // this frame (render::beamCurve, sdBeamJitterCycle); ignored for other emitters. Must reach
    // every such emitter.
    std::vector<BeamFrame> beams;
};

// Where emitter e's records lie on the device after the last frame, for one draw of all of them:
// through the table of the draw-record chunks they lie in (pool_layout.h: they straddle chunks
// past 4 GiB / 64 B = 67M records in all), so a sorted order indexes every chunk.
struct GpuDrawSource {
    DeviceDrawRecords records; // in alive-list order; the table starts at the emitter's first chunk
    VkDeviceAddress count = 0; // a uint: the emitter's live count after the frame
    VkDeviceAddress order = 0; // 0, or uint record indices over all its chunks, back to front
    uint32_t max_records = 0;  // the most it holds: the live bound (records and order hold this)
};

// The sort's work space, made on first need by submitDrawOutput for the largest sorting emitter.
struct GpuDrawSorting {
    std::optional<GpuRadixSort> sort;
    std::shared_ptr<const GpuSortKeyPass> keys_pass; // the device's (sharedSortKeyPass)
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
