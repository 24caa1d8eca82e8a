// The sub-emitter event passes (docs/gpu-backend.md, "Sub-emitters"), one pipeline, the mode in
// push.params.w:
//
// The gather (kGpuEventsCount, kGpuEventsScan, kGpuEventsScatter; gpu_event_gather.glsl), after
// the update and the ordered compaction, before the planned births reuse any dead slot: the
// collision, death and threshold events, in parallel, in exactly the CPU's order
// (src/cpu/events.cpp, collectEvents), into the event queue.
//
// The assignment decides every child birth — probability, count, ordinals, slot, drops and
// replacements — so children get the CPU's keys and counts. It writes no particle: a slot that
// gets an event birth holds its event index (flags column) and ordinal until
// gpu_event_spawn.comp writes the newborn in parallel. The slots are always the parallel
// assignment's (kGpuEventsAssignCount, kGpuEventsAssignScatter; gpu_event_assign.glsl), per
// child emitter over the step's whole queue, in closed form: only the children that survive the
// step are placed, so the work is bounded by the capacity, not by the children requested. The
// queue it reads is fixed in one of two ways:
// - kGpuEventsQueueBirths (gpu_event_assign.glsl), in parallel, when no child has birth links
//   of its own (assignsInParallel): the gathered events, then the planned births' birth events
//   at closed-form positions.
// - kGpuEventsAssign, the serial walker (ONE invocation, after the planned births and the
//   counters' finish pass), when children queue birth events of their own: the planned births'
//   birth events (emitter, birth, link), then every queued event in order, taking its
//   children's ordinals and queueing the birth events of those born, which join the queue the
//   walk is reading. Serial by nature; O(events + children evaluated) per step on one
//   invocation, and children are evaluated only while the queue has room (each queues an
//   event), so at most kGpuMaxEvents of them. It resumes from the queue header's cursor: on a
//   device that limits an invocation's loop iterations (lavapipe), the host records several
//   dispatches, each doing at most push.params.z units of work (gpu_sim.h,
//   kGpuWalkBudgetLimited); elsewhere one does all.
// A replace_oldest child's list becomes a ring when events replace its oldest particles;
// gpu_event_spawn.comp turns it back into a list.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "birth.h"
#include "lut.h"
#include "random.h"
#include "shape.h"
#include "sub_emitter.h"
#include "gpu_sim.glsl"
#include "gpu_events.glsl"
#include "gpu_birth.glsl"

uint g_queued; // events in the queue

EmitterRecord emitterAt(uint e) { return EmittersRef(loadTables().emitters_ops.xy).emitters[e]; }
// Emitter e's pool with the table of the list the step read (the gather: the particles that
// died or touched a collider this step) or of the list it writes (births and their events).
GpuEmitterPool readPoolAt(uint e) { return poolForList(e, push.params.y); }
GpuEmitterPool birthPoolAt(uint e) { return poolForList(e, 1u - push.params.y); }
GpuStepEmitter stepAt(uint e) { return StepEmittersRef(loadStepHeader().emitters_ops.xy).steps[e]; }

uint aliveIn(uint e) {
    GpuEmitterCounters c = countersRef().counters[e];
    return push.params.y == 0u ? c.alive0 : c.alive1;
}
uint aliveOut(uint e) {
    GpuEmitterCounters c = countersRef().counters[e];
    return push.params.y == 0u ? c.alive1 : c.alive0;
}
void setAliveOut(uint e, uint count) {
    if (push.params.y == 0u) countersRef().counters[e].alive1 = count;
    else countersRef().counters[e].alive0 = count;
}

void addTo(inout uint lo, inout uint hi, uint value) {
    uint carry;
    lo = uaddCarry(lo, value, carry);
    hi += carry;
}

// queueEvents for one particle and one link: the event, or a drop past kGpuMaxEvents.
void queueEvent(uint emitter, uint link, uint event, uint particle_key, vec3 position,
                vec3 velocity, uint step_index_lo) {
    EventCountersRef ec = eventCountersRef();
    if (g_queued >= kGpuMaxEvents) {
        addTo(ec.counters[emitter].events_dropped_lo, ec.counters[emitter].events_dropped_hi, 1u);
        return;
    }
    SubEmitterRecord sub = subEmittersRef().links[link];
    GpuEvent ev;
    ev.position = vec4(position, 0.0);
    ev.velocity = vec4(velocity, 0.0) * sub.inherit_velocity;
    ev.key = sdEventKey(particle_key, link, step_index_lo, event);
    ev.link = link;
    ev.pad0 = 0u;
    ev.pad1 = 0u;
    eventQueueRef().events[g_queued] = ev;
    g_queued += 1u;
}

