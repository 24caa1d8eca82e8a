// Mesh particles: each live particle of a mesh emitter draws the emitter's mesh (an OBJ file read
// by src/mesh/obj_reader.h), placed as
//
//     world = position + R(axis, angle) * (size * scale * local)
//
// with a tumble axis drawn once per particle from its key (kDrawTumbleAxis0/1, uniform on the
// sphere) and angle = the record's rotation + tumble_rad_per_s * age. The record carries the
// normalised age only; the age is normalized_age * lifetime, the lifetime being re-drawn from the
// particle's key exactly as at its birth (sdBirth), so DrawRecord needs no field for it and both
// backends' records give the same placement. Written once in the C++/GLSL subset: the mesh
// shaders and the C++ tests run this text (docs/rendering.md, "Meshes").
//
// FROZEN: MeshVertex is a std430 buffer layout; MeshParams and MeshPushConstants are a
// push-constant block (std430 offsets == C++ offsets, pinned below).
#ifndef SPINDRIFT_RENDER_SHADER_MESH_H
#define SPINDRIFT_RENDER_SHADER_MESH_H

#include "billboard.h"
#include "kernels/birth.h"
#include "kernels/draw_record.h"
#include "kernels/random.h"
#include "kernels/sd_math.h"
#include "kernels/shared_types.h"
#include "mesh/mesh_vertex.h"
#include "motion.h"

SD_BEGIN_NAMESPACE

// What the mesh shaders read for one batch (an emitter).
struct MeshParams {
    uint blend;        // kBlend*
    uint render_flags; // kRenderFlag* (only kRenderFlagLit matters to a mesh)
    float scale;       // render.scale: multiplies the particle's size
    float tumble_rad_per_s;
    float lifetime_min_s; // the emitter's lifetime range: the age of a record (sdMeshAge)
    float lifetime_max_s;
    uint vertex_count; // of the mesh: 3 per triangle
    uint pad0;
    float emissive;       // render.emissive (sdEmissiveTint)
    float emissive_share; // render.emissive_share (sdEmissiveShare)
    uint pad1;
    uint pad2;
};

// The whole push-constant block of a mesh draw. records / order as BillboardPushConstants
// (records.xy the address of the first DrawRecord, or with records.z != 0 of a chunk table;
// order.xy 0 or uint record indices). vertices.xy is the address of the mesh's first MeshVertex;
// vertices.zw are 0. Instance i of the draw is record i (or order[i]); vertex j is mesh vertex j.
struct MeshPushConstants {
    MeshParams params;
    uvec4 records;
    uvec4 order;
    uvec4 vertices;
    DrawOverrides overrides; // applied to each record read (sdOverriddenRecord)
};

// Specialisation-constant ids of the mesh shaders (all uint), as for billboards (billboard.h).
SD_CONST uint kSpecMeshBlend = 0u;    // kBlend*
SD_CONST uint kSpecMeshLit = 1u;      // 1: kRenderFlagLit
SD_CONST uint kSpecMeshOit = 2u;      // 1: writes the OIT targets (render/shader/oit.h)
SD_CONST uint kSpecMeshTextured = 3u; // 1: samples the batch's texture at the vertex's (u, v)
// 1: the motion-vector variant (mesh_motion.frag): the vertex stage hands over each vertex's
// previous clip position (sdMeshPreviousPlacement, sdMotionPreviousClipOf).
SD_CONST uint kSpecMeshMotion = 4u;
SD_CONST uint kSpecMeshCount = 5u;

// A particle's placement: world = center + rotation * (local * scale), rotation as three
// columns (an orthonormal matrix: normals turn with it unchanged by the uniform scale).
struct MeshPlacement {
    vec3 center;
    vec3 column0;
    vec3 column1;
    vec3 column2;
    float scale;
};

// The particle's age in seconds: normalized_age times its lifetime, drawn from its key as sdBirth
// draws it (same range, same draw index, same lower bound).
SD_FUNC float sdMeshAge(DrawRecord r, MeshParams p) {
    float lifetime =
        max(sdRandomRange(r.key, kDrawLifetime, p.lifetime_min_s, p.lifetime_max_s), kMinLifetimeS);
    return r.normalized_age * lifetime;
}

// The particle's tumble axis: uniform on the unit sphere, from its key.
SD_FUNC vec3 sdTumbleAxis(uint key) {
    return sdRandomUnitVector(key, kDrawTumbleAxis0);
}

