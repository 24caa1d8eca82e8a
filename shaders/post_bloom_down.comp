// Bloom, one level of the downward chain: the 13-tap downsample of the level above (the frame
// itself for the first level, with Karis's average) into this level (sdBloomDown, post.h).
#version 460
#include "post_common.glsl"

layout(local_size_x = kPostGroupSize, local_size_y = kPostGroupSize) in;

layout(set = kSetPost, binding = kBindingPostSource) uniform sampler2D source;
layout(set = kSetPost, binding = kBindingPostTarget, rgba16f) uniform writeonly image2D target;

vec3 tap(vec2 uv, float x, float y) {
    return sdPostSanitize(textureLod(source, uv + vec2(x, y) * pc.texel.xy, 0.0).rgb);
}

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(pixel, uvec2(imageSize(target))))) return;
    vec2 uv = postUv(pixel);
    vec3 c = sdBloomDown(tap(uv, -2.0, -2.0), tap(uv, 0.0, -2.0), tap(uv, 2.0, -2.0),
                         tap(uv, -2.0, 0.0), tap(uv, 0.0, 0.0), tap(uv, 2.0, 0.0),
                         tap(uv, -2.0, 2.0), tap(uv, 0.0, 2.0), tap(uv, 2.0, 2.0),
                         tap(uv, -1.0, -1.0), tap(uv, 1.0, -1.0), tap(uv, -1.0, 1.0),
                         tap(uv, 1.0, 1.0), pc.mode.x != 0u);
    imageStore(target, ivec2(pixel), vec4(c, 1.0));
}
