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

namespace {

// The default scene's camera looks at the framed box from this far above the horizon, along +Z
// (the effect's front in the samples).
constexpr double kElevationDeg = 15;
constexpr float kMinHalfExtent = 0.05f;

// The eye at distance d from the box centre along `back`; a corner p (relative to the centre) is
// at depth d - dot(p, back) and at dot(p, up) / (depth tan_v) in normalised image height, and
// dot(p, right) / (depth tan_h) in width. Returns the box's extent as a fraction of the image's
// height (vertical) or width (horizontal): (largest - smallest coordinate) / 2.
struct FramingGeometry {
    Float3 h;
    double back_y, back_z, up_y, up_z, tan_v, tan_h;

    double extent(double d, bool vertical) const {
        double lo = 1e300, hi = -1e300;
        for (int corner = 0; corner < 8; ++corner) {
            const double x = (corner & 1) ? h.x : -h.x;
            const double y = (corner & 2) ? h.y : -h.y;
            const double z = (corner & 4) ? h.z : -h.z;
            const double depth = d - (y * back_y + z * back_z);
            const double v =
                vertical ? (y * up_y + z * up_z) / (depth * tan_v) : x / (depth * tan_h);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        return 0.5 * (hi - lo);
    }

    // The distance at which extent(d, vertical) is `fraction`: the extent falls monotonically
    // as the eye backs away (every corner in front of it), so bisection finds it; deterministic,
    // a fixed 100 halvings.
    double distanceFor(double fraction, bool vertical, double nearest) const {
        double lo = nearest, hi = std::max(2 * nearest, 1e-3);
        while (extent(hi, vertical) > fraction && hi < 1e12) hi *= 2;
        for (int i = 0; i < 100; ++i) {
            const double mid = 0.5 * (lo + hi);
            (extent(mid, vertical) > fraction ? lo : hi) = mid;
        }
        return hi;
    }
};

} // namespace

float defaultGroundHeight(const Bounds& authored) {
    const float bottom = authored.center.y - authored.half_extents.y;
    const float top = authored.center.y + authored.half_extents.y;
    return (bottom <= 0 && top >= 0) ? 0.0f : bottom;
}

SceneDesc defaultSceneForEffect(const EffectDesc& effect, const std::string& effect_path,
                                const std::optional<Bounds>& drawn) {
    SceneDesc scene;
    // A dark, low-contrast stage: most effects are emissive and read best against it, and the
    // ground should show scale and contact without drawing the eye (docs/scene-format.md).
    scene.ground.color = {0.024f, 0.024f, 0.026f};
    scene.background = {0.01f, 0.011f, 0.015f};
    // A low sun from the right and in front: lit smoke shows a bright and a shaded side,
    // and the ground under it stays dark.
    scene.sun.direction = {0.7274f, 0.5819f, 0.3637f}; // normalize(1, 0.8, 0.5)
    scene.sun.intensity = 1.4f;
    // Emissive effects glow: a stronger bloom than the scene default (docs/rendering.md).
    scene.bloom.strength = 0.18f;

    scene.ground.height = defaultGroundHeight(effect.bounds);

    // The framed box: what the effect draws when measured (render/effect_framing.h), else its
    // authored (conservative) bounds; what lies below the ground is hidden, so it is cut there.
    Bounds framed = drawn.value_or(effect.bounds);
    auto finite = [](float v) { return std::isfinite(v) ? v : 0.0f; };
    Float3 c{finite(framed.center.x), finite(framed.center.y), finite(framed.center.z)};
    Float3 h{std::max(finite(framed.half_extents.x), 0.0f),
             std::max(finite(framed.half_extents.y), 0.0f),
             std::max(finite(framed.half_extents.z), 0.0f)};
    if (c.y - h.y < scene.ground.height && c.y + h.y > scene.ground.height) {
        const float y_top = c.y + h.y;
        c.y = 0.5f * (scene.ground.height + y_top);
        h.y = 0.5f * (y_top - scene.ground.height);
    }
    h = {std::max(h.x, kMinHalfExtent), std::max(h.y, kMinHalfExtent),
         std::max(h.z, kMinHalfExtent)};
    const double r = std::sqrt(double(h.x) * h.x + double(h.y) * h.y + double(h.z) * h.z);

    // Framing: the camera looks at the box's centre from kElevationDeg above the horizon along +Z,
    // from the distance at which the box's eight corners span kFramedHeightFraction of the image
    // height, or kFramedWidthFraction of its width if a wide effect would pass that first (the
    // farther of the two). Fitting the box rather than its bounding sphere keeps tall or flat
    // effects large in the frame.
    const double aspect = double(scene.resolution.width) / scene.resolution.height;
    const double elevation = kElevationDeg * kDegToRad;
    FramingGeometry g;
    g.h = h;
    g.back_y = std::sin(elevation);
    g.back_z = std::cos(elevation);
    g.up_y = g.back_z;
    g.up_z = -g.back_y;
    g.tan_v = std::tan(0.5 * scene.camera.fov_deg * kDegToRad);
    g.tan_h = g.tan_v * aspect;
    // The eye stays outside the bounding sphere, so near can sit in front of every corner.
    const double nearest = 1.25 * r;
    const double distance = std::max({nearest, g.distanceFor(kFramedHeightFraction, true, nearest),
                                      g.distanceFor(kFramedWidthFraction, false, nearest)});

    scene.camera.mode = CameraMode::look_at;
    scene.camera.target = c;
    scene.camera.position = {c.x, float(c.y + distance * g.back_y),
                             float(c.z + distance * g.back_z)};
    // The nearest corner is at least distance - r away (> 0.2 distance); near sits in front of
    // it, far well behind the sphere and the ground's far corner.
    scene.camera.near = float(std::max(0.5 * (distance - r), 1e-3));

    // The ground reaches far enough (kGroundReach camera distances) that its far edge lies near
    // the horizon instead of crossing the image as a hard line; the checker fades to an even
    // tone in the distance (docs/rendering.md, "Opaque pass").
    constexpr double kGroundReach = 60;
    const double reach = std::max(std::fabs(double(c.x)), std::fabs(double(c.z))) +
                         std::max(8 * r, kGroundReach * distance);
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
