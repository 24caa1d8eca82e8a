// saveEffect: the canonical text. Keys in effect_desc.h field order; a key whose value equals
// the documented default is left out (required keys never are); a range with min == max is
// written as its one value, a constant curve as its number. Shape and render objects carry only
// the chosen type's keys (type_keys.h), which is why validateEffect requires the other types'
// fields to keep their defaults.
#include <cmath>

#include "authoring/enum_names.h"
#include "authoring/type_keys.h"
#include "io/json_writer.h"
#include "spindrift/effect_json.h"

namespace spindrift {

namespace {

class EffectWriter {
public:
    std::string finish() { return w_.text(); }

    // --- values
    void put(float f) { w_.value(f); }
    void put(uint32_t u) { w_.value(u); }
    void put(bool b) { w_.value(b); }
    void put(const std::string& s) { w_.value(std::string_view(s)); }
    template <typename E>
    requires std::is_enum_v<E>
    void put(E e) { w_.value(enumName(e)); }
    // Non-finite values come out as null (json::Writer), so an invalid description's text fails
    // to load instead of holding something JSON cannot.
    void floats(std::initializer_list<float> values) {
        w_.inlineArray(values.begin(), values.size());
    }
    void put(const Float3& v) { floats({v.x, v.y, v.z}); }
    void put(const Float4& v) { floats({v.x, v.y, v.z, v.w}); }
    void put(const FloatRange& r) {
        if (r.min == r.max) {
            put(r.min);
        } else {
            floats({r.min, r.max});
        }
    }
    void put(const Float3Range& r) {
        if (r.min == r.max) {
            put(r.min);
            return;
        }
        w_.beginArray();
        put(r.min);
        put(r.max);
        w_.endArray();
    }
    void put(const CountRange& r) {
        if (r.min == r.max) {
            put(r.min);
        } else if (isPlainInteger(r.min) && isPlainInteger(r.max)) {
            floats({float(r.min), float(r.max)}); // [10, 20] on one line, like other pairs
        } else {
            w_.beginArray();
            put(r.min);
            put(r.max);
            w_.endArray();
        }
    }
    // True when the float text of u is u's integer literal (the reader wants no exponent).
    static bool isPlainInteger(uint32_t u) {
        const float f = float(u);
        return uint32_t(f) == u && json::formatFloat(f).find('e') == std::string::npos;
    }
    void put(const Curve& c) {
        if (c.interpolation == Interpolation::linear && c.keys.size() == 1 && c.keys[0].t == 0) {
            put(c.keys[0].value);
            return;
        }
        const Curve d;
        w_.beginObject();
        opt("interpolation", c.interpolation, d.interpolation);
        if (!(c.keys == d.keys)) {
            w_.key("keys");
            w_.beginArray();
            for (const CurveKey& k : c.keys) floats({k.t, k.value});
            w_.endArray();
        }
        w_.endObject();
    }
    void put(const Gradient& g) {
        const Gradient d;
        w_.beginObject();
        opt("interpolation", g.interpolation, d.interpolation);
        if (!(g.color_keys == d.color_keys)) {
            w_.key("color_keys");
            w_.beginArray();
            for (const ColorKey& k : g.color_keys) {
                floats({k.t, k.color.x, k.color.y, k.color.z});
            }
            w_.endArray();
        }
        if (!(g.alpha_keys == d.alpha_keys)) {
            w_.key("alpha_keys");
            w_.beginArray();
            for (const AlphaKey& k : g.alpha_keys) floats({k.t, k.alpha});
            w_.endArray();
        }
        w_.endObject();
    }

    // --- members
    template <typename T> void req(const char* key, const T& value) {
        w_.key(key);
        put(value);
    }
    template <typename T> void opt(const char* key, const T& value, const T& default_value) {
        if (!(value == default_value)) req(key, value);
    }
    // A nested object, written only when it differs from its default.
    template <typename T, typename Body> void object(const char* key, const T& value, Body body) {
        if (value == T{}) return;
        w_.key(key);
        w_.beginObject();
        body(value, T{});
        w_.endObject();
    }
    template <typename T, typename Each>
    void list(const char* key, const std::vector<T>& items, Each each) {
        if (items.empty()) return;
        w_.key(key);
        w_.beginArray();
        for (const T& item : items) each(item);
        w_.endArray();
    }
    template <typename T, typename Body>
    void objectList(const char* key, const std::vector<T>& items, Body body) {
        list(key, items, [&](const T& item) {
            w_.beginObject();
            body(item, T{});
            w_.endObject();
        });
    }

