// Strips (ribbons and beams), vertex-pulled: no vertex buffer. Vertex i of a draw is corner i % 6
// of segment i / 6; the segment's first point is points[segments[i / 6]], its second the next
// point (src/kernels/strip.h; drawn by src/render/shader/strip_draw.h), both read through the
// batch's buffer device addresses. Drawn from device blocks (kVariantBlocks: a GPU simulation's
// ribbons, render::DeviceStrips), segment i / 6 is found by sdStripBlockSegment, and a segment
// past its polyline's points is a zero-area triangle pair (every corner at one point outside the
// clip volume). The motion variant (kVariantMotion, strip_motion.frag) hands over the vertex's
// previous clip position: the vertex moved back along its point's velocity (push.velocities).
// A sun shadow caster (kVariantCaster, render/shadow_pass.h) draws with a light's view in the
// frame block and turns each band to face the light: toward the sun in its orthographic views
// (sdStripEye), toward a spot light's position (the view's eye) in its perspective ones.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "strip_draw.h"
#include "strip_variant.glsl"
#include "frame_bindings.glsl"
#include "draw_record_fetch.glsl"
#include "motion.h"

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer StripPointRef {
    StripPoint points[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer SegmentRef {
    uint segments[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer PointCountRef {
    uint counts[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer VelocityRef {
    vec4 velocities[];
};

layout(location = 0) out float out_u;
layout(location = 1) out float out_across;
layout(location = 2) out vec4 out_color;
layout(location = 3) out float out_linear_depth;
layout(location = 4) out vec3 out_side;
layout(location = 5) out vec3 out_facing;
layout(location = 6) out vec3 out_world_position; // lit strips: where the frame's lights shade
// The motion variant only: the vertex's clip position under the previous camera.
layout(location = 7) out vec4 out_previous_clip;

void main() {
    uint segment = uint(gl_VertexIndex) / kStripVerticesPerSegment;
    uint corner = uint(gl_VertexIndex) % kStripVerticesPerSegment;
    uint first;
    uint block = 0u;
    if (kVariantBlocks != 0u) {
        uvec2 at = sdStripBlockSegment(segment, push.points.w);
        uint point_count = PointCountRef(push.segments.xy).counts[at.y];
        if (!sdStripBlockSegmentDrawn(segment, push.points.w, point_count)) {
            gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
            out_u = 0.0;
            out_across = 0.0;
            out_color = vec4(0.0);
            out_linear_depth = 0.0;
            out_side = vec3(0.0);
            out_facing = vec3(0.0);
            out_world_position = vec3(0.0);
            out_previous_clip = vec4(0.0);
            return;
        }
        first = at.x;
        block = at.y;
    } else {
        first = SegmentRef(push.segments.xy).segments[segment];
    }
    StripPointRef points = StripPointRef(push.points.xy);
    StripPoint a = sdOverriddenPoint(points.points[first], push.overrides);
    StripPoint b = sdOverriddenPoint(points.points[first + 1u], push.overrides);
    vec3 eye = sdStripEye(a, b, corner, frame.eye.xyz, frame.camera_forward.xyz,
                          kVariantCaster != 0u && orthographicView());
    StripVertex v = sdStripVertex(a, b, corner, eye, frame.camera_right.xyz, frame.camera_up.xyz,
                                  frame.camera_forward.xyz, pixelScale());
    gl_Position = clipFromWorld() * vec4(v.position, 1.0);

    out_u = v.u;
    out_across = v.across;
    out_color = v.color;
    out_linear_depth = linearDepth(v.position);
    out_side = vec3(0.0);
    out_facing = vec3(0.0);
    out_world_position = v.position;
    if (kVariantLit != 0u) {
        out_side = v.side;
        out_facing = v.facing;
    }
    out_previous_clip = vec4(0.0);
    if (kVariantMotion != 0u) {
        // Host points: the velocity of the point this corner stands on (its end of the segment);
        // device blocks: the polyline's particle's (DrawRecord `block`). The band's shape as now.
        vec3 velocity = vec3(0.0);
        if (push.velocities.xy != uvec2(0u)) {
            velocity = kVariantBlocks != 0u
                           ? fetchDrawRecord(push.velocities.xy, push.velocities.z,
                                             push.velocities.w, block).velocity_rotation.xyz
                           : VelocityRef(push.velocities.xy)
                                 .velocities[first + (sdQuadCorner(corner).x > 0.0 ? 1u : 0u)]
                                 .xyz;
        }
        out_previous_clip = sdMotionPreviousClip(frame.motion, v.position, velocity);
    }
}
