// The per-frame uniform block every entry point reads (set kSetFrame, binding
// kBindingFrameGlobals; the layout is FrameGlobals in src/render/shader/frame_globals.h).
#ifndef SPINDRIFT_SHADERS_FRAME_BINDINGS_GLSL
#define SPINDRIFT_SHADERS_FRAME_BINDINGS_GLSL

#include "frame_globals.h"

layout(std140, set = kSetFrame, binding = kBindingFrameGlobals) uniform FrameBlock {
    FrameGlobals frame;
};

mat4 clipFromWorld() {
    return mat4(frame.clip_from_world_c0, frame.clip_from_world_c1, frame.clip_from_world_c2,
                frame.clip_from_world_c3);
}

// The light of the frame's point and spot lights at surface point p of unit normal n (lighting.h,
// sdLocalLight), summed; it adds to sdSunAmbient's. Only the lights of p's cluster are visited
// (render/light_clusters.h bins them on the host, conservatively: a light that reaches p is in
// p's cluster). Mask bits past the light count are never set; the index is clamped again so a
// bad upload cannot read past the array.
vec3 frameLocalLights(vec3 n, vec3 p) {
    vec3 sum = vec3(0.0);
    if (frame.light_count.x == 0u) return sum;
    vec4 clip = clipFromWorld() * vec4(p, 1.0);
    vec2 ndc = clip.xy / max(clip.w, 1.0e-6);
    uint cluster = sdLightCluster(ndc, clip.w, frame.camera_right.w);
    uvec4 pair = frame.light_clusters[cluster >> 1u];
    uvec2 mask = (cluster & 1u) != 0u ? pair.zw : pair.xy;
    for (uint word = 0u; word < 2u; ++word) {
        uint bits = word == 0u ? mask.x : mask.y;
        while (bits != 0u) {
            uint i = min(word * 32u + uint(findLSB(bits)), kMaxFrameLights - 1u);
            bits &= bits - 1u;
            sum += sdLocalLight(n, p, frame.lights[i]);
        }
    }
    return sum;
}

// The whole light model at p: sun, ambient, the sky light and the frame's lights.
vec3 frameLight(vec3 n, vec3 p) {
    return sdSunAmbient(n, frame.sun_direction.xyz, frame.sun_radiance.xyz, frame.ambient.xyz) +
           sdShAmbient(n, frame.ambient_sh) + frameLocalLights(n, p);
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
