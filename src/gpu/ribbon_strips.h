// Ribbon strips of a GPU instance for the renderer's strip pass, which is fed from the host
// today (docs/gpu-backend.md, "Ribbons"): the GPU twin of cpu::writeRibbonStrips. The trail-gather
// pass (shaders/gpu_trail_gather.comp) runs with readBackDrawRecords, in the same submission as
// its draw-record pass, and copies each live particle's head and recorded points into a
// host-visible buffer in draw-record order; the host then builds the polylines with the CPU
// backend's own code (runtime/ribbon_polyline.h). Nothing is read back while stepping.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpu/gpu_effect.h"
#include "kernels/strip.h"

namespace spindrift::gpu {

// Records the trail-gather pass of every ribbon emitter into cmd, then a barrier that makes its
// output visible to the host. Must follow the draw-record pass in the same submission: it reads
// the same alive list (push.params.y) and as many particles (min(alive, live bound)), so gathered
// trail i belongs to draw record i. push: the draw pass's (its emitter and count are set here).
// Records nothing for an effect without ribbons.
void recordTrailGather(const GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants push);

// The most points writeRibbonStrips can write for this emitter: capacity x (max_points + 1) for a
// ribbon emitter, 0 for any other (or an index out of range), as cpu::maxRibbonPoints.
uint64_t maxRibbonPoints(const GpuEffect& fx, uint32_t emitter);

// One live particle's trail as the last readBackDrawRecords gathered it: the particle's current
// position and its `count` recorded points, newest first, all in simulation space.
struct GatheredTrail {
    vec3 head_sim{0.0f};
    uint32_t count = 0;
    const float* newest_first = nullptr; // count x (x, y, z)

    vec3 point(uint32_t k) const {
        return vec3(newest_first[3 * k], newest_first[3 * k + 1], newest_first[3 * k + 2]);
    }
};

// The trail of emitter's particle `index` (its draw record `index` from the last
// readBackDrawRecords, < that emitter's count). An empty trail for an emitter without trails or
// an index past its capacity.
GatheredTrail gatheredTrail(const GpuEffect& fx, uint32_t emitter, uint32_t index);

// Appends the trails of ribbon emitter `emitter` as strip polylines, as cpu::writeRibbonStrips
// does (same points, widths, colours, tangents and u; one call's output is one StripBatch), from
// the state the last readBackDrawRecords read. `records` are that emitter's records it returned:
// particle i's colour and size come from records[i]. Polylines come in draw-record order (birth
// order for a stable-order emitter, as on the CPU; otherwise not the CPU's slot order). Returns
// the points written; nothing for an emitter that is not a ribbon. Allocates nothing when points
// and segments have room for maxRibbonPoints(fx, emitter) more.
uint64_t writeRibbonStrips(const GpuEffect& fx, uint32_t emitter,
                           std::span<const DrawRecord> records, std::vector<StripPoint>& points,
                           std::vector<uint32_t>& segments);

} // namespace spindrift::gpu
