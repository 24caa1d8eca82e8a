// Ribbon trail storage of the GPU backend (docs/gpu-backend.md, "Ribbons"): per ribbon emitter,
// one device buffer holding a ring of max_points positions per slot and each slot's (first,
// count), recorded by the spawn and update passes with the CPU's ring maths (kernels/ribbon.h);
// and one host-visible gather buffer the trail-gather pass copies the live particles' trails
// into when the host asks for strips (ribbon_strips.h). For an instance that draws from the
// device (GpuConfig::device_strips), every ribbon and beam emitter also gets one device strip
// buffer the strip pass writes each live particle's strip polyline into (ribbon_strips.h,
// recordDeviceStrips): a beam emitter has no trails, only that buffer. Same limit as the CPU
// backend: Σ capacity x max_points <= kMaxTrailPoints (2^24 points) per effect
// (compiler/trail_limits.h), checked at creation.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/compiled_effect.h"
#include "gpu/pool_layout.h"
#include "gpu/shader/gpu_sim.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"

namespace spindrift::gpu {

// One emitter's trail storage and device strips; all zero for an emitter with neither.
struct TrailRegion {
    uint32_t capacity = 0;
    uint32_t max_points = 0; // ring entries per slot; 0: no trails
    float min_sample_distance_m = 0;
    uint64_t rings_offset_bytes = 0; // points first (12 bytes each), then a uvec2 ring per slot
    uint64_t buffer_bytes = 0;       // the device trail buffer
    uint64_t gather_bytes = 0;       // GpuTrailHead per slot, then capacity x max_points points
    // The device strip buffer (0 bytes: none): capacity blocks of strip_block_points
    // StripPoints (a ribbon's max_points + 1, a beam's segments + 1), then a uint point count per
    // block at strip_counts_offset_bytes.
    uint32_t strip_block_points = 0;
    uint64_t strip_counts_offset_bytes = 0;
    uint64_t strips_bytes = 0;
};

inline bool hasTrails(const TrailRegion& region) {
    return region.max_points != 0;
}

inline bool hasDeviceStrips(const TrailRegion& region) {
    return region.strips_bytes != 0;
}

// The trail storage of every emitter of the effect (one entry each), with device strip buffers
// for ribbon and beam emitters when device_strips. False with an error when the effect passes
// kMaxTrailPoints (at the emitter needing the most, as the CPU backend says it), when one emitter's
// trail or strip buffer would pass limits.buffer_bytes, or when they together with the pool
// (pool_bytes) would pass limits.total_bytes (naming the emitter).
bool layoutTrails(const CompiledEffect& effect, const PoolLimits& limits, uint64_t pool_bytes,
                  bool device_strips, std::vector<TrailRegion>& out,
                  std::vector<Diagnostic>& diagnostics);

// Creates each ribbon emitter's trail buffer (device-local) and gather buffer (host-visible,
// written by the gather pass) and, for each region with one, the strip buffer (device-local);
// empty Buffers for the rest. False with an error naming the buffer.
bool createTrailBuffers(const vk::Device& device, const std::vector<TrailRegion>& regions,
                        std::vector<vk::Buffer>& trails, std::vector<vk::Buffer>& gather,
                        std::vector<vk::Buffer>& strips, std::vector<Diagnostic>& diagnostics);

// What the shaders read for one emitter (GpuTables::trails): its buffers' addresses and ring
// size; trail fields zero for an emitter without trails, strip addresses zero without a strip
// buffer.
GpuEmitterTrails trailRecord(const TrailRegion& region, const vk::Buffer& trail,
                             const vk::Buffer& gather, const vk::Buffer& strips);

} // namespace spindrift::gpu
