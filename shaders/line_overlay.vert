// The line overlay's segments, vertex-pulled (src/render/shader/line_overlay.h): vertex i is end
// i % 2 of segment i / 2, read through the segments' buffer device address.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "line_overlay.h"

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer SegmentsRef {
    OverlaySegment segments[];
};

layout(push_constant, std430) uniform OverlayPush {
    LineOverlayPush push;
};

layout(location = 0) out vec4 out_color;

void main() {
    OverlaySegment s = SegmentsRef(push.segments.xy)
                           .segments[uint(gl_VertexIndex) / kOverlayVerticesPerSegment];
    vec4 p = (uint(gl_VertexIndex) % kOverlayVerticesPerSegment) == 0u ? s.from : s.to;
    mat4 clip_from_world = mat4(push.clip_from_world_c0, push.clip_from_world_c1,
                                push.clip_from_world_c2, push.clip_from_world_c3);
    gl_Position = clip_from_world * vec4(p.xyz, 1.0);
    out_color = s.color;
}
