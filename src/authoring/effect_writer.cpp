// saveEffect: the canonical text. Keys in effect_desc.h field order; a key whose value equals
// the documented default is left out (required keys never are); a range with min == max is
// written as its one value, a constant curve as its number. Shape and render objects carry only
// the chosen type's keys (type_keys.h), which is why validateEffect requires the other types'
// fields to keep their defaults.
#include <array>

#include "authoring/enum_names.h"
#include "authoring/type_keys.h"
#include "authoring/value_writer.h"
#include "spindrift/effect_json.h"

namespace spindrift {

namespace {

struct ModuleFields {
    json::DocumentWriter& o;

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

void writeModule(json::DocumentWriter& out, const UpdateModule& m) {
    out.beginObject();
    out.req("type", std::string(moduleTypeName(m.module.index())));
    out.opt("enabled", m.enabled, true);
    std::visit(
        [&](const auto& module) {
            using T = std::decay_t<decltype(module)>;
            ModuleFields{out}(module, T{});
        },
        m.module);
    out.endObject();
}

void writeShape(json::DocumentWriter& out, const ShapeDesc& s) {
    out.object("shape", s, [&](const ShapeDesc& v, const ShapeDesc& d) {
        auto field = [&](const char* key, const auto& value, const auto& default_value) {
            if (shapeKeyApplies(v.type, key)) out.opt(key, value, default_value);
        };
        out.opt("type", v.type, d.type);
        out.opt("emit_from", v.emit_from, d.emit_from);
        field("radius", v.radius, d.radius);
        field("tube_radius", v.tube_radius, d.tube_radius);
        field("length", v.length, d.length);
        field("size", v.size, d.size);
        field("angle_deg", v.angle_deg, d.angle_deg);
        field("arc_deg", v.arc_deg, d.arc_deg);
        out.opt("randomize_direction", v.randomize_direction, d.randomize_direction);
        if (v.type == ShapeKind::mesh) {
            out.rows("points", v.points, [](const MeshPoint& p) {
                return std::array{p.position.x, p.position.y, p.position.z,
                                  p.normal.x,   p.normal.y,   p.normal.z};
            });
        }
    });
}

void writeColor(json::DocumentWriter& out, const ColorInit& c) {
    if (c == ColorInit{}) return;
    out.key("color");
    switch (c.mode) {
    case ColorMode::constant:
        out.put(c.a);
        break;
    case ColorMode::random_between:
        out.beginArray();
        out.put(c.a);
        out.put(c.b);
        out.endArray();
        break;
    case ColorMode::gradient:
        out.beginObject();
        out.req("gradient", c.gradient);
        out.endObject();
        break;
    default:
        out.null();
        break; // only an invalid description; null makes it fail to load
    }
}

void writeInit(json::DocumentWriter& out, const InitDesc& i) {
    out.object("init", i, [&](const InitDesc& v, const InitDesc& d) {
        out.opt("lifetime_s", v.lifetime_s, d.lifetime_s);
        out.opt("size", v.size, d.size);
        out.opt("rotation_deg", v.rotation_deg, d.rotation_deg);
        out.opt("angular_velocity_deg_per_s", v.angular_velocity_deg_per_s,
                d.angular_velocity_deg_per_s);
        out.opt("speed", v.speed, d.speed);
        out.opt("velocity", v.velocity, d.velocity);
        writeColor(out, v.color);
        out.opt("mass", v.mass, d.mass);
    });
}

void writeRender(json::DocumentWriter& out, const RenderDesc& r) {
    out.object("render", r, [&](const RenderDesc& v, const RenderDesc& d) {
        out.opt("type", v.type, d.type);
        out.opt("blend", v.blend, d.blend);
        out.opt("texture", v.texture, d.texture);
        out.opt("soft_fade_distance", v.soft_fade_distance, d.soft_fade_distance);
        out.opt("lit", v.lit, d.lit);
        out.opt("sort", v.sort, d.sort);
        out.opt("stable_order", v.stable_order, d.stable_order);
        switch (v.type) {
        case RenderType::billboard: {
            const BillboardDesc& b = v.billboard;
            out.opt("alignment", b.alignment, d.billboard.alignment);
            out.opt("axis", b.axis, d.billboard.axis);
            out.opt("stretch", b.stretch, d.billboard.stretch);
            out.object("flipbook", b.flipbook, [&](const Flipbook& f, const Flipbook& fd) {
                out.opt("columns", f.columns, fd.columns);
                out.opt("rows", f.rows, fd.rows);
                out.opt("frames", f.frames, fd.frames);
                out.opt("cycles", f.cycles, fd.cycles);
                out.opt("frame_blend", f.frame_blend, fd.frame_blend);
                out.opt("random_start", f.random_start, fd.random_start);
            });
            break;
        }
        case RenderType::ribbon:
            out.opt("width", v.ribbon.width, d.ribbon.width);
            out.opt("uv_tiling", v.ribbon.uv_tiling, d.ribbon.uv_tiling);
            out.opt("taper", v.ribbon.taper, d.ribbon.taper);
            out.opt("min_sample_distance", v.ribbon.min_sample_distance,
                    d.ribbon.min_sample_distance);
            out.opt("max_points", v.ribbon.max_points, d.ribbon.max_points);
            break;
        case RenderType::beam:
            out.opt("start", v.beam.start, d.beam.start);
            out.opt("end", v.beam.end, d.beam.end);
            out.opt("start_tangent", v.beam.start_tangent, d.beam.start_tangent);
            out.opt("end_tangent", v.beam.end_tangent, d.beam.end_tangent);
            out.opt("segments", v.beam.segments, d.beam.segments);
            out.opt("width", v.beam.width, d.beam.width);
            out.opt("sag", v.beam.sag, d.beam.sag);
            out.opt("jitter", v.beam.jitter, d.beam.jitter);
            out.opt("jitter_frequency", v.beam.jitter_frequency, d.beam.jitter_frequency);
            break;
        case RenderType::mesh:
            out.req("mesh", v.mesh.mesh);
            out.opt("scale", v.mesh.scale, d.mesh.scale);
            out.opt("tumble_deg_per_s", v.mesh.tumble_deg_per_s, d.mesh.tumble_deg_per_s);
            break;
        }
    });
}

void writeEmitter(json::DocumentWriter& out, const EmitterDesc& e) {
    const EmitterDesc d;
    out.beginObject();
    out.req("name", e.name);
    out.opt("enabled", e.enabled, d.enabled);
    out.opt("capacity", e.capacity, d.capacity);
    out.opt("overflow", e.overflow, d.overflow);
    out.object("transform", e.transform, [&](const Transform& v, const Transform& td) {
        out.opt("position", v.position, td.position);
        out.opt("rotation_deg", v.rotation_deg, td.rotation_deg);
    });
    out.opt("backend", e.backend, d.backend);
    out.object("spawn", e.spawn, [&](const SpawnDesc& v, const SpawnDesc& sd) {
        out.opt("rate_per_s", v.rate_per_s, sd.rate_per_s);
        out.opt("rate_per_m", v.rate_per_m, sd.rate_per_m);
        out.opt("delay_s", v.delay_s, sd.delay_s);
        out.objectList("bursts", v.bursts, [&](const Burst& b, const Burst& bd) {
            out.opt("time_s", b.time_s, bd.time_s);
            out.opt("count", b.count, bd.count);
            out.opt("cycles", b.cycles, bd.cycles);
            out.opt("interval_s", b.interval_s, bd.interval_s);
            out.opt("probability", b.probability, bd.probability);
        });
    });
    writeShape(out, e.shape);
    writeInit(out, e.init);
    out.list("update", e.update, [&](const UpdateModule& m) { writeModule(out, m); });
    writeRender(out, e.render);
    out.objectList("sub_emitters", e.sub_emitters,
                   [&](const SubEmitterDesc& s, const SubEmitterDesc& sd) {
                       out.opt("event", s.event, sd.event);
                       out.req("emitter", s.emitter);
                       out.opt("probability", s.probability, sd.probability);
                       out.opt("count", s.count, sd.count);
                       out.opt("inherit_velocity", s.inherit_velocity, sd.inherit_velocity);
                   });
    out.endObject();
}

void writeEffect(json::DocumentWriter& out, const EffectDesc& e) {
    const EffectDesc d;
    out.beginObject();
    out.req("version", e.version);
    out.req("name", e.name);
    out.opt("seed", e.seed, d.seed);
    out.opt("duration_s", e.duration_s, d.duration_s);
    out.opt("looping", e.looping, d.looping);
    out.opt("space", e.space, d.space);
    out.opt("fixed_timestep_s", e.fixed_timestep_s, d.fixed_timestep_s);
    out.object("bounds", e.bounds, [&](const Bounds& v, const Bounds& bd) {
        out.opt("center", v.center, bd.center);
        out.opt("half_extents", v.half_extents, bd.half_extents);
    });
    out.opt("capacity", e.capacity, d.capacity);
    // Required, so written even when empty.
    out.key("emitters");
    out.beginArray();
    for (const EmitterDesc& emitter : e.emitters) writeEmitter(out, emitter);
    out.endArray();
    out.endObject();
}

} // namespace

std::string saveEffect(const EffectDesc& effect) {
    json::DocumentWriter out;
    writeEffect(out, effect);
    return out.text();
}

} // namespace spindrift
