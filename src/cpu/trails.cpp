#include "cpu/trails.h"

#include <limits>

#include "cpu/particle_appearance.h"
#include "kernels/ribbon.h"
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
                           std::vector<uint32_t>& segments, std::vector<vec4>* velocities) {
    if (emitter >= fx.trails.size() || !hasTrails(fx.trails[emitter])) return 0;
    const CompiledEffect& effect = *fx.effect;
    const EmitterRecord& record = effect.emitters[emitter];
    const ParticlePool& pool = fx.pools[emitter];
    const TrailStore& trails = fx.trails[emitter];
    const RibbonPointsRef recorded = trailPointsRef(trails);
    const Rows3x4 world_from_sim = worldFromSim(fx.world_from_effect, effect.effect.space);
    const vec4* rows = world_from_sim.rows;
    const size_t batch_first = points.size();
    for (uint32_t slot = 0; slot < pool.count; ++slot) {
        const vec3 head(pool.position_x[slot], pool.position_y[slot], pool.position_z[slot]);
        const RibbonPolyline line =
            sdRibbonPolyline(recorded, trailRing(trails, slot), head, rows[0], rows[1], rows[2]);
        if (line.points == 0) continue;
        const ParticleAppearance look = particleAppearance(effect, record, pool, slot);
        // World velocity as its draw record carries it (sdParticleDrawRecord).
        const vec3 velocity = sdTransformVector(
            rows[0], rows[1], rows[2],
            vec3(pool.velocity_x[slot], pool.velocity_y[slot], pool.velocity_z[slot]));
        appendRibbonStrip(recorded, line, record, look.size, look.color, batch_first, points,
                          segments, velocity, velocities);
    }
    return points.size() - batch_first;
}

} // namespace spindrift::cpu
