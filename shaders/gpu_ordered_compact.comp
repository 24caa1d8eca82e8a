// GPU simulation pass 1b of a step, one emitter that keeps birth order (sdGpuKeepsBirthOrder:
// stable_order or replace_oldest; docs/gpu-backend.md, "Birth order"). The update pass moved its
// particles but appended nothing; this pass compacts the alive list in order, as the CPU's
// order-preserving removal does (src/cpu/cpu_effect.cpp): survivors keep their relative order,
// so the list stays sorted by spawn ordinal (births append in ordinal order) and the draw-record
// pass writes the CPU's slot order. A particle that dies out of order leaves no hole.
//
// replace_oldest: when the step's planned births do not fit, the oldest survivors (the front of
// the list) are replaced, as planSlots does on the CPU: r = min(births - free room, survivors).
// Their slots go to the free list after the dead ones, the spawn pass reuses them, and the
// counters pass counts them as replaced, not as deaths (they fire no death event).
//
// A stable compaction in three dispatches (params.w), all over chunks of kGpuOrderedChunk list
// entries, the chunk's running numbers kept in the emitter's GpuOrderedScratch:
//   kGpuOrderedCount    one workgroup per chunk (grid stride): its survivors;
//   kGpuOrderedScan     one workgroup: each chunk's first survivor index (an exclusive prefix
//                       sum), the step's totals, replaced survivors, and the counters;
//   kGpuOrderedScatter  one workgroup per chunk: survivor k goes to the new list at
//                       k - replaced (or, k < replaced, to the free list after the dead), the
//                       j-th dead particle frees its slot at free_base + j.
// Work O(live), span O(live / chunks): a million-particle trail emitter is as parallel as the
// update. Survival is asked twice (count and scatter) rather than stored: the flag column is
// read anyway, and a per-entry flag buffer would cost more bytes than it saves.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "integrate.h"
#include "gpu_sim.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer OrderedScratchRef {
    GpuOrderedScratch header;
    uint chunks[]; // survivors per chunk, then (scan) the chunk's first survivor index
};

// List entries each invocation places in the scatter: a contiguous run, so its survivors and
// its dead each follow one another.
const uint kEntriesPerInvocation = kGpuOrderedChunk / kGpuWorkgroupSize;
// An entry's place in s_place: a new-list index, or this bit and a free-list index.
const uint kPlaceFree = 0x80000000u; // indices stay below kMaxEmitterCapacity (2^27)

shared uint s_scan[kGpuWorkgroupSize];
shared uint s_slot[kGpuOrderedChunk];
shared uint s_place[kGpuOrderedChunk];

// Inclusive prefix sum of value over the workgroup (Hillis-Steele; every invocation calls it).
uint inclusiveScan(uint value) {
    uint lane = gl_LocalInvocationID.x;
    s_scan[lane] = value;
    barrier();
    for (uint offset = 1u; offset < kGpuWorkgroupSize; offset <<= 1u) {
        uint add = lane >= offset ? s_scan[lane - offset] : 0u;
        barrier();
        s_scan[lane] += add;
        barrier();
    }
    uint result = s_scan[lane];
    barrier();
    return result;
}

// The total of the last inclusiveScan (s_scan still holds it).
uint lastScanTotal() {
    uint total = s_scan[kGpuWorkgroupSize - 1u];
    barrier();
    return total;
}

OrderedScratchRef orderedScratch(GpuEmitterPool pool) {
    return OrderedScratchRef(uvec2(pool.ordered_lo, pool.ordered_hi));
}

uint listIn() { return push.params.y; }

// Entries of the list read this step: the device's count, within the host's bound.
uint entriesRead(CountersRef counters) {
    uint index = emitterIndex();
    uint alive = listIn() == 0u ? counters.counters[index].alive0 : counters.counters[index].alive1;
    return min(alive, push.params.z);
}

uint chunksOf(uint entries) { return (entries + kGpuOrderedChunk - 1u) / kGpuOrderedChunk; }

void countSurvivors() {
    GpuEmitterPool pool = emitterPool();
    OrderedScratchRef scratch = orderedScratch(pool);
    UintColumn in_list = uintColumn(pool, kGpuColumnAlive0 + listIn());
    uint count = entriesRead(countersRef());
    uint lane = gl_LocalInvocationID.x;
    for (uint g = gl_WorkGroupID.x; g < chunksOf(count); g += gl_NumWorkGroups.x) {
        uint begin = g * kGpuOrderedChunk;
        uint end = min(begin + kGpuOrderedChunk, count);
        uint mine = 0u;
        // Strided: a count needs no order, and neighbours read neighbouring entries.
        for (uint i = begin + lane; i < end; i += kGpuWorkgroupSize) {
            mine += survivesStep(pool, in_list.v[i]) ? 1u : 0u;
        }
        inclusiveScan(mine);
        uint survivors = lastScanTotal();
        if (lane == 0u) scratch.chunks[g] = survivors;
    }
}

