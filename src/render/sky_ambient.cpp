#include "render/sky_ambient.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace spindrift::render {

namespace {

vec3 toVec3(const Float3& f) {
    return vec3(f.x, f.y, f.z);
}

bool validColour(const Float3& c) {
    return std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z) && c.x >= 0 && c.y >= 0 &&
           c.z >= 0;
}

} // namespace

std::string skyProblem(const SkyDesc& sky) {
    if (!validColour(sky.zenith)) return "zenith components must be finite and >= 0";
    if (!validColour(sky.horizon)) return "horizon components must be finite and >= 0";
    if (!validColour(sky.ground)) return "ground components must be finite and >= 0";
    if (!(sky.intensity >= 0 && sky.intensity <= kMaxSkyIntensity)) {
        return "intensity must be in [0, " + std::to_string(int64_t(kMaxSkyIntensity)) + "]";
    }
    return {};
}

vec3 skyRadiance(const SkyDesc& sky, vec3 d) {
    const vec3 colour =
        d.y >= 0.0f ? mix(toVec3(sky.horizon), toVec3(sky.zenith), d.y) : toVec3(sky.ground);
    return colour * sky.intensity;
}

AmbientSh skyAmbientSh(const SkyDesc& sky) {
    AmbientSh sh{};
    // The radiance depends on the elevation only, so each basis function integrates over azimuth
    // in closed form: 2 pi for Y(0,0), Y(1,0) and Y(2,0) (their values do not depend on azimuth),
    // 0 for every m != 0 term. What is left is a 1-D integral over y = cos(theta) in [-1, 1]
    // (dω = dy dφ), by the midpoint rule in bands of y, split at the horizon where the radiance
    // jumps from horizon to ground.
    constexpr int kBands = 64; // per hemisphere
    constexpr double kTwoPi = 6.28318530717958647692;
    const uint32_t zonal[3] = {0u, 2u, 6u}; // Y(0,0), Y(1,0), Y(2,0)
    for (int half = 0; half < 2; ++half) {
        for (int b = 0; b < kBands; ++b) {
            const double y = (half == 0 ? -1.0 : 0.0) + (b + 0.5) / kBands;
            const vec3 d(static_cast<float>(std::sqrt(std::max(0.0, 1.0 - y * y))),
                         static_cast<float>(y), 0.0f);
            const vec3 radiance = skyRadiance(sky, d);
            const double weight = kTwoPi / kBands; // dφ integrated, times dy
            for (uint32_t i : zonal) {
                const double basis = sdShBasis(i, d);
                sh.c[i] += vec4(radiance * static_cast<float>(basis * weight), 0.0f);
            }
        }
    }
    return sh;
}

} // namespace spindrift::render
