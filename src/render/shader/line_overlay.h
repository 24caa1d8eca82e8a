// The line overlay (render/line_overlay_pass.h): world-space segments drawn over the finished
// frame, one pixel wide, after the HDR post. Read by line_overlay.vert through the lines' buffer
// device address; the colour is the linear value whose sRGB encoding (the readback's) is the
// segment's display colour.
#ifndef SPINDRIFT_RENDER_SHADER_LINE_OVERLAY_H
#define SPINDRIFT_RENDER_SHADER_LINE_OVERLAY_H

#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

struct OverlaySegment {
    vec4 from;  // xyz world space; w = 1
    vec4 to;    // xyz world space; w = 1
    vec4 color; // rgb linear (sRGB-decoded display colour); a = 1
};

struct LineOverlayPush {
    // clip_from_world (viewGlobals), as four columns.
    vec4 clip_from_world_c0;
    vec4 clip_from_world_c1;
    vec4 clip_from_world_c2;
    vec4 clip_from_world_c3;
    uvec4 segments; // xy: the segments' device address (low, high words); zw unused
};

// Vertex i draws end i % 2 of segment i / 2.
SD_CONST uint kOverlayVerticesPerSegment = 2u;

SD_END_NAMESPACE

#ifdef __cplusplus
namespace spindrift {
SD_ASSERT_RECORD(OverlaySegment, 48);
SD_ASSERT_RECORD(LineOverlayPush, 80);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_LINE_OVERLAY_H
