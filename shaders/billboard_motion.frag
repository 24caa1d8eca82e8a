// Billboards' motion vectors (docs/rendering.md, "Motion vectors"; the maths:
// src/render/shader/motion.h): drawn with billboard.vert (kVariantMotion: it hands over the
// record's velocity) into the motion target after every colour phase, depth-tested against the
// opaque scene. A fragment whose coverage (the alpha its colour draw blends with, lighting aside)
// passes the frame's threshold writes the motion of its point: the point moved back along the
// particle's velocity over the frame interval, seen by the previous camera. Any other fragment is
// discarded and the pixel keeps what is behind it.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "billboard.h"
#include "billboard_variant.glsl"
#include "frame_bindings.glsl"
#include "lighting.h"
#include "billboard_shade.glsl"
#include "motion.h"

layout(set = kSetFrame, binding = kBindingSceneDepth) uniform sampler2D scene_depth;
layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D particle_texture;

layout(location = 0) in vec2 in_corner;
layout(location = 1) flat in vec4 in_color;
layout(location = 2) flat in float in_frame;
layout(location = 3) in float in_linear_depth;
layout(location = 4) flat in vec3 in_axis_x;
layout(location = 5) flat in vec3 in_axis_y;
layout(location = 6) flat in vec3 in_facing;
layout(location = 7) in vec3 in_world_position;
layout(location = 8) flat in vec2 in_size_m;
layout(location = 11) flat in vec3 in_velocity;

layout(location = 0) out vec2 out_motion;

void main() {
    BillboardParams p = variantParams();
    BillboardPoint b;
    b.corner = in_corner;
    b.color = in_color;
    b.frame = in_frame;
    b.linear_depth = in_linear_depth;
    b.axis_x = in_axis_x;
    b.axis_y = in_axis_y;
    b.facing = in_facing;
    b.position = in_world_position;
    b.size_m = in_size_m;
    float scene = 0.0;
    if (kVariantSoftFade != 0u) scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
    // Unlit (kVariantLit is 0 in this variant): lighting changes colour, not coverage.
    float alpha = shadeBillboard(particle_texture, p, b, scene, kVariantTextured, 0u,
                                 kVariantSoftFade, kVariantFrameBlend).a;
    if (!sdMotionFragmentWrites(frame.motion, alpha, p.blend)) discard;
    vec4 clip = sdMotionPreviousClip(frame.motion, b.position, in_velocity);
    vec2 motion_px = sdMotionPixels(gl_FragCoord.xy, clip, frame.viewport.xy);
    out_motion = sdMotionOutput(frame.motion, motion_px);
}
