// Billboards, vertex-pulled: no vertex buffer. Vertex i of a draw is corner i % 6 of the quad
// of record i / 6 (or of record order[i / 6] when the batch has a device-sorted order), read
// through the batch's buffer device address (push constants): one run of records, or a GPU
// emitter's records over its draw-record chunks (draw_record_fetch.glsl).
// Built twice (shaders/CMakeLists.txt): plain, and with SD_PARTICLE_LIGHT for lit billboards
// lit per particle (kBillboardLitPerParticle), which gathers the particle's lights here, once
// per triangle, instead of once per pixel (frameParticleLight) and so reads the sun's shadow maps;
// the plain build binds nothing past the frame block (the shadow casters draw with it too).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "billboard.h"
#include "billboard_variant.glsl"
#ifdef SD_PARTICLE_LIGHT
#define SD_SUN_SHADOWS 1 // the particle's light takes the sun's shadow (frame_bindings.glsl)
#endif
#include "frame_bindings.glsl"
#include "draw_record_fetch.glsl"
#include "particle_light_pack.glsl"

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer OrderRef {
    uint indices[];
};

layout(location = 0) out vec2 out_corner;
layout(location = 1) flat out vec4 out_color;
layout(location = 2) flat out float out_frame;
layout(location = 3) out float out_linear_depth;
layout(location = 4) flat out vec3 out_axis_x;
layout(location = 5) flat out vec3 out_axis_y;
layout(location = 6) flat out vec3 out_facing;
layout(location = 7) out vec3 out_world_position;
layout(location = 8) flat out vec2 out_size_m;
// Lit per particle: ParticleLight (lighting.h), gathered at the quad's centre; else 0.
layout(location = 9) flat out uvec3 out_light_first; // sdPackParticleLight's halves
layout(location = 10) flat out uvec3 out_light_second;
// The motion variant only (kVariantMotion): the record's velocity (m/s, world space).
layout(location = 11) flat out vec3 out_velocity;

void main() {
    uint record_index = uint(gl_VertexIndex) / kBillboardVerticesPerQuad;
    if (push.order.xy != uvec2(0u)) record_index = OrderRef(push.order.xy).indices[record_index];
    vec2 corner = sdQuadCorner(uint(gl_VertexIndex) % kBillboardVerticesPerQuad);
    DrawRecord r = sdOverriddenRecord(
        fetchDrawRecord(push.records.xy, push.records.z, push.records.w, record_index),
        push.overrides);

    vec3 eye = frame.eye.xyz;
    BillboardQuad q = sdBillboardQuad(r, variantParams(), eye, frame.camera_right.xyz,
                                      frame.camera_up.xyz);
    vec3 p = sdQuadPoint(q, corner);
    gl_Position = clipFromWorld() * vec4(p, 1.0);

    out_corner = corner;
    out_color = r.color;
    out_frame = r.flipbook_frame;
    out_linear_depth = linearDepth(p);
    out_axis_x = vec3(0.0);
    out_axis_y = vec3(0.0);
    out_facing = vec3(0.0);
    out_world_position = p;
    out_size_m = 2.0 * vec2(length(q.half_x), length(q.half_y));
    out_velocity = kVariantMotion != 0u ? r.velocity_rotation.xyz : vec3(0.0);
    // Lit quads shade with the axes; distortion quads displace along them (size_m scales them).
    if (kVariantLit != 0u || kVariantDistortion != 0u) {
        out_axis_x = sdUnitOr(q.half_x, frame.camera_right.xyz);
        out_axis_y = sdUnitOr(q.half_y, frame.camera_up.xyz);
        out_facing = sdQuadFacing(q, eye);
    }
    ParticleLight light = sdParticleLightAmbient(vec3(0.0));
#ifdef SD_PARTICLE_LIGHT
    // Flat outputs come from each triangle's provoking vertex, its first in Vulkan (no pipeline
    // here asks for another): corners 0 and 3 of the quad. The other four skip the gather, whose
    // value the fragment stage would never see.
    uint quad_vertex = uint(gl_VertexIndex) % kBillboardVerticesPerQuad;
    if (kVariantLit == kBillboardLitPerParticle && quad_vertex % 3u == 0u) {
        light = frameParticleLight(q.center, out_facing);
    }
#endif
    sdPackParticleLight(light, out_light_first, out_light_second);
}
