// Opaque surfaces: Lambert sun + ambient + point and spot lights (src/render/shader/lighting.h). Also writes the linear view
// depth the billboard pass reads for the soft fade.
#version 460
#extension GL_GOOGLE_include_directive : require

#define SD_SUN_SHADOWS 1 // receives sun shadows (frame_bindings.glsl)
#include "frame_bindings.glsl"
#include "lighting.h"
#include "opaque_geometry.h"

layout(push_constant, std430) uniform OpaquePush {
    OpaqueDraw draw;
};

layout(location = 0) in vec3 in_world_position;
layout(location = 1) in vec3 in_normal;

layout(location = 0) out vec4 out_color;
layout(location = 1) out float out_linear_depth;

void main() {
    vec3 n = normalize(in_normal);
    vec3 light = frameLight(n, in_world_position);
    vec3 cells = fwidth(in_world_position) / kGroundCellSize;
    float checker =
        draw.color.w > 0.0 ? sdGroundChecker(in_world_position, max(cells.x, cells.z)) : 1.0;
    out_color = vec4(draw.color.rgb * checker * light, 1.0);
    out_linear_depth = linearDepth(in_world_position);
}
