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
    // Framing: the camera looks at the bounds' centre from kElevation above the horizon, along +Z
    // (the effect's front in the samples), from the nearest distance at which all eight corners
    // of the bounds, widened by kMargin around the centre, are inside the field of view. Fitting
    // the box rather than its bounding sphere keeps tall or flat effects large in the frame.
    constexpr double kMargin = 1.1;
    constexpr double kElevationDeg = 15;
    constexpr float kMinHalfExtent = 0.05f;

    SceneDesc scene;
    const Float3 c = effect.bounds.center;
    auto half = [&](float v) {
        return std::isfinite(v) ? std::max(v, kMinHalfExtent) : kMinHalfExtent;
    };
    const Float3 h{half(effect.bounds.half_extents.x), half(effect.bounds.half_extents.y),
                   half(effect.bounds.half_extents.z)};
    const double r = std::sqrt(double(h.x) * h.x + double(h.y) * h.y + double(h.z) * h.z);

    const double aspect = double(scene.resolution.width) / scene.resolution.height;
    const double tan_v = std::tan(0.5 * scene.camera.fov_deg * kDegToRad);
    const double tan_h = tan_v * aspect;
    const double elevation = kElevationDeg * kDegToRad;
    // Camera basis: back points from the centre to the eye; right and up span the image plane.
    const double back_y = std::sin(elevation), back_z = std::cos(elevation);
    const double up_y = back_z, up_z = -back_y;
    // A corner p (relative to the centre) is at depth D - dot(p, back) in front of an eye at
    // distance D, and fits when |dot(p, right)| and |dot(p, up)| scaled by kMargin stay within
    // tan(half field) times that depth.
    double distance = 0;
    for (int corner = 0; corner < 8; ++corner) {
        const double x = (corner & 1) ? h.x : -h.x;
        const double y = (corner & 2) ? h.y : -h.y;
        const double z = (corner & 4) ? h.z : -h.z;
        const double along_back = y * back_y + z * back_z;
        const double along_up = y * up_y + z * up_z;
        distance = std::max({distance, along_back + kMargin * std::fabs(x) / tan_h,
                             along_back + kMargin * std::fabs(along_up) / tan_v});
    }
    // The eye stays outside the bounding sphere, so near can sit in front of every corner.
    distance = std::max(distance, 1.25 * r);

    scene.camera.mode = CameraMode::look_at;
    scene.camera.target = c;
    scene.camera.position = {c.x, float(c.y + distance * back_y), float(c.z + distance * back_z)};
    // The nearest corner is at least distance - r away (> 0.2 distance); near sits in front of
    // it, far well behind the sphere and the ground's far corner.
    scene.camera.near = float(std::max(0.5 * (distance - r), 1e-3));
    // A dark, neutral stage: most effects are emissive and read best against it.
    scene.ground.color = {0.05f, 0.05f, 0.055f};

    // Effects are authored standing on y = 0: the ground is there when the bounds reach it, else
    // at the bottom of the bounds.
    const float bottom = c.y - effect.bounds.half_extents.y;
    const float top = c.y + effect.bounds.half_extents.y;
    scene.ground.height = (bottom <= 0 && top >= 0) ? 0.0f : bottom;
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
