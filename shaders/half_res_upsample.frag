// Half-resolution particles, last step (render/half_res_pass.h): the half-size particle layer
// (premultiplied colour, coverage in alpha) over the full-resolution frame, each pixel weighting
// the four half-size texels around it by sdHalfResUpsampleWeights: bilinear where their depths
// match the pixel's, the texel of the nearest depth across an edge. The pipeline blends ONE,
// ONE_MINUS_SRC_ALPHA. Drawn with the OIT composite's full-screen triangle.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "half_res.h"

layout(set = kSetHalfRes, binding = kBindingHalfResFullDepth) uniform sampler2D full_depth;
layout(set = kSetHalfRes, binding = kBindingHalfResColor) uniform sampler2D half_color;
layout(set = kSetHalfRes, binding = kBindingHalfResDepth) uniform sampler2D half_depth;

layout(push_constant, std430) uniform HalfResPush {
    HalfResPushConstants push;
};

layout(location = 0) out vec4 out_color;

void main() {
    vec2 coord = sdHalfResCoord(gl_FragCoord.xy);
    ivec2 base = ivec2(floor(coord));
    vec2 f = coord - vec2(base);
    ivec2 last = ivec2(push.size.zw) - 1;
    ivec2 t0 = clamp(base, ivec2(0), last);
    ivec2 t1 = clamp(base + ivec2(1, 0), ivec2(0), last);
    ivec2 t2 = clamp(base + ivec2(0, 1), ivec2(0), last);
    ivec2 t3 = clamp(base + ivec2(1, 1), ivec2(0), last);
    vec4 depths = vec4(texelFetch(half_depth, t0, 0).r, texelFetch(half_depth, t1, 0).r,
                       texelFetch(half_depth, t2, 0).r, texelFetch(half_depth, t3, 0).r);
    float depth = texelFetch(full_depth, ivec2(gl_FragCoord.xy), 0).r;
    vec4 w = sdHalfResUpsampleWeights(f, depths, depth);
    vec4 layer = texelFetch(half_color, t0, 0) * w.x + texelFetch(half_color, t1, 0) * w.y +
                 texelFetch(half_color, t2, 0) * w.z + texelFetch(half_color, t3, 0) * w.w;
    if (layer == vec4(0.0)) discard;
    out_color = layer;
}
