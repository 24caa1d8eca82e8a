// Camera motion (docs/rendering.md, "Motion vectors"; the maths: src/render/shader/motion.h):
// the motion target's first pass, a full-screen triangle (oit_composite.vert). Every pixel's
// opaque surface (the linear depth of the opaque pass and opaque meshes; the background lies at
// kSceneDepthCleared, far enough that only the camera's turn moves it) is reprojected with the
// previous camera. No previous camera: 0 everywhere.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "frame_bindings.glsl"
#include "motion.h"

layout(set = kSetFrame, binding = kBindingSceneDepth) uniform sampler2D scene_depth;

layout(location = 0) out vec2 out_motion;

void main() {
    MotionGlobals m = frame.motion;
    if (m.params.z == 0.0) {
        out_motion = vec2(0.0);
        return;
    }
    float depth = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
    vec2 viewport = frame.viewport.xy;
    vec3 p = sdMotionWorldPoint(gl_FragCoord.xy, viewport, depth, frame.eye.xyz,
                                frame.camera_right.xyz, frame.camera_up.xyz,
                                frame.camera_forward.xyz, m.view_tan.xy);
    vec4 clip = sdMotionClip(m.previous_clip_from_world_c0, m.previous_clip_from_world_c1,
                             m.previous_clip_from_world_c2, m.previous_clip_from_world_c3, p);
    out_motion = sdMotionOutput(m, sdMotionPixels(gl_FragCoord.xy, clip, viewport));
}
