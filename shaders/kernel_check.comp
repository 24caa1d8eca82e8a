// Build-time check that every header shared with C++ compiles as GLSL: src/kernels/,
// src/gpu/shader/, src/render/shader/ and src/mesh/mesh_vertex.h (glslc sees no __cplusplus, so
// shared_types.h gives the GLSL side). Not embedded: the build fails when a header drifts out
// of the C++/GLSL subset.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "effect_records.h"
#include "appearance.h"
#include "gpu_sim.h"
#include "draw_record.h"
#include "beam.h"
#include "billboard.h"
#include "birth.h"
#include "collision.h"
#include "curl_noise.h"
#include "forces.h"
#include "frame_globals.h"
#include "integrate.h"
#include "lighting.h"
#include "lut.h"
#include "mesh.h"
#include "oit.h"
#include "opaque_geometry.h"
#include "random.h"
#include "sd_math.h"
#include "shape.h"
#include "shared_types.h"
#include "strip.h"
#include "strip_draw.h"
#include "mesh/mesh_vertex.h"
#include "sub_emitter.h"
#include "threshold.h"
#include "transform.h"

layout(local_size_x = 64) in;

// One buffer per shared record, so the SPIR-V carries each record's std430 layout (offsets and
// array strides) for tests/vulkan/shader_layout_test.cpp to compare with C++.
layout(std430, set = 0, binding = 0) readonly buffer EffectRecords { EffectRecord effect_records[]; };
layout(std430, set = 0, binding = 1) readonly buffer EmitterRecords { EmitterRecord emitter_records[]; };
layout(std430, set = 0, binding = 2) readonly buffer OpRecords { OpRecord op_records[]; };
layout(std430, set = 0, binding = 3) readonly buffer BurstRecords { BurstRecord burst_records[]; };
layout(std430, set = 0, binding = 4) readonly buffer ColliderRecords { ColliderRecord collider_records[]; };
layout(std430, set = 0, binding = 5) readonly buffer ForceFieldRecords { ForceFieldRecord force_field_records[]; };
layout(std430, set = 0, binding = 6) readonly buffer MeshPointRecords { MeshPointRecord mesh_point_records[]; };
layout(std430, set = 0, binding = 7) readonly buffer SubEmitterRecords { SubEmitterRecord sub_emitter_records[]; };
layout(std430, set = 0, binding = 8) readonly buffer DrawRecords { DrawRecord draw_records[]; };
layout(std430, set = 0, binding = 9) readonly buffer OpaqueDraws { OpaqueDraw opaque_draws[]; };
layout(std430, set = 0, binding = 10) readonly buffer BillboardPushes { BillboardPushConstants billboard_pushes[]; };
layout(std140, set = 0, binding = 11) uniform Frame { FrameGlobals frame; };
layout(std430, set = 0, binding = 12) writeonly buffer Sink { uint sink[]; };
layout(std430, set = 0, binding = 13) readonly buffer StripPoints { StripPoint strip_points[]; };
layout(std430, set = 0, binding = 14) readonly buffer StripPushes { StripPushConstants strip_pushes[]; };
layout(std430, set = 0, binding = 15) readonly buffer BeamCurves { BeamCurve beam_curves[]; };
layout(std430, set = 0, binding = 16) readonly buffer MeshVertices { MeshVertex mesh_vertices[]; };
layout(std430, set = 0, binding = 17) readonly buffer MeshPushes { MeshPushConstants mesh_pushes[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    sink[i] = effect_records[i].seed + emitter_records[i].capacity + op_records[i].op +
              burst_records[i].count_min + collider_records[i].kind + uint(force_field_records[i].strength) +
              uint(mesh_point_records[i].position.x) + sub_emitter_records[i].emitter +
              draw_records[i].emitter_index + opaque_draws[i].kind +
              billboard_pushes[i].params.alignment + uint(frame.viewport.x) +
              uint(strip_points[i].tangent_u.w) + strip_pushes[i].params.blend +
              beam_curves[i].segments + uint(mesh_vertices[i].normal_v.x) +
              mesh_pushes[i].params.vertex_count;
}