void scanChunks() {
    GpuEmitterPool pool = emitterPool();
    OrderedScratchRef scratch = orderedScratch(pool);
    CountersRef counters = countersRef();
    uint count = entriesRead(counters);
    uint chunks = chunksOf(count);
    uint lane = gl_LocalInvocationID.x;
    // Invocation t owns a contiguous run of chunks: a sum, one workgroup scan, then its run.
    uint per = (chunks + kGpuWorkgroupSize - 1u) / kGpuWorkgroupSize;
    uint begin = min(lane * per, chunks);
    uint end = min(begin + per, chunks);
    uint sum = 0u;
    for (uint g = begin; g < end; ++g) sum += scratch.chunks[g];
    uint running = inclusiveScan(sum) - sum;
    uint survivors = lastScanTotal();
    for (uint g = begin; g < end; ++g) {
        uint n = scratch.chunks[g];
        scratch.chunks[g] = running;
        running += n;
    }
    if (lane != 0u) return;
    uint index = emitterIndex();
    uint replaced = 0u;
    if (emitterRecord().overflow == kOverflowReplaceOldest) {
        uint room = pool.capacity - survivors;
        uint births = stepEmitter().birth_count;
        replaced = min(births > room ? births - room : 0u, survivors);
    }
    GpuOrderedScratch header;
    header.free_base = counters.counters[index].free_count;
    header.survivors = survivors;
    header.replaced = replaced;
    header.dead_total = count - survivors;
    scratch.header = header;
    if (listIn() == 0u) {
        counters.counters[index].alive1 = survivors - replaced;
    } else {
        counters.counters[index].alive0 = survivors - replaced;
    }
    counters.counters[index].free_count = header.free_base + header.dead_total + replaced;
    counters.counters[index].step_replaced = replaced;
}

// An emitter that relocates (kGpuStepRelocates): the chunk's survivors move from their slots in
// the copy of the list read to slot = new-list index in the copy of the list written, so the new
// list is 0, 1, 2, ... and the free list stays capacity - 1, capacity - 2, ... (births take its
// end: the slots right after the survivors, in order). Column by column, each invocation loading
// all of its entries' words before it stores any: the two copies are different buffers, but the
// compiler cannot know that, and a load after each store would wait out a memory round trip
// per word. Neighbouring invocations read and write neighbouring words (the list read is in slot
// order too: the last step's survivors, then its births).
void moveSurvivors(GpuEmitterPool from, GpuEmitterPool to, uint begin, uint end) {
    uint lane = gl_LocalInvocationID.x;
    for (uint c = 0u; c < kGpuStateColumnCount; ++c) {
        UintColumn source = uintColumn(from, c);
        UintColumn target = uintColumn(to, c);
        uint words[kEntriesPerInvocation];
        for (uint j = 0u; j < kEntriesPerInvocation; ++j) {
            uint e = lane + j * kGpuWorkgroupSize;
            bool moves = begin + e < end && (s_place[e] & kPlaceFree) == 0u;
            words[j] = moves ? source.v[s_slot[e]] : 0u;
        }
        for (uint j = 0u; j < kEntriesPerInvocation; ++j) {
            uint e = lane + j * kGpuWorkgroupSize;
            if (begin + e < end && (s_place[e] & kPlaceFree) == 0u) target.v[s_place[e]] = words[j];
        }
    }
}

void scatterChunks() {
    GpuEmitterPool pool = emitterPool();
    OrderedScratchRef scratch = orderedScratch(pool);
    GpuOrderedScratch header = scratch.header;
    UintColumn in_list = uintColumn(pool, kGpuColumnAlive0 + listIn());
    UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + (1u - listIn()));
    UintColumn free_list = uintColumn(pool, kGpuColumnFree);
    uint count = entriesRead(countersRef());
    uint lane = gl_LocalInvocationID.x;
    bool relocates = (stepEmitter().flags & kGpuStepRelocates) != 0u;
    GpuEmitterPool to = emitterPoolForBirths();
    for (uint g = gl_WorkGroupID.x; g < chunksOf(count); g += gl_NumWorkGroups.x) {
        uint begin = g * kGpuOrderedChunk;
        uint end = min(begin + kGpuOrderedChunk, count);
        // Coalesced load: entry e of the chunk, its slot and whether it lives (s_place, for now).
        for (uint e = lane; e < kGpuOrderedChunk; e += kGpuWorkgroupSize) {
            uint i = begin + e;
            uint slot = i < end ? in_list.v[i] : 0u;
            s_slot[e] = slot;
            s_place[e] = (i < end && survivesStep(pool, slot)) ? 1u : 0u;
        }
        barrier();
        uint first = lane * kEntriesPerInvocation;
        uint lives = 0u;
        for (uint j = 0u; j < kEntriesPerInvocation; ++j) lives += s_place[first + j];
        // Survivors before this run: earlier chunks' (the scan) and earlier runs' of this chunk;
        // entries before it minus those are the dead before it.
        uint survivor = scratch.chunks[g] + inclusiveScan(lives) - lives;
        uint dead = begin + first - survivor;
        for (uint j = 0u; j < kEntriesPerInvocation; ++j) {
            uint e = first + j;
            if (begin + e >= end) break;
            if (s_place[e] == 0u) {
                s_place[e] = kPlaceFree | (header.free_base + dead);
                dead += 1u;
            } else {
                s_place[e] = survivor < header.replaced
                                 ? kPlaceFree | (header.free_base + header.dead_total + survivor)
                                 : survivor - header.replaced;
                survivor += 1u;
            }
        }
        barrier();
        // Coalesced store: neighbouring survivors land on neighbouring entries of the new list.
        for (uint e = lane; e < kGpuOrderedChunk; e += kGpuWorkgroupSize) {
            if (begin + e >= end) break;
            uint place = s_place[e];
            if ((place & kPlaceFree) != 0u) {
                uint at = place & ~kPlaceFree;
                free_list.v[at] = relocates ? pool.capacity - 1u - at : s_slot[e];
            } else {
                out_list.v[place] = relocates ? place : s_slot[e];
            }
        }
        if (relocates) moveSurvivors(pool, to, begin, end);
        barrier();
    }
}

void main() {
    uint mode = push.params.w;
    if (mode == kGpuOrderedCount) {
        countSurvivors();
    } else if (mode == kGpuOrderedScan) {
        if (gl_WorkGroupID.x == 0u) scanChunks();
    } else {
        scatterChunks();
    }
}
