// Half-resolution particles (docs/rendering.md, "Half-resolution particles";
// render/half_res_pass.h): the maths of the depth downsample and of the depth-aware upsample,
// one text for the shaders (half_res_downsample.frag, half_res_upsample.frag) and the tests.
//
// Half-size texel (i, j) stands for the full-resolution block (2i..2i+1, 2j..2j+1). Its linear
// depth is the block's nearest (minimum): an opaque edge through a block hides what is behind it
// there, however thin the occluder, so no particle behind an edge is ever drawn into a texel the
// occluder is in (a farthest-depth downsample would draw it there, and a 1-pixel pole in front of
// smoke would vanish under it). The upsample then gives each full-resolution pixel the half-size
// texels whose depth matches its own: a pixel of the background beside the edge takes its
// particles from the neighbouring texels that saw the background, and a pixel of the occluder
// takes the edge texel, which holds no particle from behind it.
#ifndef SPINDRIFT_RENDER_SHADER_HALF_RES_H
#define SPINDRIFT_RENDER_SHADER_HALF_RES_H

#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// The downsample's set: the full-resolution linear depth. The upsample's set: the half-size
// particle colour, the half-size linear depth and the full-resolution linear depth. All read with
// texelFetch.
SD_CONST uint kSetHalfRes = 0u;
SD_CONST uint kBindingHalfResFullDepth = 0u;
SD_CONST uint kBindingHalfResColor = 1u;
SD_CONST uint kBindingHalfResDepth = 2u;

// A neighbour's linear depth "matches" a pixel's when it is within this share of the pixel's
// depth. 10 %: a surface seen at up to ~84 degrees from its normal changes depth by less between
// two half-size texels at 1 m per 50 px, while an occluder's edge in front of its background is
// a jump of more than that in every scene worth splitting (a floor 10 % behind a box's face).
SD_CONST float kHalfResDepthTolerance = 0.1f;

struct HalfResPushConstants {
    vec4 planes; // near (m), far (m), unused, unused: the downsample's depth from linear depth
    uvec4 size;  // full width, full height, half width, half height (pixels)
};

// The half-size linear depth of a block from its four full-resolution depths: the nearest.
SD_FUNC float sdHalfResDownsample(vec4 block_depths) {
    return min(min(block_depths.x, block_depths.y), min(block_depths.z, block_depths.w));
}

// The half-size texel coordinate (continuous, texel centres at integers) of full-resolution pixel
// centre `pixel_centre`: half-size texel i's centre is the corner between pixels 2i and 2i + 1.
SD_FUNC vec2 sdHalfResCoord(vec2 pixel_centre) {
    return pixel_centre * 0.5f - vec2(0.5f);
}

// The weights of the four half-size texels around a full-resolution pixel, in the order
// (x0 y0, x1 y0, x0 y1, x1 y1), from the bilinear fraction f of sdHalfResCoord and the texels'
// linear depths: bilinear when every texel's depth matches the pixel's (`depth`, within
// kHalfResDepthTolerance of it: a smooth surface, or the background), else all the weight on the
// texel whose depth is nearest the pixel's (nearest-depth upsampling, Bavoil & Sainz "Multi-layer
// dual-resolution screen-space ambient occlusion", and NVIDIA's off-screen particles sample).
SD_FUNC vec4 sdHalfResUpsampleWeights(vec2 f, vec4 texel_depths, float depth) {
    vec4 diff = abs(texel_depths - vec4(depth));
    float limit = kHalfResDepthTolerance * depth;
    if (max(max(diff.x, diff.y), max(diff.z, diff.w)) <= limit) {
        return vec4((1.0f - f.x) * (1.0f - f.y), f.x * (1.0f - f.y), (1.0f - f.x) * f.y, f.x * f.y);
    }
    // The first of equal differences wins: the same texel on every device.
    vec4 w = vec4(1.0f, 0.0f, 0.0f, 0.0f);
    float best = diff.x;
    if (diff.y < best) {
        best = diff.y;
        w = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    }
    if (diff.z < best) {
        best = diff.z;
        w = vec4(0.0f, 0.0f, 1.0f, 0.0f);
    }
    if (diff.w < best) w = vec4(0.0f, 0.0f, 0.0f, 1.0f);
    return w;
}

SD_END_NAMESPACE

#ifdef __cplusplus
namespace spindrift {
SD_ASSERT_RECORD(HalfResPushConstants, 32);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_HALF_RES_H
