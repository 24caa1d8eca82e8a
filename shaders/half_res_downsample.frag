// Half-resolution particles, first step (render/half_res_pass.h): each half-size texel's linear
// depth is the nearest of its full-resolution block's (sdHalfResDownsample), written to the
// half-size linear depth the soft fade reads and, as a depth-buffer value (sdDepthFromLinear), to
// the half-size depth the particles are tested against. Drawn with the OIT composite's full-screen
// triangle over the half-size target.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "depth_linearize.h"
#include "half_res.h"

layout(set = kSetHalfRes, binding = kBindingHalfResFullDepth) uniform sampler2D full_depth;

layout(push_constant, std430) uniform HalfResPush {
    HalfResPushConstants push;
};

layout(location = 0) out float out_linear_depth;

void main() {
    ivec2 last = ivec2(push.size.xy) - 1;
    ivec2 corner = ivec2(gl_FragCoord.xy) * 2;
    vec4 block = vec4(texelFetch(full_depth, min(corner, last), 0).r,
                      texelFetch(full_depth, min(corner + ivec2(1, 0), last), 0).r,
                      texelFetch(full_depth, min(corner + ivec2(0, 1), last), 0).r,
                      texelFetch(full_depth, min(corner + ivec2(1, 1), last), 0).r);
    float nearest = sdHalfResDownsample(block);
    out_linear_depth = nearest;
    gl_FragDepth = sdDepthFromLinear(nearest, push.planes.x, push.planes.y);
}
