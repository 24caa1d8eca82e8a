// The opacity shadow maps' caster (src/render/shader/shadow.h, docs/rendering.md "Shadows"): a
// blended billboard seen from the sun or a local light's tile (billboard.vert with that view in
// the frame block) adds its optical depth to the slices in front of which it lies
// (opacityCasterDepth); the pipeline sums (additive blend). Its coverage is the texture or soft
// disc's alpha times the record's, as the billboard shader's (sampleBillboardFlipbook,
// billboard_shade.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "billboard.h"
#include "billboard_variant.glsl"
#include "frame_bindings.glsl"
#include "lighting.h"
#include "shadow.h"
#include "billboard_shade.glsl"

layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D particle_texture;

layout(location = 0) in vec2 in_corner;
layout(location = 1) flat in vec4 in_color;
layout(location = 2) flat in float in_frame;

layout(location = 0) out vec4 out_optical_depth;

void main() {
    BillboardParams p = variantParams();
    // The point as shadeBillboard reads it; linear depth 0 samples the texture's level 0 (the
    // sun's orthographic view has no perspective depth to pick a level by).
    BillboardPoint b;
    b.corner = in_corner;
    b.color = in_color;
    b.frame = in_frame;
    b.linear_depth = 0.0;
    b.axis_x = vec3(0.0);
    b.axis_y = vec3(0.0);
    b.facing = vec3(0.0);
    b.position = vec3(0.0);
    b.size_m = vec2(1.0);
    vec4 texel = kVariantTextured != 0u
                     ? sampleBillboardFlipbook(particle_texture, p, b, kVariantFrameBlend != 0u)
                     : sdSoftDiscTexel(in_corner, p.blend);
    out_optical_depth = sdOpacitySliceOutput(opacityCasterDepth(gl_FragCoord.z),
                                             texel.a * in_color.a);
}
