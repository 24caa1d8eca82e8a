// The update pass's compaction (docs/gpu-backend.md, "Compaction"): after a particle's step, its
// slot goes to the alive list the next step reads (a survivor) or back to the free list (a dead
// particle). The appends are aggregated: one atomic per subgroup per list (SD_SUBGROUP_APPEND,
// subgroupBallot) or, on a device without ballot, one per workgroup per list through shared
// memory. Either way the invocations of one group append in invocation order, so a run of
// consecutive slots read by consecutive invocations stays a run in the list written: the next
// step's column reads stay coalesced, and the same-address atomics fall from one per particle to
// one per group.
//
// compactSlot must be reached by every invocation of the workgroup together (uniform control
// flow: the update loop steps whole workgroups), an invocation without a particle passing
// survives = dies = false.

// counters[e].<list> += n; returns the value before. list: 0 alive0, 1 alive1, 2 free.
uint addToList(uint e, uint list, uint n) {
    CountersRef counters = countersRef();
    if (list == 0u) return atomicAdd(counters.counters[e].alive0, n);
    if (list == 1u) return atomicAdd(counters.counters[e].alive1, n);
    return atomicAdd(counters.counters[e].free_count, n);
}

#ifdef SD_SUBGROUP_APPEND
// (The including entry point enables GL_KHR_shader_subgroup_ballot: extensions come first.)

// This invocation's entry in `list` when the invocations with `take` append one each.
uint appendIndex(bool take, uint e, uint list) {
    uvec4 ballot = subgroupBallot(take);
    uint n = subgroupBallotBitCount(ballot);
    uint base = 0u;
    // subgroupElect picks the lowest active invocation, whose value subgroupBroadcastFirst reads.
    if (n != 0u && subgroupElect()) base = addToList(e, list, n);
    return subgroupBroadcastFirst(base) + subgroupBallotExclusiveBitCount(ballot);
}

void compactSlot(uint e, uint list_out, bool survives, bool dies, uint slot, UintColumn out_list,
                 UintColumn free_list) {
    uint alive_at = appendIndex(survives, e, list_out);
    uint free_at = appendIndex(dies, e, 2u);
    if (survives) out_list.v[alive_at] = slot;
    if (dies) free_list.v[free_at] = slot;
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

#endif
