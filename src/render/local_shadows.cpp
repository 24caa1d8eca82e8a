#include "render/local_shadows.h"

#include <algorithm>
#include <cmath>

#include "render/frame_lights.h"

namespace spindrift::render {

namespace {

// Adds tile fit.count: the view from `position` along `forward` of half-angle tangent tan_half out
// to far_m, for frame light `light_index`.
void addTile(LocalShadowFit& fit, uint32_t light_index, vec3 position, vec3 forward, float tan_half,
             float far_m, float bias, uint32_t resolution) {
    vec3 right;
    vec3 up;
    shadowAxes(forward, right, up);
    const ShadowProjection m = sdPerspectiveShadowProjection(
        position, right, up, forward, tan_half, far_m * kLocalShadowNearFraction, far_m);
    const uint32_t t = fit.count++;
    SunView& v = fit.views[t];
    v.clip_c[0] = m.c0;
    v.clip_c[1] = m.c1;
    v.clip_c[2] = m.c2;
    v.clip_c[3] = m.c3;
    v.eye = position;
    v.right = right;
    v.up = up;
    v.forward = forward;
    v.depth_m = far_m;
    v.half_width_m = tan_half * far_m;
    v.half_height_m = v.half_width_m;
    FrameLocalShadows& s = fit.shadows;
    for (uint32_t k = 0; k < 4; ++k) s.tile_c[4 * t + k] = v.clip_c[k];
    s.params[t] = vec4(bias, 2.0f * tan_half / static_cast<float>(resolution),
                       1.0f / static_cast<float>(resolution), 0.0f);
    s.lights[t / 4][static_cast<int>(t % 4)] = light_index;
}

} // namespace

LocalShadowFit fitLocalShadows(const FrameView& view, std::span<const DrawBatch> batches) {
    LocalShadowFit fit;
    if (!view.shadows.enabled) return fit;
    const uint32_t resolution =
        std::clamp(view.shadows.resolution, kMinShadowResolution, kMaxShadowResolution);
    const float bias = std::clamp(view.shadows.bias, 0.0f, kMaxShadowBias_m);
    const uint32_t lights = frameLightCounts(view.lights).drawn;
    for (uint32_t i = 0; i < lights; ++i) {
        const LightDesc& light = view.lights[i];
        if (!light.shadows || light.intensity <= 0.0f) continue;
        const bool point = light.type == LightKind::point;
        const uint32_t tiles = point ? kPointShadowFaces : 1u;
        if (fit.count + tiles > kLocalShadowTiles) {
            ++fit.dropped;
            continue;
        }
        const FrameLight f = frameLight(light);
        const vec3 position(f.position_range);
        const float far_m = f.position_range.w;
        if (point) {
            for (uint32_t face = 0; face < kPointShadowFaces; ++face) {
                addTile(fit, i, position, sdCubeFaceForward(face), kPointShadowTanHalfFov, far_m,
                        bias, resolution);
            }
        } else {
            addTile(fit, i, position, vec3(f.direction_cos_outer),
                    sdLocalShadowTanHalfFov(f.direction_cos_outer.w), far_m, bias, resolution);
        }
        ++fit.lights;
    }
    uint32_t opacity_resolution = 0;
    if (fit.count > 0) {
        for (const DrawBatch& entry : batches) {
            if (castsOpacityShadow(entry)) ++fit.opacity_batches;
        }
        if (fit.opacity_batches > 0) {
            opacity_resolution = sdLocalOpacityResolution(std::clamp(
                view.shadows.opacity_resolution, kMinShadowResolution, kMaxShadowResolution));
        }
        // Each tile's slices end where its casters do (the whole range for device casters),
        // so the four slices resolve the smoke, not the empty metres behind it.
        for (uint32_t t = 0; t < fit.count && fit.opacity_batches > 0; ++t) {
            const SunView& v = fit.views[t];
            const float near_m = v.depth_m * kLocalShadowNearFraction;
            const float reach = opacityCasterReach(batches, v.eye, v.forward);
            fit.shadows.params[t].w = std::clamp(reach, 2.0f * near_m, v.depth_m);
        }
    }
    fit.shadows.config = uvec4(fit.count, resolution, opacity_resolution, 0u);
    return fit;
}

} // namespace spindrift::render
