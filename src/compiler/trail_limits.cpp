#include "compiler/trail_limits.h"

#include <string>

namespace spindrift {

uint64_t trailPointsNeeded(const EmitterRecord& emitter) {
    if (emitter.render_type != kRenderRibbon) return 0;
    return uint64_t{emitter.capacity} * emitter.ribbon_max_points;
}

bool checkTrailLimits(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics,
                      std::string_view whose) {
    uint64_t total = 0;
    uint32_t largest = 0;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const uint64_t needed = trailPointsNeeded(effect.emitters[e]);
        total += needed;
        if (needed > trailPointsNeeded(effect.emitters[largest])) largest = e;
    }
    if (total <= kMaxTrailPoints) return true;
    const EmitterRecord& e = effect.emitters[largest];
    Diagnostic d;
    d.path = "$.emitters[" + std::to_string(e.source_index) + "].render.max_points";
    d.message = "ribbon trails need " + std::to_string(total) +
                " points in all (this emitter: capacity " + std::to_string(e.capacity) +
                " x max_points " + std::to_string(e.ribbon_max_points) + "), more than " +
                std::string(whose) + " limit of " + std::to_string(kMaxTrailPoints) +
                " per effect (kMaxTrailPoints); lower capacity or max_points";
    diagnostics.push_back(std::move(d));
    return false;
}

} // namespace spindrift
