// The parallel assignment of gpu_events.comp (docs/gpu-backend.md, "Sub-emitters"): every
// event's children get their ordinals and slots at once, once the step's queue is fixed — the
// gathered events, then the planned births' birth events (emitter, birth, link: a closed-form
// position, written by kGpuEventsQueueBirths) when no walker runs (assignsInParallel), or the
// queue the serial walker completed (its birth events of children included). Event n's
// children of emitter c depend only on R(n), the children requested of c by the events before
// n (the probability and count draws are pure functions of the event key), because planSlots'
// rules have closed forms in R. Child i of event n takes ordinal R(n) + i past the first
// (dropped children take ordinals too, as on the CPU). drop_new: child j = R(n) + i of the
// step is appended when j < room, taking the free list's j-th slot from the end, else dropped.
// replace_oldest: an event places min(count, capacity) children (planSlots replaces at most the
// particles alive before it, and with a full pool that is the capacity), numbered j = P(n) + i
// with P the children placed before; child j appends while j < room, and past room replaces
// list entry (j - room) mod capacity: the list is full by then, a ring whose head starts at 0
// and passes one entry per replacement (every child is younger than every particle it
// replaces). An entry replaced again later in the step keeps only its last child, so only the
// last `capacity` children are placed at all: the work is the capacity, not the children
// requested. Per child emitter (params.x; params.z: the effect's emitters):
//   kGpuEventsAssignCount    one workgroup per chunk of kGpuEventChunk queued events: the
//                            children the chunk requests and places; workgroup 0 also
//                            snapshots the child's counters (alive, free count, first ordinal);
//   kGpuEventsAssignScatter  one workgroup per chunk: R(n) and P(n) from the earlier chunks'
//                            sums and prefix sums over the invocations, then the slots;
//                            workgroup 0 moves the child's counters past all of it (the others
//                            read the snapshot).
// Include after gpu_event_gather.glsl (its shared arrays, kEntriesPerInvocation, writeEvent).

uint birthLinks(EmitterRecord r) {
    SubEmittersRef links = subEmittersRef();
    uint n = 0u;
    for (uint l = 0u; l < r.sub_emitter_count; ++l) {
        n += links.links[r.sub_emitter_first + l].event == kEventBirth ? 1u : 0u;
    }
    return n;
}

// The planned births' birth events of the emitters before e.
uint plannedBirthEventsBefore(uint e) {
    uint n = 0u;
    for (uint k = 0u; k < e; ++k) {
        n = saturatingAdd(n, countersRef().counters[k].step_born * birthLinks(emitterAt(k)));
    }
    return n;
}

// The queue the parallel assignment walks: the one the walker completed, or the gathered events
// (the scan's count) then every planned birth's birth events; at most kGpuMaxEvents.
uint queuedEvents() {
    EventQueueRef queue = eventQueueRef();
    if (queue.header.phase == kGpuWalkDone) return queue.header.count;
    return min(saturatingAdd(queue.header.count, plannedBirthEventsBefore(push.params.z)),
               kGpuMaxEvents);
}

// kGpuEventsQueueBirths for emitter params.x: birth i's events (one per birth link, in link
// order) at the gathered count + the earlier emitters' + i x its birth links; the ones at or
// past kGpuMaxEvents dropped and counted, as queueEvents does.
void queuePlannedBirthEventsInParallel() {
    uint e = push.params.x;
    EmitterRecord r = emitterAt(e);
    uint links_per_birth = birthLinks(r);
    uint born = countersRef().counters[e].step_born;
    uint first = saturatingAdd(eventQueueRef().header.count, plannedBirthEventsBefore(e));
    if (gl_GlobalInvocationID.x == 0u) {
        uint events = born * links_per_birth;
        uint kept = first >= kGpuMaxEvents ? 0u : min(events, kGpuMaxEvents - first);
        EventCountersRef ec = eventCountersRef();
        addTo(ec.counters[e].events_dropped_lo, ec.counters[e].events_dropped_hi, events - kept);
    }
    if (first >= kGpuMaxEvents) return;
    SubEmittersRef links = subEmittersRef();
    GpuEmitterPool pool = birthPoolAt(e);
    GpuStepEmitter step = stepAt(e);
    UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + (1u - push.params.y));
    uint newest = aliveOut(e) - born;
    for (uint i = gl_GlobalInvocationID.x; i < born; i += gridStride()) {
        uint at = first + i * links_per_birth;
        for (uint l = 0u; l < r.sub_emitter_count && at < kGpuMaxEvents; ++l) {
            uint link = r.sub_emitter_first + l;
            if (links.links[link].event != kEventBirth) continue;
            writeEvent(at, pool, out_list.v[newest + i], link, kEventBirth, step.step_index_lo);
            at += 1u;
        }
    }
}

