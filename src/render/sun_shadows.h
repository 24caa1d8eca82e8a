// Where the sun's shadow maps look (docs/rendering.md, "Shadows"): the cascades fitted to slices of
// the camera's view depth and the opacity map fitted to the blended billboards, as the FrameShadows
// the receivers read (render/shader/shadow.h) and the sun's views the caster passes draw with. One
// function, called by the renderer each frame and by the tests.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "render/renderer.h"
#include "render/shader/frame_globals.h"

namespace spindrift::render {

// An orthographic view of the sun: what the caster passes draw with, as a FrameGlobals
// (sunViewGlobals).
struct SunView {
    vec4 clip_c[4]{}; // clip_from_world (columns): clip.xy in [-1, 1], clip.z in [0, 1]
    vec3 eye{0.0f};   // on the sun's side of the view's depth range
    vec3 right{1.0f, 0.0f, 0.0f};
    vec3 up{0.0f, 0.0f, 1.0f};
    vec3 forward{0.0f, -1.0f, 0.0f}; // away from the sun
    float depth_m = 1;               // the depth range clip.z spans
    float half_width_m = 1;          // half the side the map covers (x)
    float half_height_m = 1;         // (y)
};

struct SunShadowFit {
    FrameShadows shadows{}; // for the camera's FrameGlobals; config.x 0: no sun shadows
    uint32_t cascades = 0;  // in use (0: none)
    std::array<SunView, kShadowCascadeCapacity> cascade_views{};
    bool opacity = false; // whether the opacity map is drawn
    SunView opacity_view;
    // Blended billboard and strip batches that cast into the opacity map, and whether one of
    // them has its records or points on the device (then the map covers the last cascade's whole
    // extent: the renderer cannot bound records it never reads).
    uint32_t opacity_batches = 0;
    bool opacity_device = false;
    uint32_t cutout_batches = 0; // billboard and strip batches drawn into the cascades as cutouts
};

// The axes across a light's view looking along unit `forward`: right = cross(forward, hint) and
// up = cross(right, forward), hint the world's y (z when forward is within 26 degrees of it). Of
// the light alone, so turning the camera does not turn its maps.
void shadowAxes(vec3 forward, vec3& right, vec3& up);

// Why view.shadows cannot be drawn, or empty: every value in the scene format's range
// (scene_desc.h), all finite.
std::string shadowProblem(const ShadowDesc& shadows);

// Whether a billboard or strip batch casts into the opacity map: it draws something, blends by
// alpha (alpha or premultiplied) and is not a cutout. Additive batches are light and cast nothing.
bool castsOpacityShadow(const BillboardBatch& batch);
bool castsOpacityShadow(const StripBatch& batch);
// Whether it casts a cutout into the cascades' depth map instead: the same, with the emitter's
// render.shadow_cutout (kRenderFlagShadowCutout).
bool castsCutoutShadow(const BillboardBatch& batch);
bool castsCutoutShadow(const StripBatch& batch);
// Either of the two for a batch of any kind (meshes: false; opaque ones cast as opaque casters).
bool castsOpacityShadow(const DrawBatch& batch);
bool castsCutoutShadow(const DrawBatch& batch);
// Whether a batch's records or points stay on the device.
bool onDevice(const DrawBatch& batch);
// How far along unit `forward` from `origin` the opacity casters of `batches` reach (host
// records and strip points as spheres, as the opacity map is fitted to them): +infinity when one
// of them keeps its records or points on the device, -infinity when none casts.
float opacityCasterReach(std::span<const DrawBatch> batches, vec3 origin, vec3 forward);

// The practical split of [near_m, far_m] into `count` cascades (Zhang et al., "Parallel-Split
// Shadow Maps", 2006): split i at mix(uniform, logarithmic, 0.75); far ends, the last at far_m.
std::array<float, kShadowCascadeCapacity> cascadeSplits(float near_m, float far_m, uint32_t count);

// Fits the frame's sun shadows to view (FrameView::shadows, its camera, sun and the frame's
// width x height) and the batches that cast into the opacity map (billboards and strips). Each
// cascade's view covers the bounding sphere of its slice of the camera's frustum (its size does not
// change as the camera turns) with its centre snapped to whole texels in the sun's plane, so the
// shadow of a still object does not shimmer as the camera moves; its depth range reaches back
// toward the sun by the shadow distance, so casters outside the slice still cast into it. No
// shadows (config.x 0) when view.shadows.enabled is false or the sun is below the horizon of
// nothing to light (intensity 0).
SunShadowFit fitSunShadows(const FrameView& view, uint32_t width, uint32_t height,
                           std::span<const DrawBatch> batches);

// The FrameGlobals a caster pass draws with: camera's, with the sun view's matrix, eye and axes in
// place of the camera's, its map's size as the viewport, no lights and no shadows.
FrameGlobals sunViewGlobals(const FrameGlobals& camera, const SunView& view, uint32_t width,
                            uint32_t height);

} // namespace spindrift::render
