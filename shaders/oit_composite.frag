// The OIT composite: the weighted average colour of the frame's alpha-blended and premultiplied
// particles over the opaque frame (sdOitResolve in src/render/shader/oit.h; the pipeline blends ONE,
// ONE_MINUS_SRC_ALPHA). Pixels no such particle covered (revealage 1) are left alone.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "oit.h"

layout(set = kSetOitComposite, binding = kBindingOitAccumulation) uniform sampler2D accumulation;
layout(set = kSetOitComposite, binding = kBindingOitWeight) uniform sampler2D weight;

layout(location = 0) out vec4 out_color;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    vec4 sums = texelFetch(accumulation, pixel, 0);
    if (sums.a >= 1.0) discard;
    out_color = sdOitResolve(sums, texelFetch(weight, pixel, 0).r);
}
