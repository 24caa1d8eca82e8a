#include "render/view_globals.h"

#include "render/frame_lights.h"
#include "render/light_clusters.h"
#include "render/sky_ambient.h"

#include <algorithm>
#include <cmath>

namespace spindrift::render {

namespace {

vec3 toVec3(const Float3& f) {
    return vec3(f.x, f.y, f.z);
}

vec3 unitOr(vec3 v, vec3 fallback) {
    float l = length(v);
    return l > 1.0e-20f ? v / l : fallback;
}

} // namespace

FrameGlobals viewGlobals(const FrameView& view, uint32_t width, uint32_t height) {
    vec3 eye = toVec3(view.camera.eye);
    vec3 forward = unitOr(toVec3(view.camera.target) - eye, vec3(0, 0, -1));
    vec3 up_hint = toVec3(view.camera.up);
    vec3 right = cross(forward, up_hint);
    if (length(right) < 1.0e-6f * std::max(length(up_hint), 1.0e-30f)) {
        // The up vector is (nearly) along the view direction: any perpendicular one will do.
        right = cross(forward, std::abs(forward.y) < 0.9f ? vec3(0, 1, 0) : vec3(0, 0, 1));
    }
    right = normalize(right);
    vec3 up = cross(right, forward);

    const double kDegToRad = 3.14159265358979323846 / 180.0;
    double tan_half = std::tan(static_cast<double>(view.fov_deg) * 0.5 * kDegToRad);
    double aspect = static_cast<double>(width) / static_cast<double>(height);
    float sy = static_cast<float>(1.0 / tan_half);
    float sx = static_cast<float>(1.0 / (tan_half * aspect));
    double near_m = view.near_m;
    double far_m = view.far_m;
    float a = static_cast<float>(far_m / (near_m - far_m));
    float b = static_cast<float>(near_m * far_m / (near_m - far_m));

    // clip = (sx * r.(p-eye), -sy * u.(p-eye), -a * f.(p-eye) + b, f.(p-eye)): rows of the
    // matrix, transposed into GLSL's columns below.
    vec4 row_x(sx * right, -sx * dot(right, eye));
    vec4 row_y(-sy * up, sy * dot(up, eye));
    vec4 row_z(-a * forward, a * dot(forward, eye) + b);
    vec4 row_w(forward, -dot(forward, eye));

    FrameGlobals g{};
    g.clip_from_world_c0 = vec4(row_x.x, row_y.x, row_z.x, row_w.x);
    g.clip_from_world_c1 = vec4(row_x.y, row_y.y, row_z.y, row_w.y);
    g.clip_from_world_c2 = vec4(row_x.z, row_y.z, row_z.z, row_w.z);
    g.clip_from_world_c3 = vec4(row_x.w, row_y.w, row_z.w, row_w.w);
    g.eye = vec4(eye, view.near_m);
    g.camera_right = vec4(right, view.far_m);
    g.camera_up = vec4(up, 0.0f);
    g.camera_forward = vec4(forward, 0.0f);
    g.sun_direction = vec4(unitOr(toVec3(view.sun.direction), vec3(0, 1, 0)), 0.0f);
    g.sun_radiance = vec4(toVec3(view.sun.color) * view.sun.intensity, 0.0f);
    g.ambient = vec4(toVec3(view.ambient), 0.0f);
    g.ambient_sh = skyAmbientSh(view.sky);
    g.viewport = vec4(static_cast<float>(width), static_cast<float>(height),
                      1.0f / static_cast<float>(width), 1.0f / static_cast<float>(height));
    const LightCounts lights = frameLightCounts(view.lights);
    g.light_count = uvec4(lights.drawn, 0u, 0u, 0u);
    for (uint32_t i = 0; i < lights.drawn; ++i) g.lights[i] = frameLight(view.lights[i]);
    binLightClusters(g);
    return g;
}

} // namespace spindrift::render
