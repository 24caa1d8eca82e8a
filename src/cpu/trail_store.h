// Ribbon trails on the CPU: the positions each particle of a ribbon emitter has passed
// (docs/cpu-backend.md, "Trails"). One TrailStore per emitter, allocated at creation from
// capacity x max_points and never during a step (DESIGN rule 7). Slot i of the store belongs to
// slot i of the emitter's pool: births start a trail, removal moves the last particle's trail
// with it, and the step records new points after integration, chunk by chunk. The ring maths is
// shared with the GPU backend (src/kernels/ribbon.h).
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "compiler/compiled_effect.h"
#include "compiler/trail_limits.h"
#include "cpu/particle_pool.h"
#include "kernels/ribbon.h"
#include "spindrift/diagnostic.h"

namespace spindrift::cpu {

// One recorded position, in the effect's simulation space (like the pool's positions).
struct TrailPoint {
    float x, y, z;
};
static_assert(sizeof(TrailPoint) == 12);

struct TrailStore {
    uint32_t max_points = 0; // ring size per particle; 0: the emitter has no trails
    float min_sample_distance_m = 0;
    // Per slot, a ring of max_points entries at points[slot * max_points]: first is the entry of
    // the oldest point, count (1..max_points for a live slot) the entries in use (ribbon.h).
    std::unique_ptr<TrailPoint[]> points;
    std::unique_ptr<uint32_t[]> first;
    std::unique_ptr<uint32_t[]> count;
};

inline bool hasTrails(const TrailStore& trails) {
    return trails.max_points != 0;
}

// Sizes the store for a ribbon emitter (nothing for another render type). The effect must pass
// checkTrailLimits (compiler/trail_limits.h).
void allocateTrails(TrailStore& trails, const EmitterRecord& emitter);

// The particle just born into slot starts a fresh trail: its birth position is the only point.
inline void startTrail(TrailStore& trails, uint32_t slot, vec3 birth_position) {
    trails.points[static_cast<size_t>(slot) * trails.max_points] =
        TrailPoint{birth_position.x, birth_position.y, birth_position.z};
    trails.first[slot] = 0;
    trails.count[slot] = 1;
}

// The particle in slot from moved to slot to (removal fills a hole with the last particle).
void moveTrail(TrailStore& trails, uint32_t from, uint32_t to);

// The step's recording pass over slots [begin, end) of the pool: a particle that has moved at
// least min_sample_distance from its newest point records its position (sdRibbonShouldRecord);
// a full ring drops its oldest point. Touches only those slots, so chunks may run on any thread.
void recordTrails(TrailStore& trails, const ParticlePool& pool, uint32_t begin, uint32_t end);

// The store's points as the ribbon kernels read them (three floats a point, RibbonPointsRef) and
// slot's ring within them (kernels/ribbon.h): what the recording rule and the polyline walk take.
inline RibbonPointsRef trailPointsRef(const TrailStore& trails) {
    static_assert(std::is_standard_layout_v<TrailPoint> && sizeof(TrailPoint) == 3 * sizeof(float));
    return RibbonPointsRef{reinterpret_cast<const float*>(trails.points.get())};
}
inline RibbonRing trailRing(const TrailStore& trails, uint32_t slot) {
    return sdRibbonRing(slot * trails.max_points, trails.first[slot], trails.count[slot],
                        trails.max_points);
}

// The k-th newest recorded point of slot (k = 0 the newest, k < count[slot]).
inline vec3 trailPoint(const TrailStore& trails, uint32_t slot, uint32_t k) {
    return sdRibbonRecordedPoint(trailPointsRef(trails), trailRing(trails, slot), k);
}

// Calls fn(const TrailPoint* run, uint32_t run_count) for the recorded points of slot, oldest to
// newest, as at most two contiguous runs of the ring. Snapshots and the state hash read trails
// through this, so both see the points in order and never the ring's unused entries.
template <typename Fn> void forEachTrailRun(const TrailStore& trails, uint32_t slot, Fn&& fn) {
    const TrailPoint* ring = trails.points.get() + static_cast<size_t>(slot) * trails.max_points;
    const uint32_t first = trails.first[slot];
    const uint32_t count = trails.count[slot];
    const uint32_t head_run = count < trails.max_points - first ? count : trails.max_points - first;
    fn(ring + first, head_run);
    if (count > head_run) fn(ring, count - head_run);
}

} // namespace spindrift::cpu
