// validateEffect: every semantic rule of the format, for descriptions read from JSON and built
// in code alike. Diagnostics carry JSON paths; loadEffect adds the positions.
#include <map>

#include "authoring/effect_fields.h"
#include "authoring/effect_parameters.h"
#include "authoring/enum_names.h"
#include "authoring/field_rules.h"
#include "authoring/module_validate.h"
#include "authoring/rule_checker.h"
#include "authoring/type_keys.h"
#include "io/json_value.h"
#include "spindrift/effect_json.h"

namespace spindrift {

static std::string at(const std::string& path, const char* key) {
    return json::pathKey(path, key);
}

// The effect format's codecs (effect_fields.h), checking half. Helpers are static, not in an
// unnamed namespace, so that the field walker (field_rules.h) finds these by argument-dependent
// lookup.

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, const std::string& name,
                const EffectDesc&, EffectNameCodec) {
    if (!isUtf8(name)) {
        c.error(path, "expected UTF-8 text, found invalid bytes");
    } else if (name.empty() || name.size() > kMaxNameBytes) {
        c.error(path, "expected a name of 1 to " + std::to_string(kMaxNameBytes) +
                          " bytes, found " + std::to_string(name.size()) + " bytes");
    } else if (const std::string found = findControlCharacter(name); !found.empty()) {
        c.error(path, "expected a name without control characters, found " + found);
    }
}

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, float interval_s,
                const Burst& b, IntervalCodec) {
    if (b.cycles != 1) {
        if (c.finite(path, interval_s) && !(interval_s > 0)) {
            c.error(path, "expected a number > 0 when cycles is " + std::to_string(b.cycles) +
                              " (the time between cycles), found " + formatNumber(interval_s));
        }
    } else {
        c.atLeast(path, interval_s, 0);
    }
}

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, uint32_t frames,
                const Flipbook& fb, FramesCodec) {
    const std::string flipbook = path.substr(0, path.size() - f.key.size() - 1);
    const bool columns_ok = fb.columns >= 1 && fb.columns <= kMaxFlipbookCells;
    const bool rows_ok = fb.rows >= 1 && fb.rows <= kMaxFlipbookCells;
    if (!columns_ok || !rows_ok) return; // reported at columns or rows
    const uint64_t cells = uint64_t(fb.columns) * fb.rows;
    if (cells > kMaxFlipbookCells) {
        c.error(flipbook, "expected columns * rows <= " + std::to_string(kMaxFlipbookCells) +
                              ", found " + std::to_string(cells));
    } else if (frames < 1 || frames > cells) {
        c.error(path, "expected frames in [1, " + std::to_string(cells) +
                          "] (columns * rows), found " + std::to_string(frames));
    }
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f,
                const std::vector<MeshPoint>& points, const O&, MeshPointsCodec) {
    c.count(path, points.size(), f.rule.list.min, f.rule.list.max, f.rule.list.what);
    for (size_t i = 0; i < points.size(); ++i) {
        const std::string p = json::pathIndex(path, i);
        c.finite3(p, points[i].position);
        c.unitDirection(p, points[i].normal);
    }
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, const ColorInit& color,
                const O&, ColorInitCodec) {
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

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, const ShapeDesc& s,
                const O&, ShapeCodec) {
    const std::string type_text = std::string("shape type '") + enumName(s.type) + "'";
    if (!emitFromApplies(s.type, s.emit_from)) {
        c.error(at(path, "emit_from"), std::string("emit_from '") + enumName(s.emit_from) +
                                           "' does not apply to " + type_text +
                                           "; expected one of: " + emitFromList(s.type));
    }
    const ShapeDesc d;
    // A field of another shape type must keep its default: the writer leaves it out, so any
    // other value would silently change on save.
    forEachField(fieldsOf(FieldsOf<ShapeDesc>{}), [&](const auto& f) {
        if (f.key == "type" || f.key == "emit_from") return;
        if (shapeKeyApplies(s.type, f.key)) {
            checkOneField(c, path, f, s);
        } else if (!(s.*f.member == d.*f.member)) {
            c.error(json::pathKey(path, f.key),
                    "'" + std::string(f.key) + "' does not apply to " + type_text);
        }
    });
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, const RenderDesc& r,
                const O&, RenderCodec) {
    checkFields(c, path, r);
    const std::string type_text = std::string("render type '") + enumName(r.type) + "'";
    // Only the chosen type's settings are written; the others must keep their defaults.
    auto settings = [&](RenderType type, const auto& value, const char* what) {
        using T = std::decay_t<decltype(value)>;
        if (r.type == type) {
            checkFields(c, path, value);
        } else if (!(value == T{})) {
            c.error(path, std::string(what) + " settings are set but " + type_text +
                              " does not use them");
        }
    };
    settings(RenderType::billboard, r.billboard, "billboard");
    settings(RenderType::ribbon, r.ribbon, "ribbon");
    settings(RenderType::beam, r.beam, "beam");
    if (r.blend == BlendMode::opaque && r.type != RenderType::mesh) {
        c.error(at(path, "blend"), "blend 'opaque' is only for mesh emitters; " + type_text +
                                       " blends (additive, premultiplied or alpha)");
    }
    settings(RenderType::mesh, r.mesh, "mesh");
    // The emissive share is the part of a premultiplied fragment whose coverage is dropped so it
    // adds (docs/rendering.md, "Emissive"): additive draws are all emissive already, and the
    // alpha and opaque blends have no such part.
    if (r.emissive_share > 0 && r.blend != BlendMode::premultiplied) {
        c.error(at(path, "emissive_share"),
                "an emissive share needs blend 'premultiplied', found blend '" +
                    std::string(enumName(r.blend)) + "'");
    }
    // Per-particle lighting gathers the lights of a lit billboard (docs/rendering.md, "Lighting
    // per particle"): on an unlit one it would be silently ignored.
    if (r.type == RenderType::billboard && r.billboard.lighting != BillboardLighting::per_pixel &&
        !r.lit) {
        c.error(at(path, "lighting"), "lighting '" + std::string(enumName(r.billboard.lighting)) +
                                          "' shades a lit billboard: set lit true or leave "
                                          "lighting out");
    }
    // Meshes cast by their blend (opaque ones into the sun's depth map, blended ones nothing):
    // a cutout would be silently ignored.
    if (r.type == RenderType::mesh && r.shadow_cutout) {
        c.error(at(path, "shadow_cutout"),
                "shadow_cutout is for billboards, ribbons and beams; a mesh casts by its blend "
                "(opaque into the sun's depth map, blended nothing): leave shadow_cutout out");
    }
    if (r.type == RenderType::billboard && r.billboard.distortion > 0) {
        // A distortion billboard draws no colour of its own (docs/rendering.md, "Distortion"):
        // the colour settings would be silently ignored, so they are refused.
        auto refuse = [&](const char* key, const std::string& why) {
            c.error(at(path, key), "a distortion billboard (distortion > 0) " + why);
        };
        if (r.blend != BlendMode::additive) {
            refuse("blend", "draws no colour to blend: leave blend out (found '" +
                                std::string(enumName(r.blend)) + "')");
        }
        if (r.lit) refuse("lit", "is not lit");
        if (r.emissive != 1) refuse("emissive", "has no colour to make emissive");
        if (r.shadow_cutout) refuse("shadow_cutout", "casts no shadow");
        if (r.lights.count > 0) refuse("lights", "makes no particle lights");
    }
}

