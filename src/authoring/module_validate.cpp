#include "authoring/module_validate.h"

#include <cmath>

#include "authoring/effect_fields.h"
#include "authoring/enum_names.h"
#include "authoring/field_rules.h"
#include "io/json_value.h"

namespace spindrift {

// The module codecs (effect_fields.h), checking half; not in an unnamed namespace, so that the
// field walker (field_rules.h) finds them by argument-dependent lookup.

template <typename F>
void checkCodec(const RuleChecker& c, const std::string& path, const F& f, const Curve& over_life,
                const BuoyancyModule& m, OverLifeCodec) {
    if (m.has_over_life) {
        c.curve(path, over_life, float(f.rule.lo));
    } else if (!(over_life == Curve{})) {
        // Without has_over_life the curve is not written, so it would be lost on save.
        c.error(path, "over_life is set but has_over_life is false");
    }
}

// max_speed > min_speed, once min_speed itself is valid (else it is the one mistake).
template <typename F, typename M>
void checkCodec(const RuleChecker& c, const std::string& path, const F&, float max_speed,
                const M& m, SpeedWindowCodec) {
    if (std::isfinite(m.min_speed) && m.min_speed >= 0) {
        c.number(path, max_speed, m.min_speed, true, RuleChecker::kInf, false);
    }
}

template <typename M>
static void checkModule(const RuleChecker& c, const std::string& path, const M& m) {
    if constexpr (std::is_same_v<M, CollisionModule>) {
        const size_t colliders = m.planes.size() + m.spheres.size() + m.boxes.size();
        if (colliders > kMaxColliders) {
            c.error(path, "expected at most " + std::to_string(kMaxColliders) +
                              " colliders (planes + spheres + boxes), found " +
                              std::to_string(colliders));
        }
    }
    checkFields(c, path, m);
}

void validateUpdateModules(const RuleChecker& c, const std::string& path,
                           const std::vector<UpdateModule>& modules) {
    c.count(path, modules.size(), 0, kMaxUpdateModules, "update modules");
    size_t force_fields = 0, attractors = 0;
    for (size_t i = 0; i < modules.size(); ++i) {
        const std::string module_path = json::pathIndex(path, i);
        const UpdateModuleVariant& module = modules[i].module;
        // Per-emitter limits are reported once, at the first module past the limit.
        if (std::holds_alternative<ForceFieldModule>(module) &&
            ++force_fields == kMaxForceFields + 1) {
            c.error(module_path, "more than " + std::to_string(kMaxForceFields) +
                                     " force_field modules in one emitter (the limit)");
        }
        if (std::holds_alternative<AttractorModule>(module) && ++attractors == kMaxAttractors + 1) {
            c.error(module_path, "more than " + std::to_string(kMaxAttractors) +
                                     " attractor modules in one emitter (the limit)");
        }
        std::visit([&](const auto& m) { checkModule(c, module_path, m); }, module);
    }
}

} // namespace spindrift
