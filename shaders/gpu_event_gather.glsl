// The parallel event gather of gpu_events.comp (docs/gpu-backend.md, "Sub-emitters"): the
// collision, death and threshold events of a step in exactly the CPU's order (src/cpu/events.cpp,
// collectEvents), written by many workgroups at once.
//
// The CPU's order: emitter by emitter, each emitter's slots (its alive list here: these emitters
// keep birth order) in chunks of kGpuEventChunk; per chunk its collision events (link, then
// collision op, then particle), then its death events (link, then particle), then its threshold
// crossings (link, then particle). So a chunk's events are contiguous in the queue, and within a
// chunk every (link, op) segment is the chunk's particles with one flag, in list order. The
// update pass marked the crossings (kGpuThresholdCrossedBit): the crossing test itself is
// threshold.h's, run once. Three passes:
//   kGpuEventsCount    one workgroup per chunk: its event count (links x flags set);
//   kGpuEventsScan     one workgroup: each chunk's first event index (an exclusive prefix sum
//                      over the chunks, in the CPU's order), the queue's count and cursors;
//   kGpuEventsScatter  one workgroup per chunk: a prefix sum over (flag, invocation) gives every
//                      event its index, chunk base + segment offset + rank; events at or past
//                      kGpuMaxEvents are dropped and counted to the chunk's emitter, as on the CPU.
// Chunks of an emitter are numbered after those of every earlier gathering emitter, from the
// live counts on the device (aliveIn), so each workgroup finds its chunk's emitter by walking
// the emitters (a handful). Include after the helpers of gpu_events.comp.

layout(buffer_reference, std430, buffer_reference_align = 8) buffer EventChunksRef {
    uvec2 chunks[]; // (events, first event index)
};

// Alive-list entries per invocation in a chunk: the scatter's invocation t owns entries
// [t * kEntriesPerInvocation, + kEntriesPerInvocation), so its events follow in list order.
const uint kEntriesPerInvocation = kGpuEventChunk / kGpuWorkgroupSize;
// Flag segments of a chunk: kGpuMaxContactOps collision ops, then death, then threshold.
const uint kMaxSegments = kGpuMaxContactOps + 2u;
// An entry's mask bit for a threshold crossing, past the collision ops' bits.
const uint kCrossedMaskBit = 1u << (kGpuMaxContactOps + 1u);

// Per entry: bit 0 died, bit 1 + k touched collision op k, kCrossedMaskBit crossed.
shared uint s_mask[kGpuEventChunk];
shared uint s_scan[kMaxSegments * kGpuWorkgroupSize]; // (segment, invocation) counts, then offsets
shared uint s_sum[kGpuWorkgroupSize];
shared uint s_total[3];

EventChunksRef eventChunksRef() {
    return EventChunksRef(add64(loadTables().event_queue.xy,
                                kGpuEventAssignOffset + push.params.x * kGpuEventAssignChildBytes));
}

uint saturatingAdd(uint a, uint b) { return b > 0xffffffffu - a ? 0xffffffffu : a + b; }

// Run by one invocation between two barriers: s_sum (one value per invocation) becomes its
// exclusive prefix sum, saturating at 0xffffffff when `saturating`; returns the total.
uint scanInvocationSums(bool saturating) {
    uint running = 0u;
    for (uint k = 0u; k < kGpuWorkgroupSize; ++k) {
        uint v = s_sum[k];
        s_sum[k] = running;
        running = saturating ? saturatingAdd(running, v) : running + v;
    }
    return running;
}

// An emitter's gathering links: (collision links, death links, threshold links).
uvec3 gatherLinks(EmitterRecord r) {
    SubEmittersRef links = subEmittersRef();
    uvec3 n = uvec3(0u);
    for (uint l = 0u; l < r.sub_emitter_count; ++l) {
        uint event = links.links[r.sub_emitter_first + l].event;
        if (event == kEventCollision) n.x += 1u;
        if (event == kEventDeath) n.y += 1u;
        if (event == kEventThreshold) n.z += 1u;
    }
    return n;
}

