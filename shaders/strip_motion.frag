// Strips' motion vectors (docs/rendering.md, "Motion vectors"; the maths:
// src/render/shader/motion.h): drawn with strip.vert (kVariantMotion: it hands over each vertex's
// previous clip position, sdMotionPreviousClip) into the motion target after every colour phase,
// depth-tested against the opaque scene. A fragment whose coverage (the alpha its colour draw
// blends with, strip_shade.glsl, lighting aside) passes the frame's threshold writes the motion
// of its point; any other is discarded and the pixel keeps what is behind it.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "strip_draw.h"
#include "strip_variant.glsl"
#include "frame_bindings.glsl"
#include "lighting.h"
#include "motion.h"
#include "strip_shade.glsl"

layout(set = kSetFrame, binding = kBindingSceneDepth) uniform sampler2D scene_depth;
layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D particle_texture;

layout(location = 0) in float in_u;
layout(location = 1) in float in_across;
layout(location = 2) in vec4 in_color;
layout(location = 3) in float in_linear_depth;
layout(location = 7) in vec4 in_previous_clip;

layout(location = 0) out vec2 out_motion;

void main() {
    StripFragment f;
    f.u = in_u;
    f.across = in_across;
    f.color = in_color;
    f.linear_depth = in_linear_depth;
    f.side = vec3(0.0);
    f.facing = vec3(0.0);
    f.position = vec3(0.0);
    float scene = 0.0;
    if (kVariantSoftFade != 0u) scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
    StripParams p = variantParams();
    // Unlit (kVariantLit is 0 in this variant): lighting changes colour, not coverage.
    float alpha = shadeStrip(particle_texture, p, f, scene, kVariantTextured, 0u,
                             kVariantSoftFade).a;
    if (!sdMotionFragmentWrites(frame.motion, alpha, p.blend)) discard;
    vec2 motion_px = sdMotionPixels(gl_FragCoord.xy, in_previous_clip, frame.viewport.xy);
    out_motion = sdMotionOutput(frame.motion, motion_px);
}
