// validateEffect: every semantic rule of the format, for descriptions read from JSON and built
// in code alike. Diagnostics carry JSON paths; loadEffect adds the positions.
#include <map>

#include "authoring/enum_names.h"
#include "authoring/module_validate.h"
#include "authoring/rule_checker.h"
#include "authoring/type_keys.h"
#include "io/json_value.h"
#include "spindrift/effect_json.h"

namespace spindrift {

namespace {

std::string at(const std::string& path, const char* key) {
    return json::pathKey(path, key);
}

void validateSpawn(const RuleChecker& c, const std::string& path, const SpawnDesc& s) {
    c.atLeast(at(path, "rate_per_s"), s.rate_per_s, 0);
    c.atLeast(at(path, "rate_per_m"), s.rate_per_m, 0);
    c.atLeast(at(path, "delay_s"), s.delay_s, 0);
    const std::string bursts = at(path, "bursts");
    c.count(bursts, s.bursts.size(), 0, kMaxBursts, "bursts");
    for (size_t i = 0; i < s.bursts.size(); ++i) {
        const Burst& b = s.bursts[i];
        const std::string p = json::pathIndex(bursts, i);
        c.atLeast(at(p, "time_s"), b.time_s, 0);
        c.countRange(at(p, "count"), b.count, 0, kMaxBurstCount);
        c.integer(at(p, "cycles"), b.cycles, 0, kMaxBurstCycles);
        if (b.cycles != 1) {
            if (c.finite(at(p, "interval_s"), b.interval_s) && !(b.interval_s > 0)) {
                c.error(at(p, "interval_s"),
                        "expected a number > 0 when cycles is " + std::to_string(b.cycles) +
                            " (the time between cycles), found " + formatNumber(b.interval_s));
            }
        } else {
            c.atLeast(at(p, "interval_s"), b.interval_s, 0);
        }
        c.unit(at(p, "probability"), b.probability);
    }
}

void validateShape(const RuleChecker& c, const std::string& path, const ShapeDesc& s) {
    const std::string type_text = std::string("shape type '") + enumName(s.type) + "'";
    if (!emitFromApplies(s.type, s.emit_from)) {
        c.error(at(path, "emit_from"), std::string("emit_from '") + enumName(s.emit_from) +
                                           "' does not apply to " + type_text +
                                           "; expected one of: " + emitFromList(s.type));
    }
    const ShapeDesc d;
    // A field of another shape type must keep its default: the writer leaves it out, so any
    // other value would silently change on save.
    auto applies = [&](const char* key, bool is_default) {
        if (shapeKeyApplies(s.type, key)) return true;
        if (!is_default)
            c.error(at(path, key), std::string("'") + key + "' does not apply to " + type_text);
        return false;
    };
    if (applies("radius", s.radius == d.radius)) c.atLeast(at(path, "radius"), s.radius, 0);
    if (applies("tube_radius", s.tube_radius == d.tube_radius)) {
        c.atLeast(at(path, "tube_radius"), s.tube_radius, 0);
    }
    if (applies("length", s.length == d.length)) c.atLeast(at(path, "length"), s.length, 0);
    if (applies("size", s.size == d.size)) c.atLeast3(at(path, "size"), s.size, 0);
    if (applies("angle_deg", s.angle_deg == d.angle_deg)) {
        c.number(at(path, "angle_deg"), s.angle_deg, 0, false, 90, true);
    }
    if (applies("arc_deg", s.arc_deg == d.arc_deg)) {
        c.number(at(path, "arc_deg"), s.arc_deg, 0, true, 360, false);
    }
    c.unit(at(path, "randomize_direction"), s.randomize_direction);
    if (applies("points", s.points.empty())) {
        const std::string points = at(path, "points");
        c.count(points, s.points.size(), 1, kMaxMeshPoints, "mesh points");
        for (size_t i = 0; i < s.points.size(); ++i) {
            const std::string p = json::pathIndex(points, i);
            c.finite3(p, s.points[i].position);
            c.unitDirection(p, s.points[i].normal);
        }
    }
}

void validateColor(const RuleChecker& c, const std::string& path, const ColorInit& color) {
    const ColorInit d;
    const std::string mode = std::string("color mode '") + enumName(color.mode) + "'";
    switch (color.mode) {
    case ColorMode::constant:
        c.color(path, color.a);
        if (!(color.b == d.b)) c.error(path, "the second colour is set but " + mode + " uses one");
        if (!(color.gradient == d.gradient))
            c.error(path, "a gradient is set but " + mode + " uses none");
        break;
    case ColorMode::random_between:
        c.color(json::pathIndex(path, 0), color.a);
        c.color(json::pathIndex(path, 1), color.b);
        if (!(color.gradient == d.gradient))
            c.error(path, "a gradient is set but " + mode + " uses none");
        break;
    case ColorMode::gradient:
        c.gradient(at(path, "gradient"), color.gradient);
        if (!(color.a == d.a) || !(color.b == d.b)) {
            c.error(path, "colours a and b are set but " + mode + " uses only the gradient");
        }
        break;
    default:
        c.error(path, "unknown colour mode " + std::to_string(int(color.mode)));
    }
}

void validateInit(const RuleChecker& c, const std::string& path, const InitDesc& i) {
    c.range(at(path, "lifetime_s"), i.lifetime_s, 0, true);
    c.range(at(path, "size"), i.size, 0, false);
    c.range(at(path, "rotation_deg"), i.rotation_deg, -RuleChecker::kInf, false);
    c.range(at(path, "angular_velocity_deg_per_s"), i.angular_velocity_deg_per_s,
            -RuleChecker::kInf, false);
    c.range(at(path, "speed"), i.speed, -RuleChecker::kInf, false);
    c.range3(at(path, "velocity"), i.velocity);
    validateColor(c, at(path, "color"), i.color);
    c.range(at(path, "mass"), i.mass, 0, true);
}

void validateRender(const RuleChecker& c, const std::string& path, const RenderDesc& r) {
    c.filePath(at(path, "texture"), r.texture, false);
    c.atLeast(at(path, "soft_fade_distance"), r.soft_fade_distance, 0);
    const std::string type_text = std::string("render type '") + enumName(r.type) + "'";
    // Only the chosen type's settings are written; the others must keep their defaults.
    auto unused = [&](bool is_default, const char* what) {
        if (!is_default)
            c.error(path, std::string(what) + " settings are set but " + type_text +
                              " does not use them");
    };
    if (r.type == RenderType::billboard) {
        const BillboardDesc& b = r.billboard;
        c.nonZero(at(path, "axis"), b.axis);
        c.atLeast(at(path, "stretch"), b.stretch, 0);
        const std::string fb = at(path, "flipbook");
        const bool columns_ok =
            c.integer(at(fb, "columns"), b.flipbook.columns, 1, kMaxFlipbookCells);
        const bool rows_ok = c.integer(at(fb, "rows"), b.flipbook.rows, 1, kMaxFlipbookCells);
        if (columns_ok && rows_ok) {
            const uint64_t cells = uint64_t(b.flipbook.columns) * b.flipbook.rows;
            if (cells > kMaxFlipbookCells) {
                c.error(fb, "expected columns * rows <= " + std::to_string(kMaxFlipbookCells) +
                                ", found " + std::to_string(cells));
            } else if (b.flipbook.frames < 1 || b.flipbook.frames > cells) {
                c.error(at(fb, "frames"), "expected frames in [1, " + std::to_string(cells) +
                                              "] (columns * rows), found " +
                                              std::to_string(b.flipbook.frames));
            }
        }
        c.above(at(fb, "cycles"), b.flipbook.cycles, 0);
    } else {
        unused(r.billboard == BillboardDesc{}, "billboard");
    }
    if (r.type == RenderType::ribbon) {
        c.above(at(path, "width"), r.ribbon.width, 0);
        c.atLeast(at(path, "uv_tiling"), r.ribbon.uv_tiling, 0);
        c.unit(at(path, "taper"), r.ribbon.taper);
        c.above(at(path, "min_sample_distance"), r.ribbon.min_sample_distance, 0);
        c.integer(at(path, "max_points"), r.ribbon.max_points, 2, kMaxRibbonPoints);
    } else {
        unused(r.ribbon == RibbonDesc{}, "ribbon");
    }
    if (r.type == RenderType::beam) {
        c.finite3(at(path, "start"), r.beam.start);
        c.finite3(at(path, "end"), r.beam.end);
        c.finite3(at(path, "start_tangent"), r.beam.start_tangent);
        c.finite3(at(path, "end_tangent"), r.beam.end_tangent);
        c.integer(at(path, "segments"), r.beam.segments, 1, kMaxBeamSegments);
        c.above(at(path, "width"), r.beam.width, 0);
        c.atLeast(at(path, "sag"), r.beam.sag, 0);
        c.atLeast(at(path, "jitter"), r.beam.jitter, 0);
        c.atLeast(at(path, "jitter_frequency"), r.beam.jitter_frequency, 0);
    } else {
        unused(r.beam == BeamDesc{}, "beam");
    }
    if (r.blend == BlendMode::opaque && r.type != RenderType::mesh) {
        c.error(at(path, "blend"), "blend 'opaque' is only for mesh emitters; " + type_text +
                                       " blends (additive, premultiplied or alpha)");
    }
    if (r.type == RenderType::mesh) {
        c.filePath(at(path, "mesh"), r.mesh.mesh, true);
        c.above(at(path, "scale"), r.mesh.scale, 0);
        c.atLeast(at(path, "tumble_deg_per_s"), r.mesh.tumble_deg_per_s, 0);
    } else {
        unused(r.mesh == MeshRenderDesc{}, "mesh");
    }
}

void validateEmitter(const RuleChecker& c, const std::string& path, const EmitterDesc& e) {
    c.integer(at(path, "capacity"), e.capacity, 1, kMaxEmitterCapacity);
    c.finite3(at(at(path, "transform"), "position"), e.transform.position);
    c.finite3(at(at(path, "transform"), "rotation_deg"), e.transform.rotation_deg);
    validateSpawn(c, at(path, "spawn"), e.spawn);
    validateShape(c, at(path, "shape"), e.shape);
    validateInit(c, at(path, "init"), e.init);
    validateUpdateModules(c, at(path, "update"), e.update);
    validateRender(c, at(path, "render"), e.render);
    const std::string subs = at(path, "sub_emitters");
    c.count(subs, e.sub_emitters.size(), 0, kMaxSubEmitters, "sub-emitters");
    for (size_t i = 0; i < e.sub_emitters.size(); ++i) {
        const SubEmitterDesc& s = e.sub_emitters[i];
        const std::string p = json::pathIndex(subs, i);
        c.unit(at(p, "probability"), s.probability);
        c.countRange(at(p, "count"), s.count, 1, kMaxSubEmitterCount);
        c.unit(at(p, "inherit_velocity"), s.inherit_velocity);
    }
}

std::string emittersPath(size_t index) {
    return json::pathIndex("$.emitters", index);
}

// Names: valid and unique. Returns name -> index of its first emitter.
std::map<std::string, size_t> validateNames(const RuleChecker& c, const EffectDesc& effect) {
    std::map<std::string, size_t> first;
    for (size_t i = 0; i < effect.emitters.size(); ++i) {
        const std::string& name = effect.emitters[i].name;
        const std::string path = at(emittersPath(i), "name");
        if (!isPlainName(name)) {
            c.error(path, "expected a name of 1 to " + std::to_string(kMaxNameBytes) +
                              " characters from A-Z a-z 0-9 _ -, found '" + name + "'");
            continue;
        }
        auto [it, inserted] = first.emplace(name, i);
        if (!inserted) {
            c.error(path, "emitter name '" + name + "' is used twice (first at emitters[" +
                              std::to_string(it->second) + "])");
        }
    }
    return first;
}

std::string knownNames(const EffectDesc& effect) {
    constexpr size_t kListed = 16;
    std::string list;
    for (size_t i = 0; i < effect.emitters.size() && i < kListed; ++i) {
        if (!list.empty()) list += ", ";
        list += effect.emitters[i].name;
    }
    if (effect.emitters.size() > kListed) list += ", ...";
    return list;
}

// Sub-emitter links resolve to another emitter, and the graph they form has no cycle (a cycle
// would spawn without end). Each cycle is reported once, at the link that closes it.
void validateSubEmitterGraph(const RuleChecker& c, const EffectDesc& effect,
                             const std::map<std::string, size_t>& by_name) {
    const size_t n = effect.emitters.size();
    std::vector<std::vector<std::pair<size_t, size_t>>> edges(n); // (target, link index)
    for (size_t i = 0; i < n; ++i) {
        const auto& subs = effect.emitters[i].sub_emitters;
        for (size_t j = 0; j < subs.size(); ++j) {
            const std::string path =
                at(json::pathIndex(at(emittersPath(i), "sub_emitters"), j), "emitter");
            auto it = by_name.find(subs[j].emitter);
            if (it == by_name.end()) {
                c.error(path, "sub-emitter refers to unknown emitter '" + subs[j].emitter +
                                  "' (known: " + knownNames(effect) + ")");
            } else if (it->second == i) {
                c.error(path, "sub-emitter refers to its own emitter '" + subs[j].emitter + "'");
            } else {
                edges[i].push_back({it->second, j});
            }
        }
    }
    enum : uint8_t { kWhite, kGray, kBlack };
    std::vector<uint8_t> color(n, kWhite);
    struct Frame {
        size_t node, next_edge;
    };
    std::vector<Frame> stack; // iterative: the graph of a code-built effect may be deep
    for (size_t root = 0; root < n; ++root) {
        if (color[root] != kWhite) continue;
        stack.push_back({root, 0});
        color[root] = kGray;
        while (!stack.empty()) {
            Frame& top = stack.back();
            if (top.next_edge == edges[top.node].size()) {
                color[top.node] = kBlack;
                stack.pop_back();
                continue;
            }
            const auto [target, link] = edges[top.node][top.next_edge++];
            if (color[target] == kWhite) {
                color[target] = kGray;
                stack.push_back({target, 0});
            } else if (color[target] == kGray) {
                std::string cycle;
                bool in_cycle = false;
                for (const Frame& f : stack) {
                    in_cycle = in_cycle || f.node == target;
                    if (in_cycle) cycle += effect.emitters[f.node].name + " -> ";
                }
                cycle += effect.emitters[target].name;
                c.error(at(json::pathIndex(at(emittersPath(top.node), "sub_emitters"), link),
                           "emitter"),
                        "sub-emitter cycle: " + cycle);
            }
        }
    }
}

} // namespace

bool validateEffect(const EffectDesc& effect, std::vector<Diagnostic>& diagnostics) {
    const size_t first = diagnostics.size();
    const RuleChecker c{diagnostics};
    if (effect.version != kEffectFormatVersion) {
        c.error("$.version", "unsupported format version " + std::to_string(effect.version) +
                                 "; expected " + std::to_string(kEffectFormatVersion));
    }
    if (!isUtf8(effect.name)) {
        c.error("$.name", "expected UTF-8 text, found invalid bytes");
    } else if (effect.name.empty() || effect.name.size() > kMaxNameBytes) {
        c.error("$.name", "expected a name of 1 to " + std::to_string(kMaxNameBytes) +
                              " bytes, found " + std::to_string(effect.name.size()) + " bytes");
    } else if (const std::string found = findControlCharacter(effect.name); !found.empty()) {
        c.error("$.name", "expected a name without control characters, found " + found);
    }
    c.number("$.duration_s", effect.duration_s, 0, true, 3600, false);
    c.number("$.fixed_timestep_s", effect.fixed_timestep_s, 0.001f, false, 0.1f, false);
    c.within3("$.bounds.center", effect.bounds.center, -kMaxBoundsExtent, kMaxBoundsExtent);
    c.within3("$.bounds.half_extents", effect.bounds.half_extents, 0, kMaxBoundsExtent);
    c.integer("$.capacity", effect.capacity, 1, kMaxEffectCapacity);
    c.count("$.emitters", effect.emitters.size(), 1, kMaxEmitters, "emitters");

    uint64_t total = 0;
    bool capacities_ok = effect.capacity >= 1 && effect.capacity <= kMaxEffectCapacity;
    for (size_t i = 0; i < effect.emitters.size(); ++i) {
        validateEmitter(c, emittersPath(i), effect.emitters[i]);
        total += effect.emitters[i].capacity;
        capacities_ok = capacities_ok && effect.emitters[i].capacity >= 1 &&
                        effect.emitters[i].capacity <= kMaxEmitterCapacity;
    }
    // Only with every capacity in range: one emitter over its limit is one mistake, already
    // reported, not also an overfull effect.
    if (capacities_ok && total > effect.capacity) {
        c.error("$.capacity", "the emitters' capacities add up to " + std::to_string(total) +
                                  ", more than the effect capacity " +
                                  std::to_string(effect.capacity));
    }
    validateSubEmitterGraph(c, effect, validateNames(c, effect));

    for (size_t i = first; i < diagnostics.size(); ++i) {
        if (diagnostics[i].severity == Severity::error) return false;
    }
    return true;
}

} // namespace spindrift
