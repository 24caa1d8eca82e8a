// A strip's shadow caster (src/render/shader/shadow.h, docs/rendering.md "Shadows"): a ribbon or
// beam seen from the sun or a local light's tile (strip.vert with kVariantCaster and that view in
// the frame block). Its coverage is the texture's or the soft band's alpha times the point
// colour's, as strip.frag draws it. kStripCasterOpacity adds the optical depth to the opacity
// map's slices in front of which the fragment lies (opacityCasterDepth; the pipeline sums,
// additive blend); kStripCasterCutout keeps the fragments covered at least kShadowCutoutCoverage
// for the depth test and write (that pipeline has no colour attachment: the output is discarded).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "frame_globals.h"
#include "frame_bindings.glsl"
#include "strip_draw.h"
#include "strip_variant.glsl"

layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D particle_texture;

layout(location = 0) in float in_u;
layout(location = 1) in float in_across;
layout(location = 2) in vec4 in_color;

layout(location = 0) out vec4 out_optical_depth;

void main() {
    float across = clamp(in_across, -1.0, 1.0);
    vec4 texel = kVariantTextured != 0u ? texture(particle_texture, sdStripUv(in_u, across))
                                        : sdSoftBandTexel(across, kVariantBlend);
    float coverage = texel.a * in_color.a;
    if (kVariantCaster == kStripCasterCutout) {
        if (coverage < kShadowCutoutCoverage) discard;
        out_optical_depth = vec4(0.0);
    } else {
        out_optical_depth = sdOpacitySliceOutput(opacityCasterDepth(gl_FragCoord.z), coverage);
    }
}
