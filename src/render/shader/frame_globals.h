// What every render pass reads about the frame: the camera, the lights and the viewport, one
// uniform buffer per frame; and the descriptor binding numbers both the shaders and the renderer
// use (STYLE: binding numbers come from the shared header).
//
// FROZEN: FrameGlobals is a std140 uniform block (all vec4, so std140 == std430 == C++ offsets).
#ifndef SPINDRIFT_RENDER_SHADER_FRAME_GLOBALS_H
#define SPINDRIFT_RENDER_SHADER_FRAME_GLOBALS_H

#include "kernels/effect_records.h"
#include "kernels/shared_types.h"
#include "lighting.h"
#include "local_shadow.h"
#include "motion.h"
#include "shadow.h"

SD_BEGIN_NAMESPACE

// Descriptor set 0: per frame. Set 1: the batch's texture.
SD_CONST uint kSetFrame = 0u;
SD_CONST uint kBindingFrameGlobals = 0u; // uniform FrameGlobals (every stage)
SD_CONST uint kBindingSceneDepth = 1u;   // R32 linear view depth of the opaque pass (billboards)
// Sun shadows (shadow.h), read by the receivers (shaders that define SD_SUN_SHADOWS before
// including frame_bindings.glsl): the cascade atlas through a comparison sampler, and the opacity
// map. 4 and 5: the compute rasteriser's frame set has its own binding 2 (kBindingRasterFrame).
SD_CONST uint kBindingShadowAtlas = 4u;
SD_CONST uint kBindingShadowOpacity = 5u;
// The frame's colour as it was before the distortion phase (render/distortion_pass.h), read by
// distortion billboards only; bound once a frame has drawn one.
SD_CONST uint kBindingSceneColor = 6u;
// The local lights' shadow atlas (local_shadow.h), through a comparison sampler; read by the same
// receivers as the sun's maps.
SD_CONST uint kBindingLocalShadowAtlas = 7u;
// The local lights' opacity atlas (local_shadow.h: the blended particles' optical depth in each
// tile's slices), through the linear sampler; read by the same receivers.
SD_CONST uint kBindingLocalShadowOpacity = 8u;
SD_CONST uint kSetTexture = 1u;
SD_CONST uint kBindingTexture = 0u; // the batch's RGBA8 sRGB texture, linear filter, clamp

// The linear depth attachment is cleared to this where no opaque surface is: far beyond any
// scene, so the soft fade is 1 against the background.
SD_CONST float kSceneDepthCleared = kSceneDepthNone; // effect_records.h: what depth collision reads

struct FrameGlobals {
    // clip_from_world = projection * view, as four columns (GLSL mat4(c0, c1, c2, c3)).
    // Right-handed world, Y up; Vulkan clip space (y down, depth 0 at near, 1 at far).
    vec4 clip_from_world_c0;
    vec4 clip_from_world_c1;
    vec4 clip_from_world_c2;
    vec4 clip_from_world_c3;
    vec4 eye;            // xyz camera position; w near plane (m)
    vec4 camera_right;   // xyz unit; w far plane (m)
    vec4 camera_up;      // xyz unit (the image's up)
    vec4 camera_forward; // xyz unit view direction; linear depth = dot(p - eye, forward)
    vec4 sun_direction;  // xyz unit, toward the sun
    vec4 sun_radiance;   // rgb colour * intensity
    vec4 ambient;        // rgb
    vec4 viewport;       // width, height, 1 / width, 1 / height (pixels)
    uvec4 light_count;   // x: the lights in use, at most kMaxFrameLights; yzw 0
    FrameLight lights[kMaxFrameLights]; // point and spot lights (lighting.h), first x in use
    FrameShadows shadows;               // sun shadows (shadow.h); config.x 0: none
    // Light cluster masks (lighting.h, sdLightCluster): cluster 2i in .xy, 2i + 1 in .zw, each a
    // 64-bit mask (bit k: lights[k], low word first) of the lights reaching into the cluster.
    uvec4 light_clusters[kLightClusterCount / 2u];
    AmbientSh ambient_sh; // the sky light (lighting.h, sdShAmbient), added to ambient
    // The previous camera and the particles' motion rule (motion.h); read only by frames that
    // draw motion vectors.
    MotionGlobals motion;
    FrameLocalShadows local_shadows; // local lights' shadows (local_shadow.h); config.x 0: none
};

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(FrameLight, 48);
SD_ASSERT_RECORD(FrameShadows, 16 * (4 * kShadowCascadeCapacity + 9));
SD_ASSERT_RECORD(FrameGlobals, 208 + 48 * kMaxFrameLights + sizeof(FrameShadows) +
                                   8 * kLightClusterCount + 16 * 9 + sizeof(MotionGlobals) +
                                   sizeof(FrameLocalShadows));
static_assert(offsetof(FrameGlobals, eye) == 64);
static_assert(offsetof(FrameGlobals, viewport) == 176);
static_assert(offsetof(FrameGlobals, light_count) == 192);
static_assert(offsetof(FrameGlobals, lights) == 208);
static_assert(offsetof(FrameGlobals, shadows) == 208 + 48 * kMaxFrameLights);
static_assert(offsetof(FrameShadows, cascade_far) == 256);
static_assert(offsetof(FrameShadows, config) == 320);
static_assert(offsetof(FrameShadows, opacity_c) == 336);
static_assert(offsetof(FrameGlobals, light_clusters) ==
              208 + 48 * kMaxFrameLights + sizeof(FrameShadows));
static_assert(offsetof(FrameGlobals, ambient_sh) ==
              208 + 48 * kMaxFrameLights + sizeof(FrameShadows) + 8 * kLightClusterCount);
static_assert(offsetof(FrameGlobals, motion) ==
              208 + 48 * kMaxFrameLights + sizeof(FrameShadows) + 8 * kLightClusterCount + 16 * 9);
static_assert(offsetof(FrameGlobals, local_shadows) ==
              208 + 48 * kMaxFrameLights + sizeof(FrameShadows) + 8 * kLightClusterCount + 16 * 9 +
                  sizeof(MotionGlobals));
// Every mask bit names a light: 64 bits, kMaxFrameLights lights.
static_assert(kMaxFrameLights == 64);
// Every device gives a uniform buffer at least 16 KiB (maxUniformBufferRange).
static_assert(sizeof(FrameGlobals) <= 16384);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_FRAME_GLOBALS_H
