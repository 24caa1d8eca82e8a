// Automatic exposure, step 1: the log-luminance histogram of the frame (sdHistogramBin, post.h),
// counted per workgroup in shared memory and added to the buffer's bins (cleared before).
#version 460
#include "post_common.glsl"

layout(local_size_x = kHistogramGroupSize, local_size_y = kHistogramGroupSize) in;

layout(set = kSetPost, binding = kBindingPostTarget, rgba16f) uniform readonly image2D frame;

shared uint local_bins[kHistogramBins];

void main() {
    local_bins[gl_LocalInvocationIndex] = 0u;
    barrier();
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (all(lessThan(pixel, uvec2(imageSize(frame))))) {
        vec3 c = sdPostSanitize(imageLoad(frame, ivec2(pixel)).rgb);
        atomicAdd(local_bins[sdHistogramBin(sdLuminance(c))], 1u);
    }
    barrier();
    uint count = local_bins[gl_LocalInvocationIndex];
    if (count != 0u) atomicAdd(PostBufferRef(pc.state.xy).bins[gl_LocalInvocationIndex], count);
}
