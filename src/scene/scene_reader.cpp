#include "scene/scene_reader.h"

#include "authoring/direction.h"
#include "authoring/rule_checker.h"
#include "scene/scene_enum_names.h"
#include "spindrift/scene_json.h"

namespace spindrift {

namespace {

bool readRgb(ReadContext& ctx, const json::Value& v, const std::string& path, Float3& out) {
    float f[3];
    if (!readFloats(ctx, v, path, f, 3, "[r, g, b]")) return false;
    out = {f[0], f[1], f[2]};
    return true;
}

void rgbField(const ObjectIn& in, std::string_view key, Float3& out) {
    if (const json::Value* v = in.member(key)) readRgb(in.ctx, *v, in.childPath(key), out);
}

void readOrbit(ReadContext& ctx, const json::Value& v, const std::string& path, CameraOrbit& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"center", "radius", "height", "period_s", "start_deg"});
    readField(in, "center", out.center);
    readField(in, "radius", out.radius);
    readField(in, "height", out.height);
    readField(in, "period_s", out.period_s);
    readField(in, "start_deg", out.start_deg);
}

// The keys present choose the mode; both forms at once, or neither, is the one mistake.
void readCamera(ReadContext& ctx, const json::Value& v, const std::string& path, CameraDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"position", "target", "orbit", "fov_deg", "near", "far"});
    const bool has_look = v.find("position") != nullptr || v.find("target") != nullptr;
    const json::Value* orbit = in.member("orbit");
    if (orbit != nullptr && has_look) {
        ctx.error(in.childPath("orbit"), orbit->pos,
                  "a camera takes either 'position' and 'target' or 'orbit', not both");
    } else if (orbit != nullptr) {
        out.mode = CameraMode::orbit;
        readOrbit(ctx, *orbit, in.childPath("orbit"), out.orbit);
    } else if (has_look) {
        if (requireKey(in, "position")) readField(in, "position", out.position);
        if (requireKey(in, "target")) readField(in, "target", out.target);
    } else {
        ctx.error(path, v.pos, "expected a camera placement: 'position' and 'target', or 'orbit'");
    }
    readField(in, "fov_deg", out.fov_deg);
    readField(in, "near", out.near);
    readField(in, "far", out.far);
}

void readResolution(ReadContext& ctx, const json::Value& v, const std::string& path,
                    Resolution& out) {
    ctx.record(path, v.pos);
    if (v.kind != json::Kind::array || v.items.size() != 2) {
        ctx.error(path, v.pos, "expected [width, height], found " + describe(v));
        return;
    }
    Resolution r;
    const bool ok_w = readUint(ctx, v.items[0], json::pathIndex(path, 0), r.width);
    const bool ok_h = readUint(ctx, v.items[1], json::pathIndex(path, 1), r.height);
    if (ok_w && ok_h) out = r;
}

void readGround(ReadContext& ctx, const json::Value& v, const std::string& path, GroundDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"enabled", "height", "color", "size"});
    readField(in, "enabled", out.enabled);
    readField(in, "height", out.height);
    rgbField(in, "color", out.color);
    readField(in, "size", out.size);
}

bool primitiveKeyApplies(PrimitiveKind type, std::string_view key) {
    if (key == "size") return type == PrimitiveKind::box;
    if (key == "radius") return type == PrimitiveKind::sphere;
    return true;
}

void readPrimitive(ReadContext& ctx, const json::Value& v, const std::string& path,
                   PrimitiveDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"type", "center", "size", "radius", "color"});
    if (!requireKey(in, "type") || !readField(in, "type", out.type)) {
        // Without a type nothing can be said about size or radius: one mistake.
        ctx.reported.insert(path);
        return;
    }
    const std::string type_text = std::string("primitive type '") + enumName(out.type) + "'";
    for (size_t i = 0; i < v.keys.size(); ++i) {
        if (primitiveKeyApplies(out.type, v.keys[i])) continue;
        ctx.error(in.childPath(v.keys[i]), v.key_positions[i],
                  "'" + v.keys[i] + "' does not apply to " + type_text);
    }
    readField(in, "center", out.center);
    if (out.type == PrimitiveKind::box) readField(in, "size", out.size);
    if (out.type == PrimitiveKind::sphere) readField(in, "radius", out.radius);
    rgbField(in, "color", out.color);
}

