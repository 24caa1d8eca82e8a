// The editor's gizmos as segments of the renderer's line overlay (render::OverlayLine,
// FrameView::overlay): each previewed emitter's spawn shape and the effect's bounds, drawn by the
// renderer into the preview image (docs/editor.md, "Gizmos").
//
// They are built from the compiled records the simulation samples (kernels/shape.h: the same
// radius, length, angle, arc and box extents) and placed by simFromEmitter (driver/placement.h),
// the one function that places births, so a gizmo sits where the particles are born. Shapes in
// emitter space: point a small cross; line along x; box its edges; sphere three great circles;
// hemisphere the base circle and two upper half circles; circle its arc in xz; torus its centre,
// outer and inner rings; cone (a frustum up +y) its base and top rings over the arc and four
// generatrices; mesh the bounding box of its surface points. The effect's bounds are a dashed
// box. The selected emitter is brighter than the others.
#pragma once

#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"
#include "driver/placement.h"
#include "render/renderer.h"

namespace spindrift::editor {

// Display colours (sRGB-encoded, as the image holds them).
inline constexpr Float3 kGizmoSelected{90.0f / 255, 220.0f / 255, 1.0f};
inline constexpr Float3 kGizmoEmitter{80.0f / 255, 100.0f / 255, 170.0f / 255};
inline constexpr Float3 kGizmoBounds{230.0f / 255, 190.0f / 255, 70.0f / 255};
// Segments per full circle.
inline constexpr uint32_t kGizmoCircleSegments = 48;

// Appends the gizmos of `effect` placed at world_from_effect: every emitter's shape (the one named
// `selected` in kGizmoSelected, the others in kGizmoEmitter) and the bounds (kGizmoBounds).
void appendGizmoLines(const CompiledEffect& effect, const Rows3x4& world_from_effect,
                      std::string_view selected, std::vector<render::OverlayLine>& out);

} // namespace spindrift::editor
