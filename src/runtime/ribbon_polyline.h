// One particle's ribbon trail as a strip polyline (kernels/strip.h): the one text both backends'
// strip writers call (src/cpu/trails.cpp over the CPU's trail rings, src/gpu/ribbon_strips.cpp
// over trails gathered from the device), so a trail is drawn the same whichever backend
// recorded it (docs/cpu-backend.md, "Trails"; docs/gpu-backend.md, "Ribbons").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "compiler/compiled_effect.h"
#include "driver/placement.h"
#include "kernels/ribbon.h"
#include "kernels/strip.h"

namespace spindrift {

// Appends the polyline of one particle to points and its segments to segments:
// - points head first: head_sim (the particle's current position), then its `recorded` points
//   newest to oldest, recorded_point(k) giving the k-th newest (k < recorded) in simulation
//   space; the newest is left out when it is exactly the head (right after it was recorded), so
//   no segment has zero length (sdRibbonSkipsNewest). Nothing is written when fewer than 2
//   points remain (sdRibbonPolylinePoints).
// - world space through world_from_sim (sdRibbonWorldPoint); each point by sdRibbonStripPoint:
//   width = emitter.ribbon_width x size x the taper profile (linear in the distance from the
//   head along the polyline), colour the same at every point, tangent and u. Every per-point
//   value comes from kernels/ribbon.h, the text the device's strip pass runs too.
// - segment indices count from points[batch_first] (the batch's first point).
// `color` and `size` are the particle's draw colour and size (what its draw record holds).
// Returns the points appended.
template <typename RecordedPoint>
uint32_t appendRibbonPolyline(vec3 head_sim, uint32_t recorded, RecordedPoint&& recorded_point,
                              const Rows3x4& world_from_sim, const EmitterRecord& emitter,
                              vec4 color, float size, size_t batch_first,
                              std::vector<StripPoint>& points, std::vector<uint32_t>& segments) {
    const uint32_t skip_newest =
        sdRibbonSkipsNewest(head_sim, recorded, recorded != 0 ? recorded_point(0u) : head_sim);
    const uint32_t n = sdRibbonPolylinePoints(recorded, skip_newest);
    if (n == 0) return 0;
    const size_t base = points.size();
    points.resize(base + n);
    StripPoint* out = points.data() + base;
    const Rows3x4& m = world_from_sim;
    // Positions first, each with its distance from the head along the polyline (held in
    // tangent_u.w until the length is known), then the strip points. The device's strip pass
    // (shaders/gpu_ribbon_strips.comp) runs the same two walks over the same kernels.
    vec3 previous = sdRibbonWorldPoint(m.rows[0], m.rows[1], m.rows[2], head_sim);
    float distance_m = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const vec3 world = k == 0 ? previous
                                  : sdRibbonWorldPoint(m.rows[0], m.rows[1], m.rows[2],
                                                       recorded_point(k - 1 + skip_newest));
        distance_m = sdRibbonDistanceAlong(distance_m, previous, world);
        out[k].position_width = vec4(world, 0.0f);
        out[k].tangent_u.w = distance_m;
        previous = world;
    }
    const float length_m = distance_m;
    const float head_width = sdRibbonHeadWidth(emitter.ribbon_width, size);
    vec3 direction_in(0.0f);
    for (uint32_t k = 0; k < n; ++k) {
        const vec3 here = vec3(out[k].position_width);
        const vec3 direction_out =
            k + 1 < n ? sdRibbonSegmentDirection(here, vec3(out[k + 1].position_width))
                      : vec3(0.0f);
        out[k] =
            sdRibbonStripPoint(here, out[k].tangent_u.w, length_m, direction_in, direction_out,
                               head_width, emitter.ribbon_taper, emitter.ribbon_uv_tiling, color);
        direction_in = direction_out;
    }
    const auto first = static_cast<uint32_t>(base - batch_first);
    for (uint32_t k = 0; k + 1 < n; ++k) segments.push_back(first + k);
    return n;
}

} // namespace spindrift
