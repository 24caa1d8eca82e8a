// Mesh particles: the texture at the vertex's (u, v) when the batch has one, times the record's
// colour, lit by the scene's sun, ambient and lights when the emitter is lit (the one lighting model,
// src/render/shader/lighting.h), and the blend-mode output (sdMeshOutput); the pipeline's blend state
// does the rest.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require

#include "mesh.h"
#include "mesh_variant.glsl"
#define SD_SUN_SHADOWS 1 // receives sun shadows (frame_bindings.glsl)
#include "frame_bindings.glsl"
#include "lighting.h"
#include "oit.h"

layout(location = 0) flat in vec4 in_color;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in float in_linear_depth;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in vec3 in_world_position;

layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D mesh_texture;

// Sorted: the frame colour. OIT (kVariantOit): the accumulation target, and location 1 the
// weight target. Opaque (kBlendOpaque): location 1 is the linear depth target, which the soft
// fade of the particles drawn after reads. Other sorted pipelines have no attachment there and
// the write is discarded.
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_second;

void main() {
    vec4 tint = in_color;
    if (kVariantLit != 0u) {
        // Interpolated normals shorten between vertices: renormalise.
        vec3 n = sdUnitOr(in_normal, -frame.camera_forward.xyz);
        tint.rgb *= frameLight(n, in_world_position);
    }
    tint = sdEmissiveTint(tint, push.params.emissive);
    vec4 texel = kVariantTextured != 0u ? texture(mesh_texture, in_uv) : vec4(1.0);
    vec4 color = sdMeshOutput(texel, tint, kVariantBlend);
    if (kVariantOit != 0u) {
        // Only the alpha share goes through OIT; the renderer draws the emissive share again,
        // additively, after the composite (docs/rendering.md, "Emissive").
        color = sdEmissiveAlphaShare(color, push.params.emissive_share);
        out_color = sdOitAccumulation(color, kVariantBlend, in_linear_depth);
        out_second = sdOitWeightOutput(color, in_linear_depth);
    } else {
        out_color = sdEmissiveShare(color, push.params.emissive_share);
        out_second = vec4(in_linear_depth);
    }
}
