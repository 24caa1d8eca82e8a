#include "cpu/spawn.h"

#include <algorithm>

#include "cpu/birth_order.h"
#include "cpu/events.h"
#include "kernels/birth.h"
#include "kernels/lut.h"
#include "kernels/random.h"
#include "kernels/shape.h"

namespace spindrift::cpu {

namespace {

struct BirthPlace {
    vec4 rows[3];         // sim_from_emitter for this birth
    vec3 offset{0.0f};    // added to the position (sub-emitter events: the event position)
    vec3 inherited{0.0f}; // added to the velocity
    float pre_age_s = 0;  // age at birth; the particle moves by velocity * pre_age
    bool centred = false; // true: rows' translation is ignored (the shape is centred on offset)
};

vec3 rowsVector(const vec4 rows[3], vec3 v) {
    return vec3(rows[0].x * v.x + rows[0].y * v.y + rows[0].z * v.z,
                rows[1].x * v.x + rows[1].y * v.y + rows[1].z * v.z,
                rows[2].x * v.x + rows[2].y * v.y + rows[2].z * v.z);
}

ShapeSample sampleShape(const CompiledEffect& effect, const EmitterRecord& e, uint32_t key) {
    if (e.shape_kind != kShapeMesh) return sdSampleShape(e, key);
    const uint32_t index = sdMeshPointIndex(e, key);
    const MeshPointRecord& point = effect.mesh_points[e.mesh_point_first + index];
    return sdMeshShapeSample(e, key, point.position, point.normal);
}

void writeBirth(CpuEffect& fx, uint32_t emitter_index, uint32_t slot, uint64_t ordinal,
                const BirthPlace& place) {
    const CompiledEffect& effect = *fx.effect;
    const EmitterRecord& e = effect.emitters[emitter_index];
    ParticlePool& pool = fx.pools[emitter_index];
    const uint32_t key =
        sdParticleKey(effect.effect.seed, emitter_index, static_cast<uint32_t>(ordinal),
                      static_cast<uint32_t>(ordinal >> 32));
    const Birth b = sdBirth(e, key, sampleShape(effect, e, key));

    vec3 position = rowsVector(place.rows, b.position) + place.offset;
    if (!place.centred) {
        position += vec3(place.rows[0].w, place.rows[1].w, place.rows[2].w);
    }
    const vec3 velocity = rowsVector(place.rows, b.velocity) + place.inherited;
    position += velocity * place.pre_age_s;

    vec4 color = b.color;
    if (e.color_mode == kColorModeGradient) {
        const LutTap tap = sdLutAtlasTap(e.color_lut_row, b.color_t);
        color = sdLutMix(effect.lut[tap.index], effect.lut[tap.index + 1], tap.weight);
    }
    pool.position_x[slot] = position.x;
    pool.position_y[slot] = position.y;
    pool.position_z[slot] = position.z;
    pool.velocity_x[slot] = velocity.x;
    pool.velocity_y[slot] = velocity.y;
    pool.velocity_z[slot] = velocity.z;
    pool.age_s[slot] = place.pre_age_s;
    pool.lifetime_s[slot] = b.lifetime_s;
    pool.rotation_rad[slot] = b.rotation_rad;
    pool.flags[slot] = 0;
    pool.angular_velocity_rad_per_s[slot] = b.angular_velocity_rad_per_s;
    pool.size[slot] = b.size;
    pool.mass[slot] = b.mass;
    pool.color_r[slot] = color.x;
    pool.color_g[slot] = color.y;
    pool.color_b[slot] = color.z;
    pool.color_a[slot] = color.w;
    pool.key[slot] = key;
    pool.ordinal[slot] = ordinal;
    // A particle born into a slot, reused or replaced, starts a fresh trail.
    TrailStore& trails = fx.trails[emitter_index];
    if (hasTrails(trails)) startTrail(trails, slot, position);
    ++fx.stats[emitter_index].births;
    if (e.sub_emitter_count != 0) queueEvents(fx, emitter_index, kEventBirth, &slot, 1);
}

// Slots for count births: free slots first, then (replace_oldest) the oldest live particles,
// oldest first. Returns how many slots were found; they are in fx.replace_order[0, n) for
// replaced ones, and the appended ones are [first_append, first_append + appended).
struct SlotPlan {
    uint32_t first_append = 0;
    uint32_t appended = 0;
    uint32_t replaced = 0; // slots in fx.replace_order
};

SlotPlan planSlots(CpuEffect& fx, uint32_t emitter_index, uint32_t count) {
    ParticlePool& pool = fx.pools[emitter_index];
    EmitterStats& stats = fx.stats[emitter_index];
    SlotPlan plan;
    plan.first_append = pool.count;
    plan.appended = std::min(count, pool.capacity - pool.count);
    const uint32_t rest = count - plan.appended;
    if (rest == 0) return plan;
    if (fx.effect->emitters[emitter_index].overflow != kOverflowReplaceOldest) {
        stats.overflow_dropped += rest;
        return plan;
    }
    // Ordinals grow with birth time, so the oldest particles have the smallest ordinals. Only
    // particles alive before this batch are candidates.
    const uint32_t candidates = pool.count;
    plan.replaced = std::min(rest, candidates);
    stats.overflow_dropped += rest - plan.replaced;
    stats.overflow_replaced += plan.replaced;
    if (keepsBirthOrder(*fx.effect, emitter_index)) {
        // Slot order is birth order: the oldest are the first slots. They leave and the rest
        // shift down, so every birth appends and the order stays birth order.
        const uint32_t oldest = plan.replaced;
        removeKeepingOrder(pool, fx.trails[emitter_index],
                           [oldest](uint32_t slot) { return slot < oldest; });
        plan.first_append = pool.count;
        plan.appended += plan.replaced;
        plan.replaced = 0;
        return plan;
    }
    uint32_t* order = fx.replace_order.data();
    for (uint32_t i = 0; i < candidates; ++i) order[i] = i;
    const uint64_t* ordinal = pool.ordinal.get();
    auto older = [ordinal](uint32_t a, uint32_t b) { return ordinal[a] < ordinal[b]; };
    if (plan.replaced < candidates)
        std::nth_element(order, order + plan.replaced, order + candidates, older);
    std::sort(order, order + plan.replaced, older);
    return plan;
}

// Births numbered [0, count) of one batch go to the planned slots in order: replaced slots first
// would reorder nothing visible, so appended slots take the earliest births.
uint32_t slotOfBirth(const CpuEffect& fx, const SlotPlan& plan, uint32_t i) {
    if (i < plan.appended) return plan.first_append + i;
    return fx.replace_order[i - plan.appended];
}

} // namespace

void spawnPlanned(CpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    const float dt = effect.effect.fixed_timestep_s;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const EmitterSpawn& spawn = fx.plan.emitters[e];
        fx.stats[e].overflow_dropped += spawn.dropped;
        if (spawn.count == 0) continue;
        const EmitterStep& step = fx.scratch.emitters[e];
        const SlotPlan plan = planSlots(fx, e, spawn.count);
        const uint32_t born = plan.appended + plan.replaced;
        fx.pools[e].count += plan.appended;
        for (uint32_t i = 0; i < born; ++i) {
            const float u = birthFraction(i, spawn.count);
            BirthPlace place;
            for (int r = 0; r < 3; ++r) {
                place.rows[r] = step.emitter_start[r] * (1.0f - u) + step.emitter_end[r] * u;
            }
            place.pre_age_s = (1.0f - u) * dt;
            writeBirth(fx, e, slotOfBirth(fx, plan, i), spawn.first_ordinal + i, place);
        }
    }
}

void spawnEventBirths(CpuEffect& fx, uint32_t emitter, const PendingEvent& event, uint32_t count) {
    const uint64_t first_ordinal = takeOrdinals(fx.driver, emitter, count);
    const EmitterStep& step = fx.scratch.emitters[emitter];
    const SlotPlan plan = planSlots(fx, emitter, count);
    const uint32_t born = plan.appended + plan.replaced;
    fx.pools[emitter].count += plan.appended;
    BirthPlace place;
    for (int r = 0; r < 3; ++r) place.rows[r] = step.emitter_end[r];
    place.offset = vec3(event.position);
    place.inherited = vec3(event.velocity);
    place.centred = true;
    for (uint32_t i = 0; i < born; ++i) {
        writeBirth(fx, emitter, slotOfBirth(fx, plan, i), first_ordinal + i, place);
    }
}

} // namespace spindrift::cpu
