#include "authoring/effect_reader.h"

#include "authoring/direction.h"
#include "authoring/type_keys.h"
#include "spindrift/effect_json.h"

namespace spindrift {

namespace {

void readTransform(ReadContext& ctx, const json::Value& v, const std::string& path,
                   Transform& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"position", "rotation_deg"});
    readField(in, "position", out.position);
    readField(in, "rotation_deg", out.rotation_deg);
}

void readBounds(ReadContext& ctx, const json::Value& v, const std::string& path, Bounds& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"center", "half_extents"});
    readField(in, "center", out.center);
    readField(in, "half_extents", out.half_extents);
}

void readBurst(ReadContext& ctx, const json::Value& v, const std::string& path, Burst& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"time_s", "count", "cycles", "interval_s", "probability"});
    readField(in, "time_s", out.time_s);
    readField(in, "count", out.count);
    readField(in, "cycles", out.cycles);
    readField(in, "interval_s", out.interval_s);
    readField(in, "probability", out.probability);
}

void readSpawn(ReadContext& ctx, const json::Value& v, const std::string& path, SpawnDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"rate_per_s", "rate_per_m", "delay_s", "bursts"});
    readField(in, "rate_per_s", out.rate_per_s);
    readField(in, "rate_per_m", out.rate_per_m);
    readField(in, "delay_s", out.delay_s);
    if (const json::Value* bursts = in.member("bursts")) {
        readList(ctx, *bursts, in.childPath("bursts"), {0, kMaxBursts, "bursts"}, out.bursts,
                 [&](const json::Value& item, const std::string& p, Burst& burst) {
                     readBurst(ctx, item, p, burst);
                 });
    }
}

void readMeshPoint(ReadContext& ctx, const json::Value& v, const std::string& path,
                   MeshPoint& out) {
    float f[6];
    if (!readFloats(ctx, v, path, f, 6, "[px, py, pz, nx, ny, nz]", false)) return;
    Float3 normal{f[3], f[4], f[5]};
    if (!normalizeDirection(normal)) {
        ctx.error(path, v.pos,
                  "expected a non-zero normal, found [" + describe(v.items[3]) + ", " +
                      describe(v.items[4]) + ", " + describe(v.items[5]) + "]");
        return;
    }
    out = MeshPoint{{f[0], f[1], f[2]}, normal};
}

// Reports each present key that exists for some type but not for the chosen one. Such a key is
// then not read, so it cannot also fail a range check.
template <typename Applies>
void rejectForeignKeys(const ObjectIn& in, Applies applies, const std::string& what) {
    for (size_t i = 0; i < in.value.keys.size(); ++i) {
        if (applies(in.value.keys[i])) continue;
        const json::SourcePos pos =
            i < in.value.key_positions.size() ? in.value.key_positions[i] : in.value.pos;
        in.ctx.error(in.childPath(in.value.keys[i]), pos,
                     "'" + in.value.keys[i] + "' does not apply to " + what);
    }
}

bool isOneOf(std::span<const std::string_view> keys, std::string_view key) {
    for (std::string_view k : keys) {
        if (k == key) return true;
    }
    return false;
}

void readShape(ReadContext& ctx, const json::Value& v, const std::string& path, ShapeDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, allShapeKeys());
    const json::Value* type = in.member("type");
    const bool type_ok = type == nullptr || readEnum(ctx, *type, in.childPath("type"), out.type);
    // With an unknown type nothing can be said about the other keys: the whole shape is the one
    // mistake.
    if (!type_ok) ctx.reported.insert(path);
    auto applies = [&](std::string_view key) {
        return !type_ok || !isOneOf(allShapeKeys(), key) || shapeKeyApplies(out.type, key);
    };
    if (type_ok) {
        rejectForeignKeys(in, applies, std::string("shape type '") + enumName(out.type) + "'");
    }
    auto field = [&](std::string_view key, auto& value) {
        if (applies(key)) readField(in, key, value);
    };
    field("emit_from", out.emit_from);
    field("radius", out.radius);
    field("tube_radius", out.tube_radius);
    field("length", out.length);
    field("size", out.size);
    field("angle_deg", out.angle_deg);
    field("arc_deg", out.arc_deg);
    field("randomize_direction", out.randomize_direction);
    if (type_ok && out.type == ShapeKind::mesh) requireKey(in, "points");
    if (const json::Value* points = in.member("points"); points != nullptr && applies("points")) {
        readList(ctx, *points, in.childPath("points"), {1, kMaxMeshPoints, "mesh points"},
                 out.points, [&](const json::Value& item, const std::string& p, MeshPoint& point) {
                     readMeshPoint(ctx, item, p, point);
                 });
    }
}

