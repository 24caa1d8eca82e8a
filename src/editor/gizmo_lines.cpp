#include "editor/gizmo_lines.h"

#include <algorithm>
#include <cmath>

namespace spindrift::editor {

namespace {

constexpr float kTwoPi = 6.28318530718f;

// Segments in emitter space, placed by `place` as they are added.
struct Pen {
    const Rows3x4& place;
    Float3 color;
    std::vector<render::OverlayLine>& out;

    void line(vec3 a, vec3 b) const {
        const vec3 pa = transformPoint(place, a);
        const vec3 pb = transformPoint(place, b);
        out.push_back({{pa.x, pa.y, pa.z}, {pb.x, pb.y, pb.z}, color});
    }

    // An arc of `sweep` radians from +X toward -Z (kernels/shape.h, sdRingDirection) in the plane
    // spanned by u (at angle 0) and v (at a quarter turn), centred at `center`.
    void arc(vec3 center, vec3 u, vec3 v, float radius, float sweep) const {
        // The slack keeps a full circle compiled from 360 degrees at kGizmoCircleSegments.
        const uint32_t n = std::max(
            2u, static_cast<uint32_t>(std::ceil(kGizmoCircleSegments * sweep / kTwoPi - 1e-3f)));
        vec3 previous = center + u * radius;
        for (uint32_t i = 1; i <= n; ++i) {
            const float a = sweep * static_cast<float>(i) / static_cast<float>(n);
            const vec3 p = center + (u * std::cos(a) + v * std::sin(a)) * radius;
            line(previous, p);
            previous = p;
        }
    }

    // The ring of sdRingDirection: in xz at height y.
    void ring(float y, float radius, float sweep) const {
        arc(vec3(0, y, 0), vec3(1, 0, 0), vec3(0, 0, -1), radius, sweep);
    }

    // A box's twelve edges, each cut into `dashes` dashes (1: solid).
    void box(vec3 center, vec3 half, uint32_t dashes) const {
        auto corner = [&](uint32_t i) {
            return center + vec3((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y,
                                 (i & 4) ? half.z : -half.z);
        };
        static constexpr uint32_t kEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                                   {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
        for (const auto& edge : kEdges) {
            const vec3 a = corner(edge[0]);
            const vec3 b = corner(edge[1]);
            for (uint32_t k = 0; k < dashes; ++k) {
                // Dash k covers the first half of its share of the edge (solid: all of it).
                const float t0 = static_cast<float>(k) / static_cast<float>(dashes);
                const float t1 = dashes == 1 ? 1.0f : t0 + 0.5f / static_cast<float>(dashes);
                line(a + (b - a) * t0, a + (b - a) * t1);
            }
        }
    }
};

void shapeLines(const CompiledEffect& effect, const EmitterRecord& e, const Pen& pen) {
    const float r = e.shape_radius;
    const float arc = e.shape_size.w;
    switch (e.shape_kind) {
    case kShapeLine:
        pen.line(vec3(-0.5f * e.shape_length, 0, 0), vec3(0.5f * e.shape_length, 0, 0));
        return;
    case kShapeBox:
        pen.box(vec3(0.0f), vec3(e.shape_size) * 0.5f, 1);
        return;
    case kShapeSphere:
        pen.ring(0, r, kTwoPi);
        pen.arc(vec3(0.0f), vec3(1, 0, 0), vec3(0, 1, 0), r, kTwoPi);
        pen.arc(vec3(0.0f), vec3(0, 0, 1), vec3(0, 1, 0), r, kTwoPi);
        return;
    case kShapeHemisphere:
        pen.ring(0, r, kTwoPi);
        pen.arc(vec3(0.0f), vec3(1, 0, 0), vec3(0, 1, 0), r, kTwoPi / 2);
        pen.arc(vec3(0.0f), vec3(0, 0, 1), vec3(0, 1, 0), r, kTwoPi / 2);
        return;
    case kShapeCircle:
        pen.ring(0, r, arc);
        return;
    case kShapeTorus:
        pen.ring(0, r, arc);
        pen.ring(0, r + e.shape_tube_radius, arc);
        pen.ring(0, std::max(0.0f, r - e.shape_tube_radius), arc);
        return;
    case kShapeCone: {
        // sdSampleCone: base radius a at y = 0, top radius a + length tan(angle) at y = length.
        const float top = r + e.shape_length * std::tan(e.shape_angle_rad);
        pen.ring(0, r, arc);
        pen.ring(e.shape_length, top, arc);
        for (uint32_t i = 0; i < 4; ++i) {
            const float a = arc * static_cast<float>(i) / 4.0f;
            const vec3 d(std::cos(a), 0, -std::sin(a));
            pen.line(d * r, d * top + vec3(0, e.shape_length, 0));
        }
        return;
    }
    case kShapeMesh: {
        if (e.mesh_point_count == 0) return;
        vec3 lo(INFINITY);
        vec3 hi(-INFINITY);
        for (uint32_t i = 0; i < e.mesh_point_count; ++i) {
            const vec3 p = vec3(effect.mesh_points[e.mesh_point_first + i].position);
            lo = min(lo, p);
            hi = max(hi, p);
        }
        pen.box((lo + hi) * 0.5f, (hi - lo) * 0.5f, 1);
        return;
    }
    default: // a point: a small cross
        pen.line(vec3(-0.05f, 0, 0), vec3(0.05f, 0, 0));
        pen.line(vec3(0, -0.05f, 0), vec3(0, 0.05f, 0));
        pen.line(vec3(0, 0, -0.05f), vec3(0, 0, 0.05f));
        return;
    }
}

} // namespace

void appendGizmoLines(const CompiledEffect& effect, const Rows3x4& world_from_effect,
                      std::string_view selected, std::vector<render::OverlayLine>& out) {
    const Pen bounds{world_from_effect, kGizmoBounds, out};
    bounds.box(vec3(effect.effect.bounds_center), vec3(effect.effect.bounds_half_extents), 8);
    for (const EmitterRecord& e : effect.emitters) {
        const bool chosen = stringAt(effect, e.name_offset, e.name_length) == selected;
        // Where births are placed (simulation space of a world-space effect: world space).
        const Rows3x4 place = simFromEmitter(world_from_effect, e, kSpaceWorld);
        shapeLines(effect, e, Pen{place, chosen ? kGizmoSelected : kGizmoEmitter, out});
    }
}

} // namespace spindrift::editor
