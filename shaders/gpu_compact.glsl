// The update pass's compaction (docs/gpu-backend.md, "Compaction"): after a particle's step, its
// slot goes to the alive list the next step reads (a survivor) or back to the free list (a dead
// particle). The appends are aggregated: staged per subgroup and flushed with one atomic per list
// about every 15 iterations (SD_SUBGROUP_APPEND, subgroupBallot) or, on a device without ballot,
// one atomic per workgroup per list and iteration through shared memory. Either way the
// invocations of one group append in invocation order, so a run of
// consecutive slots read by consecutive invocations stays a run in the list written: the next
// step's column reads stay coalesced, and the same-address atomics fall from one per particle to
// one per group.
//
// compactSlot must be reached by every invocation of the workgroup together (uniform control
// flow: the update loop steps whole workgroups), an invocation without a particle passing
// survives = dies = false; compactFlush, by all of them after the loop.

// counters[e].<list> += n; returns the value before. list: 0 alive0, 1 alive1, 2 free.
uint addToList(uint e, uint list, uint n) {
    CountersRef counters = countersRef();
    if (list == 0u) return atomicAdd(counters.counters[e].alive0, n);
    if (list == 1u) return atomicAdd(counters.counters[e].alive1, n);
    return atomicAdd(counters.counters[e].free_count, n);
}

#ifdef SD_SUBGROUP_APPEND
// (The including entry point enables GL_KHR_shader_subgroup_ballot: extensions come first.)
//
// Staged per subgroup: a subgroup's survivors and deaths gather in its own region of shared
// memory (survivors from the bottom, deaths from the top) and go out in one flush, with one
// atomic per list, once the region could not take another iteration. Measured on the H200
// (docs/benchmarks.md): with one atomic per subgroup per iteration, the same-address atomics on
// the emitter's list counters were the update's bound (about 2 ns each, serialised, 0.46 of copy
// bandwidth); without them the same pass ran at 0.75. A flush writes its run in order, so a
// subgroup's survivors of consecutive entries stay a run in the list written.

// Entries of staging per invocation: each live lane stages one entry per iteration, so a
// subgroup flushes about every 15 iterations of its loop (the update's dispatch is capped so a
// lane runs many: kGpuUpdateMaxWorkgroups). 4 KiB for a workgroup of 64.
const uint kStagePerInvocation = 16u;
shared uint s_stage[kGpuWorkgroupSize * kStagePerInvocation];
uint g_staged_alive = 0u; // this subgroup's staged survivors (uniform in the subgroup)
uint g_staged_dead = 0u;  // and deaths

// Invocations of this subgroup (a subgroup may be wider than the workgroup) and its region.
uint stageLanes() { return min(gl_SubgroupSize, kGpuWorkgroupSize); }
uint stageCapacity() { return stageLanes() * kStagePerInvocation; }
uint stageRegion() { return gl_SubgroupID * stageCapacity(); }

// Writes the staged entries to the lists (one atomic per non-empty list) and empties the stage.
// Reached by every invocation of the subgroup together.
void compactFlush(uint e, uint list_out, UintColumn out_list, UintColumn free_list) {
    subgroupBarrier(); // the stage's writes before its reads
    uint alive_base = 0u;
    uint free_base = 0u;
    // subgroupElect picks the lowest active invocation, whose value subgroupBroadcastFirst reads.
    if (subgroupElect()) {
        if (g_staged_alive != 0u) alive_base = addToList(e, list_out, g_staged_alive);
        if (g_staged_dead != 0u) free_base = addToList(e, 2u, g_staged_dead);
    }
    alive_base = subgroupBroadcastFirst(alive_base);
    free_base = subgroupBroadcastFirst(free_base);
    uint region = stageRegion();
    uint top = region + stageCapacity() - 1u;
    for (uint k = gl_SubgroupInvocationID; k < g_staged_alive; k += gl_SubgroupSize) {
        out_list.v[alive_base + k] = s_stage[region + k];
    }
    for (uint k = gl_SubgroupInvocationID; k < g_staged_dead; k += gl_SubgroupSize) {
        free_list.v[free_base + k] = s_stage[top - k];
    }
    subgroupBarrier(); // every read before the stage is written again
    g_staged_alive = 0u;
    g_staged_dead = 0u;
}

void compactSlot(uint e, uint list_out, bool survives, bool dies, uint slot, UintColumn out_list,
                 UintColumn free_list) {
    uvec4 survivors = subgroupBallot(survives);
    uvec4 deaths = subgroupBallot(dies);
    uint region = stageRegion();
    if (survives) {
        s_stage[region + g_staged_alive + subgroupBallotExclusiveBitCount(survivors)] = slot;
    }
    if (dies) {
        uint k = g_staged_dead + subgroupBallotExclusiveBitCount(deaths);
        s_stage[region + stageCapacity() - 1u - k] = slot;
    }
    g_staged_alive += subgroupBallotBitCount(survivors);
    g_staged_dead += subgroupBallotBitCount(deaths);
    if (g_staged_alive + g_staged_dead > stageCapacity() - stageLanes()) {
        compactFlush(e, list_out, out_list, free_list);
    }
}

#else

// Survivors in the low 16 bits, deaths in the high 16 (a workgroup has 64 invocations).
shared uint s_takes[kGpuWorkgroupSize];
shared uint s_bases[2];

void compactSlot(uint e, uint list_out, bool survives, bool dies, uint slot, UintColumn out_list,
                 UintColumn free_list) {
    uint me = gl_LocalInvocationIndex;
    s_takes[me] = (survives ? 1u : 0u) | (dies ? 0x10000u : 0u);
    barrier();
    uint before = 0u;
    uint total = 0u;
    for (uint k = 0u; k < kGpuWorkgroupSize; ++k) {
        uint t = s_takes[k];
        before += k < me ? t : 0u;
        total += t;
    }
    if (me == 0u && (total & 0xffffu) != 0u) s_bases[0] = addToList(e, list_out, total & 0xffffu);
    if (me == 1u && (total >> 16) != 0u) s_bases[1] = addToList(e, 2u, total >> 16);
    barrier();
    if (survives) out_list.v[s_bases[0] + (before & 0xffffu)] = slot;
    if (dies) free_list.v[s_bases[1] + (before >> 16)] = slot;
    barrier(); // s_takes and s_bases are rewritten by the next iteration
}

// Nothing is staged: every compactSlot wrote its entries.
void compactFlush(uint e, uint list_out, UintColumn out_list, UintColumn free_list) {}

#endif
