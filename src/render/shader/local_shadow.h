// Shadows of point and spot lights (docs/rendering.md, "Shadows of local lights"): what the
// receivers read about the frame's local-light shadow atlas, and the maths of making and reading
// it, written once for C++ (the renderer's fitting, the tests) and GLSL (frame_bindings.glsl's
// frameLocalShadow).
//
// One depth atlas of kLocalShadowTiles square tiles, kLocalShadowColumns a row. A spot light takes
// one tile, a perspective view from its position along its direction over its cone; a point light
// takes kPointShadowFaces consecutive tiles, the faces of a cube around it (sdCubeFace). Each view
// reaches from near = range x kLocalShadowNearFraction to the light's range. A receiver of light i
// looks for the first tile whose light is i (at most kLocalShadowTiles compares), a point light's
// face by the direction from the light, moves itself along its normal by
// kShadowNormalOffsetTexels texels at its distance and toward the light by the depth bias, and
// takes the same 3 x 3 percentage-closer filter as the sun's cascades.
//
// Beside it, when the frame has blended billboards or strips that cast into the sun's opacity
// map, a local opacity atlas (RGBA16F, the same tile layout, sdLocalOpacityResolution texels a
// tile): each tile holds the optical depth of the blended particles its light sees in four slices
// (shadow.h's sdOpacitySliceOutput), along the tile's linear depth from the light as a part of
// the way from its near plane to the farthest its casters reach (at most the light's range:
// sdLocalOpacityDepth). A receiver inside the tile multiplies its depth visibility by the
// transmittance there (sdOpacityTransmittance); past the casters it takes their whole optical
// depth.
//
// FROZEN: FrameLocalShadows is part of the std140 FrameGlobals block (all vec4).
#ifndef SPINDRIFT_RENDER_SHADER_LOCAL_SHADOW_H
#define SPINDRIFT_RENDER_SHADER_LOCAL_SHADOW_H

#include "kernels/sd_math.h"
#include "kernels/shared_types.h"
#include "shadow.h"

SD_BEGIN_NAMESPACE

// The local shadow atlas: kLocalShadowRows rows of kLocalShadowColumns square tiles. A light
// whose tiles no longer fit shades unshadowed and is counted (FrameStats::local_shadows_dropped):
// at most 8 spot lights, or one point light and two spots, a frame.
SD_CONST uint kLocalShadowColumns = 4u;
SD_CONST uint kLocalShadowRows = 2u;
SD_CONST uint kLocalShadowTiles = 8u; // kLocalShadowColumns x kLocalShadowRows
// A point light's tiles: the six faces of a cube, +x, -x, +y, -y, +z, -z in that order.
SD_CONST uint kPointShadowFaces = 6u;
// The tangent of a cube face's half angle: a little over 45 degrees, so the filter's taps at a
// face's edge stay inside its tile.
SD_CONST float kPointShadowTanHalfFov = 1.05f;
// A tile's near plane, as a part of its light's range: depth precision goes to the metres the
// light reaches (D32F keeps a 1:1000 near/far ratio exact to well under a millimetre).
SD_CONST float kLocalShadowNearFraction = 0.001f;
// The widest half angle a spot's shadow frustum covers (a perspective view cannot reach 90
// degrees): cos 80 degrees. Past it, a wider spot's light is unshadowed (docs).
SD_CONST float kLocalShadowMinCosHalfAngle = 0.17364818f;
// The frustum is this much wider than the spot's outer cone (its tangent, times), so the filter's
// taps at the cone's edge stay inside the tile.
SD_CONST float kLocalShadowFovMargin = 1.05f;
// The most texels a side of a local opacity tile: eight RGBA16F tiles stay within 64 MiB.
SD_CONST uint kMaxLocalOpacityResolution = 1024u;

