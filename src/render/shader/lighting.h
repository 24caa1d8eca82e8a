// The one lighting model of the renderer, shared by opaque surfaces, meshes and lit particles: a
// directional sun (Lambert) plus a constant ambient term, plus the frame's point and spot lights
// (FrameLight, at most kMaxFrameLights, looked up through the light clusters below), all linear
// RGB. C++ and GLSL compile this one text, so the
// CPU tests check the same falloff and cone numbers the shaders use.
//
// FROZEN: FrameLight is part of the std140 FrameGlobals block (all vec4).
#ifndef SPINDRIFT_RENDER_SHADER_LIGHTING_H
#define SPINDRIFT_RENDER_SHADER_LIGHTING_H

#include "kernels/sd_math.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// The most point and spot lights one frame shades with (scene lights first, then particle lights;
// the rest are dropped and counted, FrameStats::lights_dropped). Each is a loop iteration per lit
// pixel, and the block they live in must stay within the 16 KiB every device gives a uniform
// buffer: 64 lights are 3 KiB.
SD_CONST uint kMaxFrameLights = 64u;

// Distances below this are taken as this in the inverse square: a light is a small sphere, not a
// point, so a surface (or a particle) on top of it is bright, not infinite.
SD_CONST float kMinLightDistance_m = 0.1f;

// A point light's cone terms: cos_outer -2 and cos_inner -1.5 make sdSpotCone 1 for every
// direction, so point and spot lights share one expression and no branch.
SD_CONST float kPointLightCosOuter = -2.0f;
SD_CONST float kPointLightCosInner = -1.5f;

struct FrameLight {
    vec4 position_range;      // xyz world position (m); w range (m), > 0: no light at or past it
    vec4 radiance_cos_inner;  // rgb colour * intensity; w cos(inner cone angle) (point: -1.5)
    vec4 direction_cos_outer; // xyz unit direction a spot shines along (point: 0); w cos(outer)
};

// The light reaching a surface of unit normal n: ambient + sun_radiance * max(dot(n, sun), 0),
// with sun_direction the unit vector toward the sun. Multiplies the surface colour.
SD_FUNC vec3 sdSunAmbient(vec3 n, vec3 sun_direction, vec3 sun_radiance, vec3 ambient) {
    return ambient + sun_radiance * max(dot(n, sun_direction), 0.0f);
}

// Inverse-square falloff with a smooth window to range (Karis, "Real Shading in Unreal Engine 4",
// SIGGRAPH 2013): window = clamp(1 - (d / range)^4, 0, 1)^2, so the light reaches exactly 0 at
// range with a zero slope and is nearly 1 / d^2 well inside it; d below kMinLightDistance_m counts
// as kMinLightDistance_m.
SD_FUNC float sdLightFalloff(float distance_m, float range_m) {
    float x = distance_m / range_m;
    float x2 = x * x;
    float window = clamp(1.0f - x2 * x2, 0.0f, 1.0f);
    float d = max(distance_m, kMinLightDistance_m);
    return window * window / (d * d);
}

