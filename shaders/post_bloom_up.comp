// Bloom, one level of the upward chain: this level's downsample plus the tent-filtered level
// below it (sdBloomTent, sdBloomUp, post.h).
#version 460
#include "post_common.glsl"

layout(local_size_x = kPostGroupSize, local_size_y = kPostGroupSize) in;

layout(set = kSetPost, binding = kBindingPostSource) uniform sampler2D below;
layout(set = kSetPost, binding = kBindingPostTarget, rgba16f) uniform writeonly image2D target;
layout(set = kSetPost, binding = kBindingPostSecond) uniform sampler2D down;

vec3 tap(vec2 uv, float x, float y) {
    return textureLod(below, uv + vec2(x, y) * pc.texel.xy, 0.0).rgb;
}

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(pixel, uvec2(imageSize(target))))) return;
    vec2 uv = postUv(pixel);
    vec3 tent = sdBloomTent(tap(uv, -1.0, -1.0), tap(uv, 0.0, -1.0), tap(uv, 1.0, -1.0),
                            tap(uv, -1.0, 0.0), tap(uv, 0.0, 0.0), tap(uv, 1.0, 0.0),
                            tap(uv, -1.0, 1.0), tap(uv, 0.0, 1.0), tap(uv, 1.0, 1.0));
    vec3 own = texelFetch(down, ivec2(pixel), 0).rgb;
    imageStore(target, ivec2(pixel), vec4(sdBloomUp(own, tent), 1.0));
}
