#include "compiler/compile_effect.h"

#include <cmath>
#include <string>

#include "compiler/capabilities.h"
#include "compiler/lut_bake.h"
#include "compiler/parameter_bindings.h"
#include "compiler/structural_hash.h"
#include "compiler/trail_limits.h"
#include "kernels/blackbody.h"
#include "spindrift/effect_json.h"

namespace spindrift {
namespace {

constexpr double kPi = 3.14159265358979323846;

float radians(float degrees) {
    return static_cast<float>(degrees * (kPi / 180.0));
}

vec4 point4(const Float3& v) {
    return vec4(v.x, v.y, v.z, 0.0f);
}

vec4 color4(const Float4& c) {
    return vec4(c.x, c.y, c.z, c.w);
}

// A unit vector along v (v is validated non-zero; a zero vector stays zero).
vec4 unit4(const Float3& v) {
    const double length = std::sqrt(double{v.x} * v.x + double{v.y} * v.y + double{v.z} * v.z);
    if (length == 0.0) return vec4(0.0f);
    return vec4(static_cast<float>(v.x / length), static_cast<float>(v.y / length),
                static_cast<float>(v.z / length), 0.0f);
}

uint32_t u32(size_t value) {
    return static_cast<uint32_t>(value);
}

std::string emitterPath(size_t source_index) {
    return "$.emitters[" + std::to_string(source_index) + "]";
}

struct StringRef {
    uint32_t offset = kNone;
    uint32_t length = 0;
};

StringRef addString(std::string& table, const std::string& text) {
    if (text.empty()) return {};
    StringRef ref{u32(table.size()), u32(text.size())};
    table += text;
    return ref;
}

// parent_from_emitter = Rz * Ry * Rx (extrinsic X, then Y, then Z), rows as 3x4 with the
// translation in w. Computed in double so the matrix is the correctly rounded one.
void placeEmitter(const Transform& t, EmitterRecord& r) {
    const double x = t.rotation_deg.x * (kPi / 180.0);
    const double y = t.rotation_deg.y * (kPi / 180.0);
    const double z = t.rotation_deg.z * (kPi / 180.0);
    const double cx = std::cos(x), sx = std::sin(x);
    const double cy = std::cos(y), sy = std::sin(y);
    const double cz = std::cos(z), sz = std::sin(z);
    auto row = [](double a, double b, double c, float w) {
        return vec4(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c), w);
    };
    r.transform_row0 = row(cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx, t.position.x);
    r.transform_row1 = row(sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx, t.position.y);
    r.transform_row2 = row(-sy, cy * sx, cy * cx, t.position.z);
}

// An op under construction; its LUT row is added to the atlas once fusion is done with it.
struct PendingOp {
    OpRecord record{};
    LutRow row{};
    bool has_row = false;
};

// The kernel clamps to the range the rules hold a blackbody module's temperatures to.
static_assert(kBlackbodyMinKelvin == kMinBlackbodyKelvin &&
              kBlackbodyMaxKelvin == kMaxBlackbodyKelvin);

OpRecord newOp(uint32_t code, uint32_t module_index) {
    OpRecord op{};
    op.op = code;
    op.lut_row = kNone;
    op.source_module = module_index;
    op.source_count = 1;
    return op;
}

// The op code a module compiles to (before fusion).
uint32_t opCodeOf(const UpdateModuleVariant& module) {
    constexpr uint32_t kByVariant[] = {
        kOpAcceleration, kOpBuoyancy,         kOpDrag,         kOpAcceleration, kOpWind,
        kOpSpeedLimit,   kOpCurlNoise,        kOpForceFields,  kOpAttractor,    kOpColorOverLife,
        kOpSizeOverLife, kOpRotationOverLife, kOpColorBySpeed, kOpSizeBySpeed,  kOpCollision,
        kOpForceFields,  kOpBlackbody,
    };
    static_assert(std::size(kByVariant) == std::variant_size_v<UpdateModuleVariant>);
    return kByVariant[module.index()];
}

// Whether a module may merge into the op before it (docs/compiled-records.md, "Fusion").
bool fusesInto(uint32_t previous_op, uint32_t op) {
    if (previous_op != op) return false;
    switch (op) {
    case kOpAcceleration:
    case kOpDrag:
    case kOpForceFields:
    case kOpColorOverLife:
    case kOpSizeOverLife:
    case kOpRotationOverLife:
        return true;
    default:
        return false;
    }
}

class EmitterCompiler {
public:
    EmitterCompiler(CompiledEffect& out, EmitterRecord& record) : out_(out), record_(record) {}

