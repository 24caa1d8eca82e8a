// Strips: texture (u along, v across) or the soft band, lighting, soft fade, and the blend-mode
// output, all from the billboard kernels (src/render/shader/billboard.h through strip_draw.h); the
// pipeline's blend state does the rest.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "strip_draw.h"
#include "strip_variant.glsl"
#define SD_SUN_SHADOWS 1 // lit strips receive sun shadows (frame_bindings.glsl)
#include "frame_bindings.glsl"
#include "lighting.h"
#include "oit.h"

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
    StripParams p = variantParams();
    float across = clamp(in_across, -1.0, 1.0);
    vec4 texel = kVariantTextured != 0u ? texture(particle_texture, sdStripUv(in_u, across))
                                        : sdSoftBandTexel(across, p.blend);

    vec4 tint = in_color;
    if (kVariantLit != 0u) {
        vec3 n = sdStripNormal(across, sdUnitOr(in_side, frame.camera_right.xyz),
                               sdUnitOr(in_facing, -frame.camera_forward.xyz));
        // The whole light model, as lit billboards and meshes take it: the shadowed sun,
        // ambient, the sky and the frame's clustered point and spot lights.
        tint.rgb *= frameLight(n, in_world_position);
    }

    tint = sdEmissiveTint(tint, p.emissive);

    float fade = 1.0;
    if (kVariantSoftFade != 0u) {
        float scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
        fade = sdSoftFade(scene, in_linear_depth, p.soft_fade_distance);
    }
    vec4 color = sdBillboardOutput(texel, tint, p.blend, fade);
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
