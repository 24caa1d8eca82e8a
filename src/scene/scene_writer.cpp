// saveScene: the canonical text. Keys in scene_desc.h field order; a key whose value equals the
// documented default is left out (required keys never are). The camera writes the keys of its
// mode only, and a primitive those of its type, which is why validateScene requires the other
// mode's or type's fields to keep their defaults.
#include "io/json_writer.h"
#include "scene/scene_enum_names.h"
#include "spindrift/scene_json.h"

namespace spindrift {

namespace {

class SceneWriter {
public:
    std::string scene(const SceneDesc& s);

private:
    void put(float f) { w_.value(f); }
    void put(uint32_t u) { w_.value(u); }
    void put(bool b) { w_.value(b); }
    void put(const std::string& s) { w_.value(std::string_view(s)); }
    void put(PrimitiveKind k) { w_.value(enumName(k)); }
    void put(const Float3& v) {
        const float f[3] = {v.x, v.y, v.z};
        w_.inlineArray(f, 3);
    }
    template <typename T> void req(const char* key, const T& value) {
        w_.key(key);
        put(value);
    }
    template <typename T> void opt(const char* key, const T& value, const T& default_value) {
        if (!(value == default_value)) req(key, value);
    }

    void camera(const CameraDesc& c);
    void ground(const GroundDesc& g);
    void primitive(const PrimitiveDesc& p);
    void sun(const SunDesc& s);
    void instance(const EffectInstanceDesc& e);

    json::Writer w_;
};

void SceneWriter::camera(const CameraDesc& c) {
    const CameraDesc d;
    if (c == d) return;
    w_.key("camera");
    w_.beginObject();
    if (c.mode == CameraMode::orbit) {
        // The key's presence is the mode, so it is written even when every setting is default.
        w_.key("orbit");
        w_.beginObject();
        opt("center", c.orbit.center, d.orbit.center);
        opt("radius", c.orbit.radius, d.orbit.radius);
        opt("height", c.orbit.height, d.orbit.height);
        opt("period_s", c.orbit.period_s, d.orbit.period_s);
        opt("start_deg", c.orbit.start_deg, d.orbit.start_deg);
        w_.endObject();
    } else {
        req("position", c.position);
        req("target", c.target);
    }
    opt("fov_deg", c.fov_deg, d.fov_deg);
    opt("near", c.near, d.near);
    opt("far", c.far, d.far);
    w_.endObject();
}

void SceneWriter::ground(const GroundDesc& g) {
    const GroundDesc d;
    if (g == d) return;
    w_.key("ground");
    w_.beginObject();
    opt("enabled", g.enabled, d.enabled);
    opt("height", g.height, d.height);
    opt("color", g.color, d.color);
    opt("size", g.size, d.size);
    w_.endObject();
}

void SceneWriter::primitive(const PrimitiveDesc& p) {
    const PrimitiveDesc d;
    w_.beginObject();
    req("type", p.type);
    opt("center", p.center, d.center);
    if (p.type == PrimitiveKind::box) opt("size", p.size, d.size);
    if (p.type == PrimitiveKind::sphere) opt("radius", p.radius, d.radius);
    opt("color", p.color, d.color);
    w_.endObject();
}

void SceneWriter::sun(const SunDesc& s) {
    const SunDesc d;
    if (s == d) return;
    w_.key("sun");
    w_.beginObject();
    opt("direction", s.direction, d.direction);
    opt("color", s.color, d.color);
    opt("intensity", s.intensity, d.intensity);
    w_.endObject();
}

void SceneWriter::instance(const EffectInstanceDesc& e) {
    const EffectInstanceDesc d;
    w_.beginObject();
    req("effect", e.effect);
    opt("name", e.name, d.name);
    opt("position", e.position, d.position);
    opt("rotation_deg", e.rotation_deg, d.rotation_deg);
    if (e.path) {
        w_.key("path");
        w_.beginObject();
        w_.key("keys");
        w_.beginArray();
        for (const MotionKey& k : e.path->keys) {
            const float row[4] = {k.t, k.offset.x, k.offset.y, k.offset.z};
            w_.inlineArray(row, 4);
        }
        w_.endArray();
        opt("loop", e.path->loop, false);
        w_.endObject();
    }
    opt("start_s", e.start_s, d.start_s);
    opt("time_scale", e.time_scale, d.time_scale);
    w_.endObject();
}

std::string SceneWriter::scene(const SceneDesc& s) {
    const SceneDesc d;
    w_.beginObject();
    req("version", s.version);
    camera(s.camera);
    if (!(s.resolution == d.resolution)) {
        w_.key("resolution");
        // On one line like other pairs; a float holds every valid size exactly (<= 2^24).
        constexpr uint32_t kExactInFloat = 1u << 24;
        if (s.resolution.width <= kExactInFloat && s.resolution.height <= kExactInFloat) {
            const float wh[2] = {float(s.resolution.width), float(s.resolution.height)};
            w_.inlineArray(wh, 2);
        } else {
            w_.beginArray();
            put(s.resolution.width);
            put(s.resolution.height);
            w_.endArray();
        }
    }
    opt("background", s.background, d.background);
    ground(s.ground);
    if (!s.primitives.empty()) {
        w_.key("primitives");
        w_.beginArray();
        for (const PrimitiveDesc& p : s.primitives) primitive(p);
        w_.endArray();
    }
    sun(s.sun);
    opt("ambient", s.ambient, d.ambient);
    if (!s.effects.empty()) {
        w_.key("effects");
        w_.beginArray();
        for (const EffectInstanceDesc& e : s.effects) instance(e);
        w_.endArray();
    }
    opt("duration_s", s.duration_s, d.duration_s);
    opt("fps", s.fps, d.fps);
    w_.endObject();
    return w_.text();
}

} // namespace

std::string saveScene(const SceneDesc& scene) {
    return SceneWriter{}.scene(scene);
}

} // namespace spindrift
