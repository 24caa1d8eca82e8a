// Strips: the fragment's appearance (strip_shade.glsl: texture or soft band, lighting, soft fade,
// the blend-mode output) and its emissive share or OIT output; the pipeline's blend state does
// the rest.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "strip_draw.h"
#include "strip_variant.glsl"
#define SD_SUN_SHADOWS 1 // lit strips receive sun shadows (frame_bindings.glsl)
#include "frame_bindings.glsl"
#include "lighting.h"
#include "oit.h"
#include "strip_shade.glsl"

layout(set = kSetFrame, binding = kBindingSceneDepth) uniform sampler2D scene_depth;
layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D particle_texture;

layout(location = 0) in float in_u;
layout(location = 1) in float in_across;
layout(location = 2) in vec4 in_color;
layout(location = 3) in float in_linear_depth;
layout(location = 4) in vec3 in_side;
layout(location = 5) in vec3 in_facing;
layout(location = 6) in vec3 in_world_position;

// Sorted: the frame colour. OIT (kVariantOit): the accumulation target, and location 1 the
// weight target; a sorted pipeline has no attachment there and the write is discarded.
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_weight;

void main() {
    StripFragment f;
    f.u = in_u;
    f.across = in_across;
    f.color = in_color;
    f.linear_depth = in_linear_depth;
    f.side = in_side;
    f.facing = in_facing;
    f.position = in_world_position;
    float scene = 0.0;
    if (kVariantSoftFade != 0u) scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
    StripParams p = variantParams();
    vec4 color = shadeStrip(particle_texture, p, f, scene, kVariantTextured, kVariantLit,
                            kVariantSoftFade);
    if (kVariantOit != 0u) {
        // Only the alpha share goes through OIT; the renderer draws the emissive share again,
        // additively, after the composite (docs/rendering.md, "Emissive").
        color = sdEmissiveAlphaShare(color, p.emissive_share);
        out_color = sdOitAccumulation(color, p.blend, in_linear_depth);
        out_weight = sdOitWeightOutput(color, in_linear_depth);
    } else {
        out_color = sdEmissiveShare(color, p.emissive_share);
    }
}