    // bound[i]: module i has a value bound to a parameter. Such a module is never fused, into
    // the op before it or with the one after, so its op holds its own value for the instance to
    // overwrite (compiler/parameter_bindings.h).
    void compileUpdate(const std::vector<UpdateModule>& modules, const std::vector<bool>& bound) {
        std::vector<PendingOp> ops;
        bool previous_bound = false;
        for (size_t i = 0; i < modules.size(); ++i) {
            if (!modules[i].enabled) continue;
            const UpdateModuleVariant& m = modules[i].module;
            const uint32_t code = opCodeOf(m);
            const bool is_bound = i < bound.size() && bound[i];
            // The host's attractors are an op of their own (the world fills its range per step).
            const bool world =
                std::holds_alternative<WorldAttractorsModule>(m) ||
                (!ops.empty() && (ops.back().record.flags & kOpFlagWorldAttractors) != 0u);
            const bool may_fuse = !is_bound && !previous_bound && !world;
            previous_bound = is_bound;
            if (may_fuse && !ops.empty() && fusesInto(ops.back().record.op, code) &&
                tryFuse(ops.back(), m)) {
                continue;
            }
            ops.push_back(start(code, u32(i), m));
        }
        record_.op_first = u32(out_.ops.size());
        record_.op_count = u32(ops.size());
        for (PendingOp& p : ops) {
            if (p.has_row) p.record.lut_row = addLutRow(out_.lut, p.row);
            out_.ops.push_back(p.record);
        }
    }

private:
    PendingOp start(uint32_t code, uint32_t module_index, const UpdateModuleVariant& m) {
        PendingOp p;
        p.record = newOp(code, module_index);
        OpRecord& op = p.record;
        if (const auto* g = std::get_if<GravityModule>(&m)) {
            op.params0 = point4(g->acceleration);
        } else if (const auto* f = std::get_if<ForceModule>(&m)) {
            op.params0 = point4(f->acceleration);
        } else if (const auto* b = std::get_if<BuoyancyModule>(&m)) {
            op.params0.x = b->acceleration;
            if (b->has_over_life) setRow(p, bakeCurve(b->over_life, 1.0f));
        } else if (const auto* d = std::get_if<DragModule>(&m)) {
            op.params0.x = d->coefficient_per_s;
        } else if (const auto* w = std::get_if<WindModule>(&m)) {
            op.params0 = vec4(w->velocity.x, w->velocity.y, w->velocity.z, w->coefficient_per_s);
        } else if (const auto* s = std::get_if<SpeedLimitModule>(&m)) {
            op.params0 = vec4(s->max_speed, s->damping_per_s, 0.0f, 0.0f);
        } else if (const auto* c = std::get_if<CurlNoiseModule>(&m)) {
            op.mode = c->octaves;
            op.params0 = vec4(c->strength, c->frequency, 0.0f, 0.0f);
            op.params1 = point4(c->scroll);
        } else if (const auto* ff = std::get_if<ForceFieldModule>(&m)) {
            op.first = u32(out_.force_fields.size());
            addForceField(op, *ff);
        } else if (const auto* a = std::get_if<AttractorModule>(&m)) {
            op.params0 = vec4(a->position.x, a->position.y, a->position.z, a->strength);
            op.params1 = vec4(a->radius, a->kill_radius, 0.0f, 0.0f);
        } else if (const auto* col = std::get_if<ColorOverLifeModule>(&m)) {
            setRow(p, bakeGradient(col->gradient));
        } else if (const auto* sol = std::get_if<SizeOverLifeModule>(&m)) {
            setRow(p, bakeCurve(sol->curve, 1.0f));
        } else if (const auto* rol = std::get_if<RotationOverLifeModule>(&m)) {
            setRow(p, bakeCurve(rol->angular_velocity_deg_per_s, radians(1.0f)));
        } else if (const auto* cbs = std::get_if<ColorBySpeedModule>(&m)) {
            setRow(p, bakeGradient(cbs->gradient));
            op.params0 = speedRange(cbs->min_speed, cbs->max_speed);
        } else if (const auto* sbs = std::get_if<SizeBySpeedModule>(&m)) {
            setRow(p, bakeCurve(sbs->curve, 1.0f));
            op.params0 = speedRange(sbs->min_speed, sbs->max_speed);
        } else if (const auto* cm = std::get_if<CollisionModule>(&m)) {
            compileCollision(op, *cm);
        } else if (const auto* bb = std::get_if<BlackbodyModule>(&m)) {
            setRow(p, bakeCurve(bb->temperature_k, 1.0f));
            op.params0.x = bb->intensity;
        } else if (const auto* wa = std::get_if<WorldAttractorsModule>(&m)) {
            op.first = u32(out_.force_fields.size());
            op.count = 0;
            op.flags = kOpFlagWorldAttractors;
            op.params0 = vec4(static_cast<float>(wa->attractor_mask), wa->strength_scale, 0, 0);
        }
        return p;
    }

