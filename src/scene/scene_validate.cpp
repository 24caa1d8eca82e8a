// validateScene: every semantic rule of the scene format, for scenes read from JSON and built in
// code alike. Diagnostics carry JSON paths; loadScene adds the positions.
#include <cmath>
#include <map>

#include "authoring/direction.h"
#include "authoring/field_rules.h"
#include "authoring/rule_checker.h"
#include "io/json_value.h"
#include "scene/scene_enum_names.h"
#include "scene/scene_fields.h"
#include "spindrift/scene_json.h"

namespace spindrift {

static std::string at(const std::string& path, const char* key) {
    return json::pathKey(path, key);
}

// The scene format's codecs (scene_fields.h), checking half, and the objects whose rules are more
// than their table's walk. Not in an unnamed namespace: the field walker (field_rules.h) finds
// them by argument-dependent lookup.

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, const Float3& value,
                const CameraDesc& camera, LookAtCodec) {
    if (camera.mode != CameraMode::look_at) return;
    const bool ok = c.finite3(path, value);
    // The target, once both are finite, differs from the eye.
    if (ok && f.key == "target" && std::isfinite(camera.position.x) &&
        std::isfinite(camera.position.y) && std::isfinite(camera.position.z) &&
        camera.position == camera.target) {
        c.error(path,
                "expected a target different from the camera position " + formatFloat3(value));
    }
}

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, const CameraOrbit& orbit,
                const CameraDesc& camera, OrbitCodec) {
    const std::string camera_path = path.substr(0, path.size() - std::string_view(".orbit").size());
    const CameraDesc d;
    // The writer leaves the other mode's settings out, so they must keep their defaults.
    if (camera.mode == CameraMode::look_at) {
        if (!(orbit == d.orbit)) {
            c.error(path, "orbit settings are set but the camera is a look-at camera (position "
                          "and target)");
        }
    } else if (camera.mode == CameraMode::orbit) {
        checkFields(c, path, orbit);
        if (!(camera.position == d.position) || !(camera.target == d.target)) {
            c.error(camera_path, "position or target is set but the camera is an orbit camera");
        }
    } else {
        c.error(camera_path, "unknown camera mode " + std::to_string(int(camera.mode)));
    }
}

// far > near, once near itself is valid (else it is the one mistake).
template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, float far,
                const CameraDesc& camera, FarCodec) {
    if (std::isfinite(camera.near) && camera.near > 0 && c.finite(path, far) &&
        !(far > camera.near)) {
        c.error(path, "expected a number > near (" + formatNumber(camera.near) + "), found " +
                          formatNumber(far));
    }
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, const Resolution& r,
                const O&, ResolutionCodec) {
    c.integer(json::pathIndex(path, 0), r.width, uint64_t(f.rule.lo), uint64_t(f.rule.hi));
    c.integer(json::pathIndex(path, 1), r.height, uint64_t(f.rule.lo), uint64_t(f.rule.hi));
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F&,
                const std::optional<MotionPath>& motion, const O&, MotionPathCodec) {
    if (motion) checkFields(c, path, *motion);
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f,
                const std::vector<MotionKey>& keys, const O&, MotionKeysCodec) {
    if (!c.count(path, keys.size(), f.rule.list.min, f.rule.list.max, f.rule.list.what)) return;
    for (size_t i = 0; i < keys.size(); ++i) {
        const std::string key = json::pathIndex(path, i);
        const bool t_ok = c.finite(json::pathIndex(key, 0), keys[i].t);
        c.finite(json::pathIndex(key, 1), keys[i].offset.x);
        c.finite(json::pathIndex(key, 2), keys[i].offset.y);
        c.finite(json::pathIndex(key, 3), keys[i].offset.z);
        if (t_ok && i > 0 && std::isfinite(keys[i - 1].t) && !(keys[i].t > keys[i - 1].t)) {
            c.error(key, "key times must increase strictly, found t = " + formatNumber(keys[i].t) +
                             " after t = " + formatNumber(keys[i - 1].t));
        }
    }
}

// The exposure's bounds: max_ev > min_ev and high_percent > low_percent, each within its own
// range, once the other end is valid (else that is the one mistake).
template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, float max_ev,
                const ExposureDesc& e, MaxEvCodec) {
    if (std::isfinite(e.min_ev) && e.min_ev >= -kMaxExposureEv && e.min_ev <= kMaxExposureEv) {
        c.number(path, max_ev, e.min_ev, true, float(f.rule.hi), false);
    } else {
        checkValue(c, path, f.rule, f.required(), max_ev);
    }
}

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, float high,
                const ExposureDesc& e, HighPercentCodec) {
    if (std::isfinite(e.low_percent) && e.low_percent >= 0 && e.low_percent < 100) {
        c.number(path, high, e.low_percent, true, float(f.rule.hi), false);
    } else {
        checkValue(c, path, f.rule, f.required(), high);
    }
}

// A type-tagged object (a primitive, a light): the type chooses the keys; the other types' fields
// must keep their defaults (the writer leaves them out).
template <typename T, typename K>
void checkTypedFields(const RuleChecker& c, const std::string& path, const T& object,
                      std::initializer_list<K> types, const char* what) {
    const T d;
    bool known = false;
    for (K k : types) known = known || object.type == k;
    const std::string type_text = std::string(what) + " type '" + enumName(object.type) + "'";
    forEachField(fieldsOf(FieldsOf<T>{}), [&](const auto& f) {
        if (f.appliesTo(object.type)) {
            checkOneField(c, path, f, object);
        } else if (known && !(object.*f.member == d.*f.member)) {
            c.error(json::pathKey(path, f.key),
                    "'" + std::string(f.key) + "' does not apply to " + type_text);
        }
    });
    if (!known) {
        c.error(at(path, "type"),
                std::string("unknown ") + what + " type " + std::to_string(int(object.type)));
    }
}

void checkFields(const RuleChecker& c, const std::string& path, const PrimitiveDesc& p) {
    checkTypedFields(c, path, p, {PrimitiveKind::box, PrimitiveKind::sphere}, "primitive");
}

void checkFields(const RuleChecker& c, const std::string& path, const LightDesc& light) {
    checkTypedFields(c, path, light, {LightKind::point, LightKind::spot}, "light");
}

// A spot's outer angle is wider than its inner one, once the inner one is valid (else that is the
// one mistake).
template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, float outer,
                const LightDesc& light, OuterConeCodec) {
    if (std::isfinite(light.inner_deg) && light.inner_deg >= 0 && light.inner_deg < 90) {
        c.number(path, outer, light.inner_deg, true, float(f.rule.hi), false);
    } else {
        checkValue(c, path, f.rule, f.required(), outer);
    }
}

// Names are optional; those given are plain and unique.
static void validateNames(const RuleChecker& c, const std::vector<EffectInstanceDesc>& effects) {
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

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f,
                const std::vector<EffectInstanceDesc>& effects, const SceneDesc&,
                InstanceListCodec) {
    checkValue(c, path, f.rule, f.required(), effects);
    validateNames(c, effects);
}

bool validateScene(const SceneDesc& scene, std::vector<Diagnostic>& diagnostics) {
    const size_t first = diagnostics.size();
    const RuleChecker c{diagnostics};
    checkFields(c, "$", scene);

    for (size_t i = first; i < diagnostics.size(); ++i) {
        if (diagnostics[i].severity == Severity::error) return false;
    }
    return true;
}

} // namespace spindrift