// A spot light's cone: 1 inside the inner angle, 0 outside the outer, smooth (a smoothstep of the
// cosine) between. cos_angle is the cosine between the spot's direction and the direction from the
// light to the surface. Needs cos_inner > cos_outer (the scene format holds inner < outer).
SD_FUNC float sdSpotCone(float cos_angle, float cos_outer, float cos_inner) {
    // smoothstep written out: the shared subset has no smoothstep in C++.
    float t = clamp((cos_angle - cos_outer) / (cos_inner - cos_outer), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

// The light one point or spot light sends to point p: radiance * falloff * cone, and in l the
// unit vector from p toward the light (fallback_l where p is the light's own position).
SD_FUNC vec3 sdLocalLightRadiance(vec3 p, FrameLight light, vec3 fallback_l, SD_OUT(vec3) l) {
    vec3 to_light = vec3(light.position_range) - p;
    float d = length(to_light);
    l = d > 0.0f ? to_light / d : fallback_l;
    float cone = sdSpotCone(-dot(l, vec3(light.direction_cos_outer)), light.direction_cos_outer.w,
                            light.radiance_cos_inner.w);
    return vec3(light.radiance_cos_inner) * (sdLightFalloff(d, light.position_range.w) * cone);
}

// The light one point or spot light gives a surface point p of unit normal n: radiance *
// max(dot(n, l), 0) * falloff * cone, l the unit vector from p toward the light. Multiplies the
// surface colour, like sdSunAmbient.
SD_FUNC vec3 sdLocalLight(vec3 n, vec3 p, FrameLight light) {
    vec3 l;
    vec3 radiance = sdLocalLightRadiance(p, light, n, l);
    return radiance * max(dot(n, l), 0.0f);
}

// Lighting per particle (render.lighting per_particle; docs/rendering.md, "Lighting per
// particle"): the lights of a lit billboard gathered once, at its centre, into a linear function
// of the normal, E(n) = base + x * n.x + y * n.y + z * n.z (each rgb), that every pixel of the quad
// evaluates with its own sphere normal. A light of radiance L from unit direction l adds the
// wrapped lobe L * (1 + dot(n, l)) / 2: L where the surface faces it, L / 2 side-on, 0 facing
// away (light wraps around a translucent puff, and the sum of lobes stays linear in n, which a
// per-pixel max(dot(n, l), 0) of several lights would not). Ambient adds to base. The cost is
// one light evaluation per particle instead of one per pixel.
struct ParticleLight {
    vec3 base;
    vec3 x;
    vec3 y;
    vec3 z;
};

SD_FUNC ParticleLight sdParticleLightAmbient(vec3 ambient) {
    ParticleLight light;
    light.base = ambient;
    light.x = vec3(0.0f);
    light.y = vec3(0.0f);
    light.z = vec3(0.0f);
    return light;
}

// Adds the wrapped lobe of a light of radiance `radiance` from unit direction l.
SD_FUNC void sdParticleLightAdd(SD_INOUT(ParticleLight) light, vec3 radiance, vec3 l) {
    vec3 half_radiance = radiance * 0.5f;
    light.base += half_radiance;
    light.x += half_radiance * l.x;
    light.y += half_radiance * l.y;
    light.z += half_radiance * l.z;
}

// E(n) for unit normal n; never negative (a sum of lobes is not, up to rounding).
SD_FUNC vec3 sdParticleLightAt(ParticleLight light, vec3 n) {
    return max(light.base + light.x * n.x + light.y * n.y + light.z * n.z, vec3(0.0f));
}

// Sky light (docs/rendering.md, "Sky light"): radiance from every direction as order-2 real
// spherical harmonics, 9 coefficients (rgb in xyz, w unused) in the order (l, m) = (0, 0),
// (1, -1), (1, 0), (1, 1), (2, -2), (2, -1), (2, 0), (2, 1), (2, 2), with the basis of sdShBasis.
// FROZEN: part of the std140 FrameGlobals block (all vec4).
struct AmbientSh {
    vec4 c[9];
};

// The 9 basis functions at unit direction d (world axes; Sloan, "Stupid Spherical Harmonics
// Tricks", 2008, with z there as y here, the world's up).
SD_FUNC float sdShBasis(uint i, vec3 d) {
    if (i == 0u) return 0.282094792f;
    if (i == 1u) return 0.488602512f * d.x;
    if (i == 2u) return 0.488602512f * d.y;
    if (i == 3u) return 0.488602512f * d.z;
    if (i == 4u) return 1.092548431f * d.x * d.z;
    if (i == 5u) return 1.092548431f * d.z * d.y;
    if (i == 6u) return 0.315391565f * (3.0f * d.y * d.y - 1.0f);
    if (i == 7u) return 1.092548431f * d.x * d.y;
    return 0.546274215f * (d.x * d.x - d.z * d.z);
}

// The light the sky gives a surface of unit normal n, on the scale of sdSunAmbient (it
// multiplies the surface colour): irradiance / pi, the radiance convolved with the clamped
// cosine, which order 2 captures to within a few percent (Ramamoorthi & Hanrahan, "An Efficient
// Representation for Irradiance Environment Maps", 2001: band factors pi, 2 pi / 3, pi / 4). A
// uniform sky of radiance c gives c. Never negative (a ringing order-2 fit can dip below 0).
SD_FUNC vec3 sdShAmbient(vec3 n, AmbientSh sh) {
    vec3 e = vec3(0.0f);
    for (uint i = 0u; i < 9u; ++i) {
        float band = i == 0u ? 1.0f : (i < 4u ? 2.0f / 3.0f : 0.25f); // A_l / pi
        e += vec3(sh.c[i]) * (band * sdShBasis(i, n));
    }
    return max(e, vec3(0.0f));
}

// Light clusters (docs/rendering.md, "Light clusters"): the view frustum is cut into
// kLightClusterColumns x kLightClusterRows screen tiles and kLightClusterSlices depth slices, and
// each cluster holds a 64-bit mask of the frame lights whose range reaches into it (binned on the
// host each frame, render/light_clusters.h), so a lit point loops over the lights near it only.
// The masks live in FrameGlobals: 1024 clusters are 8 KiB of the 16 KiB a uniform block may use.
SD_CONST uint kLightClusterColumns = 16u;
SD_CONST uint kLightClusterRows = 8u;
SD_CONST uint kLightClusterSlices = 8u;
SD_CONST uint kLightClusterCount = kLightClusterColumns * kLightClusterRows * kLightClusterSlices;
// Slice 0 holds everything nearer than this; slices 1.. split [this, far] exponentially, so
// slices are thin near the eye, where a light's sphere covers most of the screen, and deep far
// away.
SD_CONST float kLightClusterNear_m = 1.0f;

// The screen tile of a normalised device coordinate in [-1, 1] along an axis of `tiles` tiles;
// outside [-1, 1] the edge tile.
SD_FUNC uint sdLightClusterTile(float ndc, uint tiles) {
    float t = clamp((ndc * 0.5f + 0.5f) * float(tiles), 0.0f, float(tiles) - 0.5f);
    return uint(t);
}

// The depth slice of a linear view depth (metres) for a far plane far_m.
SD_FUNC uint sdLightClusterSlice(float linear_depth, float far_m) {
    if (!(linear_depth > kLightClusterNear_m) || !(far_m > kLightClusterNear_m)) return 0u;
    float t = sdLog(linear_depth / kLightClusterNear_m) / sdLog(far_m / kLightClusterNear_m);
    float s = 1.0f + clamp(t, 0.0f, 1.0f) * float(kLightClusterSlices - 1u);
    return min(uint(s), kLightClusterSlices - 1u);
}

// The cluster of a point at normalised device coordinates ndc (x right, y down) and linear depth.
SD_FUNC uint sdLightCluster(vec2 ndc, float linear_depth, float far_m) {
    uint column = sdLightClusterTile(ndc.x, kLightClusterColumns);
    uint row = sdLightClusterTile(ndc.y, kLightClusterRows);
    uint slice = sdLightClusterSlice(linear_depth, far_m);
    return (slice * kLightClusterRows + row) * kLightClusterColumns + column;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_RENDER_SHADER_LIGHTING_H