    // Merges module m into the op p (fusesInto said they are compatible).
    // Fuses m into p unless the fused values would overflow to a non-finite number (huge but
    // valid authored values); then the modules stay separate ops, which is always exact.
    bool tryFuse(PendingOp& p, const UpdateModuleVariant& m) {
        if (std::holds_alternative<ForceFieldModule>(m)) {
            fuse(p, m); // no arithmetic: the field is appended to the op's range
            return true;
        }
        PendingOp fused = p;
        fuse(fused, m);
        if (!allFinite(fused.record.params0)) return false;
        for (const vec4& texel : fused.row) {
            if (!allFinite(texel)) return false;
        }
        p = fused;
        return true;
    }

    static bool allFinite(const vec4& v) {
        return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.w);
    }

    void fuse(PendingOp& p, const UpdateModuleVariant& m) {
        OpRecord& op = p.record;
        ++op.source_count;
        if (const auto* g = std::get_if<GravityModule>(&m)) {
            op.params0 += point4(g->acceleration);
        } else if (const auto* f = std::get_if<ForceModule>(&m)) {
            op.params0 += point4(f->acceleration);
        } else if (const auto* d = std::get_if<DragModule>(&m)) {
            op.params0.x += d->coefficient_per_s;
        } else if (const auto* ff = std::get_if<ForceFieldModule>(&m)) {
            addForceField(op, *ff);
        } else if (const auto* col = std::get_if<ColorOverLifeModule>(&m)) {
            const LutRow next = bakeGradient(col->gradient);
            for (uint32_t i = 0; i < kLutWidth; ++i) p.row[i] *= next[i];
        } else if (const auto* sol = std::get_if<SizeOverLifeModule>(&m)) {
            const LutRow next = bakeCurve(sol->curve, 1.0f);
            for (uint32_t i = 0; i < kLutWidth; ++i) p.row[i].x *= next[i].x;
        } else if (const auto* rol = std::get_if<RotationOverLifeModule>(&m)) {
            const LutRow next = bakeCurve(rol->angular_velocity_deg_per_s, radians(1.0f));
            for (uint32_t i = 0; i < kLutWidth; ++i) p.row[i].x += next[i].x;
        }
    }