void readSun(ReadContext& ctx, const json::Value& v, const std::string& path, SunDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"direction", "color", "intensity"});
    if (const json::Value* d = in.member("direction")) {
        Float3 direction;
        if (readFloat3(ctx, *d, in.childPath("direction"), direction)) {
            if (normalizeDirection(direction)) {
                out.direction = direction;
            } else {
                ctx.error(in.childPath("direction"), d->pos,
                          "expected a non-zero direction, found " + formatFloat3(direction));
            }
        }
    }
    rgbField(in, "color", out.color);
    readField(in, "intensity", out.intensity);
}

void readMotionPath(ReadContext& ctx, const json::Value& v, const std::string& path,
                    MotionPath& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"keys", "loop"});
    if (requireKey(in, "keys")) {
        readList(ctx, *v.find("keys"), in.childPath("keys"), {2, kMaxMotionPathKeys, "path keys"},
                 out.keys, [&](const json::Value& item, const std::string& p, MotionKey& key) {
                     float f[4];
                     if (readFloats(ctx, item, p, f, 4, "[t, x, y, z]")) {
                         key = MotionKey{f[0], {f[1], f[2], f[3]}};
                     }
                 });
    }
    readField(in, "loop", out.loop);
}

void readInstance(ReadContext& ctx, const json::Value& v, const std::string& path,
                  EffectInstanceDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"effect", "name", "position", "rotation_deg", "path", "start_s", "time_scale"});
    if (requireKey(in, "effect")) readField(in, "effect", out.effect);
    if (const json::Value* name = in.member("name")) {
        // An empty name would read back as "no name": absent is the one spelling of that.
        if (readString(ctx, *name, in.childPath("name"), out.name) && out.name.empty()) {
            ctx.error(in.childPath("name"), name->pos,
                      "expected a name of 1 to " + std::to_string(kMaxNameBytes) +
                          " characters from A-Z a-z 0-9 _ -, found '' (leave the key out for "
                          "no name)");
        }
    }
    readField(in, "position", out.position);
    readField(in, "rotation_deg", out.rotation_deg);
    if (const json::Value* motion = in.member("path")) {
        out.path.emplace();
        readMotionPath(ctx, *motion, in.childPath("path"), *out.path);
    }
    readField(in, "start_s", out.start_s);
    readField(in, "time_scale", out.time_scale);
}

} // namespace

bool readScene(ReadContext& ctx, const json::Value& root, SceneDesc& out) {
    const std::string path = "$";
    if (!expectObject(ctx, root, path)) return false;
    const ObjectIn in{ctx, root, path};
    // The version decides what every other key means (as in effect documents).
    if (requireKey(in, "version") && readField(in, "version", out.version) &&
        out.version != kSceneFormatVersion) {
        ctx.error(in.childPath("version"), root.find("version")->pos,
                  "unsupported scene format version " + std::to_string(out.version) +
                      "; expected " + std::to_string(kSceneFormatVersion));
        return false;
    }
    checkKeys(in, {"version", "camera", "resolution", "background", "ground", "primitives", "sun",
                   "ambient", "transparency", "effects", "duration_s", "fps"});
    if (const json::Value* m = in.member("camera"))
        readCamera(ctx, *m, in.childPath("camera"), out.camera);
    if (const json::Value* m = in.member("resolution"))
        readResolution(ctx, *m, in.childPath("resolution"), out.resolution);
    rgbField(in, "background", out.background);
    if (const json::Value* m = in.member("ground"))
        readGround(ctx, *m, in.childPath("ground"), out.ground);
    if (const json::Value* m = in.member("primitives")) {
        readList(ctx, *m, in.childPath("primitives"), {0, kMaxScenePrimitives, "primitives"},
                 out.primitives,
                 [&](const json::Value& item, const std::string& p, PrimitiveDesc& primitive) {
                     readPrimitive(ctx, item, p, primitive);
                 });
    }
    if (const json::Value* m = in.member("sun")) readSun(ctx, *m, in.childPath("sun"), out.sun);
    rgbField(in, "ambient", out.ambient);
    readField(in, "transparency", out.transparency);
    if (const json::Value* m = in.member("effects")) {
        readList(ctx, *m, in.childPath("effects"), {0, kMaxSceneEffects, "effect instances"},
                 out.effects,
                 [&](const json::Value& item, const std::string& p, EffectInstanceDesc& instance) {
                     readInstance(ctx, item, p, instance);
                 });
    }
    readField(in, "duration_s", out.duration_s);
    readField(in, "fps", out.fps);
    return true;
}

} // namespace spindrift
