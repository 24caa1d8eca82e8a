#include "render/light_clusters.h"

#include <algorithm>
#include <bit>

namespace spindrift::render {

namespace {

// Of a/z over a in [a0, a1] and z in [z0, z1] (0 < z0 <= z1): the smallest and the largest, both
// at corners of the box.
float smallestRatio(float a0, float z0, float z1) {
    return a0 >= 0.0f ? a0 / z1 : a0 / z0;
}
float largestRatio(float a1, float z0, float z1) {
    return a1 >= 0.0f ? a1 / z0 : a1 / z1;
}

// Slack on the projected bounds, so float rounding between this and the shader's own projection
// of a point never moves the point out of the marked clusters.
constexpr float kNdcSlack = 1.0e-3f;
constexpr float kDepthSlack = 1.0e-3f;

void setBit(FrameGlobals& g, uint32_t cluster, uint32_t light) {
    uvec4& pair = g.light_clusters[cluster / 2u];
    const uint32_t word = (cluster % 2u) * 2u + light / 32u;
    pair[static_cast<int>(word)] |= 1u << (light % 32u);
}

} // namespace

void binLightClusters(FrameGlobals& g) {
    for (uvec4& pair : g.light_clusters) pair = uvec4(0u);
    const vec3 eye(g.eye);
    const vec3 right(g.camera_right);
    const vec3 up(g.camera_up);
    const vec3 forward(g.camera_forward);
    const float near_m = g.eye.w;
    const float far_m = g.camera_right.w;
    // The projection's scales: the lengths of clip_from_world's x and y rows.
    const float sx =
        length(vec3(g.clip_from_world_c0.x, g.clip_from_world_c1.x, g.clip_from_world_c2.x));
    const float sy =
        length(vec3(g.clip_from_world_c0.y, g.clip_from_world_c1.y, g.clip_from_world_c2.y));
    const uint32_t count = std::min<uint32_t>(g.light_count.x, kMaxFrameLights);
    for (uint32_t i = 0; i < count; ++i) {
        const vec3 d = vec3(g.lights[i].position_range) - eye;
        const float r = g.lights[i].position_range.w;
        const float x = dot(right, d);
        const float y = dot(up, d);
        const float z = dot(forward, d);
        float z0 = z - r;
        float z1 = z + r;
        if (z1 <= near_m || z0 >= far_m) continue; // wholly before the near or past the far plane
        z0 = std::max(z0, near_m);
        z1 = std::min(z1, far_m);
        // Clip x = sx * x, clip y = -sy * y (the image's y runs down), w = z.
        const float x_low = sx * smallestRatio(x - r, z0, z1) - kNdcSlack;
        const float x_high = sx * largestRatio(x + r, z0, z1) + kNdcSlack;
        const float y_low = -sy * largestRatio(y + r, z0, z1) - kNdcSlack;
        const float y_high = -sy * smallestRatio(y - r, z0, z1) + kNdcSlack;
        if (x_low > 1.0f || x_high < -1.0f || y_low > 1.0f || y_high < -1.0f) continue;
        const uint32_t c0 = sdLightClusterTile(x_low, kLightClusterColumns);
        const uint32_t c1 = sdLightClusterTile(x_high, kLightClusterColumns);
        const uint32_t r0 = sdLightClusterTile(y_low, kLightClusterRows);
        const uint32_t r1 = sdLightClusterTile(y_high, kLightClusterRows);
        const uint32_t s0 = sdLightClusterSlice(z0 * (1.0f - kDepthSlack), far_m);
        const uint32_t s1 = sdLightClusterSlice(z1 * (1.0f + kDepthSlack), far_m);
        for (uint32_t s = s0; s <= s1; ++s) {
            for (uint32_t row = r0; row <= r1; ++row) {
                for (uint32_t column = c0; column <= c1; ++column) {
                    setBit(g, (s * kLightClusterRows + row) * kLightClusterColumns + column, i);
                }
            }
        }
    }
}

uint64_t lightClusterPairs(const FrameGlobals& g) {
    uint64_t pairs = 0;
    for (const uvec4& pair : g.light_clusters) {
        for (int w = 0; w < 4; ++w) pairs += static_cast<uint64_t>(std::popcount(pair[w]));
    }
    return pairs;
}

} // namespace spindrift::render