    static void setRow(PendingOp& p, const LutRow& row) {
        p.row = row;
        p.has_row = true;
    }

    // x = min_speed, y = max_speed (kernels normalise speed by their difference).
    static vec4 speedRange(float min_speed, float max_speed) {
        return vec4(min_speed, max_speed, 0.0f, 0.0f);
    }

    void addForceField(OpRecord& op, const ForceFieldModule& m) {
        ForceFieldRecord f{};
        f.shape = static_cast<uint32_t>(m.shape);
        f.strength = m.strength;
        f.radius = m.radius;
        f.falloff = m.falloff;
        f.position = point4(m.position);
        f.axis = unit4(m.axis);
        out_.force_fields.push_back(f);
        ++op.count;
    }

    void compileCollision(OpRecord& op, const CollisionModule& m) {
        op.first = u32(out_.colliders.size());
        op.mode = static_cast<uint32_t>(m.response);
        op.flags = (m.depth_buffer ? kOpFlagDepthBuffer : 0u) |
                   (m.world_colliders ? kOpFlagWorldColliders : 0u);
        op.params0 = vec4(m.bounce, m.friction, m.lifetime_loss, m.radius_scale);
        // The group mask only matters to an op that meets the world (a whole number below 2^24,
        // exact in a float); other ops keep params1 zero, as their records always were.
        // A depth op's thickness is params1.y (driver/world_inputs.h, sceneDepthThickness).
        if (op.flags != 0u) {
            op.params1 = vec4(static_cast<float>(m.collision_mask),
                              m.depth_buffer ? m.depth_thickness : 0.0f, 0, 0);
        }
        for (const CollisionPlane& plane : m.planes) {
            ColliderRecord c{};
            c.kind = kColliderPlane;
            c.position = point4(plane.point);
            c.extent = unit4(plane.normal);
            out_.colliders.push_back(c);
        }
        for (const CollisionSphere& sphere : m.spheres) {
            ColliderRecord c{};
            c.kind = kColliderSphere;
            c.flags = sphere.inside ? kColliderFlagInside : 0u;
            c.radius = sphere.radius;
            c.position = point4(sphere.center);
            out_.colliders.push_back(c);
        }
        for (const CollisionBox& box : m.boxes) {
            ColliderRecord c{};
            c.kind = kColliderBox;
            c.position = point4(box.center);
            c.extent = vec4(box.size.x * 0.5f, box.size.y * 0.5f, box.size.z * 0.5f, 0.0f);
            out_.colliders.push_back(c);
        }
        op.count = u32(out_.colliders.size()) - op.first;
    }

    CompiledEffect& out_;
    EmitterRecord& record_;
};