void readColor(ReadContext& ctx, const json::Value& v, const std::string& path, ColorInit& out) {
    ctx.record(path, v.pos);
    if (v.kind == json::Kind::array && v.items.size() == 4) {
        Float4 a;
        if (readFloat4(ctx, v, path, a)) out = ColorInit{ColorMode::constant, a, {1, 1, 1, 1}, {}};
        return;
    }
    if (v.kind == json::Kind::array && v.items.size() == 2) {
        Float4 a, b;
        const bool ok_a = readFloat4(ctx, v.items[0], json::pathIndex(path, 0), a);
        const bool ok_b = readFloat4(ctx, v.items[1], json::pathIndex(path, 1), b);
        if (ok_a && ok_b) out = ColorInit{ColorMode::random_between, a, b, {}};
        return;
    }
    if (v.kind == json::Kind::object) {
        const ObjectIn in{ctx, v, path};
        checkKeys(in, {"gradient"});
        if (!requireKey(in, "gradient")) return;
        Gradient gradient;
        if (readField(in, "gradient", gradient)) {
            out = ColorInit{ColorMode::gradient, {1, 1, 1, 1}, {1, 1, 1, 1}, std::move(gradient)};
        }
        return;
    }
    ctx.error(path, v.pos,
              "expected [r, g, b, a], [[r, g, b, a], [r, g, b, a]] or {\"gradient\": {...}}, "
              "found " +
                  describe(v));
}

void readInit(ReadContext& ctx, const json::Value& v, const std::string& path, InitDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"lifetime_s", "size", "rotation_deg", "angular_velocity_deg_per_s", "speed",
                   "velocity", "color", "mass"});
    readField(in, "lifetime_s", out.lifetime_s);
    readField(in, "size", out.size);
    readField(in, "rotation_deg", out.rotation_deg);
    readField(in, "angular_velocity_deg_per_s", out.angular_velocity_deg_per_s);
    readField(in, "speed", out.speed);
    readField(in, "velocity", out.velocity);
    if (const json::Value* color = in.member("color")) {
        readColor(ctx, *color, in.childPath("color"), out.color);
    }
    readField(in, "mass", out.mass);
}

void readFlipbook(ReadContext& ctx, const json::Value& v, const std::string& path, Flipbook& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"columns", "rows", "frames", "cycles", "frame_blend", "random_start"});
    readField(in, "columns", out.columns);
    readField(in, "rows", out.rows);
    readField(in, "frames", out.frames);
    readField(in, "cycles", out.cycles);
    readField(in, "frame_blend", out.frame_blend);
    readField(in, "random_start", out.random_start);
}

void readRender(ReadContext& ctx, const json::Value& v, const std::string& path, RenderDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, allRenderKeys());
    const json::Value* type = in.member("type");
    const bool type_ok = type == nullptr || readEnum(ctx, *type, in.childPath("type"), out.type);
    if (!type_ok) ctx.reported.insert(path);
    auto applies = [&](std::string_view key) {
        return !type_ok || !isOneOf(allRenderKeys(), key) || renderKeyApplies(out.type, key);
    };
    if (type_ok) {
        rejectForeignKeys(in, applies, std::string("render type '") + enumName(out.type) + "'");
    }
    auto field = [&](std::string_view key, auto& value) {
        if (applies(key)) readField(in, key, value);
    };
    field("blend", out.blend);
    field("texture", out.texture);
    field("soft_fade_distance", out.soft_fade_distance);
    field("lit", out.lit);
    field("sort", out.sort);
    field("stable_order", out.stable_order);
    switch (out.type) {
    case RenderType::billboard:
        field("alignment", out.billboard.alignment);
        field("axis", out.billboard.axis);
        field("stretch", out.billboard.stretch);
        if (const json::Value* flipbook = in.member("flipbook"); flipbook && applies("flipbook")) {
            readFlipbook(ctx, *flipbook, in.childPath("flipbook"), out.billboard.flipbook);
        }
        break;
    case RenderType::ribbon:
        field("width", out.ribbon.width);
        field("uv_tiling", out.ribbon.uv_tiling);
        field("taper", out.ribbon.taper);
        field("min_sample_distance", out.ribbon.min_sample_distance);
        field("max_points", out.ribbon.max_points);
        break;
    case RenderType::beam:
        field("start", out.beam.start);
        field("end", out.beam.end);
        field("start_tangent", out.beam.start_tangent);
        field("end_tangent", out.beam.end_tangent);
        field("segments", out.beam.segments);
        field("width", out.beam.width);
        field("sag", out.beam.sag);
        field("jitter", out.beam.jitter);
        field("jitter_frequency", out.beam.jitter_frequency);
        break;
    case RenderType::mesh:
        if (type_ok) requireKey(in, "mesh");
        field("mesh", out.mesh.mesh);
        field("scale", out.mesh.scale);
        field("tumble_deg_per_s", out.mesh.tumble_deg_per_s);
        break;
    }
}

