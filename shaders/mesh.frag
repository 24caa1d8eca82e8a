// Mesh particles: the fragment's appearance (mesh_shade.glsl: texture, colour, lighting, the
// blend-mode output) and its emissive share or OIT output; the pipeline's blend state does the
// rest.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require

#include "mesh.h"
#include "mesh_variant.glsl"
#define SD_SUN_SHADOWS 1 // receives sun shadows (frame_bindings.glsl)
#include "frame_bindings.glsl"
#include "lighting.h"
#include "oit.h"
#include "mesh_shade.glsl"

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
    vec4 color = shadeMesh(mesh_texture, in_color, in_uv, in_normal, in_world_position,
                           push.params.emissive, kVariantBlend, kVariantTextured, kVariantLit);
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
