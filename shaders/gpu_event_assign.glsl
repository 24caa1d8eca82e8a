// The parallel assignment of gpu_events.comp (docs/gpu-backend.md, "Sub-emitters"), for steps
// whose children cannot interact: every link's child is drop_new and has no birth link, so no
// child's birth queues events and no child replaces another. Then the queue is fixed before the
// assignment starts — the gathered events, then the planned births' birth events (emitter,
// birth, link: a closed-form position, written by kGpuEventsQueueBirths) — and event n's
// children of emitter c depend only on R(n), the children requested of c by the events before
// n (the probability and count draws are pure functions of the event key), because planSlots'
// drop_new rule is a clamp: appended so far = min(R, room), so event n appends
// min(R(n) + count, room) - min(R(n), room) children, its ordinals start at R(n) past the first
// (dropped children take ordinals too, as on the CPU), its slots come from the free list's end
// in order. Per child emitter (params.x; params.z: the effect's emitters):
//   kGpuEventsAssignCount    one workgroup per chunk of kGpuEventChunk queued events: the
//                            children the chunk requests; workgroup 0 also snapshots the child's
//                            counters (alive, free count, first ordinal) for the scatter;
//   kGpuEventsAssignScatter  one workgroup per chunk: R(n) from the earlier chunks' sums and a
//                            prefix sum over the invocations, then the slots; workgroup 0 moves
//                            the child's counters past all of it (the others read the snapshot).
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

// The queue the parallel assignment walks: the gathered events (the scan's count), then every
// planned birth's birth events; at most kGpuMaxEvents.
uint queuedEvents() {
    uint gathered = eventQueueRef().header.count;
    return min(saturatingAdd(gathered, plannedBirthEventsBefore(push.params.z)), kGpuMaxEvents);
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

uint queuedEventChunks() { return (queuedEvents() + kGpuEventChunk - 1u) / kGpuEventChunk; }

void countRequestedChildren() {
    uint c = push.params.x;
    uint t = gl_LocalInvocationID.x;
    AssignChildRef child = assignChildRef(c);
    EventQueueRef queue = eventQueueRef();
    uint events = queuedEvents();
    if (gl_WorkGroupID.x == 0u && t == 0u) {
        // takeOrdinals: after the driver's planned ordinals (born and dropped), as spawnFromEvent.
        GpuStepEmitter step = stepAt(c);
        uvec2 first = add64(plannedFirstOrdinal(c, step), step.birth_count);
        first = add64(uvec2(first.x, first.y + step.planned_dropped_hi), step.planned_dropped_lo);
        child.child.alive = aliveOut(c);
        child.child.free_count = countersRef().counters[c].free_count;
        child.child.first_ordinal_lo = first.x;
        child.child.first_ordinal_hi = first.y;
    }
    for (uint h = gl_WorkGroupID.x; h < queuedEventChunks(); h += gl_NumWorkGroups.x) {
        if (t == 0u) s_total[0] = 0u;
        barrier();
        uint end = min((h + 1u) * kGpuEventChunk, events);
        uint sum = 0u;
        for (uint n = h * kGpuEventChunk + t; n < end; n += kGpuWorkgroupSize) {
            sum += requestedChildren(queue.events[n], c);
        }
        atomicAdd(s_total[0], sum);
        barrier();
        if (t == 0u) child.child.requested[h] = s_total[0];
        barrier();
    }
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
    for (uint h = gl_WorkGroupID.x; h < chunks; h += gl_NumWorkGroups.x) {
        uint before = 0u;
        for (uint k = 0u; k < h; ++k) before += child.child.requested[k];
        // Invocation t owns events [first_event, last): its events follow in queue order.
        uint first_event = h * kGpuEventChunk + t * kEntriesPerInvocation;
        uint last = min(first_event + kEntriesPerInvocation, events);
        uint mine = 0u;
        for (uint n = first_event; n < last; ++n) mine += requestedChildren(queue.events[n], c);
        s_sum[t] = mine;
        barrier();
        if (t == 0u) scanInvocationSums(false);
        barrier();
        uint requested = before + s_sum[t];
        for (uint n = first_event; n < last; ++n) {
            uint count = requestedChildren(queue.events[n], c);
            if (count == 0u) continue;
            uint appended_before = min(requested, room);
            uint appended = min(requested + count, room) - appended_before;
            uvec2 ordinal = add64(first, requested);
            // A slot that gets a child holds its event index and ordinal until the event spawn
            // pass writes the newborn (assignBirth, without birth links).
            for (uint i = 0u; i < appended; ++i) {
                uint a = appended_before + i;
                uint slot = free_list.v[free_count - 1u - a];
                out_list.v[alive + a] = slot;
                flags.v[slot] = n;
                uvec2 o = add64(ordinal, i);
                ordinal_lo.v[slot] = o.x;
                ordinal_hi.v[slot] = o.y;
            }
            requested += count;
        }
        barrier();
    }
    if (gl_WorkGroupID.x != 0u || t != 0u) return;
    uint total = 0u;
    for (uint k = 0u; k < chunks; ++k) total += child.child.requested[k];
    uint appended = min(total, room);
    CountersRef counters = countersRef();
    GpuEmitterCounters k = counters.counters[c];
    addTo(k.overflow_dropped_lo, k.overflow_dropped_hi, total - appended);
    addTo(k.births_lo, k.births_hi, appended);
    counters.counters[c].overflow_dropped_lo = k.overflow_dropped_lo;
    counters.counters[c].overflow_dropped_hi = k.overflow_dropped_hi;
    counters.counters[c].births_lo = k.births_lo;
    counters.counters[c].births_hi = k.births_hi;
    counters.counters[c].free_count = free_count - appended;
    setAliveOut(c, alive + appended);
    EventCountersRef ec = eventCountersRef();
    addTo(ec.counters[c].ordinals_taken_lo, ec.counters[c].ordinals_taken_hi, total);
    ec.counters[c].event_births = appended;
    ec.counters[c].ring_head = 0u;
}
