// The per-frame uniform block every entry point reads (set kSetFrame, binding
// kBindingFrameGlobals; the layout is FrameGlobals in src/render/shader/frame_globals.h).
#ifndef SPINDRIFT_SHADERS_FRAME_BINDINGS_GLSL
#define SPINDRIFT_SHADERS_FRAME_BINDINGS_GLSL

#include "frame_globals.h"

layout(std140, set = kSetFrame, binding = kBindingFrameGlobals) uniform FrameBlock {
    FrameGlobals frame;
};

mat4 clipFromWorld() {
    return mat4(frame.clip_from_world_c0, frame.clip_from_world_c1, frame.clip_from_world_c2,
                frame.clip_from_world_c3);
}

// Linear view depth (metres along the view direction), the unit the soft fade compares.
float linearDepth(vec3 world_position) {
    return dot(world_position - frame.eye.xyz, frame.camera_forward.xyz);
}

#ifdef SD_SUN_SHADOWS
// The sun shadow maps (src/render/shader/shadow.h, docs/rendering.md "Shadows"), bound by every
// pass whose shaders receive shadows.
layout(set = kSetFrame, binding = kBindingShadowAtlas) uniform sampler2DShadow shadow_atlas;
layout(set = kSetFrame, binding = kBindingShadowOpacity) uniform sampler2D shadow_opacity;

// The share of the sun reaching world point p of unit normal n, in [0, 1]: the cascade of p's
// view depth, 3 x 3 bilinear comparisons one texel apart (a 4 x 4 texel percentage-closer filter;
// at level 0, so the compute rasteriser runs the same text), faded out over the end of the shadow
// distance; times the transmittance through the blended particles the opacity map holds, read
// half a slice toward the sun (kOpacityReceiverOffset). 1 where the frame has no shadows.
float frameSunShadow(vec3 n, vec3 p) {
    float visibility = 1.0;
    uint count = min(frame.shadows.config.x, kShadowCascadeCapacity);
    float depth = linearDepth(p);
    uint c = sdShadowCascade(depth, frame.shadows.cascade_far, count);
    if (c < count) {
        uint k = c * 4u;
        vec3 q = p + n * (frame.shadows.cascade_texel_m[c] * kShadowNormalOffsetTexels);
        vec3 coord = sdShadowCoord(frame.shadows.cascade_c[k], frame.shadows.cascade_c[k + 1u],
                                   frame.shadows.cascade_c[k + 2u],
                                   frame.shadows.cascade_c[k + 3u], q);
        float reference = coord.z - frame.shadows.params.x / frame.shadows.cascade_depth_m[c];
        float texel = frame.shadows.params.w;
        float sum = 0.0;
        for (int y = -1; y <= 1; ++y) {
            for (int x = -1; x <= 1; ++x) {
                vec2 uv = sdShadowAtlasUv(coord.xy + vec2(x, y) * texel, c, texel);
                sum += textureLod(shadow_atlas, vec3(uv, reference), 0.0);
            }
        }
        float shadow = 1.0 - sum / 9.0;
        visibility = 1.0 - shadow * sdShadowFadeWeight(depth, frame.shadows.params);
    }
    if (frame.shadows.config.y != 0u) {
        vec3 o = sdShadowCoord(frame.shadows.opacity_c[0], frame.shadows.opacity_c[1],
                               frame.shadows.opacity_c[2], frame.shadows.opacity_c[3], p);
        if (all(greaterThanEqual(o.xy, vec2(0.0))) && all(lessThanEqual(o.xy, vec2(1.0)))) {
            visibility *= sdOpacityTransmittance(textureLod(shadow_opacity, o.xy, 0.0),
                                                 o.z - kOpacityReceiverOffset);
        }
    }
    return visibility;
}

layout(set = kSetFrame, binding = kBindingLocalShadowAtlas) uniform sampler2DShadow
    local_shadow_atlas;
