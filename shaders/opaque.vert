// Ground and primitives, vertex-pulled: the geometry comes from gl_VertexIndex
// (src/render/shader/opaque_geometry.h); one draw per shape.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "frame_bindings.glsl"
#include "opaque_geometry.h"

layout(push_constant, std430) uniform OpaquePush {
    OpaqueDraw draw;
};

layout(location = 0) out vec3 out_world_position;
layout(location = 1) out vec3 out_normal;

void main() {
    OpaqueVertex v = sdOpaqueVertex(draw, uint(gl_VertexIndex));
    out_world_position = v.position;
    out_normal = v.normal;
    gl_Position = clipFromWorld() * vec4(v.position, 1.0);
}
