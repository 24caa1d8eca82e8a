// Sun shadows (docs/rendering.md, "Shadows"): what the receivers read about the frame's shadow
// maps, and the sampler-free maths of reading them, written once for C++ (the tests, the
// renderer's fitting) and GLSL (frame_bindings.glsl's frameSunShadow).
//
// Two maps. The cascade atlas: kMaxShadowCascades square depth tiles side by side (only `count`
// of them used), each an orthographic view of the sun over one slice of the camera's view depth,
// written by opaque primitives and opaque mesh particles. The opacity map: an RGBA16F image over
// the blended billboards' bounds as the sun sees them, whose four channels hold the optical depth
// -sum(ln(1 - alpha)) of every particle in front of four depth boundaries (opacity shadow maps,
// Kim & Neumann 2001): a receiver between two boundaries takes the interpolated optical depth, so
// a smoke column darkens the ground below it and its own far side.
//
// FROZEN: FrameShadows is part of the std140 FrameGlobals block (all vec4).
#ifndef SPINDRIFT_RENDER_SHADER_SHADOW_H
#define SPINDRIFT_RENDER_SHADER_SHADOW_H

#include "kernels/sd_math.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// The cascades of the atlas (scene_desc.h's kMaxShadowCascades is the same 4).
SD_CONST uint kShadowCascadeCapacity = 4u;
// Depth slices of the opacity map: its four channels.
SD_CONST uint kOpacitySlices = 4u;
// A receiver is moved this many texels of its cascade along its normal before the comparison
// (normal-offset shadows), on top of the scene's depth bias.
SD_CONST float kShadowNormalOffsetTexels = 1.5f;
// The last part of the shadow distance over which the shadow fades out to none (no hard edge where
// the last cascade ends).
SD_CONST float kShadowFadeFraction = 0.1f;
// A cutout billboard (kRenderFlagShadowCutout) writes the sun's depth map where its coverage
// (texel alpha x record alpha) is at least this.
SD_CONST float kShadowCutoutCoverage = 0.5f;
// A particle's alpha is clamped below this before the optical depth -ln(1 - alpha): an opaque
// texel gives optical depth 6.9 (transmittance 0.001), not infinity.
SD_CONST float kOpacityMaxAlpha = 0.999f;

// A receiver reads the opacity map this far (in map depth, [0, 1]) toward the sun from where it
// is: half a slice. With four slices a particle in the middle of a dense column would otherwise
// take half of its own slice's optical depth, the particles behind it included, and a whole smoke
// column would go dark; so the sun-facing side stays lit and the shadow deepens slice by slice.
SD_CONST float kOpacityReceiverOffset = 0.5f / float(kOpacitySlices);

struct FrameShadows {
    // clip_from_world of cascade c in columns 4c .. 4c + 3 (orthographic: clip.xy in [-1, 1] over
    // the tile, clip.z in [0, 1] from the sun's side of the cascade's depth range).
    vec4 cascade_c[kShadowCascadeCapacity * 4u];
    vec4 cascade_far;     // the camera's linear view depth (m) where each cascade ends
    vec4 cascade_texel_m; // the world size of one texel of each cascade
    vec4 cascade_depth_m; // the depth range (m) each cascade's clip.z spans
    vec4 params;          // x: depth bias (m); y: where the fade starts (view depth, m); z: the
                          // fade's length (m); w: 1 / the cascade resolution (atlas tile texels)
    uvec4 config;         // x: cascades in use (0: no sun shadows); y: 1 when the opacity map is
                          // in use; z: the cascade resolution; w: 0
    vec4 opacity_c[4];    // the opacity map's clip_from_world (clip.z in [0, 1] over its slices)
};

// Which cascade shades a point at linear view depth `depth`: the first whose far end is beyond
// it; `count` when it lies past them all (no sun shadow there).
SD_FUNC uint sdShadowCascade(float depth, vec4 cascade_far, uint count) {
    uint c = 0u;
    if (depth > cascade_far.x) c = 1u;
    if (depth > cascade_far.y) c = 2u;
    if (depth > cascade_far.z) c = 3u;
    if (depth > cascade_far.w) c = 4u;
    return min(c, count);
}

// The (u, v, depth) of world point p under an orthographic clip_from_world given as four columns:
// u, v in [0, 1] over the map (v down, like the framebuffer the map was drawn into), depth in
// [0, 1].
SD_FUNC vec3 sdShadowCoord(vec4 c0, vec4 c1, vec4 c2, vec4 c3, vec3 p) {
    vec4 clip = c0 * p.x + c1 * p.y + c2 * p.z + c3;
    return vec3(clip.x * 0.5f + 0.5f, clip.y * 0.5f + 0.5f, clip.z);
}

// Where (u, v) of tile `tile` lies in an atlas of `tiles` square tiles side by side, clamped half
// a texel inside the tile so a filter tap never reads a neighbouring tile.
SD_FUNC vec2 sdShadowTileUv(vec2 uv, uint tile, uint tiles, float texel) {
    vec2 inside = clamp(uv, vec2(texel * 0.5f), vec2(1.0f - texel * 0.5f));
    return vec2((float(tile) + inside.x) / float(tiles), inside.y);
}

// Where (u, v) of cascade c lies in the atlas of kShadowCascadeCapacity tiles side by side.
SD_FUNC vec2 sdShadowAtlasUv(vec2 uv, uint cascade, float texel) {
    return sdShadowTileUv(uv, cascade, kShadowCascadeCapacity, texel);
}

// How much of the shadow remains at view depth `depth`: 1 before the fade, falling linearly to 0
// at its end (params.y, params.z).
SD_FUNC float sdShadowFadeWeight(float depth, vec4 params) {
    if (params.z <= 0.0f) return 1.0f;
    return clamp(1.0f - (depth - params.y) / params.z, 0.0f, 1.0f);
}

// The optical depth one particle fragment of alpha `alpha` at opacity-map depth `depth` (clip.z,
// [0, 1]) adds to each slice channel: channel k holds what lies in front of boundary (k + 1) / 4
// (the last channel: everything, including what lies behind the map's far end).
SD_FUNC vec4 sdOpacitySliceOutput(float depth, float alpha) {
    float tau = -sdLog(1.0f - clamp(alpha, 0.0f, kOpacityMaxAlpha));
    return vec4(depth < 0.25f ? tau : 0.0f, depth < 0.5f ? tau : 0.0f, depth < 0.75f ? tau : 0.0f,
                tau);
}

// The transmittance toward the sun at opacity-map depth `depth` given the four channels: the
// optical depth interpolated between the boundaries (0 at depth 0, channel 3 at and past 1).
SD_FUNC float sdOpacityTransmittance(vec4 tau, float depth) {
    float x = clamp(depth, 0.0f, 1.0f) * float(kOpacitySlices);
    float optical = tau.w;
    if (x < 1.0f) {
        optical = tau.x * x;
    } else if (x < 2.0f) {
        optical = mix(tau.x, tau.y, x - 1.0f);
    } else if (x < 3.0f) {
        optical = mix(tau.y, tau.z, x - 2.0f);
    } else {
        optical = mix(tau.z, tau.w, x - 3.0f);
    }
    return sdExp(-optical);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_RENDER_SHADER_SHADOW_H