void compileSpawnShapeInit(const EmitterDesc& e, CompiledEffect& out, EmitterRecord& r) {
    r.rate_per_s = e.spawn.rate_per_s;
    r.rate_per_m = e.spawn.rate_per_m;
    r.delay_s = e.spawn.delay_s;
    r.burst_first = u32(out.bursts.size());
    r.burst_count = u32(e.spawn.bursts.size());
    for (const Burst& b : e.spawn.bursts) {
        BurstRecord br{};
        br.time_s = b.time_s;
        br.count_min = b.count.min;
        br.count_max = b.count.max;
        br.cycles = b.cycles;
        br.interval_s = b.interval_s;
        br.probability = b.probability;
        out.bursts.push_back(br);
    }

    const ShapeDesc& s = e.shape;
    r.shape_kind = static_cast<uint32_t>(s.type);
    r.emit_from = static_cast<uint32_t>(s.emit_from);
    r.randomize_direction = s.randomize_direction;
    r.shape_radius = s.radius;
    r.shape_tube_radius = s.tube_radius;
    r.shape_length = s.length;
    r.shape_angle_rad = radians(s.angle_deg);
    r.shape_size = vec4(s.size.x, s.size.y, s.size.z, radians(s.arc_deg));
    r.mesh_point_first = u32(out.mesh_points.size());
    r.mesh_point_count = s.type == ShapeKind::mesh ? u32(s.points.size()) : 0u;
    if (s.type == ShapeKind::mesh) {
        for (const MeshPoint& p : s.points)
            out.mesh_points.push_back({point4(p.position), unit4(p.normal)});
    }

    const InitDesc& i = e.init;
    r.lifetime_min_s = i.lifetime_s.min;
    r.lifetime_max_s = i.lifetime_s.max;
    r.size_min = i.size.min;
    r.size_max = i.size.max;
    r.rotation_min_rad = radians(i.rotation_deg.min);
    r.rotation_max_rad = radians(i.rotation_deg.max);
    r.angular_velocity_min_rad_per_s = radians(i.angular_velocity_deg_per_s.min);
    r.angular_velocity_max_rad_per_s = radians(i.angular_velocity_deg_per_s.max);
    r.speed_min = i.speed.min;
    r.speed_max = i.speed.max;
    r.mass_min = i.mass.min;
    r.mass_max = i.mass.max;
    r.velocity_min = point4(i.velocity.min);
    r.velocity_max = point4(i.velocity.max);
    r.color_mode = static_cast<uint32_t>(i.color.mode);
    r.color_lut_row = kNone;
    if (i.color.mode == ColorMode::gradient) {
        r.color_lut_row = addLutRow(out.lut, bakeGradient(i.color.gradient));
    } else {
        r.color_a = color4(i.color.a);
        r.color_b =
            i.color.mode == ColorMode::random_between ? color4(i.color.b) : color4(i.color.a);
    }
}

// Only the chosen render type's parameters are read from the description; the other types'
// fields hold their documented defaults, so records do not depend on values that do not apply.
RenderDesc applicableRender(const RenderDesc& authored) {
    RenderDesc d;
    d.type = authored.type;
    d.blend = authored.blend;
    d.texture = authored.texture;
    d.soft_fade_distance = authored.soft_fade_distance;
    d.lit = authored.lit;
    d.sort = authored.sort;
    d.stable_order = authored.stable_order;
    d.emissive = authored.emissive;
    d.emissive_share = authored.emissive_share;
    d.shadow_cutout = authored.shadow_cutout;
    switch (authored.type) {
    case RenderType::billboard:
        d.billboard = authored.billboard;
        break;
    case RenderType::ribbon:
        d.ribbon = authored.ribbon;
        break;
    case RenderType::beam:
        d.beam = authored.beam;
        break;
    case RenderType::mesh:
        d.mesh = authored.mesh;
        break;
    }
    return d;
}

