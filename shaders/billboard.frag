// Billboards: texture or soft disc, flipbook frames, lighting, soft fade, and the blend-mode
// output (src/render/shader/billboard.h); the pipeline's blend state does the rest.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "billboard.h"
#include "billboard_variant.glsl"
#include "frame_bindings.glsl"
#include "lighting.h"
#include "oit.h"

layout(set = kSetFrame, binding = kBindingSceneDepth) uniform sampler2D scene_depth;
layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D particle_texture;

layout(location = 0) in vec2 in_corner;
layout(location = 1) flat in vec4 in_color;
layout(location = 2) flat in float in_frame;
layout(location = 3) in float in_linear_depth;
layout(location = 4) flat in vec3 in_axis_x;
layout(location = 5) flat in vec3 in_axis_y;
layout(location = 6) flat in vec3 in_facing;

// Sorted: the frame colour. OIT (kVariantOit): the accumulation target, and location 1 the
// weight target; a sorted pipeline has no attachment there and the write is discarded.
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_weight;

vec4 sampleFlipbook(BillboardParams p) {
    bool blend_frames = kVariantFrameBlend != 0u;
    FlipbookSample s = sdFlipbookSample(in_frame, p.flipbook_frames, blend_frames);
    vec2 uv = sdQuadUv(in_corner);
    vec2 size = vec2(textureSize(particle_texture, 0));
    vec4 texel = texture(particle_texture,
                         sdFlipbookCellUv(uv, s.frame0, p.flipbook_columns, p.flipbook_rows, size));
    if (blend_frames) {
        vec2 uv1 = sdFlipbookCellUv(uv, s.frame1, p.flipbook_columns, p.flipbook_rows, size);
        texel = mix(texel, texture(particle_texture, uv1), s.blend);
    }
    return texel;
}

void main() {
    BillboardParams p = variantParams();
    vec4 texel = kVariantTextured != 0u ? sampleFlipbook(p) : sdSoftDiscTexel(in_corner, p.blend);

    vec4 tint = in_color;
    if (kVariantLit != 0u) {
        vec3 n = sdBillboardSphereNormal(in_corner, in_axis_x, in_axis_y, in_facing);
        tint.rgb *= sdSunAmbient(n, frame.sun_direction.xyz, frame.sun_radiance.xyz,
                                 frame.ambient.xyz);
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