// The event of a particle in the pool (its values after the update, or a planned newborn's).
void queueSlotEvent(uint e, GpuEmitterPool pool, uint link, uint event, uint slot, uint step_lo) {
    vec3 p = vec3(floatColumn(pool, kGpuColumnPositionX).v[slot],
                  floatColumn(pool, kGpuColumnPositionY).v[slot],
                  floatColumn(pool, kGpuColumnPositionZ).v[slot]);
    vec3 v = vec3(floatColumn(pool, kGpuColumnVelocityX).v[slot],
                  floatColumn(pool, kGpuColumnVelocityY).v[slot],
                  floatColumn(pool, kGpuColumnVelocityZ).v[slot]);
    queueEvent(e, link, event, uintColumn(pool, kGpuColumnKey).v[slot], p, v, step_lo);
}

uint collisionOpCount(GpuStepEmitter step) {
    ResolvedOpsRef ops = ResolvedOpsRef(loadStepHeader().emitters_ops.zw);
    uint n = 0u;
    for (uint k = 0u; k < step.op_count; ++k) n += ops.ops[step.op_first + k].op.op == kOpCollision ? 1u : 0u;
    return min(n, kGpuMaxContactOps);
}

// The cost of a unit of work in loop iterations, counted generously: what the budget of one
// dispatch is spent on (gpu_sim.h, kGpuWalkBudgetLimited).
uint g_spent;
bool fits(uint cost, uint budget) { return cost <= budget - min(g_spent, budget); }

// The planned births' birth events (spawnPlanned's writeBirth → queueEvents): emitters in
// order, births in order, links in order per birth.
// Resumes at (emitter, birth); a unit is one birth's links. Returns true when done.
bool queuePlannedBirthEvents(uint emitters, uint budget) {
    SubEmittersRef links = subEmittersRef();
    EventQueueRef queue = eventQueueRef();
    uint e = queue.header.cursor_emitter;
    uint i = queue.header.cursor_index;
    while (e < emitters) {
        g_spent += 1u;
        EmitterRecord r = emitterAt(e);
        uint born = countersRef().counters[e].step_born;
        if (r.sub_emitter_count == 0u || i >= born) {
            e += 1u;
            i = 0u;
            continue;
        }
        uint cost = r.sub_emitter_count + 4u;
        if (!fits(cost, budget)) break;
        g_spent += cost;
        GpuEmitterPool pool = birthPoolAt(e);
        GpuStepEmitter step = stepAt(e);
        UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + (1u - push.params.y));
        uint slot = out_list.v[aliveOut(e) - born + i];
        for (uint l = 0u; l < r.sub_emitter_count; ++l) {
            uint link = r.sub_emitter_first + l;
            if (links.links[link].event != kEventBirth) continue;
            queueSlotEvent(e, pool, link, kEventBirth, slot, step.step_index_lo);
        }
        i += 1u;
    }
    queue.header.cursor_emitter = e;
    queue.header.cursor_index = i;
    return e >= emitters;
}

uint birthLinkCount(EmitterRecord r) {
    SubEmittersRef links = subEmittersRef();
    uint n = 0u;
    for (uint l = 0u; l < r.sub_emitter_count; ++l) {
        n += links.links[r.sub_emitter_first + l].event == kEventBirth ? 1u : 0u;
    }
    return n;
}

// How many of an event's `count` children are born (planSlots' appended + replaced), from the
// children placed before in the step: replace_oldest keeps at most its capacity, drop_new at
// most the room left.
uint keptChildren(uint c, EmitterRecord r, uint count) {
    uint capacity = birthPoolAt(c).capacity;
    if (r.overflow == kOverflowReplaceOldest) return min(count, capacity);
    uint live = min(aliveOut(c) + eventCountersRef().counters[c].walk_placed, capacity);
    return min(count, capacity - live);
}

