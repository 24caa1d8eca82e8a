// The update pass's compaction (docs/gpu-backend.md, "Compaction"): after a particle's step, its
// slot goes to the alive list the next step reads (a survivor) or back to the free list (a dead
// particle). The appends are aggregated: staged per subgroup and flushed by the whole workgroup
// with one atomic per list every 15 iterations (SD_SUBGROUP_APPEND, subgroupBallot) or, on a
// device without ballot, one atomic per workgroup per list and iteration through shared memory.
// Either way the invocations of one subgroup append in invocation order, so a run of
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
// Staged: each subgroup's survivors and deaths gather in its own region of shared memory
// (survivors from the bottom, deaths from the top); every kFlushEvery iterations the workgroup
// flushes them all with one atomic per list, each subgroup then copying its run out in order.
// Measured on the H200 (docs/benchmarks.md): with one atomic per subgroup per iteration, the
// same-address atomics on the emitter's list counters were the update's bound (about 2 ns each,
// serialised: 0.46 of copy bandwidth); without them the same pass ran at 0.75.

// Entries of staging per invocation: each lane stages at most one entry per iteration, so the
// workgroup flushes every kStagePerInvocation - 1 iterations of its loop (the update's dispatch
// is capped so an invocation runs many: kGpuUpdateMaxWorkgroups). 16 KiB for a workgroup of 256.
const uint kStagePerInvocation = 16u;
const uint kFlushEvery = kStagePerInvocation - 1u;
// At most one subgroup per 4 invocations (every device's subgroup size is at least 4).
const uint kMaxSubgroups = kGpuUpdateWorkgroupSize / 4u;
shared uint s_stage[kGpuUpdateWorkgroupSize * kStagePerInvocation];
shared uint s_subgroup_alive[kMaxSubgroups]; // staged counts, then each subgroup's place
shared uint s_subgroup_dead[kMaxSubgroups];
shared uint s_bases[2];
uint g_staged_alive = 0u; // this subgroup's staged survivors (uniform in the subgroup)
uint g_staged_dead = 0u;  // and deaths
uint g_iterations = 0u;   // since the last flush (uniform in the workgroup)

// Invocations of this subgroup (a subgroup may be wider than the workgroup) and its region.
uint stageLanes() { return min(gl_SubgroupSize, kGpuUpdateWorkgroupSize); }
uint stageCapacity() { return stageLanes() * kStagePerInvocation; }
uint stageRegion() { return gl_SubgroupID * stageCapacity(); }

// Writes every subgroup's staged entries to the lists, with one atomic per non-empty list for
// the whole workgroup, and empties the stage. Reached by every invocation of the workgroup
// together.
void compactFlush(uint e, uint list_out, UintColumn out_list, UintColumn free_list) {
    if (subgroupElect()) {
        s_subgroup_alive[gl_SubgroupID] = g_staged_alive;
        s_subgroup_dead[gl_SubgroupID] = g_staged_dead;
    }
    barrier(); // every subgroup's counts and staged entries
    if (gl_LocalInvocationIndex == 0u) {
        uint alive = 0u;
        uint dead = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            uint a = s_subgroup_alive[s];
            uint d = s_subgroup_dead[s];
            s_subgroup_alive[s] = alive;
            s_subgroup_dead[s] = dead;
            alive += a;
            dead += d;
        }
        s_bases[0] = alive != 0u ? addToList(e, list_out, alive) : 0u;
        s_bases[1] = dead != 0u ? addToList(e, 2u, dead) : 0u;
    }
    barrier(); // the places
    uint alive_at = s_bases[0] + s_subgroup_alive[gl_SubgroupID];
    uint free_at = s_bases[1] + s_subgroup_dead[gl_SubgroupID];
    uint region = stageRegion();
    uint top = region + stageCapacity() - 1u;
    for (uint k = gl_SubgroupInvocationID; k < g_staged_alive; k += gl_SubgroupSize) {
        out_list.v[alive_at + k] = s_stage[region + k];
    }
    for (uint k = gl_SubgroupInvocationID; k < g_staged_dead; k += gl_SubgroupSize) {
        free_list.v[free_at + k] = s_stage[top - k];
    }
    // The next flush rewrites the counts and places only after its first barrier, which every
    // invocation reaches after these reads; the stage region is this subgroup's own.
    subgroupBarrier();
    g_staged_alive = 0u;
    g_staged_dead = 0u;
    g_iterations = 0u;
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
    if (++g_iterations == kFlushEvery) compactFlush(e, list_out, out_list, free_list);
}

#else

// Survivors in the low 16 bits, deaths in the high 16 (a workgroup has at most 256 invocations).
shared uint s_takes[kGpuUpdateWorkgroupSize];
shared uint s_bases[2];

void compactSlot(uint e, uint list_out, bool survives, bool dies, uint slot, UintColumn out_list,
                 UintColumn free_list) {
    uint me = gl_LocalInvocationIndex;
    s_takes[me] = (survives ? 1u : 0u) | (dies ? 0x10000u : 0u);
    barrier();
    uint before = 0u;
    uint total = 0u;
    for (uint k = 0u; k < kGpuUpdateWorkgroupSize; ++k) {
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
