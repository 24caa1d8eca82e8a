// Update modules: {"type": NAME, "enabled": bool, ...that module's fields}.
#include <utility>

#include "authoring/direction.h"
#include "authoring/effect_reader.h"

namespace spindrift {

namespace {

template <size_t... I> UpdateModuleVariant makeModule(size_t index, std::index_sequence<I...>) {
    UpdateModuleVariant module;
    ((index == I ? (void)module.emplace<I>() : (void)0), ...);
    return module;
}

// Reads an axis or normal and normalises it; a zero vector is reported and not stored.
void readDirection(const ObjectIn& in, std::string_view key, Float3& out) {
    const json::Value* v = in.member(key);
    Float3 direction;
    if (v == nullptr || !readFloat3(in.ctx, *v, in.childPath(key), direction)) return;
    if (!normalizeDirection(direction)) {
        in.ctx.error(in.childPath(key), v->pos,
                     "expected a non-zero direction, found [" + describe(v->items[0]) + ", " +
                         describe(v->items[1]) + ", " + describe(v->items[2]) + "]");
        return;
    }
    out = direction;
}

// A list of colliders of one kind. Each list alone is held to kMaxColliders while reading; the
// limit on planes + spheres + boxes together is a rule (validateUpdateModules).
template <typename T, typename ReadOne>
void readObjectList(const ObjectIn& in, std::string_view key, const ListLimit& limit,
                    std::vector<T>& out, std::initializer_list<std::string_view> keys,
                    ReadOne read_one) {
    const json::Value* v = in.member(key);
    if (v == nullptr) return;
    readList(in.ctx, *v, in.childPath(key), limit, out,
             [&](const json::Value& item, const std::string& path, T& value) {
                 if (!expectObject(in.ctx, item, path)) return;
                 const ObjectIn item_in{in.ctx, item, path};
                 checkKeys(item_in, keys);
                 read_one(item_in, value);
             });
}

// One reader per module type; each lists its keys (with "type" and "enabled") and reads them.
struct ModuleReader {
    const ObjectIn& in;

    void keys(std::initializer_list<std::string_view> fields) const {
        std::vector<std::string_view> all = {"type", "enabled"};
        all.insert(all.end(), fields.begin(), fields.end());
        checkKeys(in, std::span<const std::string_view>(all));
    }