void compileRender(const RenderDesc& authored, CompiledEffect& out, EmitterRecord& r) {
    const RenderDesc d = applicableRender(authored);
    r.render_type = static_cast<uint32_t>(d.type);
    r.blend = static_cast<uint32_t>(d.blend);
    r.sort = static_cast<uint32_t>(d.sort);
    r.soft_fade_distance = d.soft_fade_distance;
    r.emission = vec4(d.emissive, d.emissive_share,
                      d.type == RenderType::billboard ? d.billboard.distortion : 0.0f, 0.0f);
    const StringRef texture = addString(out.strings, d.texture);
    r.texture_offset = texture.offset;
    r.texture_length = texture.length;
    const StringRef mesh = addString(out.strings, d.type == RenderType::mesh ? d.mesh.mesh : "");
    r.mesh_offset = mesh.offset;
    r.mesh_length = mesh.length;

    const BillboardDesc& b = d.billboard;
    r.alignment = static_cast<uint32_t>(b.alignment);
    r.axis = unit4(b.axis);
    r.axis.w = b.stretch;
    r.flipbook_columns = b.flipbook.columns;
    r.flipbook_rows = b.flipbook.rows;
    r.flipbook_frames = b.flipbook.frames;
    r.flipbook_cycles = b.flipbook.cycles;
    r.render_flags =
        (d.lit ? kRenderFlagLit : 0u) | (d.stable_order ? kRenderFlagStableOrder : 0u) |
        (b.flipbook.frame_blend ? kRenderFlagFrameBlend : 0u) |
        (b.flipbook.random_start ? kRenderFlagRandomStart : 0u) |
        (d.shadow_cutout ? kRenderFlagShadowCutout : 0u) |
        (d.type == RenderType::billboard && b.distortion > 0 ? kRenderFlagDistortion : 0u) |
        (d.type == RenderType::billboard && d.lit && b.lighting == BillboardLighting::per_particle
             ? kRenderFlagLitPerParticle
             : 0u);

    r.ribbon_width = d.ribbon.width;
    r.ribbon_uv_tiling = d.ribbon.uv_tiling;
    r.ribbon_taper = d.ribbon.taper;
    r.ribbon_min_sample_distance = d.ribbon.min_sample_distance;
    r.ribbon_max_points = d.ribbon.max_points;

    const BeamDesc& beam = d.beam;
    r.beam_segments = beam.segments;
    r.beam_start = vec4(beam.start.x, beam.start.y, beam.start.z, beam.width);
    r.beam_end = vec4(beam.end.x, beam.end.y, beam.end.z, beam.sag);
    r.beam_start_tangent =
        vec4(beam.start_tangent.x, beam.start_tangent.y, beam.start_tangent.z, beam.jitter);
    r.beam_end_tangent =
        vec4(beam.end_tangent.x, beam.end_tangent.y, beam.end_tangent.z, beam.jitter_frequency);

    r.mesh_scale = d.mesh.scale;
    r.mesh_tumble_rad_per_s = radians(d.mesh.tumble_deg_per_s);
}

// Sub-emitter links need every emitter's compiled index, so they are resolved after all
// emitters are placed. compiled_index[i] is kNone for a disabled authored emitter i.
void compileSubEmitters(const EffectDesc& effect, const std::vector<uint32_t>& compiled_index,
                        CompiledEffect& out, std::vector<Diagnostic>& diagnostics) {
    for (EmitterRecord& r : out.emitters) {
        const EmitterDesc& e = effect.emitters[r.source_index];
        r.sub_emitter_first = u32(out.sub_emitters.size());
        for (size_t k = 0; k < e.sub_emitters.size(); ++k) {
            const SubEmitterDesc& s = e.sub_emitters[k];
            const std::string path =
                emitterPath(r.source_index) + ".sub_emitters[" + std::to_string(k) + "].emitter";
            uint32_t target = kNone;
            bool found = false;
            for (size_t j = 0; j < effect.emitters.size(); ++j) {
                if (effect.emitters[j].name != s.emitter) continue;
                found = true;
                target = compiled_index[j];
            }
            if (!found) {
                diagnostics.push_back({Severity::error, "", 0, 0, 0, path,
                                       "no emitter is named '" + s.emitter + "'"});
                continue;
            }
            if (target == kNone) {
                diagnostics.push_back(
                    {Severity::warning, "", 0, 0, 0, path,
                     "emitter '" + s.emitter + "' is disabled; this sub-emitter link is dropped"});
                continue;
            }
            SubEmitterRecord sr{};
            sr.event = static_cast<uint32_t>(s.event);
            sr.emitter = target;
            sr.probability = s.probability;
            sr.inherit_velocity = s.inherit_velocity;
            sr.count_min = s.count.min;
            sr.count_max = s.count.max;
            out.sub_emitters.push_back(sr);
        }
        r.sub_emitter_count = u32(out.sub_emitters.size()) - r.sub_emitter_first;
    }
}

