// Motion vectors (docs/rendering.md, "Motion vectors"): the maths the motion shaders
// (shaders/motion_camera.frag, billboard_motion.frag, strip_motion.frag and mesh_motion.frag with
// the motion variants of strip.vert and mesh.vert) and the CPU-side tests share, in the C++/GLSL
// subset (shared_types.h), and the frame globals' motion block.
//
// Convention: a pixel's motion is its position in this frame minus the position the same surface
// point had in the previous frame, in pixels of this frame, x to the right and y down (the image's
// row order, as Vulkan's framebuffer). A TAA host reads its history at pixel - motion. Camera
// motion reprojects the opaque scene's depth with the previous camera; a particle's point moved by
// its velocity over the frame interval (previous = position - velocity x interval) and is
// projected with the previous camera.
#ifndef SPINDRIFT_RENDER_SHADER_MOTION_H
#define SPINDRIFT_RENDER_SHADER_MOTION_H

#include "kernels/effect_records.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// FROZEN: part of FrameGlobals (std140, all vec4).
struct MotionGlobals {
    // previous_clip_from_world = the previous frame's projection * view, four columns as
    // FrameGlobals::clip_from_world_c*; the current camera's when the frame has no previous one.
    vec4 previous_clip_from_world_c0;
    vec4 previous_clip_from_world_c1;
    vec4 previous_clip_from_world_c2;
    vec4 previous_clip_from_world_c3;
    // x: the frame interval (s) particles move over; y: the coverage threshold (a particle
    // fragment writes its motion where its alpha is at least this); z: 1 when the frame has a
    // previous camera (else the camera's motion is 0); w: 1 when additive particles write motion.
    vec4 params;
    // x: tan(fov / 2) x aspect, y: tan(fov / 2) of the current camera (view-space x and y per unit
    // of linear depth at the viewport's edge); zw: the output scale (sdMotionOutput).
    vec4 view_tan;
};

// The world point seen at pixel centre `pixel` (pixels, y down) of a viewport_px frame at linear
// depth depth_m (metres along forward) by a camera at eye with unit axes right, up and forward and
// view_tan as MotionGlobals::view_tan.
SD_FUNC vec3 sdMotionWorldPoint(vec2 pixel, vec2 viewport_px, float depth_m, vec3 eye, vec3 right,
                                vec3 up, vec3 forward, vec2 view_tan) {
    vec2 ndc = pixel / viewport_px * 2.0f - vec2(1.0f, 1.0f);
    return eye + right * (ndc.x * view_tan.x * depth_m) - up * (ndc.y * view_tan.y * depth_m) +
           forward * depth_m;
}

// Clip position of world point p under the matrix of columns c0..c3 (clip = M p).
SD_FUNC vec4 sdMotionClip(vec4 c0, vec4 c1, vec4 c2, vec4 c3, vec3 p) {
    return c0 * p.x + c1 * p.y + c2 * p.z + c3;
}

// Where a particle's point `position` was a frame interval ago: moved back along its velocity.
SD_FUNC vec3 sdMotionPreviousPosition(vec3 position, vec3 velocity, float interval_s) {
    return position - velocity * interval_s;
}

// Clip position of a particle's point under the previous camera: where the previous frame saw
// `previous` (a world point already moved back: sdMotionPreviousPosition, or a mesh vertex under
// its previous placement, sdMeshPreviousPlacement). The current camera when the frame has no
// previous one (MotionGlobals), so a moving particle still moves its pixels.
SD_FUNC vec4 sdMotionPreviousClipOf(MotionGlobals m, vec3 previous) {
    return sdMotionClip(m.previous_clip_from_world_c0, m.previous_clip_from_world_c1,
                        m.previous_clip_from_world_c2, m.previous_clip_from_world_c3, previous);
}

// The previous frame's clip position of a particle's point now at `position` moving at
// `velocity` (m/s, world): moved back over the frame's interval, seen by the previous camera. The
// one text every particle motion shader projects with: billboards per fragment, strips and mesh
// particles per vertex (clip positions interpolate exactly: they are linear in the point).
SD_FUNC vec4 sdMotionPreviousClip(MotionGlobals m, vec3 position, vec3 velocity) {
    return sdMotionPreviousClipOf(m, sdMotionPreviousPosition(position, velocity, m.params.x));
}

// The motion (pixels, this frame's minus the previous) of a point now at current_px (pixels) that
// the previous camera saw at clip position previous_clip. A point that was behind the previous
// camera (w <= 0) has no previous pixel: 0.
SD_FUNC vec2 sdMotionPixels(vec2 current_px, vec4 previous_clip, vec2 viewport_px) {
    if (previous_clip.w <= 0.0f) return vec2(0.0f, 0.0f);
    vec2 ndc = vec2(previous_clip.x, previous_clip.y) / previous_clip.w;
    vec2 previous_px = (ndc * 0.5f + vec2(0.5f, 0.5f)) * viewport_px;
    return current_px - previous_px;
}

// What a motion shader writes for a motion of motion_px pixels (sdMotionPixels): scaled per axis
// into the target's convention (MotionGlobals::view_tan.zw: 1 for the pixels of an offscreen frame,
// a host frame's own scale, e.g. 1 / width and 1 / height for UV).
SD_FUNC vec2 sdMotionOutput(MotionGlobals m, vec2 motion_px) {
    return vec2(motion_px.x * m.view_tan.z, motion_px.y * m.view_tan.w);
}

// Whether a particle fragment of coverage `alpha` writes its motion over what is behind it (the
// rule TAA hosts expect: a pixel follows the nearest surface that mostly covers it). Additive
// particles add light and cover nothing: they keep what is behind unless the frame says otherwise.
SD_FUNC bool sdMotionWrites(float alpha, float threshold, bool additive, bool additive_writes) {
    if (additive && !additive_writes) return false;
    return alpha >= threshold;
}

// sdMotionWrites with the frame's settings (MotionGlobals::params) for a fragment of blend mode
// `blend` (kBlend*: additive covers nothing; opaque, alpha 1, always covers).
SD_FUNC bool sdMotionFragmentWrites(MotionGlobals m, float alpha, uint blend) {
    return sdMotionWrites(alpha, m.params.y, blend == kBlendAdditive, m.params.w != 0.0f);
}

SD_END_NAMESPACE

#ifdef __cplusplus
namespace spindrift {
SD_ASSERT_RECORD(MotionGlobals, 96);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_MOTION_H
