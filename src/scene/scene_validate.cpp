// validateScene: every semantic rule of the scene format, for scenes read from JSON and built in
// code alike. Diagnostics carry JSON paths; loadScene adds the positions.
#include <cmath>
#include <map>

#include "authoring/direction.h"
#include "authoring/rule_checker.h"
#include "io/json_value.h"
#include "scene/scene_enum_names.h"
#include "spindrift/scene_json.h"

namespace spindrift {

namespace {

std::string at(const std::string& path, const char* key) {
    return json::pathKey(path, key);
}

void validateCamera(const RuleChecker& c, const CameraDesc& camera) {
    const std::string path = "$.camera";
    const CameraDesc d;
    if (camera.mode == CameraMode::look_at) {
        const bool eye_ok = c.finite3(at(path, "position"), camera.position);
        const bool target_ok = c.finite3(at(path, "target"), camera.target);
        if (eye_ok && target_ok && camera.position == camera.target) {
            c.error(at(path, "target"), "expected a target different from the camera position " +
                                            formatFloat3(camera.position));
        }
        // The writer leaves the other mode's settings out, so they must keep their defaults.
        if (!(camera.orbit == d.orbit)) {
            c.error(at(path, "orbit"), "orbit settings are set but the camera is a look-at "
                                       "camera (position and target)");
        }
    } else if (camera.mode == CameraMode::orbit) {
        const std::string o = at(path, "orbit");
        c.finite3(at(o, "center"), camera.orbit.center);
        c.above(at(o, "radius"), camera.orbit.radius, 0);
        c.finite(at(o, "height"), camera.orbit.height);
        c.above(at(o, "period_s"), camera.orbit.period_s, 0);
        c.finite(at(o, "start_deg"), camera.orbit.start_deg);
        if (!(camera.position == d.position) || !(camera.target == d.target)) {
            c.error(path, "position or target is set but the camera is an orbit camera");
        }
    } else {
        c.error(path, "unknown camera mode " + std::to_string(int(camera.mode)));
    }
    c.number(at(path, "fov_deg"), camera.fov_deg, 1, false, 179, false);
    if (c.above(at(path, "near"), camera.near, 0) && c.finite(at(path, "far"), camera.far) &&
        !(camera.far > camera.near)) {
        c.error(at(path, "far"), "expected a number > near (" + formatNumber(camera.near) +
                                     "), found " + formatNumber(camera.far));
    }
}

void validatePrimitive(const RuleChecker& c, const std::string& path, const PrimitiveDesc& p) {
    const PrimitiveDesc d;
    c.finite3(at(path, "center"), p.center);
    c.atLeast3(at(path, "color"), p.color, 0);
    const std::string type_text = std::string("primitive type '") + enumName(p.type) + "'";
    switch (p.type) {
    case PrimitiveKind::box:
        c.above3(at(path, "size"), p.size, 0);
        if (!(p.radius == d.radius)) {
            c.error(at(path, "radius"), "'radius' does not apply to " + type_text);
        }
        break;
    case PrimitiveKind::sphere:
        c.above(at(path, "radius"), p.radius, 0);
        if (!(p.size == d.size)) c.error(at(path, "size"), "'size' does not apply to " + type_text);
        break;
    default:
        c.error(at(path, "type"), "unknown primitive type " + std::to_string(int(p.type)));
    }
}

void validateMotionPath(const RuleChecker& c, const std::string& path, const MotionPath& m) {
    const std::string keys = at(path, "keys");
    if (!c.count(keys, m.keys.size(), 2, kMaxMotionPathKeys, "path keys")) return;
    for (size_t i = 0; i < m.keys.size(); ++i) {
        const std::string key = json::pathIndex(keys, i);
        const bool t_ok = c.finite(json::pathIndex(key, 0), m.keys[i].t);
        c.finite(json::pathIndex(key, 1), m.keys[i].offset.x);
        c.finite(json::pathIndex(key, 2), m.keys[i].offset.y);
        c.finite(json::pathIndex(key, 3), m.keys[i].offset.z);
        if (t_ok && i > 0 && std::isfinite(m.keys[i - 1].t) && !(m.keys[i].t > m.keys[i - 1].t)) {
            c.error(key,
                    "key times must increase strictly, found t = " + formatNumber(m.keys[i].t) +
                        " after t = " + formatNumber(m.keys[i - 1].t));
        }
    }
}

void validateInstance(const RuleChecker& c, const std::string& path, const EffectInstanceDesc& e) {
    c.filePath(at(path, "effect"), e.effect, true);
    c.finite3(at(path, "position"), e.position);
    c.finite3(at(path, "rotation_deg"), e.rotation_deg);
    if (e.path) validateMotionPath(c, at(path, "path"), *e.path);
    c.number(at(path, "start_s"), e.start_s, -kMaxScenePreRoll_s, false, kMaxSceneDuration_s,
             false);
    c.number(at(path, "time_scale"), e.time_scale, 0, true, kMaxTimeScale, false);
}

// Names are optional; those given are plain and unique.
void validateNames(const RuleChecker& c, const std::vector<EffectInstanceDesc>& effects) {
    std::map<std::string, size_t> first;
    for (size_t i = 0; i < effects.size(); ++i) {
        const std::string& name = effects[i].name;
        if (name.empty()) continue;
        const std::string path = at(json::pathIndex("$.effects", i), "name");
        if (!isPlainName(name)) {
            c.error(path, "expected a name of 1 to " + std::to_string(kMaxNameBytes) +
                              " characters from A-Z a-z 0-9 _ -, found '" +
                              (isUtf8(name) ? name : std::string("<invalid UTF-8>")) + "'");
            continue;
        }
        auto [it, inserted] = first.emplace(name, i);
        if (!inserted) {
            c.error(path, "instance name '" + name + "' is used twice (first at effects[" +
                              std::to_string(it->second) + "])");
        }
    }
}

} // namespace

bool validateScene(const SceneDesc& scene, std::vector<Diagnostic>& diagnostics) {
    const size_t first = diagnostics.size();
    const RuleChecker c{diagnostics};
    if (scene.version != kSceneFormatVersion) {
        c.error("$.version", "unsupported scene format version " + std::to_string(scene.version) +
                                 "; expected " + std::to_string(kSceneFormatVersion));
    }
    validateCamera(c, scene.camera);
    c.integer("$.resolution[0]", scene.resolution.width, kMinResolution, kMaxResolution);
    c.integer("$.resolution[1]", scene.resolution.height, kMinResolution, kMaxResolution);
    c.atLeast3("$.background", scene.background, 0);

    c.finite("$.ground.height", scene.ground.height);
    c.atLeast3("$.ground.color", scene.ground.color, 0);
    c.above("$.ground.size", scene.ground.size, 0);

    c.count("$.primitives", scene.primitives.size(), 0, kMaxScenePrimitives, "primitives");
    for (size_t i = 0; i < scene.primitives.size(); ++i) {
        validatePrimitive(c, json::pathIndex("$.primitives", i), scene.primitives[i]);
    }

    c.unitDirection("$.sun.direction", scene.sun.direction);
    c.atLeast3("$.sun.color", scene.sun.color, 0);
    c.atLeast("$.sun.intensity", scene.sun.intensity, 0);
    c.atLeast3("$.ambient", scene.ambient, 0);

    c.count("$.effects", scene.effects.size(), 0, kMaxSceneEffects, "effect instances");
    for (size_t i = 0; i < scene.effects.size(); ++i) {
        validateInstance(c, json::pathIndex("$.effects", i), scene.effects[i]);
    }
    validateNames(c, scene.effects);

    c.number("$.duration_s", scene.duration_s, 0, true, kMaxSceneDuration_s, false);
    c.integer("$.fps", scene.fps, 1, kMaxSceneFps);

    for (size_t i = first; i < diagnostics.size(); ++i) {
        if (diagnostics[i].severity == Severity::error) return false;
    }
    return true;
}

} // namespace spindrift
