// The host frame's linear depth: the host's depth buffer, linearised (sdLinearFromDepth in
// src/render/shader/depth_linearize.h) into the target the soft fade reads. Drawn with the OIT
// composite's full-screen triangle.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "depth_linearize.h"

layout(set = kSetDepthLinearize, binding = kBindingHostDepth) uniform sampler2D host_depth;

layout(push_constant, std430) uniform LinearizePush {
    DepthLinearizePushConstants push;
};

layout(location = 0) out float out_linear_depth;

void main() {
    float d = texelFetch(host_depth, ivec2(gl_FragCoord.xy), 0).r;
    out_linear_depth = sdLinearFromDepth(d, push.planes.x, push.planes.y);
}