void readSubEmitter(ReadContext& ctx, const json::Value& v, const std::string& path,
                    SubEmitterDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"event", "emitter", "probability", "count", "inherit_velocity"});
    readField(in, "event", out.event);
    if (requireKey(in, "emitter")) readField(in, "emitter", out.emitter);
    readField(in, "probability", out.probability);
    readField(in, "count", out.count);
    readField(in, "inherit_velocity", out.inherit_velocity);
}

void readEmitter(ReadContext& ctx, const json::Value& v, const std::string& path,
                 EmitterDesc& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"name", "enabled", "capacity", "overflow", "transform", "backend", "spawn",
                   "shape", "init", "update", "render", "sub_emitters"});
    if (requireKey(in, "name")) readField(in, "name", out.name);
    readField(in, "enabled", out.enabled);
    readField(in, "capacity", out.capacity);
    readField(in, "overflow", out.overflow);
    if (const json::Value* m = in.member("transform")) {
        readTransform(ctx, *m, in.childPath("transform"), out.transform);
    }
    readField(in, "backend", out.backend);
    if (const json::Value* m = in.member("spawn"))
        readSpawn(ctx, *m, in.childPath("spawn"), out.spawn);
    if (const json::Value* m = in.member("shape"))
        readShape(ctx, *m, in.childPath("shape"), out.shape);
    if (const json::Value* m = in.member("init")) readInit(ctx, *m, in.childPath("init"), out.init);
    if (const json::Value* m = in.member("update")) {
        readList(ctx, *m, in.childPath("update"), {0, kMaxUpdateModules, "update modules"},
                 out.update,
                 [&](const json::Value& item, const std::string& p, UpdateModule& module) {
                     readUpdateModule(ctx, item, p, module);
                 });
    }
    if (const json::Value* m = in.member("render")) {
        readRender(ctx, *m, in.childPath("render"), out.render);
    }
    if (const json::Value* m = in.member("sub_emitters")) {
        readList(ctx, *m, in.childPath("sub_emitters"), {0, kMaxSubEmitters, "sub-emitters"},
                 out.sub_emitters,
                 [&](const json::Value& item, const std::string& p, SubEmitterDesc& sub) {
                     readSubEmitter(ctx, item, p, sub);
                 });
    }
}

} // namespace

bool readEffect(ReadContext& ctx, const json::Value& root, EffectDesc& out) {
    const std::string path = "$";
    if (!expectObject(ctx, root, path)) return false;
    const ObjectIn in{ctx, root, path};
    // The version decides what every other key means, so a document of another version is
    // reported once, not as a list of keys this reader does not know.
    if (requireKey(in, "version") && readField(in, "version", out.version) &&
        out.version != kEffectFormatVersion) {
        ctx.error(in.childPath("version"), root.find("version")->pos,
                  "unsupported format version " + std::to_string(out.version) + "; expected " +
                      std::to_string(kEffectFormatVersion));
        return false;
    }
    checkKeys(in, {"version", "name", "seed", "duration_s", "looping", "space", "fixed_timestep_s",
                   "bounds", "capacity", "emitters"});
    if (requireKey(in, "name")) readField(in, "name", out.name);
    readField(in, "seed", out.seed);
    readField(in, "duration_s", out.duration_s);
    readField(in, "looping", out.looping);
    readField(in, "space", out.space);
    readField(in, "fixed_timestep_s", out.fixed_timestep_s);
    if (const json::Value* m = in.member("bounds"))
        readBounds(ctx, *m, in.childPath("bounds"), out.bounds);
    readField(in, "capacity", out.capacity);
    if (requireKey(in, "emitters")) {
        readList(ctx, *root.find("emitters"), in.childPath("emitters"),
                 {1, kMaxEmitters, "emitters"}, out.emitters,
                 [&](const json::Value& item, const std::string& p, EmitterDesc& emitter) {
                     readEmitter(ctx, item, p, emitter);
                 });
    }
    return true;
}

} // namespace spindrift
