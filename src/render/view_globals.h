// What a FrameView becomes on the GPU: the camera matrices, light and viewport of FrameGlobals
// (src/render/shader/frame_globals.h). One function, so every pass and test sees the same camera.
#pragma once

#include <cstdint>

#include "render/renderer.h"
#include "render/shader/frame_globals.h"

namespace spindrift::render {

// Right-handed, Y-up world; the camera at view.camera.eye looking at its target with its up
// (made perpendicular to the view direction; a degenerate up is replaced by +Z or +Y); vertical
// field of view view.fov_deg; Vulkan clip space: +y down in the image, depth 0 at near_m and 1
// at far_m. The sun direction is normalised (a zero one gives +Y); radiance = colour * intensity.
// The first kMaxFrameLights of view.lights become FrameLights (render/frame_lights.h), binned
// into the light clusters (render/light_clusters.h). With view.motion.enabled the motion block
// (render/shader/motion.h) holds the previous camera's clip_from_world (this camera's when there
// is none) at this frame's near, far and aspect; otherwise it is zero.
FrameGlobals viewGlobals(const FrameView& view, uint32_t width, uint32_t height);

} // namespace spindrift::render
