#include "cpu/trail_store.h"

#include <cstring>
#include <string>

namespace spindrift::cpu {

void allocateTrails(TrailStore& trails, const EmitterRecord& emitter) {
    if (emitter.render_type != kRenderRibbon) return;
    trails.max_points = emitter.ribbon_max_points;
    trails.min_sample_distance_m = emitter.ribbon_min_sample_distance;
    // Left uninitialised like the pool's columns: a slot's entries are written at its birth
    // before anything reads them, and hashes and snapshots read only entries in use.
    trails.points = std::make_unique_for_overwrite<TrailPoint[]>(trailPointsNeeded(emitter));
    trails.first = std::make_unique_for_overwrite<uint32_t[]>(emitter.capacity);
    trails.count = std::make_unique_for_overwrite<uint32_t[]>(emitter.capacity);
}

void moveTrail(TrailStore& trails, uint32_t from, uint32_t to) {
    const size_t ring = trails.max_points;
    std::memcpy(trails.points.get() + to * ring, trails.points.get() + from * ring,
                ring * sizeof(TrailPoint));
    trails.first[to] = trails.first[from];
    trails.count[to] = trails.count[from];
}

void recordTrails(TrailStore& trails, const ParticlePool& pool, uint32_t begin, uint32_t end) {
    const RibbonPointsRef points = trailPointsRef(trails);
    const float min_distance = trails.min_sample_distance_m;
    for (uint32_t i = begin; i < end; ++i) {
        const vec3 position(pool.position_x[i], pool.position_y[i], pool.position_z[i]);
        const RibbonRing ring = trailRing(trails, i);
        const RibbonRecordStep step = sdRibbonRecordStep(points, ring, position, min_distance);
        if (!step.record) continue;
        trails.points[size_t{ring.base} + step.entry] =
            TrailPoint{position.x, position.y, position.z};
        trails.first[i] = step.first;
        trails.count[i] = step.count;
    }
}

} // namespace spindrift::cpu
