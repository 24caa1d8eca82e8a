#include "runtime/world_scene_depth.h"

#include <cmath>
#include <numbers>

#include "runtime/transform_rows.h"

namespace spindrift {

namespace {

float dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

bool unit(Vec3 v) {
    return finite(v) && std::fabs(dot(v, v) - 1.0f) <= 1.0e-3f;
}

vec4 point4(Vec3 v, float w) {
    return vec4(v.x, v.y, v.z, w);
}

} // namespace

std::string sceneDepthProblem(const SceneDepth& depth, bool check_samples) {
    if (depth.width == 0 || depth.height == 0 || depth.width > kMaxSceneDepthSide ||
        depth.height > kMaxSceneDepthSide) {
        return "scene depth size " + std::to_string(depth.width) + "x" +
               std::to_string(depth.height) + " is not within 1.." +
               std::to_string(kMaxSceneDepthSide) + " on each side";
    }
    const uint64_t count = uint64_t{depth.width} * depth.height;
    if (count > kMaxSceneDepthSamples) {
        return "scene depth of " + std::to_string(count) + " samples is over " +
               std::to_string(kMaxSceneDepthSamples);
    }
    if (!finite(depth.eye)) return "scene depth eye is not finite";
    if (!unit(depth.forward)) return "scene depth forward is not a unit vector";
    if (!unit(depth.up)) return "scene depth up is not a unit vector";
    if (std::fabs(dot(depth.forward, depth.up)) > 1.0e-3f) {
        return "scene depth up is not perpendicular to forward";
    }
    if (!(depth.vertical_fov_rad > 0.0f && depth.vertical_fov_rad < std::numbers::pi_v<float>)) {
        return "scene depth vertical_fov_rad is not in (0, pi)";
    }
    if (!(depth.near_m > 0.0f) || !std::isfinite(depth.near_m)) {
        return "scene depth near_m is not a positive finite number";
    }
    if (!check_samples) return {};
    if (depth.samples == nullptr) return "scene depth samples is null";
    for (uint64_t i = 0; i < count; ++i) {
        const float d = depth.samples[i];
        if (d > 0.0f) continue; // NaN fails this too
        return "scene depth sample " + std::to_string(i) + " (row " +
               std::to_string(i / depth.width) + ", column " + std::to_string(i % depth.width) +
               ") is " + (std::isnan(d) ? std::string("NaN") : std::to_string(d)) +
               ": a depth is positive";
    }
    return {};
}

SceneDepthInput sceneDepthCamera(const SceneDepth& depth) {
    const Vec3 f = depth.forward;
    const Vec3 u = depth.up;
    const Vec3 right{f.y * u.z - f.z * u.y, f.z * u.x - f.x * u.z, f.x * u.y - f.y * u.x};
    const float tan_y = std::tan(depth.vertical_fov_rad * 0.5f);
    const float tan_x = tan_y * static_cast<float>(depth.width) / static_cast<float>(depth.height);
    SceneDepthInput in;
    in.camera.kind = kColliderSceneDepth;
    in.camera.position = point4(depth.eye, tan_x);
    in.camera.extent = point4(f, tan_y);
    in.camera.axis_u = point4(right, static_cast<float>(depth.width));
    in.camera.axis_v = point4(u, static_cast<float>(depth.height));
    in.near_m = depth.near_m;
    return in;
}

bool usesSceneDepth(const CompiledEffect& effect) {
    for (const OpRecord& op : effect.ops) {
        if (collidesWithSceneDepth(op)) return true;
    }
    return false;
}

} // namespace spindrift
