#include "viewer/camera.h"

#include <algorithm>
#include <cmath>

namespace spindrift::viewer {

namespace {

Float3 add(Float3 a, Float3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Float3 scale(Float3 a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}

Float3 eyeOf(const ViewerCamera& c) {
    return add(c.target, scale(forwardOf(c.yaw_rad, c.pitch_rad), -c.distance_m));
}

float clampPitch(float pitch) {
    return std::clamp(pitch, -kMaxPitchRad, kMaxPitchRad);
}

} // namespace

Float3 forwardOf(float yaw_rad, float pitch_rad) {
    const float c = std::cos(pitch_rad);
    return {c * std::sin(yaw_rad), std::sin(pitch_rad), c * std::cos(yaw_rad)};
}

ViewerCamera freeCameraFrom(const CameraPose& pose, CameraMode mode) {
    ViewerCamera camera;
    camera.mode = mode;
    camera.target = pose.target;
    const Float3 d{pose.target.x - pose.eye.x, pose.target.y - pose.eye.y,
                   pose.target.z - pose.eye.z};
    const float length = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (!(length > 1e-6f) || !std::isfinite(length)) {
        camera.target = add(pose.eye, {0, 0, 1});
        camera.distance_m = 1;
        return camera;
    }
    camera.distance_m = std::clamp(length, kMinDistanceM, kMaxDistanceM);
    camera.pitch_rad = clampPitch(std::asin(std::clamp(d.y / length, -1.0f, 1.0f)));
    camera.yaw_rad = std::atan2(d.x, d.z);
    return camera;
}

CameraPose cameraPose(const ViewerCamera& camera, const CameraPose& scene_pose) {
    if (camera.mode == CameraMode::scene) return scene_pose;
    return {eyeOf(camera), camera.target, {0, 1, 0}};
}

void orbitBy(ViewerCamera& camera, float dx_px, float dy_px) {
    // Dragging right swings the eye right around the target: the view turns left.
    camera.yaw_rad -= dx_px * kRadiansPerPixel;
    camera.pitch_rad = clampPitch(camera.pitch_rad + dy_px * kRadiansPerPixel);
}

void lookBy(ViewerCamera& camera, float dx_px, float dy_px) {
    const Float3 eye = eyeOf(camera);
    camera.yaw_rad += dx_px * kRadiansPerPixel;
    camera.pitch_rad = clampPitch(camera.pitch_rad - dy_px * kRadiansPerPixel);
    camera.target = add(eye, scale(forwardOf(camera.yaw_rad, camera.pitch_rad), camera.distance_m));
}

void dollyBy(ViewerCamera& camera, float notches) {
    camera.distance_m = std::clamp(camera.distance_m * std::pow(kDollyPerNotch, notches),
                                   kMinDistanceM, kMaxDistanceM);
}

void moveBy(ViewerCamera& camera, float right_m, float up_m, float forward_m) {
    const Float3 forward = forwardOf(camera.yaw_rad, camera.pitch_rad);
    // Right of the view: forward x up, with up +Y (right-handed world).
    const Float3 right{-std::cos(camera.yaw_rad), 0, std::sin(camera.yaw_rad)};
    Float3 delta = add(scale(forward, forward_m), scale(right, right_m));
    delta.y += up_m;
    camera.target = add(camera.target, delta);
}

void panBy(ViewerCamera& camera, float dx_px, float dy_px) {
    const float metres_per_px = camera.distance_m * kPanPerPixel;
    moveBy(camera, -dx_px * metres_per_px, dy_px * metres_per_px, 0);
}

} // namespace spindrift::viewer
