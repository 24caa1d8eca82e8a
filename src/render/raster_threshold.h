// Which billboard batches RasterPath::automatic sends to the compute rasteriser, per device: the
// particle count from which the compute path's fixed cost (its own binning submission, the
// sort's passes) is repaid, which depends on how strong the device's raster pipeline is
// (docs/rendering.md, "Compute rasteriser"; the figures are docs/benchmarks.md's "Compute
// rasteriser of billboards" sections and ../shared/gpu-facts.md).
#pragma once

#include <cstdint>
#include <string_view>

#include "render/renderer.h"

namespace spindrift::render {

// A CPU device (lavapipe): the compute path lost every case measured there (100 K discs at 720
// and 1080 lines, 8 and 40 cm: 1.3 to 3.4 times the graphics path's time), because it runs both
// sides of every branch of the tile blend: automatic never picks it (an explicit threshold still
// does).
inline constexpr uint64_t kCpuComputeRasterThreshold = UINT64_MAX;
// A compute part (NVIDIA H100, H200 and their kin: data-centre GPUs whose raster pipeline is
// weak, 0.24 to 0.58 G points/s on the H200): on the H100 the compute path was already 1.35 times
// faster at 100 K particles (1.13 against 1.52 ms at 1080p) and particles added 0.07 ms to its
// draw against 0.46 ms through graphics; below that nothing was measured, so half of it, 2^16.
inline constexpr uint64_t kComputePartRasterThreshold = uint64_t{1} << 16;

// Whether a device named `name` (VkPhysicalDeviceProperties::deviceName) is a known compute
// part: its name holds one of the data-centre parts' model names (H100, H200, H800, GH200, A100,
// A800), matched case-insensitively.
bool isComputePart(std::string_view name);

// The threshold automatic uses on `device` when FrameView::compute_raster_threshold is
// kDeviceComputeRasterThreshold: kCpuComputeRasterThreshold for a CPU device,
// kComputePartRasterThreshold for a compute part, kDefaultComputeRasterThreshold for every other
// (a desktop or integrated GPU: strong raster, not measured).
uint64_t deviceComputeRasterThreshold(const DeviceInfo& device);

} // namespace spindrift::render