layout(buffer_reference, std430, buffer_reference_align = 16) buffer AssignChildRef {
    GpuEventAssignChild child;
};

AssignChildRef assignChildRef(uint c) {
    return AssignChildRef(add64(loadTables().event_queue.xy,
                                kGpuEventAssignOffset + c * kGpuEventAssignChildBytes));
}

// The children event `ev` asks of emitter c (spawnFromEvents' draws); 0 when its link's child
// is another emitter or the probability draw fails.
uint requestedChildren(GpuEvent ev, uint c) {
    SubEmitterRecord sub = subEmittersRef().links[ev.link];
    if (sub.emitter != c) return 0u;
    if (sdRandom01(ev.key, kEventDrawProbability) >= sub.probability) return 0u;
    return sdRandomCount(ev.key, kEventDrawCount, sub.count_min, sub.count_max);
}

// Of `count` children requested, those numbered in the placement sequence: replace_oldest
// places at most the capacity of one event's children; drop_new numbers all it requests (its
// room clamps them).
uint placedChildren(uint count, bool replaces, uint capacity) {
    return replaces ? min(count, capacity) : count;
}

uint queuedEventChunks() { return (queuedEvents() + kGpuEventChunk - 1u) / kGpuEventChunk; }

void countRequestedChildren() {
    uint c = push.params.x;
    uint t = gl_LocalInvocationID.x;
    AssignChildRef child = assignChildRef(c);
    EventQueueRef queue = eventQueueRef();
    uint events = queuedEvents();
    bool replaces = emitterAt(c).overflow == kOverflowReplaceOldest;
    uint capacity = birthPoolAt(c).capacity;
    if (gl_WorkGroupID.x == 0u && t == 0u) {
        // takeOrdinals: after the driver's planned ordinals (born and dropped), as walkEvent.
        GpuStepEmitter step = stepAt(c);
        uvec2 first = add64(plannedFirstOrdinal(c, step), step.birth_count);
        first = add64(uvec2(first.x, first.y + step.planned_dropped_hi), step.planned_dropped_lo);
        child.child.alive = aliveOut(c);
        child.child.free_count = countersRef().counters[c].free_count;
        child.child.first_ordinal_lo = first.x;
        child.child.first_ordinal_hi = first.y;
    }
    for (uint h = gl_WorkGroupID.x; h < queuedEventChunks(); h += gl_NumWorkGroups.x) {
        if (t == 0u) {
            s_total[0] = 0u;
            s_total[1] = 0u;
        }
        barrier();
        uint end = min((h + 1u) * kGpuEventChunk, events);
        uint requested = 0u;
        uint placed = 0u;
        for (uint n = h * kGpuEventChunk + t; n < end; n += kGpuWorkgroupSize) {
            uint count = requestedChildren(queue.events[n], c);
            requested += count;
            placed += placedChildren(count, replaces, capacity);
        }
        atomicAdd(s_total[0], requested);
        atomicAdd(s_total[1], placed);
        barrier();
        if (t == 0u) child.child.requested[h] = uvec2(s_total[0], s_total[1]);
        barrier();
    }
}

// Exclusive prefix of `mine` over the workgroup's invocations (s_sum; all invocations call it).
uint invocationPrefix(uint mine) {
    uint t = gl_LocalInvocationID.x;
    s_sum[t] = mine;
    barrier();
    if (t == 0u) scanInvocationSums(false);
    barrier();
    uint prefix = s_sum[t];
    barrier();
    return prefix;
}