// Chunks of emitter e this step: its alive list read (aliveIn) when it keeps birth order for
// death, collision or threshold links (hasOrderedEvents), else none.
uint gatherChunks(uint e) {
    EmitterRecord r = emitterAt(e);
    if (r.sub_emitter_count == 0u || (stepAt(e).flags & kGpuStepKeepsBirthOrder) == 0u) return 0u;
    uvec3 links = gatherLinks(r);
    if (links.x + links.y + links.z == 0u) return 0u;
    return (aliveIn(e) + kGpuEventChunk - 1u) / kGpuEventChunk;
}

struct GatherChunk {
    uint emitter;
    uint begin; // first alive-list entry
    uint end;   // past the last
};

shared uvec4 s_chunk; // locateChunk's answer: emitter, begin, end, found

// Chunk g of the step's numbering; false past the last. Invocation 0 walks the emitters and
// tells the workgroup (every invocation must call it: it has barriers).
bool locateChunk(uint g, out GatherChunk chunk) {
    if (gl_LocalInvocationID.x == 0u) {
        uvec4 found = uvec4(0u);
        uint first = 0u;
        for (uint e = 0u; e < push.params.x; ++e) {
            uint n = gatherChunks(e);
            if (g < first + n) {
                uint begin = (g - first) * kGpuEventChunk;
                found = uvec4(e, begin, min(begin + kGpuEventChunk, aliveIn(e)), 1u);
                break;
            }
            first += n;
        }
        s_chunk = found;
    }
    barrier();
    uvec4 found = s_chunk;
    barrier();
    chunk.emitter = found.x;
    chunk.begin = found.y;
    chunk.end = found.z;
    return found.w != 0u;
}

// The collision ops a chunk's events list (0 without collision links).
uint chunkContactOps(uint e, uvec3 links) { return links.x == 0u ? 0u : collisionOpCount(stepAt(e)); }

// Entry i's flags: bit 0 died this step (only with death links), bit 1 + k touched op k,
// kCrossedMaskBit crossed the threshold (only with threshold links).
uint entryMask(GpuEmitterPool pool, UintColumn in_list, uint i, uvec3 links, uint ops) {
    uint slot = in_list.v[i];
    uint mask = 0u;
    if (links.y != 0u && !survivesStep(pool, slot)) mask = 1u;
    if (ops != 0u || links.z != 0u) {
        uint flags = uintColumn(pool, kGpuColumnFlags).v[slot];
        if (ops != 0u) mask |= ((flags >> kGpuContactMaskShift) & ((1u << ops) - 1u)) << 1u;
        if (links.z != 0u && (flags & kGpuThresholdCrossedBit) != 0u) mask |= kCrossedMaskBit;
    }
    return mask;
}

void countChunkEvents() {
    uint t = gl_LocalInvocationID.x;
    EventChunksRef chunks = eventChunksRef();
    for (uint g = gl_WorkGroupID.x;; g += gl_NumWorkGroups.x) {
        GatherChunk chunk;
        if (!locateChunk(g, chunk)) break;
        EmitterRecord r = emitterAt(chunk.emitter);
        uvec3 links = gatherLinks(r);
        uint ops = chunkContactOps(chunk.emitter, links);
        GpuEmitterPool pool = readPoolAt(chunk.emitter);
        UintColumn in_list = uintColumn(pool, kGpuColumnAlive0 + push.params.y);
        if (t == 0u) {
            s_total[0] = 0u;
            s_total[1] = 0u;
            s_total[2] = 0u;
        }
        barrier();
        uint contacts = 0u;
        uint deaths = 0u;
        uint crossings = 0u;
        // Strided entries: a count needs no order, and neighbours read neighbouring entries.
        for (uint i = chunk.begin + t; i < chunk.end; i += kGpuWorkgroupSize) {
            uint mask = entryMask(pool, in_list, i, links, ops);
            deaths += mask & 1u;
            crossings += (mask & kCrossedMaskBit) != 0u ? 1u : 0u;
            contacts += bitCount((mask & ~kCrossedMaskBit) >> 1u);
        }
        atomicAdd(s_total[0], contacts);
        atomicAdd(s_total[1], deaths);
        atomicAdd(s_total[2], crossings);
        barrier();
        if (t == 0u) {
            chunks.chunks[g] = uvec2(
                links.x * s_total[0] + links.y * s_total[1] + links.z * s_total[2], 0u);
        }
        barrier();
    }
}