// Per update module of authored emitter `emitter`: whether a parameter is bound to one of its
// values.
std::vector<bool> boundModules(const EffectDesc& effect, size_t emitter) {
    std::vector<bool> bound;
    for (const ParameterBinding& b : effect.parameter_bindings) {
        if (b.emitter != emitter || b.target < ParameterTarget::gravity_acceleration) continue;
        if (b.item >= bound.size()) bound.resize(size_t{b.item} + 1, false);
        bound[b.item] = true;
    }
    return bound;
}

// The emitters' events blocks: one record per compiled emitter when any asks for something,
// none at all otherwise (so an effect without events compiles to the records it always had).
// The scalability block and the cosmetic emitters: one record, or none when all are default.
void compileScalability(const EffectDesc& effect, CompiledEffect& out) {
    const ScalabilityDesc& s = effect.scalability;
    ScalabilityRecord r;
    r.sleep_distance_m = s.sleep_distance_m;
    r.fade_band_m = s.fade_band_m;
    r.max_fast_forward_s = s.max_fast_forward_s;
    r.flags = (s.wake == WakePolicy::restart ? kScalabilityWakeRestart : 0u) |
              (s.when_culled == CulledPolicy::sleep ? kScalabilityCulledSleeps : 0u);
    bool any_cosmetic = false;
    for (uint32_t e = 0; e < out.emitters.size(); ++e) {
        if (!effect.emitters[out.emitters[e].source_index].cosmetic) continue;
        any_cosmetic = true;
        (e < 32 ? r.cosmetic_lo : r.cosmetic_hi) |= 1u << (e % 32);
    }
    if (s == ScalabilityDesc{} && !any_cosmetic) return;
    out.scalability.push_back(r);
}

void compileEmitterEvents(const EffectDesc& effect, CompiledEffect& out) {
    const EventsDesc kOff{};
    bool any = false;
    for (const EmitterRecord& r : out.emitters) {
        const EventsDesc& ev = effect.emitters[r.source_index].events;
        any = any || ev.birth || ev.death || ev.collision || ev.threshold ||
              ev.threshold_at.quantity != kOff.threshold_at.quantity;
    }
    if (!any) return;
    for (const EmitterRecord& r : out.emitters) {
        const EventsDesc& ev = effect.emitters[r.source_index].events;
        EmitterEventsRecord er{};
        er.kinds = (ev.birth ? 1u << kEventBirth : 0u) | (ev.death ? 1u << kEventDeath : 0u) |
                   (ev.collision ? 1u << kEventCollision : 0u) |
                   (ev.threshold ? 1u << kEventThreshold : 0u);
        er.max_per_step = ev.max_per_step;
        er.threshold_quantity = static_cast<uint32_t>(ev.threshold_at.quantity);
        er.threshold_direction = static_cast<uint32_t>(ev.threshold_at.direction);
        er.threshold_value =
            ev.threshold_at.quantity == ThresholdQuantity::none ? 0.0f : ev.threshold_at.value;
        out.emitter_events.push_back(er);
    }
}

static_assert(static_cast<uint32_t>(ParticleLightSelect::brightest) == kParticleLightBrightest);
static_assert(static_cast<uint32_t>(ParticleLightSelect::oldest) == kParticleLightOldest);
static_assert(static_cast<uint32_t>(ParticleLightSelect::every_kth) == kParticleLightEveryKth);

// One record per emitter when any emitter makes particle lights, else none (the record an
// effect without them would carry is the default, particleLights()).
void compileParticleLights(const EffectDesc& effect, CompiledEffect& out) {
    bool any = false;
    for (const EmitterRecord& r : out.emitters) {
        any = any || effect.emitters[r.source_index].render.lights.count > 0;
    }
    if (!any) return;
    for (const EmitterRecord& r : out.emitters) {
        const ParticleLightsDesc& l = effect.emitters[r.source_index].render.lights;
        ParticleLightRecord pl{};
        pl.count = l.count;
        pl.select = static_cast<uint32_t>(l.select);
        pl.every_k = l.every_k;
        pl.intensity = l.intensity;
        pl.range_m = l.range;
        out.particle_lights.push_back(pl);
    }
}

