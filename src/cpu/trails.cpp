#include "cpu/trails.h"

#include <limits>

#include "cpu/particle_appearance.h"
#include "kernels/ribbon.h"
#include "runtime/ribbon_polyline.h"
#include "spindrift/effect_desc.h"

namespace spindrift::cpu {

namespace {

// Segment indices are uint32 counted from the batch's first point: a batch has at most
// capacity x (max_points + 1) points, which the trail limit keeps below 2^32.
static_assert(kMaxTrailPoints + kMaxEmitterCapacity <= std::numeric_limits<uint32_t>::max());

} // namespace

uint64_t maxRibbonPoints(const CpuEffect& fx, uint32_t emitter) {
    if (emitter >= fx.trails.size() || !hasTrails(fx.trails[emitter])) return 0;
    return uint64_t{fx.pools[emitter].capacity} * (uint64_t{fx.trails[emitter].max_points} + 1);
}

uint64_t writeRibbonStrips(const CpuEffect& fx, uint32_t emitter, std::vector<StripPoint>& points,
                           std::vector<uint32_t>& segments) {
    if (emitter >= fx.trails.size() || !hasTrails(fx.trails[emitter])) return 0;
    const CompiledEffect& effect = *fx.effect;
    const EmitterRecord& record = effect.emitters[emitter];
    const ParticlePool& pool = fx.pools[emitter];
    const TrailStore& trails = fx.trails[emitter];
    const Rows3x4 world_from_sim = worldFromSim(fx.world_from_effect, effect.effect.space);
    const size_t batch_first = points.size();
    for (uint32_t slot = 0; slot < pool.count; ++slot) {
        const vec3 head(pool.position_x[slot], pool.position_y[slot], pool.position_z[slot]);
        const ParticleAppearance look = particleAppearance(effect, record, pool, slot);
        appendRibbonPolyline(
            head, trails.count[slot], [&](uint32_t k) { return trailPoint(trails, slot, k); },
            world_from_sim, record, look.color, look.size, batch_first, points, segments);
    }
    return points.size() - batch_first;
}

} // namespace spindrift::cpu
