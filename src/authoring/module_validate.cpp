#include "authoring/module_validate.h"

#include "authoring/enum_names.h"
#include "io/json_value.h"

namespace spindrift {

namespace {

std::string at(const std::string& path, const char* key) {
    return json::pathKey(path, key);
}

struct ModuleRules {
    const RuleChecker& c;
    const std::string& path;

    void operator()(const GravityModule& m) const {
        c.finite3(at(path, "acceleration"), m.acceleration);
    }
    void operator()(const BuoyancyModule& m) const {
        c.finite(at(path, "acceleration"), m.acceleration);
        if (m.has_over_life) {
            c.curve(at(path, "over_life"), m.over_life, -RuleChecker::kInf);
        } else if (!(m.over_life == Curve{})) {
            // Without has_over_life the curve is not written, so it would be lost on save.
            c.error(at(path, "over_life"), "over_life is set but has_over_life is false");
        }
    }
    void operator()(const DragModule& m) const {
        c.atLeast(at(path, "coefficient_per_s"), m.coefficient_per_s, 0);
    }
    void operator()(const ForceModule& m) const {
        c.finite3(at(path, "acceleration"), m.acceleration);
    }
    void operator()(const WindModule& m) const {
        c.finite3(at(path, "velocity"), m.velocity);
        c.atLeast(at(path, "coefficient_per_s"), m.coefficient_per_s, 0);
    }
    void operator()(const SpeedLimitModule& m) const {
        c.atLeast(at(path, "max_speed"), m.max_speed, 0);
        c.atLeast(at(path, "damping_per_s"), m.damping_per_s, 0);
    }
    void operator()(const CurlNoiseModule& m) const {
        c.finite(at(path, "strength"), m.strength);
        c.above(at(path, "frequency"), m.frequency, 0);
        c.integer(at(path, "octaves"), m.octaves, 1, kMaxCurlOctaves);
        c.finite3(at(path, "scroll"), m.scroll);
    }
    void operator()(const ForceFieldModule& m) const {
        c.finite3(at(path, "position"), m.position);
        c.unitDirection(at(path, "axis"), m.axis);
        c.finite(at(path, "strength"), m.strength);
        c.above(at(path, "radius"), m.radius, 0);
        c.atLeast(at(path, "falloff"), m.falloff, 0);
    }
    void operator()(const AttractorModule& m) const {
        c.finite3(at(path, "position"), m.position);
        c.finite(at(path, "strength"), m.strength);
        c.above(at(path, "radius"), m.radius, 0);
        c.atLeast(at(path, "kill_radius"), m.kill_radius, 0);
    }
    void operator()(const ColorOverLifeModule& m) const {
        c.gradient(at(path, "gradient"), m.gradient);
    }
    void operator()(const SizeOverLifeModule& m) const { c.curve(at(path, "curve"), m.curve, 0); }
    void operator()(const RotationOverLifeModule& m) const {
        c.curve(at(path, "angular_velocity_deg_per_s"), m.angular_velocity_deg_per_s,
                -RuleChecker::kInf);
    }
    void speedWindow(float min_speed, float max_speed) const {
        if (c.atLeast(at(path, "min_speed"), min_speed, 0)) {
            c.number(at(path, "max_speed"), max_speed, min_speed, true, RuleChecker::kInf, false);
        }
    }
    void operator()(const ColorBySpeedModule& m) const {
        c.gradient(at(path, "gradient"), m.gradient);
        speedWindow(m.min_speed, m.max_speed);
    }
    void operator()(const SizeBySpeedModule& m) const {
        c.curve(at(path, "curve"), m.curve, 0);
        speedWindow(m.min_speed, m.max_speed);
    }
    void operator()(const CollisionModule& m) const {
        const size_t colliders = m.planes.size() + m.spheres.size() + m.boxes.size();
        if (colliders > kMaxColliders) {
            c.error(path, "expected at most " + std::to_string(kMaxColliders) +
                              " colliders (planes + spheres + boxes), found " +
                              std::to_string(colliders));
        }
        for (size_t i = 0; i < m.planes.size(); ++i) {
            const std::string p = json::pathIndex(at(path, "planes"), i);
            c.finite3(at(p, "point"), m.planes[i].point);
            c.unitDirection(at(p, "normal"), m.planes[i].normal);
        }
        for (size_t i = 0; i < m.spheres.size(); ++i) {
            const std::string p = json::pathIndex(at(path, "spheres"), i);
            c.finite3(at(p, "center"), m.spheres[i].center);
            c.above(at(p, "radius"), m.spheres[i].radius, 0);
        }
        for (size_t i = 0; i < m.boxes.size(); ++i) {
            const std::string p = json::pathIndex(at(path, "boxes"), i);
            c.finite3(at(p, "center"), m.boxes[i].center);
            c.above3(at(p, "size"), m.boxes[i].size, 0);
        }
        c.unit(at(path, "bounce"), m.bounce);
        c.unit(at(path, "friction"), m.friction);
        c.unit(at(path, "lifetime_loss"), m.lifetime_loss);
        c.atLeast(at(path, "radius_scale"), m.radius_scale, 0);
    }
};

} // namespace

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
        std::visit(ModuleRules{c, module_path}, module);
    }
}

} // namespace spindrift