// The rotation by angle_rad about the unit axis (Rodrigues), counter-clockwise when the axis
// points at the viewer.
SD_FUNC MeshPlacement sdAxisRotation(vec3 axis, float angle_rad) {
    float s;
    float c;
    sdSinCos(angle_rad, s, c);
    float t = 1.0f - c;
    MeshPlacement m;
    m.center = vec3(0.0f);
    m.scale = 1.0f;
    m.column0 = vec3(t * axis.x * axis.x + c, t * axis.x * axis.y + s * axis.z,
                     t * axis.x * axis.z - s * axis.y);
    m.column1 = vec3(t * axis.x * axis.y - s * axis.z, t * axis.y * axis.y + c,
                     t * axis.y * axis.z + s * axis.x);
    m.column2 = vec3(t * axis.x * axis.z + s * axis.y, t * axis.y * axis.z - s * axis.x,
                     t * axis.z * axis.z + c);
    return m;
}

// Where a record's mesh is at age age_s: at its position, scaled by size * scale, turned about its
// tumble axis by its rotation plus tumble_rad_per_s * age_s.
SD_FUNC MeshPlacement sdMeshPlacementAtAge(DrawRecord r, MeshParams p, float age_s) {
    float angle = r.velocity_rotation.w + p.tumble_rad_per_s * age_s;
    MeshPlacement m = sdAxisRotation(sdTumbleAxis(r.key), angle);
    m.center = vec3(r.position_size);
    m.scale = r.position_size.w * p.scale;
    return m;
}

// Where a record's mesh is now: sdMeshPlacementAtAge at its age.
SD_FUNC MeshPlacement sdMeshPlacement(DrawRecord r, MeshParams p) {
    return sdMeshPlacementAtAge(r, p, sdMeshAge(r, p));
}

// Where the mesh was interval_s ago, for motion vectors (render/shader/motion.h): its centre moved
// back along the record's velocity (sdMotionPreviousPosition) and its tumble turned back by
// tumble_rad_per_s * interval_s, exact because the tumble is a constant rate about a fixed axis.
// The record's own rotation and size are taken as now: the record holds no rate for them (a spin
// or a size curve moves the surface, not this placement). A particle younger than the interval
// is extrapolated, as its position is.
SD_FUNC MeshPlacement sdMeshPreviousPlacement(DrawRecord r, MeshParams p, float interval_s) {
    MeshPlacement m = sdMeshPlacementAtAge(r, p, sdMeshAge(r, p) - interval_s);
    m.center = sdMotionPreviousPosition(m.center, vec3(r.velocity_rotation), interval_s);
    return m;
}

SD_FUNC vec3 sdMeshRotate(MeshPlacement m, vec3 v) {
    return m.column0 * v.x + m.column1 * v.y + m.column2 * v.z;
}

// World position of a mesh-space point.
SD_FUNC vec3 sdMeshPoint(MeshPlacement m, vec3 local) {
    return m.center + sdMeshRotate(m, local * m.scale);
}

// What a mesh fragment writes (the pipeline's blend state finishes it): the texel (white for an
// untextured mesh; textures follow the billboards' convention, premultiplied for additive and
// premultiplied blending, straight alpha for alpha) times the colour, lit or not, as a
// billboard's output for the same blend mode (sdBillboardOutput): additive adds rgb * a, alpha
// blends rgb over the frame by a. Opaque replaces the frame's colour with rgb (alpha 1: the
// texel's and the particle's alpha are ignored).
SD_FUNC vec4 sdMeshOutput(vec4 texel, vec4 color, uint blend) {
    if (blend == kBlendOpaque) return vec4(vec3(texel) * vec3(color), 1.0f);
    return sdBillboardOutput(texel, color, blend, 1.0f);
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(MeshParams, 48);
static_assert(offsetof(MeshParams, lifetime_min_s) == 16);
static_assert(offsetof(MeshParams, vertex_count) == 24);
static_assert(offsetof(MeshParams, emissive) == 32);
// 128 bytes: every Vulkan device's push-constant minimum (maxPushConstantsSize).
SD_ASSERT_RECORD(MeshPushConstants, 128);
static_assert(offsetof(MeshPushConstants, records) == 48);
static_assert(offsetof(MeshPushConstants, order) == 64);
static_assert(offsetof(MeshPushConstants, vertices) == 80);
static_assert(offsetof(MeshPushConstants, overrides) == 96);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_MESH_H
