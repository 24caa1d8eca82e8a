// The final post pass, in place on the frame: bloom mixed in, exposure, tone map (sdPostPixel,
// post.h). The readback then encodes the result to 8-bit sRGB.
#version 460
#include "post_common.glsl"

layout(local_size_x = kPostGroupSize, local_size_y = kPostGroupSize) in;

layout(set = kSetPost, binding = kBindingPostTarget, rgba16f) uniform image2D frame;
layout(set = kSetPost, binding = kBindingPostSecond) uniform sampler2D bloom;

vec3 tap(vec2 uv, float x, float y) {
    return textureLod(bloom, uv + vec2(x, y) * pc.texel.xy, 0.0).rgb;
}

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(pixel, uvec2(imageSize(frame))))) return;
    vec3 levels_sum = vec3(0.0);
    uint levels = pc.mode.w;
    if (levels != 0u) {
        vec2 uv = postUv(pixel);
        levels_sum = sdBloomTent(tap(uv, -1.0, -1.0), tap(uv, 0.0, -1.0), tap(uv, 1.0, -1.0),
                                 tap(uv, -1.0, 0.0), tap(uv, 0.0, 0.0), tap(uv, 1.0, 0.0),
                                 tap(uv, -1.0, 1.0), tap(uv, 0.0, 1.0), tap(uv, 1.0, 1.0));
    }
    float exposure = pc.values.x;
    if (pc.mode.z != 0u) exposure = PostBufferRef(pc.state.xy).state.scale;
    vec3 c = sdPostPixel(imageLoad(frame, ivec2(pixel)).rgb, levels_sum, levels, pc.values.y,
                         exposure, pc.mode.y);
    imageStore(frame, ivec2(pixel), vec4(c, 1.0));
}
