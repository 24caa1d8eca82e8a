#include "render/local_shadows.h"

#include <algorithm>
#include <cmath>

#include "render/frame_lights.h"

namespace spindrift::render {

LocalShadowFit fitLocalShadows(const FrameView& view) {
    LocalShadowFit fit;
    if (!view.shadows.enabled) return fit;
    const uint32_t resolution =
        std::clamp(view.shadows.resolution, kMinShadowResolution, kMaxShadowResolution);
    const float bias = std::clamp(view.shadows.bias, 0.0f, kMaxShadowBias_m);
    const uint32_t lights = frameLightCounts(view.lights).drawn;
    FrameLocalShadows& s = fit.shadows;
    for (uint32_t i = 0; i < lights; ++i) {
        const LightDesc& light = view.lights[i];
        if (light.type != LightKind::spot || !light.shadows || light.intensity <= 0.0f) continue;
        if (fit.count == kMaxShadowedLights) {
            ++fit.dropped;
            continue;
        }
        const FrameLight f = frameLight(light);
        const vec3 position(f.position_range);
        const vec3 forward(f.direction_cos_outer);
        vec3 right;
        vec3 up;
        shadowAxes(forward, right, up);
        const float tan_half = sdLocalShadowTanHalfFov(f.direction_cos_outer.w);
        const float far_m = f.position_range.w;
        const float near_m = far_m * kLocalShadowNearFraction;
        const ShadowProjection m =
            sdPerspectiveShadowProjection(position, right, up, forward, tan_half, near_m, far_m);
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
        for (uint32_t k = 0; k < 4; ++k) s.tile_c[4 * t + k] = v.clip_c[k];
        s.params[t] = vec4(bias, 2.0f * tan_half / static_cast<float>(resolution),
                           1.0f / static_cast<float>(resolution), 0.0f);
        s.lights[static_cast<int>(t)] = i;
    }
    s.config = uvec4(fit.count, resolution, 0u, 0u);
    return fit;
}

} // namespace spindrift::render