// An emitter that insists on one backend must be runnable there (DESIGN rule 4).
void checkPreferredBackends(const CompiledEffect& out, std::vector<Diagnostic>& diagnostics) {
    for (uint32_t i = 0; i < out.emitters.size(); ++i) {
        const EmitterRecord& r = out.emitters[i];
        if (r.backend == kBackendAuto) continue;
        const Backend backend = r.backend == kBackendCpu ? Backend::cpu : Backend::gpu;
        const FeatureSet have = preferableFeatures(backend);
        for (const FeatureUse& use : emitterFeatureUses(out, i)) {
            if ((have & static_cast<FeatureSet>(use.feature)) != 0) continue;
            diagnostics.push_back(
                {Severity::error, "", 0, 0, 0, use.path,
                 "emitter '" + std::string(stringAt(out, r.name_offset, r.name_length)) +
                     "' asks for backend '" + std::string(backendName(backend)) +
                     "', which cannot run " + std::string(featureName(use.feature)) +
                     " (use backend 'auto' or 'gpu', or remove the feature)"});
        }
    }
}

} // namespace

bool compileEffect(const EffectDesc& effect, CompiledEffect& out,
                   std::vector<Diagnostic>& diagnostics) {
    out = CompiledEffect{};
    if (!validateEffect(effect, diagnostics)) return false;
    const size_t errors_before = diagnostics.size();

    CompiledEffect result;
    EffectRecord& fx = result.effect;
    fx.seed = effect.seed;
    fx.flags = effect.looping ? kEffectFlagLooping : 0u;
    fx.space = static_cast<uint32_t>(effect.space);
    fx.capacity = effect.capacity;
    fx.duration_s = effect.duration_s;
    fx.fixed_timestep_s = effect.fixed_timestep_s;
    const StringRef name = addString(result.strings, effect.name);
    fx.name_offset = name.offset;
    fx.name_length = name.length;
    fx.bounds_center = point4(effect.bounds.center);
    fx.bounds_half_extents = point4(effect.bounds.half_extents);

    std::vector<uint32_t> compiled_index(effect.emitters.size(), kNone);
    for (size_t i = 0; i < effect.emitters.size(); ++i) {
        const EmitterDesc& e = effect.emitters[i];
        if (!e.enabled) continue;
        compiled_index[i] = u32(result.emitters.size());
        EmitterRecord r{};
        placeEmitter(e.transform, r);
        r.capacity = e.capacity;
        r.overflow = static_cast<uint32_t>(e.overflow);
        r.backend = static_cast<uint32_t>(e.backend);
        r.source_index = u32(i);
        const StringRef emitter_name = addString(result.strings, e.name);
        r.name_offset = emitter_name.offset;
        r.name_length = emitter_name.length;
        compileSpawnShapeInit(e, result, r);
        EmitterCompiler(result, r).compileUpdate(e.update, boundModules(effect, i));
        compileRender(e.render, result, r);
        result.emitters.push_back(r);
    }
    compileSubEmitters(effect, compiled_index, result, diagnostics);
    compileParameters(effect, compiled_index, result);
    compileEmitterEvents(effect, result);
    compileParticleLights(effect, result);
    compileScalability(effect, result);
    result.structural_hash = structuralHash(result);
    checkPreferredBackends(result, diagnostics);
    // Both backends refuse trails past this limit; an effect they would refuse does not compile,
    // so `validate` and every loader say so before any backend is made.
    checkTrailLimits(result, diagnostics, "the effect format's");

    for (size_t i = errors_before; i < diagnostics.size(); ++i) {
        if (diagnostics[i].severity == Severity::error) return false;
    }
    out = std::move(result);
    return true;
}

} // namespace spindrift
