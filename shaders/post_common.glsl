// What every post pass declares (src/render/shader/post.h): the push constants, the one
// descriptor set's bindings a pass uses, and bilinear taps of the sampled source.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "post.h"

layout(push_constant, std430) uniform Push { PostPush pc; };

// The histogram bins and, kPostStateOffsetBytes in, the exposure state.
layout(buffer_reference, std430, buffer_reference_align = 16) buffer PostBufferRef {
    uint bins[kHistogramBins];
    PostState state;
};

// The destination pixel's centre in [0, 1] texture coordinates.
vec2 postUv(uvec2 pixel) {
    return (vec2(pixel) + 0.5) * pc.texel.zw;
}