layout(set = kSetFrame, binding = kBindingLocalShadowOpacity) uniform sampler2D
    local_shadow_opacity;

// The share of frame light `light_index` reaching world point p of unit normal n, in [0, 1]: 1
// unless the light has tiles of the local shadow atlas (src/render/shader/local_shadow.h) and p
// lies inside its tile (a point light's: the cube face of the direction from the light); there,
// p moved along n and toward the light (sdLocalShadowReceiver) and 3 x 3 bilinear comparisons
// one texel apart, as the sun's cascades take them; times, when the frame's blended particles
// cast into the local opacity atlas (config.z), the transmittance through them from the tile's
// slices, read half a slice toward the light (kOpacityReceiverOffset) as the sun's is.
float frameLocalShadow(uint light_index, vec3 n, vec3 p) {
    uint count = min(frame.local_shadows.config.x, kLocalShadowTiles);
    for (uint first = 0u; first < count; ++first) {
        if (frame.local_shadows.lights[first / 4u][first % 4u] != light_index) continue;
        FrameLight light = frame.lights[light_index];
        vec3 to_light = light.position_range.xyz - p;
        float distance = length(to_light);
        vec3 l = distance > 0.0 ? to_light / distance : n;
        // A point light's cone terms are kPointLightCosOuter exactly (lighting.h); its six faces
        // are consecutive tiles from `first`.
        uint t = first;
        if (light.direction_cos_outer.w == kPointLightCosOuter) t += sdCubeFace(-to_light);
        t = min(t, kLocalShadowTiles - 1u);
        vec4 params = frame.local_shadows.params[t];
        vec3 q = sdLocalShadowReceiver(p, n, l, distance, params);
        uint k = t * 4u;
        vec4 coord = sdLocalShadowCoord(frame.local_shadows.tile_c[k],
                                        frame.local_shadows.tile_c[k + 1u],
                                        frame.local_shadows.tile_c[k + 2u],
                                        frame.local_shadows.tile_c[k + 3u], q);
        if (coord.w == 0.0) return 1.0;
        float texel = params.z;
        float sum = 0.0;
        for (int y = -1; y <= 1; ++y) {
            for (int x = -1; x <= 1; ++x) {
                vec2 uv = sdLocalShadowAtlasUv(coord.xy + vec2(x, y) * texel, t, texel);
                sum += textureLod(local_shadow_atlas, vec3(uv, coord.z), 0.0);
            }
        }
        float visibility = sum / 9.0;
        uint opacity_resolution = frame.local_shadows.config.z;
        if (opacity_resolution != 0u) {
            float opacity_texel = 1.0 / float(opacity_resolution);
            vec2 uv = sdLocalShadowAtlasUv(coord.xy, t, opacity_texel);
            float depth = sdLocalOpacityDepth(coord.z, light.position_range.w, params.w);
            visibility *= sdOpacityTransmittance(textureLod(local_shadow_opacity, uv, 0.0),
                                                 depth - kOpacityReceiverOffset);
        }
        return visibility;
    }
    return 1.0;
}
#else
float frameSunShadow(vec3 n, vec3 p) {
    return 1.0;
}

float frameLocalShadow(uint light_index, vec3 n, vec3 p) {
    return 1.0;
}
#endif

// Whether the frame block holds an orthographic view (the sun's shadow views): clip.w is then 1
// everywhere, its row (0, 0, 0, 1).
bool orthographicView() {
    return frame.clip_from_world_c0.w == 0.0 && frame.clip_from_world_c1.w == 0.0 &&
           frame.clip_from_world_c2.w == 0.0;
}

// Where an opacity caster's fragment of depth `depth` (gl_FragCoord.z) lies among the slices of
// the map it draws into: the sun's orthographic view slices by depth itself, a local light's
// perspective tile by linear depth from the light (sdLocalOpacityDepth; the tile's far plane, the
// light's range, in camera_right.w: sunViewGlobals; where its slices end in eye.w: ShadowPass).
float opacityCasterDepth(float depth) {
    return orthographicView() ? depth
                              : sdLocalOpacityDepth(depth, frame.camera_right.w, frame.eye.w);
}