struct FrameLocalShadows {
    // clip_from_world of tile t in columns 4t .. 4t + 3 (perspective: clip.w is the distance along
    // the light's direction, clip.z / clip.w runs 0 at the near plane to 1 at the range).
    vec4 tile_c[kLocalShadowTiles * 4u];
    // Per tile: x the depth bias (m); y the world size of a texel one metre from the light
    // (2 tan(half fov) / resolution); z 1 / the tile resolution; w where its opacity slices end
    // (m of linear depth, in (near, range]; 0 without the opacity atlas).
    vec4 params[kLocalShadowTiles];
    // The frame light (FrameGlobals::lights index) of tile t in lights[t / 4][t % 4]: a point
    // light's six faces all name it.
    uvec4 lights[kLocalShadowTiles / 4u];
    // x: tiles in use (0: no local shadows); y: the tile resolution; z: the opacity atlas's tile
    // resolution when blended particles cast into it this frame, else 0 (no opacity read); w: 0
    uvec4 config;
};

// The four columns of a perspective clip_from_world.
struct ShadowProjection {
    vec4 c0;
    vec4 c1;
    vec4 c2;
    vec4 c3;
};

// The tangent of the half angle a spot's shadow frustum covers, for the cosine of its outer cone
// angle: the cone's with kLocalShadowFovMargin, the half angle at most acos
// kLocalShadowMinCosHalfAngle (80 degrees).
SD_FUNC float sdLocalShadowTanHalfFov(float cos_outer) {
    float c = max(cos_outer, kLocalShadowMinCosHalfAngle);
    float tangent = sqrt(max(1.0f - c * c, 0.0f)) / c;
    float most = sqrt(1.0f - kLocalShadowMinCosHalfAngle * kLocalShadowMinCosHalfAngle) /
                 kLocalShadowMinCosHalfAngle;
    return min(tangent * kLocalShadowFovMargin, most);
}

// The view from `position` along unit `forward` with unit `right` and `up` across it (the sun
// views' axes: right = cross(forward, hint), up = cross(right, forward)), square, of half-angle
// tangent tan_half_fov, from near_m to far_m: clip.x / clip.w along right and clip.y / clip.w
// along up, both in [-1, 1] over the tile (as the sun's orthographic views have them), clip.z /
// clip.w in [0, 1] from near to far, clip.w the distance along forward.
SD_FUNC ShadowProjection sdPerspectiveShadowProjection(vec3 position, vec3 right, vec3 up,
                                                       vec3 forward, float tan_half_fov,
                                                       float near_m, float far_m) {
    float s = 1.0f / tan_half_fov;
    float a = far_m / (far_m - near_m);
    float b = -far_m * near_m / (far_m - near_m);
    // Rows: (s r, -dot(s r, p)), (s u, -dot(s u, p)), (a f, -a dot(f, p) + b), (f, -dot(f, p)).
    vec3 row_x = right * s;
    vec3 row_y = up * s;
    vec3 row_z = forward * a;
    vec3 row_w = forward;
    ShadowProjection m;
    m.c0 = vec4(row_x.x, row_y.x, row_z.x, row_w.x);
    m.c1 = vec4(row_x.y, row_y.y, row_z.y, row_w.y);
    m.c2 = vec4(row_x.z, row_y.z, row_z.z, row_w.z);
    m.c3 = vec4(-dot(row_x, position), -dot(row_y, position), -dot(row_z, position) + b,
                -dot(row_w, position));
    return m;
}

// The (u, v, depth) of world point p in a perspective tile (u, v in [0, 1] over the tile;
// depth in [0, 1] from near to far); w of the result is 1 when p lies in front of the near plane
// and inside the tile's frustum, else 0 (no shadow from this tile there).
SD_FUNC vec4 sdLocalShadowCoord(vec4 c0, vec4 c1, vec4 c2, vec4 c3, vec3 p) {
    vec4 clip = c0 * p.x + c1 * p.y + c2 * p.z + c3;
    if (clip.w <= 0.0f) return vec4(0.0f);
    vec3 ndc = vec3(clip.x, clip.y, clip.z) / clip.w;
    vec3 coord = vec3(ndc.x * 0.5f + 0.5f, ndc.y * 0.5f + 0.5f, ndc.z);
    bool inside = coord.x >= 0.0f && coord.x <= 1.0f && coord.y >= 0.0f && coord.y <= 1.0f &&
                  coord.z >= 0.0f && coord.z <= 1.0f;
    return vec4(coord, inside ? 1.0f : 0.0f);
}

