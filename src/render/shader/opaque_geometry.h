// The opaque scene's geometry, generated from the vertex index (vertex pulling, no vertex
// buffer): the ground square, boxes and spheres, each drawn with one push-constant block.
//
// FROZEN: OpaqueDraw is a push-constant block (std430 offsets == C++ offsets, pinned below).
#ifndef SPINDRIFT_RENDER_SHADER_OPAQUE_GEOMETRY_H
#define SPINDRIFT_RENDER_SHADER_OPAQUE_GEOMETRY_H

#include "billboard.h"
#include "kernels/sd_math.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

SD_CONST uint kOpaqueGround = 0u;
SD_CONST uint kOpaqueBox = 1u;
SD_CONST uint kOpaqueSphere = 2u;

SD_CONST uint kGroundVertexCount = 6u;
SD_CONST uint kBoxVertexCount = 36u; // 6 faces x 2 triangles
SD_CONST uint kSphereSegments = 32u; // around Y
SD_CONST uint kSphereRings = 16u;    // pole to pole
SD_CONST uint kSphereVertexCount = kSphereSegments * kSphereRings * 6u;

// Ground checker: 1 m cells, the odd ones this much darker: enough for a viewer to read scale,
// little enough not to draw the eye from the effect.
SD_CONST float kGroundCellSize = 1.0f;
SD_CONST float kGroundCheckerDark = 0.92f;

struct OpaqueDraw {
    vec4 center; // xyz world centre (ground: (0, height, 0)); w 0
    vec4 extent; // xyz scale of the unit shape: box half extents; sphere (r, r, r); ground
                 // (half side, 1, half side); w 0
    vec4 color;  // linear rgb; w 1 to modulate by the ground checker, 0 otherwise
    uint kind;   // kOpaque*
    uint pad0;
    uint pad1;
    uint pad2;
};

// A vertex of unit geometry: position and unit outward normal.
struct OpaqueVertex {
    vec3 position;
    vec3 normal;
};

// The square [-1, 1] x {0} x [-1, 1], normal +Y (vertex 0..5).
SD_FUNC OpaqueVertex sdGroundVertex(uint index) {
    vec2 c = sdQuadCorner(index % 6u);
    OpaqueVertex v;
    v.position = vec3(c.x, 0.0f, c.y);
    v.normal = vec3(0.0f, 1.0f, 0.0f);
    return v;
}

// The cube [-1, 1]^3 (vertex 0..35): face f = index / 6 has normal +-axis (f / 2), + for even f.
SD_FUNC OpaqueVertex sdBoxVertex(uint index) {
    uint face = min(index / 6u, 5u);
    uint axis = face >> 1u;
    float side = (face & 1u) == 0u ? 1.0f : -1.0f;
    vec2 c = sdQuadCorner(index % 6u);
    vec3 p = vec3(0.0f);
    p[int(axis)] = side;
    p[int((axis + 1u) % 3u)] = c.x;
    p[int((axis + 2u) % 3u)] = c.y;
    vec3 n = vec3(0.0f);
    n[int(axis)] = side;
    OpaqueVertex v;
    v.position = p;
    v.normal = n;
    return v;
}

// The unit sphere as kSphereRings x kSphereSegments quads (vertex 0..kSphereVertexCount-1);
// polar angle from +Y, azimuth from +X toward +Z.
SD_FUNC OpaqueVertex sdSphereVertex(uint index) {
    uint quad = index / 6u;
    vec2 c = sdQuadCorner(index % 6u);
    float segment = float(quad % kSphereSegments) + (c.x > 0.0f ? 1.0f : 0.0f);
    float ring = float(min(quad / kSphereSegments, kSphereRings - 1u)) + (c.y > 0.0f ? 1.0f : 0.0f);
    float azimuth = segment * (kTwoPi / float(kSphereSegments));
    float polar = ring * (kPi / float(kSphereRings));
    float sa;
    float ca;
    float sp;
    float cp;
    sdSinCos(azimuth, sa, ca);
    sdSinCos(polar, sp, cp);
    OpaqueVertex v;
    v.position = vec3(sp * ca, cp, sp * sa);
    v.normal = v.position;
    return v;
}

// The world-space vertex `index` of draw d. The scales keep the unit normals valid: a box stays
// axis-aligned and a sphere's scale is uniform.
SD_FUNC OpaqueVertex sdOpaqueVertex(OpaqueDraw d, uint index) {
    OpaqueVertex v = sdGroundVertex(index);
    if (d.kind == kOpaqueBox) {
        v = sdBoxVertex(index);
    } else if (d.kind == kOpaqueSphere) {
        v = sdSphereVertex(index);
    }
    v.position = v.position * vec3(d.extent) + vec3(d.center);
    return v;
}

// The ground checker factor at world position p: 1 or kGroundCheckerDark by 1 m cell, faded to
// their mean where a pixel covers cells_per_pixel of a cell or more (from a quarter to three
// quarters of a cell a pixel), so the far ground is an even grey instead of a moire of aliased
// cells. The fragment passes max(fwidth(p.x), fwidth(p.z)) / kGroundCellSize.
SD_FUNC float sdGroundChecker(vec3 p, float cells_per_pixel) {
    int cx = sdFloorToInt(p.x / kGroundCellSize);
    int cz = sdFloorToInt(p.z / kGroundCellSize);
    float checker = ((cx + cz) & 1) == 0 ? 1.0f : kGroundCheckerDark;
    float fade = clamp(2.0f * cells_per_pixel - 0.5f, 0.0f, 1.0f);
    return mix(checker, 0.5f * (1.0f + kGroundCheckerDark), fade);
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(OpaqueDraw, 64);
static_assert(offsetof(OpaqueDraw, kind) == 48);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_OPAQUE_GEOMETRY_H