// One workgroup: exclusive prefix of the chunks' counts (saturating; anything past
// kGpuMaxEvents is dropped anyway), the queue's count and the walker's starting state.
void scanChunks() {
    uint t = gl_LocalInvocationID.x;
    EventChunksRef chunks = eventChunksRef();
    uint total_chunks = 0u;
    for (uint e = 0u; e < push.params.x; ++e) total_chunks += gatherChunks(e);
    uint per = (total_chunks + kGpuWorkgroupSize - 1u) / kGpuWorkgroupSize;
    uint begin = min(t * per, total_chunks);
    uint end = min(begin + per, total_chunks);
    uint sum = 0u;
    for (uint g = begin; g < end; ++g) sum = saturatingAdd(sum, chunks.chunks[g].x);
    s_sum[t] = sum;
    barrier();
    if (t == 0u) {
        uint running = scanInvocationSums(true);
        EventQueueRef queue = eventQueueRef();
        queue.header.count = min(running, kGpuMaxEvents);
        queue.header.phase = kGpuWalkGather;
        queue.header.cursor_emitter = 0u;
        queue.header.cursor_index = 0u;
        queue.header.cursor_link = 0u;
    }
    barrier();
    uint running = s_sum[t];
    for (uint g = begin; g < end; ++g) {
        uint n = chunks.chunks[g].x;
        chunks.chunks[g].y = running;
        running = saturatingAdd(running, n);
    }
}

// queueEvent's record for the particle in `slot`, at queue index `index` (below kGpuMaxEvents).
void writeEvent(uint index, GpuEmitterPool pool, uint slot, uint link, uint event, uint step_lo) {
    SubEmitterRecord sub = subEmittersRef().links[link];
    vec3 p = vec3(floatColumn(pool, kGpuColumnPositionX).v[slot],
                  floatColumn(pool, kGpuColumnPositionY).v[slot],
                  floatColumn(pool, kGpuColumnPositionZ).v[slot]);
    vec3 v = vec3(floatColumn(pool, kGpuColumnVelocityX).v[slot],
                  floatColumn(pool, kGpuColumnVelocityY).v[slot],
                  floatColumn(pool, kGpuColumnVelocityZ).v[slot]);
    GpuEvent ev;
    ev.position = vec4(p, 0.0);
    ev.velocity = vec4(v, 0.0) * sub.inherit_velocity;
    ev.key = sdEventKey(uintColumn(pool, kGpuColumnKey).v[slot], link, step_lo, event);
    ev.link = link;
    ev.pad0 = 0u;
    ev.pad1 = 0u;
    eventQueueRef().events[index] = ev;
}

// Exclusive prefix sum of s_scan[0, segments * kGpuWorkgroupSize) in place, by the workgroup:
// invocation t scans a contiguous block of `segments` entries. s_total[0] gets the total.
void scanSegments(uint segments) {
    uint t = gl_LocalInvocationID.x;
    uint first = t * segments;
    uint sum = 0u;
    for (uint k = 0u; k < segments; ++k) sum += s_scan[first + k];
    s_sum[t] = sum;
    barrier();
    if (t == 0u) s_total[0] = scanInvocationSums(false);
    barrier();
    uint running = s_sum[t];
    for (uint k = 0u; k < segments; ++k) {
        uint v = s_scan[first + k];
        s_scan[first + k] = running;
        running += v;
    }
    barrier();
}