// The cube face of a point light whose view holds direction d from the light: its largest
// component's axis and sign (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z; ties to the earlier axis).
SD_FUNC uint sdCubeFace(vec3 d) {
    vec3 a = abs(d);
    if (a.x >= a.y && a.x >= a.z) return d.x >= 0.0f ? 0u : 1u;
    if (a.y >= a.z) return d.y >= 0.0f ? 2u : 3u;
    return d.z >= 0.0f ? 4u : 5u;
}

// The direction cube face `face` looks along.
SD_FUNC vec3 sdCubeFaceForward(uint face) {
    float sign = (face & 1u) == 0u ? 1.0f : -1.0f;
    uint axis = face / 2u;
    return vec3(axis == 0u ? sign : 0.0f, axis == 1u ? sign : 0.0f, axis == 2u ? sign : 0.0f);
}

// Where (u, v) of tile `tile` lies in the local atlas, clamped half a texel (`texel`, in tile
// units) inside the tile so a filter tap never reads a neighbouring tile.
SD_FUNC vec2 sdLocalShadowAtlasUv(vec2 uv, uint tile, float texel) {
    vec2 inside = clamp(uv, vec2(texel * 0.5f), vec2(1.0f - texel * 0.5f));
    return vec2((float(tile % kLocalShadowColumns) + inside.x) / float(kLocalShadowColumns),
                (float(tile / kLocalShadowColumns) + inside.y) / float(kLocalShadowRows));
}

// The side of a local opacity tile for the scene's opacity_resolution.
SD_FUNC uint sdLocalOpacityResolution(uint opacity_resolution) {
    return min(opacity_resolution, kMaxLocalOpacityResolution);
}

// The linear depth (m along the tile's direction, clip.w) of perspective depth `depth` (clip.z /
// clip.w, 0 at the near plane, 1 at the range) in a tile reaching to far_m
// (sdPerspectiveShadowProjection with near = far_m x kLocalShadowNearFraction).
SD_FUNC float sdLocalShadowLinearDepth(float depth, float far_m) {
    float near_m = far_m * kLocalShadowNearFraction;
    return near_m * far_m / (far_m - depth * (far_m - near_m));
}

// Where perspective depth `depth` of a tile reaching to far_m lies among the local opacity
// tile's slices, which end at linear depth end_m (params.w): its linear depth as a part of the way
// from the near plane (0) to end_m (1, and past it). Both the casters (gl_FragCoord.z) and the
// receivers (sdLocalShadowCoord's z) take it, so a cube face's slices run along its own direction
// as a spot's do.
SD_FUNC float sdLocalOpacityDepth(float depth, float far_m, float end_m) {
    float near_m = far_m * kLocalShadowNearFraction;
    float linear = sdLocalShadowLinearDepth(depth, far_m);
    return clamp((linear - near_m) / max(end_m - near_m, 1.0e-6f), 0.0f, 1.0f);
}

// Where a receiver at p of unit normal n, `distance` metres from a light in direction l (unit,
// toward the light), is compared: kShadowNormalOffsetTexels texels along n (a texel there is
// texel_per_m x distance wide) and bias_m toward the light.
SD_FUNC vec3 sdLocalShadowReceiver(vec3 p, vec3 n, vec3 l, float distance, vec4 params) {
    return p + n * (params.y * distance * kShadowNormalOffsetTexels) + l * params.x;
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
static_assert(kLocalShadowTiles == kLocalShadowColumns * kLocalShadowRows);
SD_ASSERT_RECORD(FrameLocalShadows, 16 * (5 * kLocalShadowTiles + kLocalShadowTiles / 4 + 1));
static_assert(offsetof(FrameLocalShadows, params) == 512);
static_assert(offsetof(FrameLocalShadows, lights) == 640);
static_assert(offsetof(FrameLocalShadows, config) == 672);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_LOCAL_SHADOW_H
