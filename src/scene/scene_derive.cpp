// The values every host derives from a scene: the camera at a time, an instance's position at a
// time, and the default scene that frames a lone effect (what `spindrift render effect.json`
// shows). One function each (DESIGN rule 3).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "spindrift/scene_desc.h"

namespace spindrift {

namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;

Float3 upFor(const Float3& eye, const Float3& target) {
    const double dx = double(target.x) - eye.x, dy = double(target.y) - eye.y,
                 dz = double(target.z) - eye.z;
    const double length = std::sqrt(dx * dx + dy * dy + dz * dz);
    // Within ~2.5 degrees of vertical, +Y is too close to the view direction to build a basis.
    constexpr double kNearlyVertical = 0.999;
    if (length > 0 && std::fabs(dy / length) > kNearlyVertical) {
        return dy < 0 ? Float3{0, 0, -1} : Float3{0, 0, 1};
    }
    return {0, 1, 0};
}

} // namespace

CameraPose cameraPose(const CameraDesc& camera, float time_s) {
    CameraPose pose;
    if (camera.mode == CameraMode::orbit) {
        const CameraOrbit& o = camera.orbit;
        const double turns = double(time_s) / o.period_s;
        const double angle = (o.start_deg + 360.0 * (turns - std::floor(turns))) * kDegToRad;
        pose.target = o.center;
        pose.eye = {float(o.center.x + o.radius * std::sin(angle)), o.center.y + o.height,
                    float(o.center.z + o.radius * std::cos(angle))};
    } else {
        pose.eye = camera.position;
        pose.target = camera.target;
    }
    pose.up = upFor(pose.eye, pose.target);
    return pose;
}

Float3 instancePosition(const EffectInstanceDesc& instance, float time_s) {
    const Float3& base = instance.position;
    if (!instance.path || instance.path->keys.empty()) return base;
    const std::vector<MotionKey>& keys = instance.path->keys;
    double t = time_s;
    const double first = keys.front().t, last = keys.back().t;
    if (instance.path->loop && last > first) {
        t = first + std::fmod(t - first, last - first);
        if (t < first) t += last - first;
    }
    Float3 offset;
    if (t <= first) {
        offset = keys.front().offset;
    } else if (t >= last) {
        offset = keys.back().offset;
    } else {
        // The first key after t; keys are strictly increasing (validateScene).
        const auto next = std::upper_bound(keys.begin(), keys.end(), t,
                                           [](double v, const MotionKey& k) { return v < k.t; });
        const MotionKey& b = *next;
        const MotionKey& a = *(next - 1);
        const double s = (t - a.t) / (double(b.t) - a.t);
        auto mix = [s](float u, float v) { return float(u + (double(v) - u) * s); };
        offset = {mix(a.offset.x, b.offset.x), mix(a.offset.y, b.offset.y),
                  mix(a.offset.z, b.offset.z)};
    }
    return {base.x + offset.x, base.y + offset.y, base.z + offset.z};
}

SceneDesc defaultSceneForEffect(const EffectDesc& effect, const std::string& effect_path) {
    // Framing: the bounds' bounding sphere (radius r) must fit the narrower of the vertical and
    // horizontal fields of view, with a margin; the camera looks at its centre from kElevation
    // above the horizon, along +Z (the effect's front in the samples).
    constexpr double kMargin = 1.15;
    constexpr double kElevationDeg = 15;
    constexpr float kMinRadius = 0.05f;

    SceneDesc scene;
    const Float3 c = effect.bounds.center;
    const Float3 h = effect.bounds.half_extents;
    double r = std::sqrt(double(h.x) * h.x + double(h.y) * h.y + double(h.z) * h.z);
    if (!std::isfinite(r) || r < kMinRadius) r = kMinRadius;

    const double aspect = double(scene.resolution.width) / scene.resolution.height;
    const double half_v = 0.5 * scene.camera.fov_deg * kDegToRad;
    const double half_h = std::atan(std::tan(half_v) * aspect);
    const double distance = kMargin * r / std::sin(std::min(half_v, half_h));
    const double elevation = kElevationDeg * kDegToRad;

    scene.camera.mode = CameraMode::look_at;
    scene.camera.target = c;
    scene.camera.position = {c.x, float(c.y + distance * std::sin(elevation)),
                             float(c.z + distance * std::cos(elevation))};
    // The nearest point of the sphere is distance - r away (> 0.7 distance with the margin);
    // near sits well in front of it, far well behind the sphere and the ground's far corner.
    scene.camera.near = float(std::max(0.25 * (distance - r), 1e-3));

    scene.ground.height = c.y - h.y;
    const double reach = std::max(std::fabs(double(c.x)), std::fabs(double(c.z))) + 8 * r;
    scene.ground.size = float(std::max(double(scene.ground.size), 2 * reach));
    scene.camera.far =
        float(std::max(double(scene.camera.far), 4 * (distance + r) + 2 * scene.ground.size));

    EffectInstanceDesc instance;
    instance.effect = effect_path;
    scene.effects.push_back(std::move(instance));
    scene.duration_s = std::clamp(effect.duration_s, 0.1f, kMaxSceneDuration_s);
    return scene;
}

} // namespace spindrift
