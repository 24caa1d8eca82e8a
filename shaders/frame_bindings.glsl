// The per-frame uniform block every entry point reads (set kSetFrame, binding
// kBindingFrameGlobals; the layout is FrameGlobals in src/render/shader/frame_globals.h).
#ifndef SPINDRIFT_SHADERS_FRAME_BINDINGS_GLSL
#define SPINDRIFT_SHADERS_FRAME_BINDINGS_GLSL

#include "frame_globals.h"

layout(std140, set = kSetFrame, binding = kBindingFrameGlobals) uniform FrameBlock {
    FrameGlobals frame;
};

// The light of the frame's point and spot lights at surface point p of unit normal n (lighting.h,
// sdLocalLight), summed; it adds to sdSunAmbient's. The count is clamped again so a bad upload
// cannot index past the array.
vec3 frameLocalLights(vec3 n, vec3 p) {
    vec3 sum = vec3(0.0);
    uint count = min(frame.light_count.x, kMaxFrameLights);
    for (uint i = 0u; i < count; ++i) sum += sdLocalLight(n, p, frame.lights[i]);
    return sum;
}

// The whole light model at p: sun, ambient and the frame's lights.
vec3 frameLight(vec3 n, vec3 p) {
    return sdSunAmbient(n, frame.sun_direction.xyz, frame.sun_radiance.xyz, frame.ambient.xyz) +
           frameLocalLights(n, p);
}

mat4 clipFromWorld() {
    return mat4(frame.clip_from_world_c0, frame.clip_from_world_c1, frame.clip_from_world_c2,
                frame.clip_from_world_c3);
}

// Linear view depth (metres along the view direction), the unit the soft fade compares.
float linearDepth(vec3 world_position) {
    return dot(world_position - frame.eye.xyz, frame.camera_forward.xyz);
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
