#include "render/frame_lights.h"

#include <algorithm>
#include <cmath>

namespace spindrift::render {

namespace {

bool finite3(const Float3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

} // namespace

std::string lightProblem(const LightDesc& light) {
    if (light.type != LightKind::point && light.type != LightKind::spot) {
        return "unknown light type " + std::to_string(static_cast<int>(light.type));
    }
    if (!finite3(light.position)) return "position must be finite";
    if (!finite3(light.color) || light.color.x < 0 || light.color.y < 0 || light.color.z < 0) {
        return "color components must be finite and >= 0";
    }
    if (!(light.intensity >= 0 && light.intensity <= kMaxLightIntensity)) {
        return "intensity must be in [0, " + std::to_string(int64_t(kMaxLightIntensity)) + "]";
    }
    if (!(light.range > 0 && light.range <= kMaxLightRange_m)) {
        return "range must be in (0, " + std::to_string(int64_t(kMaxLightRange_m)) + "] m";
    }
    if (light.type == LightKind::spot) {
        const Float3& d = light.direction;
        if (!finite3(d) || (d.x == 0 && d.y == 0 && d.z == 0)) {
            return "a spot light's direction must be finite and non-zero";
        }
        if (!(light.inner_deg >= 0 && light.inner_deg < 90 && light.outer_deg > light.inner_deg &&
              light.outer_deg <= 90)) {
            return "a spot light needs 0 <= inner_deg < outer_deg <= 90";
        }
    }
    return {};
}

FrameLight frameLight(const LightDesc& light) {
    FrameLight f{};
    f.position_range = vec4(light.position.x, light.position.y, light.position.z, light.range);
    const vec3 radiance = vec3(light.color.x, light.color.y, light.color.z) * light.intensity;
    if (light.type == LightKind::spot) {
        const double dx = light.direction.x, dy = light.direction.y, dz = light.direction.z;
        const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
        f.radiance_cos_inner =
            vec4(radiance, static_cast<float>(std::cos(light.inner_deg * kDegToRad)));
        f.direction_cos_outer = vec4(static_cast<float>(dx / len), static_cast<float>(dy / len),
                                     static_cast<float>(dz / len),
                                     static_cast<float>(std::cos(light.outer_deg * kDegToRad)));
    } else {
        f.radiance_cos_inner = vec4(radiance, kPointLightCosInner);
        f.direction_cos_outer = vec4(0.0f, 0.0f, 0.0f, kPointLightCosOuter);
    }
    return f;
}

LightCounts frameLightCounts(std::span<const LightDesc> lights) {
    LightCounts c;
    c.drawn = static_cast<uint32_t>(std::min<size_t>(lights.size(), kMaxFrameLights));
    c.dropped = static_cast<uint32_t>(std::min<size_t>(lights.size() - c.drawn, UINT32_MAX));
    return c;
}

} // namespace spindrift::render