template <typename F, typename O>
void checkCodec(const RuleChecker& c, const std::string& path, const F&,
                const std::vector<UpdateModule>& modules, const O&, UpdateListCodec) {
    validateUpdateModules(c, path, modules);
}

static std::string emittersPath(size_t index) {
    return json::pathIndex("$.emitters", index);
}

// Names: valid and unique. Returns name -> index of its first emitter.
static std::map<std::string, size_t> validateNames(const RuleChecker& c, const EffectDesc& effect) {
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

static std::string knownNames(const EffectDesc& effect) {
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
static void validateSubEmitterGraph(const RuleChecker& c, const EffectDesc& effect,
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

// An emitter's events block (docs/effect-format.md, "events"): threshold events and threshold
// sub-emitter links need the emitter's threshold, and the threshold's value range depends on
// what it watches (a speed is never negative; an age fraction is in [0, 1]).
static void validateEventBlocks(const RuleChecker& c, const EffectDesc& effect) {
    for (size_t i = 0; i < effect.emitters.size(); ++i) {
        const EmitterDesc& emitter = effect.emitters[i];
        const EventsDesc& events = emitter.events;
        const std::string path = at(emittersPath(i), "events");
        const ThresholdDesc& t = events.threshold_at;
        const bool has_threshold = t.quantity != ThresholdQuantity::none;
        const char* kNeeds = " the emitter's threshold: events.threshold_at with a quantity "
                             "(speed, height, age_fraction) and a value";
        if (events.threshold && !has_threshold) {
            c.error(at(path, "threshold"), std::string("threshold events need") + kNeeds);
        }
        for (size_t j = 0; j < emitter.sub_emitters.size(); ++j) {
            if (emitter.sub_emitters[j].event != SubEmitterEvent::threshold || has_threshold)
                continue;
            c.error(at(json::pathIndex(at(emittersPath(i), "sub_emitters"), j), "event"),
                    std::string("a sub-emitter on threshold needs") + kNeeds);
        }
        const std::string value_path = at(at(path, "threshold_at"), "value");
        if (t.quantity == ThresholdQuantity::speed) c.atLeast(value_path, t.value, 0);
        if (t.quantity == ThresholdQuantity::age_fraction) c.unit(value_path, t.value);
    }
}

// The fade band lies inside the sleep distance (births fade out before the instance sleeps).
static void validateScalability(const RuleChecker& c, const EffectDesc& effect) {
    const ScalabilityDesc& s = effect.scalability;
    if (s.fade_band_m > s.sleep_distance_m) {
        c.error("$.scalability.fade_band_m",
                "expected a fade band no wider than sleep_distance_m (" +
                    formatNumber(s.sleep_distance_m) + " m), found " + formatNumber(s.fade_band_m));
    }
}

bool validateEffect(const EffectDesc& effect, std::vector<Diagnostic>& diagnostics) {
    const size_t first = diagnostics.size();
    const RuleChecker c{diagnostics};
    checkFields(c, "$", effect);

    uint64_t total = 0;
    bool capacities_ok = effect.capacity >= 1 && effect.capacity <= kMaxEffectCapacity;
    for (size_t i = 0; i < effect.emitters.size(); ++i) {
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
    validateParameters(c, effect);
    validateEventBlocks(c, effect);
    validateScalability(c, effect);

    for (size_t i = first; i < diagnostics.size(); ++i) {
        if (diagnostics[i].severity == Severity::error) return false;
    }
    return true;
}

} // namespace spindrift
