// Distortion billboards (docs/rendering.md, "Distortion"; the maths: src/render/shader/
// distortion.h): no colour of their own. Each pixel shows the frame as it was before the
// distortion phase (the scene colour copy), read where the quad's displacement field moves this
// point of the quad on screen; the pipeline blends it over the frame by the field's coverage.
// Drawn with billboard.vert (kVariantDistortion: it hands over the quad's axes).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "billboard.h"
#include "billboard_variant.glsl"
#include "frame_bindings.glsl"
#include "lighting.h"
#include "billboard_shade.glsl"
#include "distortion.h"

layout(set = kSetFrame, binding = kBindingSceneDepth) uniform sampler2D scene_depth;
layout(set = kSetFrame, binding = kBindingSceneColor) uniform sampler2D scene_color;
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

layout(location = 0) out vec4 out_color;

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

    vec4 field = kVariantTextured != 0u
                     ? sdDistortionTexel(sampleBillboardFlipbook(particle_texture, p, b,
                                                                 kVariantFrameBlend != 0u))
                     : sdDistortionLens(b.corner);
    ivec2 here = ivec2(gl_FragCoord.xy);
    float weight = clamp(b.color.a, 0.0, 1.0);
    if (kVariantSoftFade != 0u) {
        float scene = texelFetch(scene_depth, here, 0).r;
        weight *= sdSoftFade(scene, b.linear_depth, p.soft_fade_distance);
    }
    vec3 shift = sdDistortionDisplacement(field, b.axis_x * (0.5 * b.size_m.x),
                                          b.axis_y * (0.5 * b.size_m.y), p.distortion, weight);
    vec4 clip = clipFromWorld() * vec4(b.position + shift, 1.0);
    vec2 viewport = frame.viewport.xy;
    vec2 there = gl_FragCoord.xy;
    if (clip.w > 0.0) there = (clip.xy / clip.w * 0.5 + 0.5) * viewport;
    // The nearest opaque surface among the four texels the bilinear read at `there` mixes: a
    // surface in front of the particle must not bleed in, not even through the filter.
    ivec2 last = ivec2(viewport) - 1;
    ivec2 corner = ivec2(floor(clamp(there, vec2(0.0), viewport) - 0.5));
    float scene_there = kSceneDepthCleared;
    for (int j = 0; j <= 1; ++j) {
        for (int i = 0; i <= 1; ++i) {
            ivec2 texel = clamp(corner + ivec2(i, j), ivec2(0), last);
            scene_there = min(scene_there, texelFetch(scene_depth, texel, 0).r);
        }
    }
    vec2 source = sdDistortionSourcePixel(gl_FragCoord.xy, there, scene_there, b.linear_depth,
                                          viewport);
    vec3 rgb = textureLod(scene_color, source * frame.viewport.zw, 0.0).rgb;
    out_color = vec4(rgb, clamp(field.w * weight, 0.0, 1.0));
}
