#include "compiler/reload_match.h"

#include "compiler/event_order.h"

namespace spindrift {

namespace {

std::string_view nameOf(const CompiledEffect& effect, uint32_t e) {
    const EmitterRecord& r = effect.emitters[e];
    return stringAt(effect, r.name_offset, r.name_length);
}

std::string changed(const char* what, uint64_t from, uint64_t to) {
    return std::string(what) + " " + std::to_string(from) + " -> " + std::to_string(to);
}

} // namespace

std::string reloadLayoutDifference(const CompiledEffect& old_effect, uint32_t o,
                                   const CompiledEffect& new_effect, uint32_t e) {
    const EmitterRecord& a = old_effect.emitters[o];
    const EmitterRecord& b = new_effect.emitters[e];
    if (a.capacity != b.capacity) return changed("capacity", a.capacity, b.capacity);
    const bool a_stable = (a.render_flags & kRenderFlagStableOrder) != 0;
    const bool b_stable = (b.render_flags & kRenderFlagStableOrder) != 0;
    if (a_stable != b_stable) return changed("stable_order", a_stable, b_stable);
    if (a.overflow != b.overflow) return changed("overflow mode", a.overflow, b.overflow);
    const bool a_ordered = hasOrderedEvents(old_effect, o);
    const bool b_ordered = hasOrderedEvents(new_effect, e);
    if (a_ordered != b_ordered) {
        return b_ordered ? "death, collision or threshold sub-emitter links added"
                         : "death, collision or threshold sub-emitter links removed";
    }
    const bool a_ribbon = a.render_type == kRenderRibbon;
    const bool b_ribbon = b.render_type == kRenderRibbon;
    if (a_ribbon != b_ribbon) return b_ribbon ? "now draws ribbons" : "no longer draws ribbons";
    if (a_ribbon && a.ribbon_max_points != b.ribbon_max_points) {
        return changed("ribbon max_points", a.ribbon_max_points, b.ribbon_max_points);
    }
    return {};
}

ReloadMatch matchForReload(const CompiledEffect& old_effect, const CompiledEffect& new_effect) {
    ReloadMatch match;
    if (old_effect.effect.space != new_effect.effect.space) {
        match.reason = "the simulation space changed";
        return match;
    }
    if (old_effect.effect.fixed_timestep_s != new_effect.effect.fixed_timestep_s) {
        match.reason = "the fixed step changed";
        return match;
    }
    const auto emitters = static_cast<uint32_t>(new_effect.emitters.size());
    match.old_emitter.assign(emitters, kNoReloadMatch);
    for (uint32_t e = 0; e < emitters; ++e) {
        const std::string_view name = nameOf(new_effect, e);
        for (uint32_t o = 0; o < old_effect.emitters.size(); ++o) {
            if (nameOf(old_effect, o) != name) continue;
            std::string difference = reloadLayoutDifference(old_effect, o, new_effect, e);
            if (!difference.empty()) {
                match.reason = "emitter '" + std::string(name) + "': " + difference;
                match.old_emitter.clear();
                return match;
            }
            match.old_emitter[e] = static_cast<int32_t>(o);
            break; // names are unique (validateEffect)
        }
    }
    match.keeps = true;
    return match;
}

} // namespace spindrift
