// Mesh particles' motion vectors (docs/rendering.md, "Motion vectors"; the maths:
// src/render/shader/motion.h and sdMeshPreviousPlacement in mesh.h): drawn with mesh.vert
// (kVariantMotion: it hands over each vertex's previous clip position) into the motion target
// after every colour phase, depth-tested against the opaque scene (equal passes: an opaque mesh
// finds the depth its colour draw wrote where it is the visible surface). A fragment whose
// coverage (the alpha its colour draw blends with, mesh_shade.glsl, lighting aside; 1 for opaque)
// passes the frame's threshold writes the motion of its point; any other is discarded and the
// pixel keeps what is behind it.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require

#include "mesh.h"
#include "mesh_variant.glsl"
#include "frame_bindings.glsl"
#include "lighting.h"
#include "mesh_shade.glsl"

layout(location = 0) flat in vec4 in_color;
layout(location = 3) in vec2 in_uv;
layout(location = 5) in vec4 in_previous_clip;

layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D mesh_texture;

layout(location = 0) out vec2 out_motion;

void main() {
    // Unlit (kVariantLit is 0 in this variant): lighting changes colour, not coverage.
    float alpha = shadeMesh(mesh_texture, in_color, in_uv, vec3(0.0), vec3(0.0),
                            push.params.emissive, kVariantBlend, kVariantTextured, 0u).a;
    if (!sdMotionFragmentWrites(frame.motion, alpha, kVariantBlend)) discard;
    vec2 motion_px = sdMotionPixels(gl_FragCoord.xy, in_previous_clip, frame.viewport.xy);
    out_motion = sdMotionOutput(frame.motion, motion_px);
}