void scatterChunkEvents() {
    uint t = gl_LocalInvocationID.x;
    EventChunksRef chunks = eventChunksRef();
    SubEmittersRef links_ref = subEmittersRef();
    for (uint g = gl_WorkGroupID.x;; g += gl_NumWorkGroups.x) {
        GatherChunk chunk;
        if (!locateChunk(g, chunk)) break;
        uvec2 info = chunks.chunks[g];
        uint base = info.y;
        uint kept = base >= kGpuMaxEvents ? 0u : min(info.x, kGpuMaxEvents - base);
        if (t == 0u && info.x > kept) {
            EventCountersRef ec = eventCountersRef();
            uint dropped = info.x - kept;
            uint old = atomicAdd(ec.counters[chunk.emitter].events_dropped_lo, dropped);
            if (old > 0xffffffffu - dropped) atomicAdd(ec.counters[chunk.emitter].events_dropped_hi, 1u);
        }
        if (kept == 0u) continue; // the same for the whole workgroup

        EmitterRecord r = emitterAt(chunk.emitter);
        GpuStepEmitter step = stepAt(chunk.emitter);
        uvec3 links = gatherLinks(r);
        uint ops = chunkContactOps(chunk.emitter, links);
        // Segments: the collision ops, death, and threshold when the emitter has such links.
        uint segments = ops + (links.z != 0u ? 2u : 1u);
        GpuEmitterPool pool = readPoolAt(chunk.emitter);
        UintColumn in_list = uintColumn(pool, kGpuColumnAlive0 + push.params.y);
        for (uint k = t; k < kGpuEventChunk; k += kGpuWorkgroupSize) {
            uint i = chunk.begin + k;
            s_mask[k] = i < chunk.end ? entryMask(pool, in_list, i, links, ops) : 0u;
        }
        barrier();
        // The count of (segment s, invocation t) at s_scan[s * kGpuWorkgroupSize + t]: memory
        // order is the events' order, so a flat prefix sum gives every (s, t) its offset.
        uint mine = t * kEntriesPerInvocation;
        for (uint s = 0u; s < segments; ++s) {
            uint bit = s < ops ? 1u << (s + 1u) : (s == ops ? 1u : kCrossedMaskBit);
            uint n = 0u;
            for (uint j = 0u; j < kEntriesPerInvocation; ++j) n += (s_mask[mine + j] & bit) != 0u ? 1u : 0u;
            s_scan[s * kGpuWorkgroupSize + t] = n;
        }
        barrier();
        scanSegments(segments);
        // Contacts of the chunk over all ops (one collision link's events), its deaths and its
        // crossings.
        uint contacts = s_scan[ops * kGpuWorkgroupSize];
        uint deaths = (links.z != 0u ? s_scan[(ops + 1u) * kGpuWorkgroupSize] : s_total[0]) -
                      contacts;
        uint crossings = s_total[0] - contacts - deaths;
        uint collision_link = 0u;
        uint death_link = 0u;
        uint threshold_link = 0u;
        for (uint l = 0u; l < r.sub_emitter_count; ++l) {
            uint link = r.sub_emitter_first + l;
            uint event = links_ref.links[link].event;
            if (event == kEventCollision) {
                for (uint k = 0u; k < ops; ++k) {
                    uint at = base + collision_link * contacts + s_scan[k * kGpuWorkgroupSize + t];
                    uint bit = 1u << (k + 1u);
                    for (uint j = 0u; j < kEntriesPerInvocation; ++j) {
                        if ((s_mask[mine + j] & bit) == 0u) continue;
                        if (at < kGpuMaxEvents) {
                            writeEvent(at, pool, in_list.v[chunk.begin + mine + j], link,
                                       kEventCollision, step.step_index_lo);
                        }
                        at += 1u;
                    }
                }
                collision_link += 1u;
            } else if (event == kEventDeath) {
                uint at = base + links.x * contacts + death_link * deaths +
                          s_scan[ops * kGpuWorkgroupSize + t] - contacts;
                for (uint j = 0u; j < kEntriesPerInvocation; ++j) {
                    if ((s_mask[mine + j] & 1u) == 0u) continue;
                    if (at < kGpuMaxEvents) {
                        writeEvent(at, pool, in_list.v[chunk.begin + mine + j], link, kEventDeath,
                                   step.step_index_lo);
                    }
                    at += 1u;
                }
                death_link += 1u;
            } else if (event == kEventThreshold) {
                uint at = base + links.x * contacts + links.y * deaths +
                          threshold_link * crossings + s_scan[(ops + 1u) * kGpuWorkgroupSize + t] -
                          contacts - deaths;
                for (uint j = 0u; j < kEntriesPerInvocation; ++j) {
                    if ((s_mask[mine + j] & kCrossedMaskBit) == 0u) continue;
                    if (at < kGpuMaxEvents) {
                        writeEvent(at, pool, in_list.v[chunk.begin + mine + j], link,
                                   kEventThreshold, step.step_index_lo);
                    }
                    at += 1u;
                }
                threshold_link += 1u;
            }
        }
        barrier();
    }
}