// The walker's part of spawnFromEvents + planSlots for one event with `count` children of
// emitter c: their ordinals (takeOrdinals: after the driver's planned ordinals, born and dropped,
// and every earlier event birth's, dropped children included) and, when the child has birth
// links of its own, the birth events of those born, queued now with the newborns' values (the
// spawn pass's function) while the queue has room and only counted past it. Slots are the
// parallel assignment's, after the walk.
void walkEvent(uint c, EmitterRecord r, GpuEvent ev, uint count, uint kept, uint birth_links) {
    EventCountersRef ec = eventCountersRef();
    GpuStepEmitter step = stepAt(c);
    uvec2 first = plannedFirstOrdinal(c, step);
    first = add64(first, step.birth_count);
    first = add64(uvec2(first.x, first.y + step.planned_dropped_hi), step.planned_dropped_lo);
    first = add64(first, ec.counters[c].walk_requested);
    ec.counters[c].walk_requested += count;
    ec.counters[c].walk_placed += kept;
    if (birth_links == 0u) return;
    SubEmittersRef links = subEmittersRef();
    uint evaluated = 0u;
    for (uint i = 0u; i < kept; ++i) {
        if (g_queued >= kGpuMaxEvents) {
            addTo(ec.counters[c].events_dropped_lo, ec.counters[c].events_dropped_hi,
                  (kept - i) * birth_links);
            break;
        }
        uvec2 ordinal = add64(first, i);
        Newborn n = newborn(r, step, c, ordinal, eventBirthPlace(step, ev));
        for (uint l = 0u; l < r.sub_emitter_count; ++l) {
            uint link = r.sub_emitter_first + l;
            if (links.links[link].event != kEventBirth) continue;
            queueEvent(c, link, kEventBirth, n.key, n.position, n.velocity, step.step_index_lo);
        }
        evaluated += 1u;
    }
    addTo(ec.counters[c].assign_work_lo, ec.counters[c].assign_work_hi, evaluated);
}

void assign(uint emitters, uint budget) {
    EventCountersRef ec = eventCountersRef();
    EventQueueRef queue = eventQueueRef();
    if (queue.header.phase == kGpuWalkGather) {
        for (uint e = 0u; e < emitters; ++e) {
            ec.counters[e].walk_requested = 0u;
            ec.counters[e].walk_placed = 0u;
        }
        g_spent += emitters;
        queue.header.phase = kGpuWalkPlanned;
        queue.header.cursor_emitter = 0u;
        queue.header.cursor_index = 0u;
    }
    if (queue.header.phase == kGpuWalkPlanned) {
        if (!queuePlannedBirthEvents(emitters, budget)) return;
        queue.header.phase = kGpuWalkEvents;
        queue.header.cursor_index = 0u;
    }
    if (queue.header.phase != kGpuWalkEvents) return;
    SubEmittersRef links = subEmittersRef();
    // g_queued grows while children queue their birth events; at most kGpuMaxEvents.
    uint n = queue.header.cursor_index;
    for (; n < g_queued; ++n) {
        g_spent += 1u;
        GpuEvent ev = queue.events[n];
        SubEmitterRecord sub = links.links[ev.link];
        if (sdRandom01(ev.key, kEventDrawProbability) >= sub.probability) continue;
        uint count = sdRandomCount(ev.key, kEventDrawCount, sub.count_min, sub.count_max);
        EmitterRecord r = emitterAt(sub.emitter);
        uint kept = keptChildren(sub.emitter, r, count);
        // Only children with birth links cost more than the event, and only while the queue
        // has room: each child evaluated queues at least one event.
        uint birth_links = birthLinkCount(r);
        uint evaluated = birth_links != 0u && g_queued < kGpuMaxEvents ? kept : 0u;
        uint cost = evaluated * (2u * r.sub_emitter_count + 6u) + 8u;
        if (!fits(cost, budget)) break;
        g_spent += cost;
        walkEvent(sub.emitter, r, ev, count, kept, birth_links);
    }
    queue.header.cursor_index = n;
    if (n >= g_queued) queue.header.phase = kGpuWalkDone;
}

#include "gpu_event_gather.glsl"
#include "gpu_event_assign.glsl"

void main() {
    uint mode = push.params.w;
    if (mode == kGpuEventsCount) {
        countChunkEvents();
        return;
    }
    if (mode == kGpuEventsScan) {
        scanChunks();
        return;
    }
    if (mode == kGpuEventsScatter) {
        scatterChunkEvents();
        return;
    }
    if (mode == kGpuEventsQueueBirths) {
        queuePlannedBirthEventsInParallel();
        return;
    }
    if (mode == kGpuEventsAssignCount) {
        countRequestedChildren();
        return;
    }
    if (mode == kGpuEventsAssignScatter) {
        assignChildren();
        return;
    }
    // kGpuEventsAssign: the serial walker, one invocation.
    if (gl_GlobalInvocationID.x != 0u) return;
    EventQueueRef queue = eventQueueRef();
    g_spent = 0u;
    g_queued = queue.header.count;
    assign(push.params.x, push.params.z);
    queue.header.count = g_queued;
}
