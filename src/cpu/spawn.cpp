#include "cpu/spawn.h"

#include <algorithm>

#include "cpu/birth_order.h"
#include "cpu/events.h"
#include "kernels/birth.h"

namespace spindrift::cpu {

namespace {

// The newborn with this ordinal placed at place: the kernel's composition (kernels/birth.h,
// sdNewborn) over the effect's records, LUT atlas and mesh points.
Newborn newbornOf(const CpuEffect& fx, uint32_t emitter_index, uint64_t ordinal,
                  const BirthPlace& place) {
    const CompiledEffect& effect = *fx.effect;
    return sdNewborn(effect.emitters[emitter_index], effect.effect.seed, emitter_index,
                     static_cast<uint32_t>(ordinal), static_cast<uint32_t>(ordinal >> 32), place,
                     LutRef{effect.lut.data()}, MeshPointsRef{effect.mesh_points.data()});
}

// Writes the newborn into slot (counted in births); its birth events are the caller's.
void storeBirth(CpuEffect& fx, uint32_t emitter_index, uint32_t slot, uint64_t ordinal,
                const BirthPlace& place, const Newborn& n) {
    ParticlePool& pool = fx.pools[emitter_index];
    const Birth& b = n.birth;
    pool.position_x[slot] = n.position.x;
    pool.position_y[slot] = n.position.y;
    pool.position_z[slot] = n.position.z;
    pool.velocity_x[slot] = n.velocity.x;
    pool.velocity_y[slot] = n.velocity.y;
    pool.velocity_z[slot] = n.velocity.z;
    pool.age_s[slot] = place.pre_age_s;
    pool.lifetime_s[slot] = b.lifetime_s;
    pool.rotation_rad[slot] = b.rotation_rad;
    pool.flags[slot] = 0;
    pool.angular_velocity_rad_per_s[slot] = b.angular_velocity_rad_per_s;
    pool.size[slot] = b.size;
    pool.mass[slot] = b.mass;
    pool.color_r[slot] = n.color.x;
    pool.color_g[slot] = n.color.y;
    pool.color_b[slot] = n.color.z;
    pool.color_a[slot] = n.color.w;
    pool.key[slot] = n.key;
    pool.ordinal[slot] = ordinal;
    if (fx.gameplay != nullptr) captureBirth(fx, emitter_index, n.key, n.position, n.velocity);
    // A particle born into a slot, reused or replaced, starts a fresh trail.
    TrailStore& trails = fx.trails[emitter_index];
    if (hasTrails(trails)) startTrail(trails, slot, n.position);
}

// A planned birth: written now, its birth events queued now.
void writeBirth(CpuEffect& fx, uint32_t emitter_index, uint32_t slot, uint64_t ordinal,
                const BirthPlace& place) {
    const Newborn n = newbornOf(fx, emitter_index, ordinal, place);
    storeBirth(fx, emitter_index, slot, ordinal, place, n);
    ++fx.stats[emitter_index].births;
    if (fx.effect->emitters[emitter_index].sub_emitter_count != 0)
        queueEvents(fx, emitter_index, kEventBirth, &slot, 1);
}

// Where an event's children are born (kernels/birth.h, sdEventBirthPlace): the child's rows at
// the end of the step, the event's position and inherited velocity.
BirthPlace eventPlace(const CpuEffect& fx, uint32_t emitter_index, const PendingEvent& event) {
    const EmitterStep& step = fx.scratch.emitters[emitter_index];
    return sdEventBirthPlace(step.emitter_end[0], step.emitter_end[1], step.emitter_end[2],
                             vec3(event.position), vec3(event.velocity));
}

// fx.replace_order[0, oldest) = the slots of the `oldest` oldest of the particles in slots
// [0, candidates), oldest first. Ordinals grow with birth time (and are unique per emitter), so
// the oldest particles have the smallest ordinals. O(candidates + oldest log oldest).
void orderOldest(CpuEffect& fx, uint32_t emitter_index, uint32_t candidates, uint32_t oldest) {
    uint32_t* order = fx.replace_order.data();
    for (uint32_t i = 0; i < candidates; ++i) order[i] = i;
    const uint64_t* ordinal = fx.pools[emitter_index].ordinal.get();
    auto older = [ordinal](uint32_t a, uint32_t b) { return ordinal[a] < ordinal[b]; };
    if (oldest < candidates) std::nth_element(order, order + oldest, order + candidates, older);
    std::sort(order, order + oldest, older);
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
    orderOldest(fx, emitter_index, candidates, plan.replaced);
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
            const BirthPlace place = sdPlannedBirthPlace(
                step.emitter_start[0], step.emitter_start[1], step.emitter_start[2],
                step.emitter_end[0], step.emitter_end[1], step.emitter_end[2], i, spawn.count, dt);
            writeBirth(fx, e, slotOfBirth(fx, plan, i), spawn.first_ordinal + i, place);
        }
    }
}