// The 64-bit mask of the frame's point and spot lights that may reach p: those of p's light
// cluster (render/light_clusters.h bins them on the host, conservatively: a light that reaches p
// is in p's cluster). Mask bits past the light count are never set.
uvec2 frameClusterLights(vec3 p) {
    if (frame.light_count.x == 0u) return uvec2(0u);
    vec4 clip = clipFromWorld() * vec4(p, 1.0);
    vec2 ndc = clip.xy / max(clip.w, 1.0e-6);
    uint cluster = sdLightCluster(ndc, clip.w, frame.camera_right.w);
    uvec4 pair = frame.light_clusters[cluster >> 1u];
    return (cluster & 1u) != 0u ? pair.zw : pair.xy;
}

// Takes the lowest set bit of the mask and returns its light's index, clamped again so a bad
// upload cannot read past the array. The mask must not be 0.
uint frameNextLight(inout uvec2 mask) {
    uint word = mask.x != 0u ? 0u : 1u;
    uint bits = word == 0u ? mask.x : mask.y;
    uint i = min(word * 32u + uint(findLSB(bits)), kMaxFrameLights - 1u);
    bits &= bits - 1u;
    if (word == 0u) mask.x = bits;
    else mask.y = bits;
    return i;
}

// The light of the frame's point and spot lights at surface point p of unit normal n (lighting.h,
// sdLocalLight), each times its shadow (frameLocalShadow), summed over p's cluster; it adds to
// sdSunAmbient's.
vec3 frameLocalLights(vec3 n, vec3 p) {
    vec3 sum = vec3(0.0);
    uvec2 mask = frameClusterLights(p);
    while (mask != uvec2(0u)) {
        uint i = frameNextLight(mask);
        sum += sdLocalLight(n, p, frame.lights[i]) * frameLocalShadow(i, n, p);
    }
    return sum;
}

// Lighting per particle (lighting.h, ParticleLight): the ambient, the sun (its shadow looked up
// once, at the centre, with facing as the normal of the lookup's offset) and the lights of the
// centre's cluster (each with its shadow there, the same way), gathered at a lit billboard's
// centre p. The sky light is left to each pixel
// (sdShAmbient: nine terms, no loop, exact with the pixel's normal).
ParticleLight frameParticleLight(vec3 p, vec3 facing) {
    ParticleLight light = sdParticleLightAmbient(frame.ambient.xyz);
    sdParticleLightAdd(light, frame.sun_radiance.xyz * frameSunShadow(facing, p),
                       frame.sun_direction.xyz);
    uvec2 mask = frameClusterLights(p);
    while (mask != uvec2(0u)) {
        uint i = frameNextLight(mask);
        vec3 l;
        vec3 radiance = sdLocalLightRadiance(p, frame.lights[i], facing, l);
        sdParticleLightAdd(light, radiance * frameLocalShadow(i, facing, p), l);
    }
    return light;
}

// The whole light model at p: the sun (shadowed where the shader receives sun shadows),
// ambient, the sky light and the frame's lights.
vec3 frameLight(vec3 n, vec3 p) {
    return sdSunAmbient(n, frame.sun_direction.xyz,
                        frame.sun_radiance.xyz * frameSunShadow(n, p), frame.ambient.xyz) +
           sdShAmbient(n, frame.ambient_sh) + frameLocalLights(n, p);
}

// Pixels per metre at one metre of linear view depth: half the viewport height times the
// projection's y scale (1 / tan(fov / 2)), which is the length of clip_from_world's y row (the
// view rotation is orthonormal).
float pixelScale() {
    vec3 y_row = vec3(frame.clip_from_world_c0.y, frame.clip_from_world_c1.y,
                      frame.clip_from_world_c2.y);
    return 0.5 * frame.viewport.y * length(y_row);
}

#endif
