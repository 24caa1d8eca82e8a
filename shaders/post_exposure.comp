// Automatic exposure, step 2: one invocation walks the histogram (sdHistogramAccumulate, post.h),
// adapts the previous frame's value toward this frame's (sdAdaptLog2) and stores the state the
// final pass reads.
#version 460
#include "post_common.glsl"

layout(local_size_x = 1) in;

void main() {
    PostBufferRef b = PostBufferRef(pc.state.xy);
    float lit = 0.0;
    for (uint bin = 1u; bin < kHistogramBins; ++bin) lit += float(b.bins[bin]);
    float low = lit * pc.range.z;
    float high = lit * pc.range.w;
    float before = 0.0;
    float sum = 0.0;
    float weight = 0.0;
    for (uint bin = 1u; bin < kHistogramBins; ++bin) {
        sdHistogramAccumulate(bin, float(b.bins[bin]), low, high, before, sum, weight);
    }
    float target_log2 = sdHistogramTargetLog2(sum, weight, pc.range.x, pc.range.y);
    float adapted = sdAdaptLog2(b.state.adapted_log2, target_log2, pc.values.z, pc.values.w);
    b.state.adapted_log2 = adapted;
    b.state.target_log2 = target_log2;
    b.state.scale = sdAutoExposureScale(adapted, pc.values.x);
}
