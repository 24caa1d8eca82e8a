// Mesh particles, vertex-pulled and instanced: instance i of a draw is the particle of record i
// (or of record order[i] when the batch has a device-sorted order), vertex j is vertex j of the
// batch's mesh (a triangle list, MeshVertex), both read through buffer device addresses (push
// constants). Placement: sdMeshPlacement (src/render/shader/mesh.h). The motion variant
// (kVariantMotion, mesh_motion.frag) hands over the vertex's previous clip position: the vertex
// under the particle's previous placement (sdMeshPreviousPlacement), seen by the previous camera.
// gl_Position is invariant: an opaque mesh's motion draw tests its depth for equality against
// what its colour draw wrote (render/motion_pass.h).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "mesh.h"
#include "mesh_variant.glsl"
#include "frame_bindings.glsl"
#include "draw_record_fetch.glsl"

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer OrderRef {
    uint indices[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer MeshVertexRef {
    MeshVertex vertices[];
};

layout(location = 0) flat out vec4 out_color;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out float out_linear_depth;
layout(location = 3) out vec2 out_uv;
layout(location = 4) out vec3 out_world_position;
// The motion variant only: the vertex's clip position under the previous camera.
layout(location = 5) out vec4 out_previous_clip;

invariant gl_Position;

void main() {
    uint record_index = uint(gl_InstanceIndex);
    if (push.order.xy != uvec2(0u)) record_index = OrderRef(push.order.xy).indices[record_index];
    DrawRecord r = sdOverriddenRecord(
        fetchDrawRecord(push.records.xy, push.records.z, push.records.w, record_index),
        push.overrides);
    MeshVertex v = MeshVertexRef(push.vertices.xy).vertices[gl_VertexIndex];

    MeshPlacement m = sdMeshPlacement(r, push.params);
    vec3 p = sdMeshPoint(m, v.position_u.xyz);
    gl_Position = clipFromWorld() * vec4(p, 1.0);
    out_color = r.color;
    out_normal = kVariantLit != 0u ? sdMeshRotate(m, v.normal_v.xyz) : vec3(0.0);
    out_linear_depth = linearDepth(p);
    out_uv = vec2(v.position_u.w, v.normal_v.w);
    out_world_position = p;
    out_previous_clip = vec4(0.0);
    if (kVariantMotion != 0u) {
        MeshPlacement previous = sdMeshPreviousPlacement(r, push.params, frame.motion.params.x);
        out_previous_clip =
            sdMotionPreviousClipOf(frame.motion, sdMeshPoint(previous, v.position_u.xyz));
    }
}
