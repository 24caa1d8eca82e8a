// saveScene: the canonical text. Keys in scene_desc.h field order; a key whose value equals the
// documented default is left out (required keys never are). The camera writes the keys of its
// mode only, and a primitive those of its type, which is why validateScene requires the other
// mode's or type's fields to keep their defaults.
#include <array>

#include "authoring/value_writer.h"
#include "scene/scene_enum_names.h"
#include "spindrift/scene_json.h"

namespace spindrift {

namespace {

void writeCamera(json::DocumentWriter& out, const CameraDesc& camera) {
    out.object("camera", camera, [&](const CameraDesc& c, const CameraDesc& d) {
        if (c.mode == CameraMode::orbit) {
            // The key's presence is the mode, so it is written even when every setting is
            // default.
            out.objectMember("orbit", [&] {
                out.opt("center", c.orbit.center, d.orbit.center);
                out.opt("radius", c.orbit.radius, d.orbit.radius);
                out.opt("height", c.orbit.height, d.orbit.height);
                out.opt("period_s", c.orbit.period_s, d.orbit.period_s);
                out.opt("start_deg", c.orbit.start_deg, d.orbit.start_deg);
            });
        } else {
            out.req("position", c.position);
            out.req("target", c.target);
        }
        out.opt("fov_deg", c.fov_deg, d.fov_deg);
        out.opt("near", c.near, d.near);
        out.opt("far", c.far, d.far);
    });
}

void writePrimitive(json::DocumentWriter& out, const PrimitiveDesc& p, const PrimitiveDesc& d) {
    out.req("type", p.type);
    out.opt("center", p.center, d.center);
    if (p.type == PrimitiveKind::box) out.opt("size", p.size, d.size);
    if (p.type == PrimitiveKind::sphere) out.opt("radius", p.radius, d.radius);
    out.opt("color", p.color, d.color);
}

void writeInstance(json::DocumentWriter& out, const EffectInstanceDesc& e,
                   const EffectInstanceDesc& d) {
    out.req("effect", e.effect);
    out.opt("name", e.name, d.name);
    out.opt("position", e.position, d.position);
    out.opt("rotation_deg", e.rotation_deg, d.rotation_deg);
    if (e.path) {
        out.objectMember("path", [&] {
            out.rows("keys", e.path->keys, [](const MotionKey& k) {
                return std::array{k.t, k.offset.x, k.offset.y, k.offset.z};
            });
            out.opt("loop", e.path->loop, false);
        });
    }
    out.opt("start_s", e.start_s, d.start_s);
    out.opt("time_scale", e.time_scale, d.time_scale);
}

void writeScene(json::DocumentWriter& out, const SceneDesc& s) {
    const SceneDesc d;
    out.beginObject();
    out.req("version", s.version);
    writeCamera(out, s.camera);
    if (!(s.resolution == d.resolution)) {
        out.key("resolution");
        out.integerPair(s.resolution.width, s.resolution.height);
    }
    out.opt("background", s.background, d.background);
    out.object("ground", s.ground, [&](const GroundDesc& g, const GroundDesc& gd) {
        out.opt("enabled", g.enabled, gd.enabled);
        out.opt("height", g.height, gd.height);
        out.opt("color", g.color, gd.color);
        out.opt("size", g.size, gd.size);
    });
    out.objectList(
        "primitives", s.primitives,
        [&](const PrimitiveDesc& p, const PrimitiveDesc& pd) { writePrimitive(out, p, pd); });
    out.object("sun", s.sun, [&](const SunDesc& v, const SunDesc& sd) {
        out.opt("direction", v.direction, sd.direction);
        out.opt("color", v.color, sd.color);
        out.opt("intensity", v.intensity, sd.intensity);
    });
    out.opt("ambient", s.ambient, d.ambient);
    out.opt("transparency", s.transparency, d.transparency);
    out.objectList("effects", s.effects,
                   [&](const EffectInstanceDesc& e, const EffectInstanceDesc& ed) {
                       writeInstance(out, e, ed);
                   });
    out.opt("duration_s", s.duration_s, d.duration_s);
    out.opt("fps", s.fps, d.fps);
    out.endObject();
}

} // namespace

std::string saveScene(const SceneDesc& scene) {
    json::DocumentWriter out;
    writeScene(out, scene);
    return out.text();
}

} // namespace spindrift
