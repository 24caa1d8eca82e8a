// The light clusters (render/light_clusters.h, with the cluster maths of
// src/render/shader/lighting.h): binning is conservative — every point a light reaches finds the
// light in its cluster, looked up as the shaders do — and it culls: a small light marks a few
// clusters, a light behind the eye or off screen none.
#include <bit>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/random.h"
#include "render/light_clusters.h"
#include "render/view_globals.h"

namespace spindrift::render {
namespace {

constexpr uint32_t kHdWidth = 1280;
constexpr uint32_t kHdHeight = 720;

FrameView cameraAt(Float3 eye, Float3 target, float fov_deg) {
    FrameView view;
    view.camera.eye = eye;
    view.camera.target = target;
    view.camera.up = {0, 1, 0};
    view.fov_deg = fov_deg;
    view.near_m = 0.05f;
    view.far_m = 500.0f;
    return view;
}

// The world point at normalised device coordinates ndc (y down) and linear depth z.
vec3 pointAt(const FrameGlobals& g, vec2 ndc, float z) {
    const float sx =
        length(vec3(g.clip_from_world_c0.x, g.clip_from_world_c1.x, g.clip_from_world_c2.x));
    const float sy =
        length(vec3(g.clip_from_world_c0.y, g.clip_from_world_c1.y, g.clip_from_world_c2.y));
    return vec3(g.eye) + vec3(g.camera_forward) * z + vec3(g.camera_right) * (ndc.x * z / sx) -
           vec3(g.camera_up) * (ndc.y * z / sy);
}

// The cluster mask of p, looked up as frameLocalLights (shaders/frame_bindings.glsl) does.
uint64_t maskAt(const FrameGlobals& g, vec3 p) {
    const vec4 clip = g.clip_from_world_c0 * p.x + g.clip_from_world_c1 * p.y +
                      g.clip_from_world_c2 * p.z + g.clip_from_world_c3;
    const vec2 ndc = vec2(clip) / std::max(clip.w, 1.0e-6f);
    const uint32_t cluster = sdLightCluster(ndc, clip.w, g.camera_right.w);
    const uvec4 pair = g.light_clusters[cluster / 2u];
    const uvec2 mask = cluster % 2u ? uvec2(pair.z, pair.w) : uvec2(pair.x, pair.y);
    return uint64_t{mask.x} | (uint64_t{mask.y} << 32);
}

float random01(uint32_t seed, uint32_t i, uint32_t k) {
    return sdRandom01(sdParticleKey(seed, 0u, i, 0u), k);
}

// Three cameras (level, looking down, wide), 64 lights placed among the visible points with ranges
// from 0.2 to 8 m, 20,000 visible points each: no point a light reaches (distance < range) misses
// the light's bit.
TEST(LightClusters, EveryPointALightReachesFindsItInItsCluster) {
    const FrameView views[] = {cameraAt({0, 1.5f, 6}, {0, 1, 0}, 50),
                               cameraAt({3, 12, 3}, {0, 0, 0}, 35),
                               cameraAt({-2, 0.5f, -1}, {5, 2, -20}, 100)};
    uint32_t seed = 1;
    size_t reached = 0;
    for (const FrameView& view : views) {
        FrameGlobals g = viewGlobals(view, kHdWidth, kHdHeight);
        g.light_count = uvec4(kMaxFrameLights, 0u, 0u, 0u);
        for (uint32_t i = 0; i < kMaxFrameLights; ++i) {
            const vec2 ndc(2.4f * random01(seed, i, 0) - 1.2f, 2.4f * random01(seed, i, 1) - 1.2f);
            const float z = 0.5f + 40.0f * random01(seed, i, 2) * random01(seed, i, 2);
            const float range = 0.2f + 7.8f * random01(seed, i, 3);
            g.lights[i].position_range = vec4(pointAt(g, ndc, z), range);
        }
        binLightClusters(g);
        for (uint32_t k = 0; k < 20000; ++k) {
            const vec2 ndc(2.0f * random01(seed + 100, k, 0) - 1.0f,
                           2.0f * random01(seed + 100, k, 1) - 1.0f);
            const float z = view.near_m + 45.0f * random01(seed + 100, k, 2);
            const vec3 p = pointAt(g, ndc, z);
            const uint64_t mask = maskAt(g, p);
            for (uint32_t i = 0; i < kMaxFrameLights; ++i) {
                const vec4 light = g.lights[i].position_range;
                if (length(vec3(light) - p) >= light.w) continue;
                ++reached;
                ASSERT_TRUE((mask >> i) & 1u)
                    << "light " << i << " at distance " << length(vec3(light) - p) << " of range "
                    << light.w << " is not in the cluster of point " << k;
            }
        }
        ++seed;
    }
    EXPECT_GT(reached, 10000u); // the lights really reach many of the points
}

// A 1 m light 20 m away marks a few clusters of 1,024, a light behind the eye or off to the side
// none, and only lights under the count are binned.
TEST(LightClusters, SmallLightsMarkFewClustersAndHiddenOnesNone) {
    FrameGlobals g = viewGlobals(cameraAt({0, 0, 0}, {0, 0, -1}, 60), kHdWidth, kHdHeight);
    g.light_count = uvec4(3u, 0u, 0u, 0u);
    g.lights[0].position_range = vec4(2, 1, -20, 1);    // ahead: a few clusters
    g.lights[1].position_range = vec4(0, 0, 10, 3);     // behind the eye
    g.lights[2].position_range = vec4(-100, 0, -10, 5); // far off to the left
    g.lights[3].position_range = vec4(0, 0, -5, 50);    // past the count: never binned
    binLightClusters(g);
    uint64_t marked[4] = {};
    for (uint32_t c = 0; c < kLightClusterCount; ++c) {
        const uvec4 pair = g.light_clusters[c / 2u];
        const uint64_t mask = c % 2u ? (uint64_t{pair.z} | (uint64_t{pair.w} << 32))
                                     : (uint64_t{pair.x} | (uint64_t{pair.y} << 32));
        for (int i = 0; i < 4; ++i) marked[i] += (mask >> i) & 1u;
    }
    EXPECT_GE(marked[0], 1u);
    EXPECT_LE(marked[0], 12u);
    EXPECT_EQ(marked[1], 0u);
    EXPECT_EQ(marked[2], 0u);
    EXPECT_EQ(marked[3], 0u);
    EXPECT_EQ(lightClusterPairs(g), marked[0]);
}

// Slices: everything nearer than kLightClusterNear_m in slice 0, the far plane in the last, and
// depth order kept.
TEST(LightClusters, SlicesRunFromTheEyeToTheFarPlane) {
    EXPECT_EQ(sdLightClusterSlice(0.5f, 500.0f), 0u);
    EXPECT_EQ(sdLightClusterSlice(1.01f, 500.0f), 1u);
    EXPECT_EQ(sdLightClusterSlice(500.0f, 500.0f), kLightClusterSlices - 1u);
    EXPECT_EQ(sdLightClusterSlice(1.0e9f, 500.0f), kLightClusterSlices - 1u);
    uint32_t last = 0;
    for (float z = 0.05f; z < 500.0f; z *= 1.1f) {
        const uint32_t s = sdLightClusterSlice(z, 500.0f);
        EXPECT_GE(s, last);
        last = s;
    }
    EXPECT_EQ(sdLightClusterTile(-1.0f, 16u), 0u);
    EXPECT_EQ(sdLightClusterTile(1.0f, 16u), 15u);
    EXPECT_EQ(sdLightClusterTile(-5.0f, 16u), 0u);
    EXPECT_EQ(sdLightClusterTile(0.01f, 16u), 8u);
}

} // namespace
} // namespace spindrift::render