    void operator()(GravityModule& m) const {
        keys({"acceleration"});
        readField(in, "acceleration", m.acceleration);
    }
    void operator()(BuoyancyModule& m) const {
        keys({"acceleration", "over_life"});
        readField(in, "acceleration", m.acceleration);
        if (readField(in, "over_life", m.over_life)) m.has_over_life = true;
    }
    void operator()(DragModule& m) const {
        keys({"coefficient_per_s"});
        readField(in, "coefficient_per_s", m.coefficient_per_s);
    }
    void operator()(ForceModule& m) const {
        keys({"acceleration"});
        readField(in, "acceleration", m.acceleration);
    }
    void operator()(WindModule& m) const {
        keys({"velocity", "coefficient_per_s"});
        readField(in, "velocity", m.velocity);
        readField(in, "coefficient_per_s", m.coefficient_per_s);
    }
    void operator()(SpeedLimitModule& m) const {
        keys({"max_speed", "damping_per_s"});
        readField(in, "max_speed", m.max_speed);
        readField(in, "damping_per_s", m.damping_per_s);
    }
    void operator()(CurlNoiseModule& m) const {
        keys({"strength", "frequency", "octaves", "scroll"});
        readField(in, "strength", m.strength);
        readField(in, "frequency", m.frequency);
        readField(in, "octaves", m.octaves);
        readField(in, "scroll", m.scroll);
    }
    void operator()(ForceFieldModule& m) const {
        keys({"shape", "position", "axis", "strength", "radius", "falloff"});
        readField(in, "shape", m.shape);
        readField(in, "position", m.position);
        readDirection(in, "axis", m.axis);
        readField(in, "strength", m.strength);
        readField(in, "radius", m.radius);
        readField(in, "falloff", m.falloff);
    }
    void operator()(AttractorModule& m) const {
        keys({"position", "strength", "radius", "kill_radius"});
        readField(in, "position", m.position);
        readField(in, "strength", m.strength);
        readField(in, "radius", m.radius);
        readField(in, "kill_radius", m.kill_radius);
    }
    void operator()(ColorOverLifeModule& m) const {
        keys({"gradient"});
        readField(in, "gradient", m.gradient);
    }
    void operator()(SizeOverLifeModule& m) const {
        keys({"curve"});
        readField(in, "curve", m.curve);
    }
    void operator()(RotationOverLifeModule& m) const {
        keys({"angular_velocity_deg_per_s"});
        readField(in, "angular_velocity_deg_per_s", m.angular_velocity_deg_per_s);
    }
    void operator()(ColorBySpeedModule& m) const {
        keys({"gradient", "min_speed", "max_speed"});
        readField(in, "gradient", m.gradient);
        readField(in, "min_speed", m.min_speed);
        readField(in, "max_speed", m.max_speed);
    }
    void operator()(SizeBySpeedModule& m) const {
        keys({"curve", "min_speed", "max_speed"});
        readField(in, "curve", m.curve);
        readField(in, "min_speed", m.min_speed);
        readField(in, "max_speed", m.max_speed);
    }
    void operator()(CollisionModule& m) const {
        keys({"planes", "spheres", "boxes", "depth_buffer", "response", "bounce", "friction",
              "lifetime_loss", "radius_scale"});
        readObjectList(in, "planes", {0, kMaxColliders, "planes"}, m.planes, {"point", "normal"},
                       [](const ObjectIn& p, CollisionPlane& plane) {
                           readField(p, "point", plane.point);
                           readDirection(p, "normal", plane.normal);
                       });
        readObjectList(in, "spheres", {0, kMaxColliders, "spheres"}, m.spheres,
                       {"center", "radius", "inside"},
                       [](const ObjectIn& s, CollisionSphere& sphere) {
                           readField(s, "center", sphere.center);
                           readField(s, "radius", sphere.radius);
                           readField(s, "inside", sphere.inside);
                       });
        readObjectList(in, "boxes", {0, kMaxColliders, "boxes"}, m.boxes, {"center", "size"},
                       [](const ObjectIn& b, CollisionBox& box) {
                           readField(b, "center", box.center);
                           readField(b, "size", box.size);
                       });
        readField(in, "depth_buffer", m.depth_buffer);
        readField(in, "response", m.response);
        readField(in, "bounce", m.bounce);
        readField(in, "friction", m.friction);
        readField(in, "lifetime_loss", m.lifetime_loss);
        readField(in, "radius_scale", m.radius_scale);
    }
};

} // namespace

void readUpdateModule(ReadContext& ctx, const json::Value& v, const std::string& path,
                      UpdateModule& out) {
    if (!expectObject(ctx, v, path)) return;
    const ObjectIn in{ctx, v, path};
    if (!requireKey(in, "type")) {
        ctx.reported.insert(path);
        return;
    }
    std::string type;
    size_t index = 0;
    const json::Value* type_value = in.member("type");
    if (!readString(ctx, *type_value, in.childPath("type"), type)) {
        ctx.reported.insert(path);
        return;
    }
    if (!moduleTypeFromName(type, index)) {
        ctx.error(in.childPath("type"), type_value->pos,
                  "unknown module type '" + type + "'; expected one of: " + moduleTypeNameList());
        // The module's other keys mean nothing without a type; this is its one mistake.
        ctx.reported.insert(path);
        return;
    }
    UpdateModule module;
    module.module = makeModule(index, std::make_index_sequence<kModuleTypeCount>{});
    readField(in, "enabled", module.enabled);
    std::visit(ModuleReader{in}, module.module);
    out = std::move(module);
}

} // namespace spindrift