void assignChildren() {
    uint c = push.params.x;
    uint t = gl_LocalInvocationID.x;
    AssignChildRef child = assignChildRef(c);
    EventQueueRef queue = eventQueueRef();
    uint events = queuedEvents();
    uint chunks = queuedEventChunks();
    GpuEmitterPool pool = birthPoolAt(c);
    uint alive = child.child.alive;
    uint free_count = child.child.free_count;
    uint room = pool.capacity - alive;
    uvec2 first = uvec2(child.child.first_ordinal_lo, child.child.first_ordinal_hi);
    UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + (1u - push.params.y));
    UintColumn free_list = uintColumn(pool, kGpuColumnFree);
    UintColumn flags = uintColumn(pool, kGpuColumnFlags);
    UintColumn ordinal_lo = uintColumn(pool, kGpuColumnOrdinalLo);
    UintColumn ordinal_hi = uintColumn(pool, kGpuColumnOrdinalHi);
    bool replaces = emitterAt(c).overflow == kOverflowReplaceOldest;
    uvec2 total = uvec2(0u);
    for (uint k = 0u; k < chunks; ++k) total += child.child.requested[k];
    uint replaced_total = replaces && total.y > room ? total.y - room : 0u;
    // Children placed before this one are replaced later in the step (again, by replacement
    // entry + k x capacity): only the last `capacity` placed children write their slots.
    uint first_survivor = replaces && total.y > pool.capacity ? total.y - pool.capacity : 0u;
    uint work = 0u;
    for (uint h = gl_WorkGroupID.x; h < chunks; h += gl_NumWorkGroups.x) {
        uvec2 before = uvec2(0u);
        for (uint k = 0u; k < h; ++k) before += child.child.requested[k];
        // Invocation t owns events [first_event, last): its events follow in queue order.
        uint first_event = h * kGpuEventChunk + t * kEntriesPerInvocation;
        uint last = min(first_event + kEntriesPerInvocation, events);
        uvec2 mine = uvec2(0u);
        for (uint n = first_event; n < last; ++n) {
            uint count = requestedChildren(queue.events[n], c);
            mine += uvec2(count, placedChildren(count, replaces, pool.capacity));
        }
        uint requested = before.x + invocationPrefix(mine.x);
        uint placed_before = before.y + invocationPrefix(mine.y);
        for (uint n = first_event; n < last; ++n) {
            uint count = requestedChildren(queue.events[n], c);
            if (count == 0u) continue;
            uint numbered = placedChildren(count, replaces, pool.capacity);
            uint placed = replaces ? numbered
                                   : min(placed_before + count, room) - min(placed_before, room);
            // Appended children's list entries, whoever writes their slots in the end.
            uint appended_end = min(placed_before + placed, room);
            for (uint j = placed_before; j < appended_end; ++j) {
                out_list.v[alive + j] = free_list.v[free_count - 1u - j];
            }
            // A slot that gets a child holds its event index and ordinal until the event spawn
            // pass writes the newborn.
            uint i0 = first_survivor > placed_before ? first_survivor - placed_before : 0u;
            for (uint i = i0; i < placed; ++i) {
                uint j = placed_before + i;
                // Entries past the survivors are this step's appended children: their slots come
                // from the free list (another invocation may be writing the list entry).
                uint entry = j < room ? alive + j : (j - room) % pool.capacity;
                uint slot = entry < alive ? out_list.v[entry]
                                          : free_list.v[free_count - 1u - (entry - alive)];
                flags.v[slot] = n;
                uvec2 o = add64(first, requested + i);
                ordinal_lo.v[slot] = o.x;
                ordinal_hi.v[slot] = o.y;
            }
            work += placed > i0 ? placed - i0 : 0u;
            requested += count;
            placed_before += numbered;
        }
        barrier();
    }
    EventCountersRef ec = eventCountersRef();
    if (work != 0u) {
        uint lo = atomicAdd(ec.counters[c].assign_work_lo, work);
        if (lo > 0xffffffffu - work) atomicAdd(ec.counters[c].assign_work_hi, 1u);
    }
    if (gl_WorkGroupID.x != 0u || t != 0u) return;
    uint appended = min(total.y, room);
    CountersRef counters = countersRef();
    GpuEmitterCounters k = counters.counters[c];
    addTo(k.overflow_dropped_lo, k.overflow_dropped_hi, total.x - appended - replaced_total);
    addTo(k.overflow_replaced_lo, k.overflow_replaced_hi, replaced_total);
    addTo(k.births_lo, k.births_hi, appended + replaced_total);
    counters.counters[c].overflow_dropped_lo = k.overflow_dropped_lo;
    counters.counters[c].overflow_dropped_hi = k.overflow_dropped_hi;
    counters.counters[c].overflow_replaced_lo = k.overflow_replaced_lo;
    counters.counters[c].overflow_replaced_hi = k.overflow_replaced_hi;
    counters.counters[c].births_lo = k.births_lo;
    counters.counters[c].births_hi = k.births_hi;
    counters.counters[c].free_count = free_count - appended;
    setAliveOut(c, alive + appended);
    addTo(ec.counters[c].ordinals_taken_lo, ec.counters[c].ordinals_taken_hi, total.x);
    // The step's children still listed: the newest min(placed, capacity) entries of the ring
    // (replacements past the survivors replace this step's own children first).
    ec.counters[c].event_births = min(appended + replaced_total, pool.capacity);
    ec.counters[c].ring_head = replaced_total % max(pool.capacity, 1u);
}