void spawnEventBirthsAtOnce(CpuEffect& fx, uint32_t emitter, uint32_t event_index, uint32_t count) {
    const uint64_t first_ordinal = takeOrdinals(fx.driver, emitter, count);
    const SlotPlan plan = planSlots(fx, emitter, count);
    const uint32_t born = plan.appended + plan.replaced;
    fx.pools[emitter].count += plan.appended;
    const BirthPlace place = eventPlace(fx, emitter, fx.events[event_index]);
    for (uint32_t i = 0; i < born; ++i) {
        writeBirth(fx, emitter, slotOfBirth(fx, plan, i), first_ordinal + i, place);
        ++fx.work.event_births_written;
    }
}

void beginEventBirths(CpuEffect& fx) {
    fx.event_batches.clear();
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        fx.event_births[e] = {};
        fx.event_births[e].start_count = fx.pools[e].count;
    }
}

// planSlots' rules, batch after batch, have a closed form in the children kept before (child j
// of the step): while the pool has room a child appends; once it is full, replace_oldest
// replaces its oldest particle, and as every child is younger than every particle it replaces,
// the replaced slots come round in a fixed cycle of `capacity` slots (see writeEventBirths).
// One batch keeps at most the pool's capacity of children (replace_oldest: the particles alive
// before it) or the room left (drop_new); the rest are dropped and counted.
void planEventBirths(CpuEffect& fx, uint32_t emitter, uint32_t event_index, uint32_t count) {
    const uint64_t first_ordinal = takeOrdinals(fx.driver, emitter, count);
    EventBirths& births = fx.event_births[emitter];
    EmitterStats& stats = fx.stats[emitter];
    const uint32_t capacity = fx.pools[emitter].capacity;
    const auto live = static_cast<uint32_t>(
        std::min<uint64_t>(uint64_t{births.start_count} + births.births, capacity));
    const uint32_t appended = std::min(count, capacity - live);
    uint32_t kept = appended;
    if (fx.effect->emitters[emitter].overflow == kOverflowReplaceOldest) {
        kept = std::min(count, capacity);
        stats.overflow_replaced += kept - appended;
    }
    stats.overflow_dropped += count - kept;
    stats.births += kept;
    if (kept == 0) return;

    // The children's birth events join the queue now, in birth order, as if each were written
    // now; past the queue's end they are only counted, in one step.
    const uint32_t birth_links = birthLinkCount(*fx.effect, emitter);
    if (birth_links != 0) {
        const BirthPlace place = eventPlace(fx, emitter, fx.events[event_index]);
        for (uint32_t i = 0; i < kept; ++i) {
            if (fx.events.size() >= kMaxEventsPerStep) {
                stats.events_dropped += uint64_t{kept - i} * birth_links;
                break;
            }
            const Newborn n = newbornOf(fx, emitter, first_ordinal + i, place);
            queueBirthEvents(fx, emitter, n.key, n.position, n.velocity);
            ++fx.work.event_births_evaluated;
        }
    }
    EventBatch batch;
    batch.event_index = event_index;
    batch.first_birth = births.births;
    batch.kept = kept;
    batch.previous = births.last_batch;
    batch.first_ordinal = first_ordinal;
    births.last_batch = static_cast<uint32_t>(fx.event_batches.size());
    births.births += kept;
    fx.event_batches.push_back(batch);
}

