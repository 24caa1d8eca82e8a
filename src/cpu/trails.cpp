#include "cpu/trails.h"

#include <limits>

#include "cpu/particle_appearance.h"
#include "kernels/ribbon.h"
#include "spindrift/effect_desc.h"

namespace spindrift::cpu {

namespace {

// Writes one particle's polyline at points[base, base + n): positions first, each with its
// distance from the head along the polyline (held in tangent_u.w until the length is known), then
// widths, colour, tangents and u.
void writePolyline(const TrailStore& trails, uint32_t slot, vec3 head_sim, uint32_t skip_newest,
                   const Rows3x4& world_from_sim, const EmitterRecord& emitter,
                   const ParticleAppearance& look, StripPoint* out, uint32_t n) {
    vec3 previous = transformPoint(world_from_sim, head_sim);
    float distance_m = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const vec3 sim = k == 0 ? head_sim : trailPoint(trails, slot, k - 1 + skip_newest);
        const vec3 world = k == 0 ? previous : transformPoint(world_from_sim, sim);
        distance_m += length(world - previous);
        out[k].position_width = vec4(world, 0.0f);
        out[k].tangent_u.w = distance_m;
        previous = world;
    }
    const float length_m = distance_m;
    const float head_width = emitter.ribbon_width * look.size;
    vec3 direction_in(0.0f);
    for (uint32_t k = 0; k < n; ++k) {
        const vec3 here = vec3(out[k].position_width);
        const vec3 direction_out =
            k + 1 < n ? sdRibbonSegmentDirection(here, vec3(out[k + 1].position_width))
                      : vec3(0.0f);
        const float s = out[k].tangent_u.w;
        const float fraction = sdRibbonTrailFraction(s, length_m);
        out[k].position_width.w = sdRibbonWidth(head_width, emitter.ribbon_taper, fraction);
        out[k].color = look.color;
        out[k].tangent_u = vec4(sdRibbonTangent(direction_in, direction_out),
                                sdRibbonU(s, length_m, emitter.ribbon_uv_tiling));
        direction_in = direction_out;
    }
}

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
        const vec3 newest = trailPoint(trails, slot, 0);
        const uint32_t skip_newest = newest == head ? 1u : 0u;
        const uint32_t n = 1 + trails.count[slot] - skip_newest;
        if (n < 2) continue;
        const size_t base = points.size();
        points.resize(base + n);
        writePolyline(trails, slot, head, skip_newest, world_from_sim, record,
                      particleAppearance(effect, record, pool, slot), points.data() + base, n);
        const uint32_t first = static_cast<uint32_t>(base - batch_first);
        for (uint32_t k = 0; k + 1 < n; ++k) segments.push_back(first + k);
    }
    return points.size() - batch_first;
}

} // namespace spindrift::cpu
