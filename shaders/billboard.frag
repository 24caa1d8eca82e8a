// Billboards: texture or soft disc, flipbook frames, lighting, soft fade, and the blend-mode
// output (shadeBillboard, billboard_shade.glsl: the same text as the compute rasteriser's);
// the pipeline's blend state does the rest.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "billboard.h"
#include "billboard_variant.glsl"
#define SD_SUN_SHADOWS 1 // receives sun shadows (frame_bindings.glsl)
#include "frame_bindings.glsl"
#include "lighting.h"
#include "particle_light_pack.glsl"
#include "oit.h"
#include "billboard_shade.glsl"

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
// Lit per particle: the particle's light as billboard.vert packed it (sdPackParticleLight).
layout(location = 9) flat in uvec3 in_light_first;
layout(location = 10) flat in uvec3 in_light_second;

// Sorted: the frame colour. OIT (kVariantOit): the accumulation target, and location 1 the
// weight target; a sorted pipeline has no attachment there and the write is discarded.
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_weight;

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
    b.light = sdUnpackParticleLight(in_light_first, in_light_second);
    float scene = 0.0;
    if (kVariantSoftFade != 0u) scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
    vec4 color = shadeBillboard(particle_texture, p, b, scene, kVariantTextured, kVariantLit,
                                kVariantSoftFade, kVariantFrameBlend);
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