    void effect(const EffectDesc& e);

private:
    void emitter(const EmitterDesc& e);
    void shape(const ShapeDesc& s);
    void init(const InitDesc& i);
    void color(const ColorInit& c);
    void module(const UpdateModule& m);
    void render(const RenderDesc& r);

    json::Writer w_;
};

struct ModuleFields {
    EffectWriter& o;

    void operator()(const GravityModule& m, const GravityModule& d) const {
        o.opt("acceleration", m.acceleration, d.acceleration);
    }
    void operator()(const BuoyancyModule& m, const BuoyancyModule& d) const {
        o.opt("acceleration", m.acceleration, d.acceleration);
        // The key's presence is has_over_life, so it is written even when the curve is default.
        if (m.has_over_life) o.req("over_life", m.over_life);
    }
    void operator()(const DragModule& m, const DragModule& d) const {
        o.opt("coefficient_per_s", m.coefficient_per_s, d.coefficient_per_s);
    }
    void operator()(const ForceModule& m, const ForceModule& d) const {
        o.opt("acceleration", m.acceleration, d.acceleration);
    }
    void operator()(const WindModule& m, const WindModule& d) const {
        o.opt("velocity", m.velocity, d.velocity);
        o.opt("coefficient_per_s", m.coefficient_per_s, d.coefficient_per_s);
    }
    void operator()(const SpeedLimitModule& m, const SpeedLimitModule& d) const {
        o.opt("max_speed", m.max_speed, d.max_speed);
        o.opt("damping_per_s", m.damping_per_s, d.damping_per_s);
    }
    void operator()(const CurlNoiseModule& m, const CurlNoiseModule& d) const {
        o.opt("strength", m.strength, d.strength);
        o.opt("frequency", m.frequency, d.frequency);
        o.opt("octaves", m.octaves, d.octaves);
        o.opt("scroll", m.scroll, d.scroll);
    }
    void operator()(const ForceFieldModule& m, const ForceFieldModule& d) const {
        o.opt("shape", m.shape, d.shape);
        o.opt("position", m.position, d.position);
        o.opt("axis", m.axis, d.axis);
        o.opt("strength", m.strength, d.strength);
        o.opt("radius", m.radius, d.radius);
        o.opt("falloff", m.falloff, d.falloff);
    }
    void operator()(const AttractorModule& m, const AttractorModule& d) const {
        o.opt("position", m.position, d.position);
        o.opt("strength", m.strength, d.strength);
        o.opt("radius", m.radius, d.radius);
        o.opt("kill_radius", m.kill_radius, d.kill_radius);
    }
    void operator()(const ColorOverLifeModule& m, const ColorOverLifeModule& d) const {
        o.opt("gradient", m.gradient, d.gradient);
    }
    void operator()(const SizeOverLifeModule& m, const SizeOverLifeModule& d) const {
        o.opt("curve", m.curve, d.curve);
    }
    void operator()(const RotationOverLifeModule& m, const RotationOverLifeModule& d) const {
        o.opt("angular_velocity_deg_per_s", m.angular_velocity_deg_per_s,
              d.angular_velocity_deg_per_s);
    }
    void operator()(const ColorBySpeedModule& m, const ColorBySpeedModule& d) const {
        o.opt("gradient", m.gradient, d.gradient);
        o.opt("min_speed", m.min_speed, d.min_speed);
        o.opt("max_speed", m.max_speed, d.max_speed);
    }
    void operator()(const SizeBySpeedModule& m, const SizeBySpeedModule& d) const {
        o.opt("curve", m.curve, d.curve);
        o.opt("min_speed", m.min_speed, d.min_speed);
        o.opt("max_speed", m.max_speed, d.max_speed);
    }
    void operator()(const CollisionModule& m, const CollisionModule& d) const {
        o.objectList("planes", m.planes, [&](const CollisionPlane& p, const CollisionPlane& pd) {
            o.opt("point", p.point, pd.point);
            o.opt("normal", p.normal, pd.normal);
        });
        o.objectList("spheres", m.spheres,
                     [&](const CollisionSphere& s, const CollisionSphere& sd) {
                         o.opt("center", s.center, sd.center);
                         o.opt("radius", s.radius, sd.radius);
                         o.opt("inside", s.inside, sd.inside);
                     });
        o.objectList("boxes", m.boxes, [&](const CollisionBox& b, const CollisionBox& bd) {
            o.opt("center", b.center, bd.center);
            o.opt("size", b.size, bd.size);
        });
        o.opt("depth_buffer", m.depth_buffer, d.depth_buffer);
        o.opt("response", m.response, d.response);
        o.opt("bounce", m.bounce, d.bounce);
        o.opt("friction", m.friction, d.friction);
        o.opt("lifetime_loss", m.lifetime_loss, d.lifetime_loss);
        o.opt("radius_scale", m.radius_scale, d.radius_scale);
    }
};

void EffectWriter::module(const UpdateModule& m) {
    w_.beginObject();
    req("type", std::string(moduleTypeName(m.module.index())));
    opt("enabled", m.enabled, true);
    std::visit(
        [&](const auto& module) {
            using T = std::decay_t<decltype(module)>;
            ModuleFields{*this}(module, T{});
        },
        m.module);
    w_.endObject();
}

void EffectWriter::shape(const ShapeDesc& s) {
    object("shape", s, [&](const ShapeDesc& v, const ShapeDesc& d) {
        auto field = [&](const char* key, const auto& value, const auto& default_value) {
            if (shapeKeyApplies(v.type, key)) opt(key, value, default_value);
        };
        opt("type", v.type, d.type);
        opt("emit_from", v.emit_from, d.emit_from);
        field("radius", v.radius, d.radius);
        field("tube_radius", v.tube_radius, d.tube_radius);
        field("length", v.length, d.length);
        field("size", v.size, d.size);
        field("angle_deg", v.angle_deg, d.angle_deg);
        field("arc_deg", v.arc_deg, d.arc_deg);
        opt("randomize_direction", v.randomize_direction, d.randomize_direction);
        if (v.type == ShapeKind::mesh) {
            w_.key("points");
            w_.beginArray();
            for (const MeshPoint& p : v.points) {
                floats(
                    {p.position.x, p.position.y, p.position.z, p.normal.x, p.normal.y, p.normal.z});
            }
            w_.endArray();
        }
    });
}

void EffectWriter::color(const ColorInit& c) {
    if (c == ColorInit{}) return;
    w_.key("color");
    switch (c.mode) {
    case ColorMode::constant:
        put(c.a);
        break;
    case ColorMode::random_between:
        w_.beginArray();
        put(c.a);
        put(c.b);
        w_.endArray();
        break;
    case ColorMode::gradient:
        w_.beginObject();
        req("gradient", c.gradient);
        w_.endObject();
        break;
    default:
        w_.null();
        break; // only an invalid description; null makes it fail to load
    }
}

void EffectWriter::init(const InitDesc& i) {
    object("init", i, [&](const InitDesc& v, const InitDesc& d) {
        opt("lifetime_s", v.lifetime_s, d.lifetime_s);
        opt("size", v.size, d.size);
        opt("rotation_deg", v.rotation_deg, d.rotation_deg);
        opt("angular_velocity_deg_per_s", v.angular_velocity_deg_per_s,
            d.angular_velocity_deg_per_s);
        opt("speed", v.speed, d.speed);
        opt("velocity", v.velocity, d.velocity);
        color(v.color);
        opt("mass", v.mass, d.mass);
    });
}

void EffectWriter::render(const RenderDesc& r) {
    object("render", r, [&](const RenderDesc& v, const RenderDesc& d) {
        opt("type", v.type, d.type);
        opt("blend", v.blend, d.blend);
        opt("texture", v.texture, d.texture);
        opt("soft_fade_distance", v.soft_fade_distance, d.soft_fade_distance);
        opt("lit", v.lit, d.lit);
        opt("sort", v.sort, d.sort);
        opt("stable_order", v.stable_order, d.stable_order);
        switch (v.type) {
        case RenderType::billboard: {
            const BillboardDesc& b = v.billboard;
            opt("alignment", b.alignment, d.billboard.alignment);
            opt("axis", b.axis, d.billboard.axis);
            opt("stretch", b.stretch, d.billboard.stretch);
            object("flipbook", b.flipbook, [&](const Flipbook& f, const Flipbook& fd) {
                opt("columns", f.columns, fd.columns);
                opt("rows", f.rows, fd.rows);
                opt("frames", f.frames, fd.frames);
                opt("cycles", f.cycles, fd.cycles);
                opt("frame_blend", f.frame_blend, fd.frame_blend);
                opt("random_start", f.random_start, fd.random_start);
            });
            break;
        }
        case RenderType::ribbon:
            opt("width", v.ribbon.width, d.ribbon.width);
            opt("uv_tiling", v.ribbon.uv_tiling, d.ribbon.uv_tiling);
            opt("taper", v.ribbon.taper, d.ribbon.taper);
            opt("min_sample_distance", v.ribbon.min_sample_distance, d.ribbon.min_sample_distance);
            opt("max_points", v.ribbon.max_points, d.ribbon.max_points);
            break;
        case RenderType::beam:
            opt("start", v.beam.start, d.beam.start);
            opt("end", v.beam.end, d.beam.end);
            opt("start_tangent", v.beam.start_tangent, d.beam.start_tangent);
            opt("end_tangent", v.beam.end_tangent, d.beam.end_tangent);
            opt("segments", v.beam.segments, d.beam.segments);
            opt("width", v.beam.width, d.beam.width);
            opt("sag", v.beam.sag, d.beam.sag);
            opt("jitter", v.beam.jitter, d.beam.jitter);
            opt("jitter_frequency", v.beam.jitter_frequency, d.beam.jitter_frequency);
            break;
        case RenderType::mesh:
            req("mesh", v.mesh.mesh);
            opt("scale", v.mesh.scale, d.mesh.scale);
            opt("tumble_deg_per_s", v.mesh.tumble_deg_per_s, d.mesh.tumble_deg_per_s);
            break;
        }
    });
}

void EffectWriter::emitter(const EmitterDesc& e) {
    const EmitterDesc d;
    w_.beginObject();
    req("name", e.name);
    opt("enabled", e.enabled, d.enabled);
    opt("capacity", e.capacity, d.capacity);
    opt("overflow", e.overflow, d.overflow);
    object("transform", e.transform, [&](const Transform& v, const Transform& td) {
        opt("position", v.position, td.position);
        opt("rotation_deg", v.rotation_deg, td.rotation_deg);
    });
    opt("backend", e.backend, d.backend);
    object("spawn", e.spawn, [&](const SpawnDesc& v, const SpawnDesc& sd) {
        opt("rate_per_s", v.rate_per_s, sd.rate_per_s);
        opt("rate_per_m", v.rate_per_m, sd.rate_per_m);
        opt("delay_s", v.delay_s, sd.delay_s);
        objectList("bursts", v.bursts, [&](const Burst& b, const Burst& bd) {
            opt("time_s", b.time_s, bd.time_s);
            opt("count", b.count, bd.count);
            opt("cycles", b.cycles, bd.cycles);
            opt("interval_s", b.interval_s, bd.interval_s);
            opt("probability", b.probability, bd.probability);
        });
    });
    shape(e.shape);
    init(e.init);
    list("update", e.update, [&](const UpdateModule& m) { module(m); });
    render(e.render);
    objectList("sub_emitters", e.sub_emitters,
               [&](const SubEmitterDesc& s, const SubEmitterDesc& sd) {
                   opt("event", s.event, sd.event);
                   req("emitter", s.emitter);
                   opt("probability", s.probability, sd.probability);
                   opt("count", s.count, sd.count);
                   opt("inherit_velocity", s.inherit_velocity, sd.inherit_velocity);
               });
    w_.endObject();
}

void EffectWriter::effect(const EffectDesc& e) {
    const EffectDesc d;
    w_.beginObject();
    req("version", e.version);
    req("name", e.name);
    opt("seed", e.seed, d.seed);
    opt("duration_s", e.duration_s, d.duration_s);
    opt("looping", e.looping, d.looping);
    opt("space", e.space, d.space);
    opt("fixed_timestep_s", e.fixed_timestep_s, d.fixed_timestep_s);
    object("bounds", e.bounds, [&](const Bounds& v, const Bounds& bd) {
        opt("center", v.center, bd.center);
        opt("half_extents", v.half_extents, bd.half_extents);
    });
    opt("capacity", e.capacity, d.capacity);
    w_.key("emitters");
    w_.beginArray();
    for (const EmitterDesc& emitter : e.emitters) this->emitter(emitter);
    w_.endArray();
    w_.endObject();
}

} // namespace

std::string saveEffect(const EffectDesc& effect) {
    EffectWriter writer;
    writer.effect(effect);
    return writer.finish();
}

} // namespace spindrift
