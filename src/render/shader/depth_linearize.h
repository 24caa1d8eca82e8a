// The host frame's depth linearisation (docs/host-vulkan.md): the host's depth buffer, written
// with Spindrift's projection (viewGlobals: depth 0 at near, 1 at far), becomes the linear view
// depth the soft fade reads, as the opaque pass writes it in the offscreen frame.
#ifndef SPINDRIFT_RENDER_SHADER_DEPTH_LINEARIZE_H
#define SPINDRIFT_RENDER_SHADER_DEPTH_LINEARIZE_H

#include "kernels/shared_types.h"
#include "render/shader/frame_globals.h"

SD_BEGIN_NAMESPACE

// The pass's one descriptor set: the host's depth, read with texelFetch.
SD_CONST uint kSetDepthLinearize = 0u;
SD_CONST uint kBindingHostDepth = 0u;

struct DepthLinearizePushConstants {
    vec4 planes; // near (m), far (m), unused, unused
};

// Linear view depth (metres along the view direction) of a depth-buffer value d written with
// viewGlobals' projection: its z row gives d = far / (far - near) - near far / ((far - near) L),
// so L = near far / (far - d (far - near)). d >= 1 (the far plane, or the host's clear) has no
// surface: kSceneDepthCleared, as the offscreen frame's linear depth is cleared.
SD_FUNC float sdLinearFromDepth(float d, float near_m, float far_m) {
    if (d >= 1.0f) return kSceneDepthCleared;
    return near_m * far_m / (far_m - d * (far_m - near_m));
}

// The inverse: the depth-buffer value viewGlobals' projection gives a point at linear depth
// linear_m (> 0), 1 (the cleared far plane) at or past the far plane and for kSceneDepthCleared.
// The half-resolution particles' depth downsample writes it (render/shader/half_res.h).
SD_FUNC float sdDepthFromLinear(float linear_m, float near_m, float far_m) {
    if (linear_m >= far_m) return 1.0f;
    return far_m / (far_m - near_m) - near_m * far_m / ((far_m - near_m) * linear_m);
}

SD_END_NAMESPACE

#ifdef __cplusplus
namespace spindrift {
SD_ASSERT_RECORD(DepthLinearizePushConstants, 16);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_DEPTH_LINEARIZE_H
