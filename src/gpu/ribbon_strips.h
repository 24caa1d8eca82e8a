// Strips of a GPU instance for the renderer's strip pass (docs/gpu-backend.md, "Ribbons" and
// "Beams"), two ways:
// - From the device (a renderer on the same device, GpuConfig::device_strips): submitDrawOutput
//   runs the strip pass (shaders/gpu_ribbon_strips.comp, recordDeviceStrips) after its
//   draw-record pass; it writes each live particle's polyline into a fixed block of the emitter's
//   device strip buffer (a ribbon: max_points + 1 points, from its trail with the per-point
//   kernels the host uses, kernels/ribbon.h; a beam: segments + 1 points, sdBeamPoint of
//   kernels/beam.h with the curve and jitter cycle the host passes per frame in
//   GpuDrawRequest::beams), and deviceStripSource tells the renderer where they are. Nothing is
//   read back.
// - Read back (hosts without a renderer, or on another device): the trail-gather pass
//   (shaders/gpu_trail_gather.comp) runs with readBackDrawRecords, in the same submission as its
//   draw-record pass, and copies each live particle's head and recorded points into a
//   host-visible buffer in draw-record order; the host then walks the polylines with the ribbon
//   kernels every strip writer calls (kernels/ribbon.h), the GPU twin of cpu::writeRibbonStrips.
//   Beams are built on the host from the read-back records (render/beam_strips.h).
// Nothing is read back while stepping.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpu/gpu_effect.h"
#include "kernels/beam.h"
#include "kernels/ribbon.h"
#include "kernels/strip.h"

namespace spindrift::gpu {

// Records the trail-gather pass of every ribbon emitter into cmd, then a barrier that makes its
// output visible to the host. Must follow the draw-record pass in the same submission: it reads
// the same alive list (push.params.y) and as many particles (min(alive, live bound)), so gathered
// trail i belongs to draw record i. push: the draw pass's (its emitter and count are set here).
// Records nothing for an effect without ribbons.
void recordTrailGather(const GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants push);

// Makes fx.buffers.beam_frames when an emitter has device beam strips: a host-visible BeamFrame
// per emitter per submission in flight, so the host writes the next frame's curves while the
// device still reads the previous one's. False with an error when the buffer cannot be made.
bool createBeamFrames(GpuEffect& fx, std::vector<Diagnostic>& diagnostics);

// True when `beams` has a BeamFrame for every beam emitter with device strips (the strip pass
// needs its curve); else false with an error naming the emitter.
bool checkBeamFrames(const GpuEffect& fx, std::span<const BeamFrame> beams,
                     std::vector<Diagnostic>& diagnostics);

// Records the strip pass of every emitter with a device strip buffer into cmd: a barrier that
// makes the draw-record pass's records visible, then per emitter one dispatch over its live
// bound (a beam: over its live bound's points). Beams draw fx.draw.beams[e] (checkBeamFrames
// first), written into the current submission's entry of fx.buffers.beam_frames. Must follow the
// draw-record pass in the same submission (it reads the same alive list, push.params.y, and the
// records' key, colour and size). Records nothing for an effect without device strips. Returns
// the dispatches recorded.
uint32_t recordDeviceStrips(const GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants push);

// Where emitter e's device strips are after the last submitDrawOutput: polyline i (its draw
// record i, i < *count) has point_counts[i] points (0 or >= 2) at points[i x points_per_strip].
// All zero for an emitter without device strips (neither a ribbon nor a beam, or device_strips
// off).
struct GpuStripSource {
    VkDeviceAddress points = 0;       // StripPoints, world space
    VkDeviceAddress point_counts = 0; // a uint per polyline
    VkDeviceAddress count = 0;        // a uint: the emitter's live count (polylines)
    uint32_t points_per_strip = 0;    // a ribbon's max_points + 1, a beam's segments + 1
    uint32_t max_strips = 0;          // the most drawn: min(capacity, live bound)
};
GpuStripSource deviceStripSource(const GpuEffect& fx, uint32_t emitter);

// FOR TESTS ONLY: waits for the device and copies emitter e's device strip buffer out: points
// (capacity x points_per_strip) and counts (capacity), blocks as deviceStripSource describes.
// False with an error when the emitter has no device strips or a Vulkan call fails.
bool readBackDeviceStripsForTest(GpuEffect& fx, uint32_t emitter, std::vector<StripPoint>& points,
                                 std::vector<uint32_t>& counts,
                                 std::vector<Diagnostic>& diagnostics);

// The most points writeRibbonStrips can write for this emitter: capacity x (max_points + 1) for a
// ribbon emitter, 0 for any other (or an index out of range), as cpu::maxRibbonPoints.
uint64_t maxRibbonPoints(const GpuEffect& fx, uint32_t emitter);

// One live particle's trail as the last readBackDrawRecords gathered it: the particle's current
// position and its `count` recorded points, oldest first, all in simulation space. As the ribbon
// kernels read it (kernels/ribbon.h): a ring of max_points entries with the oldest at entry 0.
struct GatheredTrail {
    vec3 head_sim{0.0f};
    uint32_t count = 0;
    uint32_t max_points = 0;
    const float* oldest_first = nullptr; // count x (x, y, z)

    RibbonPointsRef points() const { return RibbonPointsRef{oldest_first}; }
    RibbonRing ring() const { return sdRibbonRing(0, 0, count, max_points); }
    // The k-th newest point (k = 0 the newest, k < count).
    vec3 point(uint32_t k) const { return sdRibbonRecordedPoint(points(), ring(), k); }
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
// and segments (and velocities) have room for maxRibbonPoints(fx, emitter) more. velocities
// (optional) as cpu::writeRibbonStrips: particle i's velocity from records[i].
uint64_t writeRibbonStrips(const GpuEffect& fx, uint32_t emitter,
                           std::span<const DrawRecord> records, std::vector<StripPoint>& points,
                           std::vector<uint32_t>& segments,
                           std::vector<vec4>* velocities = nullptr);

} // namespace spindrift::gpu
