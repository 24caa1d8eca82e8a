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

// A camera's axes and clip_from_world (FrameGlobals' convention) at width x height.
struct ViewBasis {
    vec3 eye, right, up, forward;
    vec4 c0, c1, c2, c3;
    vec2 view_tan; // MotionGlobals::view_tan
};

ViewBasis viewBasis(const CameraPose& camera, float fov_deg, float near_plane_m, float far_plane_m,
                    uint32_t width, uint32_t height) {
    vec3 eye = toVec3(camera.eye);
    vec3 forward = unitOr(toVec3(camera.target) - eye, vec3(0, 0, -1));
    vec3 up_hint = toVec3(camera.up);
    vec3 right = cross(forward, up_hint);
    if (length(right) < 1.0e-6f * std::max(length(up_hint), 1.0e-30f)) {
        // The up vector is (nearly) along the view direction: any perpendicular one will do.
        right = cross(forward, std::abs(forward.y) < 0.9f ? vec3(0, 1, 0) : vec3(0, 0, 1));
    }
    right = normalize(right);
    vec3 up = cross(right, forward);

    const double kDegToRad = 3.14159265358979323846 / 180.0;
    double tan_half = std::tan(static_cast<double>(fov_deg) * 0.5 * kDegToRad);
    double aspect = static_cast<double>(width) / static_cast<double>(height);
    float sy = static_cast<float>(1.0 / tan_half);
    float sx = static_cast<float>(1.0 / (tan_half * aspect));
    double near_m = near_plane_m;
    double far_m = far_plane_m;
    float a = static_cast<float>(far_m / (near_m - far_m));
    float b = static_cast<float>(near_m * far_m / (near_m - far_m));

    // clip = (sx * r.(p-eye), -sy * u.(p-eye), -a * f.(p-eye) + b, f.(p-eye)): rows of the
    // matrix, transposed into GLSL's columns below.
    vec4 row_x(sx * right, -sx * dot(right, eye));
    vec4 row_y(-sy * up, sy * dot(up, eye));
    vec4 row_z(-a * forward, a * dot(forward, eye) + b);
    vec4 row_w(forward, -dot(forward, eye));

    ViewBasis v;
    v.eye = eye;
    v.right = right;
    v.up = up;
    v.forward = forward;
    v.c0 = vec4(row_x.x, row_y.x, row_z.x, row_w.x);
    v.c1 = vec4(row_x.y, row_y.y, row_z.y, row_w.y);
    v.c2 = vec4(row_x.z, row_y.z, row_z.z, row_w.z);
    v.c3 = vec4(row_x.w, row_y.w, row_z.w, row_w.w);
    v.view_tan = vec2(static_cast<float>(tan_half * aspect), static_cast<float>(tan_half));
    return v;
}

// The motion block (render/shader/motion.h): zero unless the view asks for motion vectors.
MotionGlobals motionGlobals(const FrameView& view, const ViewBasis& current, uint32_t width,
                            uint32_t height) {
    MotionGlobals m{};
    const MotionVectorsDesc& d = view.motion;
    if (!d.enabled) return m;
    ViewBasis previous = current;
    if (d.has_previous_camera) {
        previous = viewBasis(d.previous_camera, d.previous_fov_deg, view.near_m, view.far_m, width,
                             height);
    }
    m.previous_clip_from_world_c0 = previous.c0;
    m.previous_clip_from_world_c1 = previous.c1;
    m.previous_clip_from_world_c2 = previous.c2;
    m.previous_clip_from_world_c3 = previous.c3;
    m.params = vec4(d.interval_s, d.coverage_threshold, d.has_previous_camera ? 1.0f : 0.0f,
                    d.additive_writes ? 1.0f : 0.0f);
    m.view_tan = vec4(current.view_tan, d.output_scale);
    return m;
}

} // namespace

FrameGlobals viewGlobals(const FrameView& view, uint32_t width, uint32_t height) {
    const ViewBasis v =
        viewBasis(view.camera, view.fov_deg, view.near_m, view.far_m, width, height);
    FrameGlobals g{};
    g.clip_from_world_c0 = v.c0;
    g.clip_from_world_c1 = v.c1;
    g.clip_from_world_c2 = v.c2;
    g.clip_from_world_c3 = v.c3;
    g.eye = vec4(v.eye, view.near_m);
    g.camera_right = vec4(v.right, view.far_m);
    g.camera_up = vec4(v.up, 0.0f);
    g.camera_forward = vec4(v.forward, 0.0f);
    g.motion = motionGlobals(view, v, width, height);
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