namespace {

// Where child j of the step lands. With n0 particles at the start, the first `room` = capacity -
// n0 children append (slot n0 + j); then child j replaces entry (j - room) mod capacity of the
// cycle [the n0 particles' slots oldest first, then slots n0 .. capacity - 1]: the oldest
// particle's slot each time, since every child is younger than every particle it replaces. So
// only the last `capacity` children survive, each in its own slot. An emitter that keeps birth
// order instead loses its first slots and appends the survivors in order.
struct EventSlots {
    bool in_birth_order = false;
    uint32_t start_count = 0;    // n0; in birth order: the particles left after eviction
    uint32_t first_survivor = 0; // the first child that survives the step
    uint32_t capacity = 0;
    const uint32_t* oldest = nullptr; // the n0 particles' slots, oldest first (as far as used)

    uint32_t slot(uint32_t j) const {
        if (in_birth_order) return start_count + (j - first_survivor);
        const uint32_t room = capacity - start_count;
        if (j < room) return start_count + j;
        const uint32_t entry = (j - room) % capacity;
        return entry < start_count ? oldest[entry] : entry;
    }
};

EventSlots planEventSlots(CpuEffect& fx, uint32_t e) {
    const EventBirths& births = fx.event_births[e];
    ParticlePool& pool = fx.pools[e];
    EventSlots slots;
    slots.start_count = births.start_count;
    slots.capacity = pool.capacity;
    // drop_new kept no more children than the room, so every one survives.
    slots.first_survivor = births.births > pool.capacity ? births.births - pool.capacity : 0;
    const uint64_t total = uint64_t{births.start_count} + births.births;
    if (keepsBirthOrder(*fx.effect, e)) {
        // The replaced particles are the first slots: they leave and the survivors shift down.
        slots.in_birth_order = true;
        const uint64_t evicted = total > pool.capacity
                                     ? std::min<uint64_t>(births.start_count, total - pool.capacity)
                                     : 0;
        if (evicted != 0) {
            removeKeepingOrder(pool, fx.trails[e],
                               [evicted](uint32_t slot) { return slot < evicted; });
        }
        slots.start_count = pool.count;
        return slots;
    }
    const uint32_t room = pool.capacity - births.start_count;
    if (births.births > room) {
        orderOldest(fx, e, births.start_count, std::min(births.start_count, births.births - room));
        slots.oldest = fx.replace_order.data();
    }
    return slots;
}

} // namespace

void writeEventBirths(CpuEffect& fx) {
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const EventBirths& births = fx.event_births[e];
        if (births.births == 0) continue;
        const EventSlots slots = planEventSlots(fx, e);
        // The surviving children are those of the emitter's latest batches: walk back to them.
        for (uint32_t b = births.last_batch; b != kNoEventBatch;) {
            const EventBatch& batch = fx.event_batches[b];
            const uint32_t end = batch.first_birth + batch.kept;
            if (end <= slots.first_survivor) break;
            const BirthPlace place = eventPlace(fx, e, fx.events[batch.event_index]);
            for (uint32_t j = std::max(batch.first_birth, slots.first_survivor); j < end; ++j) {
                const uint64_t ordinal = batch.first_ordinal + (j - batch.first_birth);
                storeBirth(fx, e, slots.slot(j), ordinal, place, newbornOf(fx, e, ordinal, place));
                ++fx.work.event_births_written;
            }
            b = batch.previous;
        }
        ParticlePool& pool = fx.pools[e];
        pool.count = static_cast<uint32_t>(
            std::min<uint64_t>(uint64_t{births.start_count} + births.births, pool.capacity));
    }
}

} // namespace spindrift::cpu
