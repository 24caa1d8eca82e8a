// The GPU backend's own records (docs/gpu-backend.md): the pool layout table, the per-emitter
// counters, the per-step uniforms and the push constants of its compute passes. Declared once
// here; src/gpu/ writes them and shaders/gpu_*.comp read them.
//
// Not cooked into files, but read by shaders: a layout change is a change on both sides, which
// this one declaration keeps in step (offsets pinned below and by tests/vulkan/shader_layout_test
// through kernel_check.comp).
#ifndef SPINDRIFT_GPU_SHADER_GPU_SIM_H
#define SPINDRIFT_GPU_SHADER_GPU_SIM_H

#include "kernels/effect_records.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// Invocations per workgroup of every GPU simulation pass (within lavapipe's and every
// device's limits; a multiple of both subgroup sizes measured, 8 and 32).
SD_CONST uint kGpuWorkgroupSize = 64u;
// Workgroups per dispatch at most: the portable limit in x. Passes loop grid-stride beyond it.
SD_CONST uint kGpuMaxWorkgroups = 65535u;
// Workgroups of the update pass at most: about what a large GPU keeps resident (the H200: 132
// SMs x 32 groups of 64), so each invocation loops over many particles and the compaction's
// staged appends flush rarely (shaders/gpu_compact.glsl; docs/gpu-backend.md, "Compaction").
SD_CONST uint kGpuUpdateMaxWorkgroups = 4096u;
// Past this live bound the update takes kGpuUpdateLargeWorkgroups instead: on the H200 a fresh
// 100M pool updated by 2048 or more groups ran either at ~3.3 or at ~6 ms per step (a mean of
// 0.50-0.52 of the copy bandwidth), by 1024 groups steadily at 0.75, while at 1M and 10M 1024
// groups lose (0.72 and 0.68 against 0.77 and 0.74; docs/benchmarks.md, the group sweep).
SD_CONST uint kGpuUpdateLargeBound = 1u << 25;
SD_CONST uint kGpuUpdateLargeWorkgroups = 1024u;
// Between this live bound and kGpuUpdateLargeBound the update takes kGpuUpdateMidWorkgroups: with
// the software-pipelined update loop (gpu_update.comp) the H200 reached 0.764 of copy at 10M with
// 16 384 groups against 0.749 with 4096, 0.763 against 0.743 at 30M, while at 1M and 3M 4096
// stayed best (docs/benchmarks.md, the second group sweep).
SD_CONST uint kGpuUpdateMidBound = 1u << 22;
SD_CONST uint kGpuUpdateMidWorkgroups = 16384u;

// The columns of one emitter's region of the pool, each capacity 32-bit words long, in this
// order (the state columns match src/cpu/particle_pool.h; the three lists are the GPU's own).
SD_CONST uint kGpuColumnPositionX = 0u;
SD_CONST uint kGpuColumnPositionY = 1u;
SD_CONST uint kGpuColumnPositionZ = 2u;
SD_CONST uint kGpuColumnVelocityX = 3u;
SD_CONST uint kGpuColumnVelocityY = 4u;
SD_CONST uint kGpuColumnVelocityZ = 5u;
SD_CONST uint kGpuColumnAge = 6u;
SD_CONST uint kGpuColumnLifetime = 7u;
SD_CONST uint kGpuColumnRotation = 8u;
SD_CONST uint kGpuColumnFlags = 9u;
SD_CONST uint kGpuColumnAngularVelocity = 10u;
SD_CONST uint kGpuColumnSize = 11u;
SD_CONST uint kGpuColumnMass = 12u;
SD_CONST uint kGpuColumnColorR = 13u;
SD_CONST uint kGpuColumnColorG = 14u;
SD_CONST uint kGpuColumnColorB = 15u;
SD_CONST uint kGpuColumnColorA = 16u;
SD_CONST uint kGpuColumnKey = 17u;
SD_CONST uint kGpuColumnOrdinalLo = 18u;
SD_CONST uint kGpuColumnOrdinalHi = 19u;
SD_CONST uint kGpuColumnAlive0 = 20u; // alive list read by even steps, written by odd ones
SD_CONST uint kGpuColumnAlive1 = 21u;
SD_CONST uint kGpuColumnFree = 22u; // free slots; births take them from the end
SD_CONST uint kGpuColumnCount = 23u;
// Columns [0, kGpuStateColumnCount) are a particle's state: what moves when a particle moves to
// another slot (the ordered compaction of an emitter that relocates; GpuEmitterPool).
SD_CONST uint kGpuStateColumnCount = kGpuColumnAlive0;

// Particle flag bits of the kGpuColumnFlags column: the update step's (kParticleFlagStuck,
// kParticleFlagKilled in src/kernels/update_step.h), below the contact mask.

// GpuStepEmitter.flags bits.
SD_CONST uint kGpuStepSpins = 1u;     // integrate rotation
SD_CONST uint kGpuStepUsesFlags = 2u; // an op may stick or kill particles
// The emitter's alive list is kept in birth order (src/gpu/ordered_list.h, gpuKeepsBirthOrder:
// sdGpuKeepsBirthOrder below, or death, collision or threshold sub-emitter events). Shaders read
// this bit; the host decides.
SD_CONST uint kGpuStepKeepsBirthOrder = 4u;
// A birth-order emitter whose ordered compaction moves its survivors to slots 0, 1, 2, ... of
// the other copy of its state columns (src/gpu/birth_order.h, gpuRelocatesParticles).
SD_CONST uint kGpuStepRelocates = 8u;
// The emitter has sub-emitter links on threshold crossings: the update pass marks a particle
// that crossed (kGpuThresholdCrossedBit) for the event gather. Without it the pass tests
// crossings only for gameplay events, and marks nothing.
SD_CONST uint kGpuStepThresholdLinks = 16u;

// The flags column's bits past the particle flags: the update pass records whether a particle
// crossed its emitter's threshold this step (kGpuThresholdCrossedBit, only with
// kGpuStepThresholdLinks) and which of the emitter's collision ops (in compiled order, the first
// kGpuMaxContactOps) it touched, for collision events (bit kGpuContactMaskShift + k: the k-th
// collision op), for the event gather; the next update clears them. Between the event
// assignment and the event spawn pass of a step, a slot about to receive an event birth holds
// the index of its event there instead.
SD_CONST uint kGpuParticleFlagBits = 0x7fu;
SD_CONST uint kGpuThresholdCrossedBit = 0x80u;
SD_CONST uint kGpuContactMaskShift = 8u;
SD_CONST uint kGpuMaxContactOps = 24u;

// Whether an emitter's alive list is kept in birth order (docs/gpu-backend.md, "Birth order"):
// stable_order asks for it (draw order = birth order) and replace_oldest needs it (the oldest
// particles are then the front of the list). Such an emitter is compacted by the ordered pass
// (gpu_ordered_compact.comp) instead of by atomic appends in the update pass. The host and the
// shaders both decide with this one function.
SD_FUNC bool sdGpuKeepsBirthOrder(EmitterRecord e) {
    return (e.render_flags & kRenderFlagStableOrder) != 0u || e.overflow == kOverflowReplaceOldest;
}

// The ordered compaction (gpu_ordered_compact.comp) is parallel and stable: the alive list is cut
// into chunks of kGpuOrderedChunk entries; a count pass writes each chunk's survivors, a scan
// (one workgroup) turns them into each chunk's first survivor index and settles the step's
// totals, and a scatter pass writes every chunk's survivors and freed slots in list order.
SD_CONST uint kGpuOrderedChunk = 1024u;
SD_CONST uint kGpuOrderedCount = 0u; // modes (GpuPushConstants.params.w)
SD_CONST uint kGpuOrderedScan = 1u;
SD_CONST uint kGpuOrderedScatter = 2u;

// A birth-order emitter's scratch (GpuEmitterPool.ordered_lo/hi): this header, then one uint per
// chunk of its capacity (the count pass's survivors, which the scan makes exclusive bases).
struct GpuOrderedScratch {
    uint free_base;  // free-list entries before the step's deaths
    uint survivors;  // live entries that survive the step
    uint replaced;   // of them, the oldest ones that births replace (replace_oldest)
    uint dead_total; // entries that died
};

// Pass modes of gpu_counters.comp (GpuPushConstants.params.w).
SD_CONST uint kGpuCountersBegin = 0u;  // clear the list this step writes
SD_CONST uint kGpuCountersFinish = 1u; // commit births, deaths and contacts of the step

// Where one emitter's particles and draw records are (src/gpu/pool_layout.h). Column c's
// address is entry c of the emitter's column table (kGpuColumnCount (low, high) address words,
// each column inside one buffer of at most the buffer limit). There are two tables, the one of
// the slots alive list 0 names and, right after it, the one of list 1: the same columns, except
// that an emitter that relocates (kGpuStepRelocates) has a second copy of its state columns in
// the second, so its ordered compaction moves the survivors from the copy of the list it reads
// to the front of the copy of the list it writes. A pass finds a particle's state in the copy of
// the list that names its slot. The emitter's draw record i is record
// (draw_first_in_chunk + i) % draw_chunk_records of chunk
// draw_chunk + (draw_first_in_chunk + i) / draw_chunk_records (GpuTables::draw_records), all in
// 32 bits: draw_first_in_chunk < draw_chunk_records <= 2^30 and i < kMaxEmitterCapacity.
struct GpuEmitterPool {
    uint columns_lo; // the column table of alive list 0 (that of list 1 follows it)
    uint columns_hi;
    uint capacity;
    uint draw_chunk_records;  // records per draw-record chunk (every chunk but the last is full)
    uint draw_chunk;          // the chunk holding the emitter's first draw record
    uint draw_first_in_chunk; // and that record's index in it
    uint ordered_lo; // birth-order emitters: the ordered compaction's scratch (GpuOrderedScratch)
    uint ordered_hi; // (0 for the others)
};

// One emitter's counters, written only by the GPU. 64-bit totals are (lo, hi) word pairs.
struct GpuEmitterCounters {
    uint alive0; // particles listed in kGpuColumnAlive0
    uint alive1; // particles listed in kGpuColumnAlive1
    uint free_count;
    uint step_contacts; // collider contacts this step (folded into contacts by the finish pass)
    uint births_lo;
    uint births_hi;
    uint deaths_lo;
    uint deaths_hi;
    uint overflow_dropped_lo;
    uint overflow_dropped_hi;
    uint contacts_lo;
    uint contacts_hi;
    uint step_replaced; // oldest particles replaced by this step's births (ordered pass)
    uint overflow_replaced_lo;
    uint overflow_replaced_hi;
    uint step_born; // planned births this step took (finish pass; the event walker reads it)
};

// Addresses of what does not change while the instance lives (low, high words).
struct GpuTables {
    uvec4 emitters_ops;    // xy: EmitterRecord[]; zw: OpRecord[] (as compiled)
    uvec4 lut_mesh_points; // xy: the LUT atlas (vec4 texels); zw: MeshPointRecord[]
    uvec4 pools_counters;  // xy: GpuEmitterPool[]; zw: GpuEmitterCounters[]
    uvec4 draw_records;    // xy: the draw-record chunks' addresses ((low, high) words each)
    uvec4 trails;          // xy: GpuEmitterTrails[], one per emitter (src/gpu/gpu_trails.h)
    uvec4 sub_emitters;    // xy: SubEmitterRecord[]; zw: GpuEventCounters[] (one per emitter)
    uvec4 event_queue;     // xy: the event buffer (kGpuEventAssignOffset says what) (0: none)
    // Events to gameplay (src/gpu/gameplay_capture.h): xy the capture buffer (a
    // GpuGameplayHeader, then GpuGameplayEvent[z]); z its capacity in events; 0 without events.
    uvec4 gameplay;
    uvec4 emitter_events; // xy: EmitterEventsRecord[] (one per emitter); 0 without events
};

// Where one emitter's ribbon trails are (docs/gpu-backend.md, "Ribbons"); max_points 0 for an
// emitter without trails. Slot s's ring is points[(s * max_points + entry) * 3 + xyz] with its
// (first, count) at rings[s] (kernels/ribbon.h), in simulation space like the pool's positions:
// a ribbon emitter's slots never move (src/gpu/birth_order.h: it never relocates), so a trail
// stays where its particle is. The gather pass copies
// the live particles' trails, in alive-list order (draw-record order), to the host-visible
// gather buffer: GpuTrailHead[capacity], then capacity x max_points points, oldest first. The
// strip pass (shaders/gpu_ribbon_strips.comp) writes live particle i's strip polyline to block i
// of the device strip buffer: StripPoints [i x (max_points + 1), + its point count), the count
// at strip_counts[i] (0: nothing drawn); strips_lo/hi are 0 where the instance makes no device
// strips (GpuConfig::device_strips). All indices fit 32 bits: capacity x max_points <=
// kMaxTrailPoints (2^24). A beam emitter has only the strip fields (max_points 0): its blocks
// hold segments + 1 points (kernels/beam.h), indices below 2^32 by the buffer limit.
struct GpuEmitterTrails {
    uint points_lo; // float[capacity * max_points * 3]
    uint points_hi;
    uint rings_lo; // uvec2[capacity]: (first, count) per slot
    uint rings_hi;
    uint gather_lo; // GpuTrailHead[capacity], then the gathered points
    uint gather_hi;
    uint max_points;             // ring entries per slot; 0: no trails
    float min_sample_distance_m; // a particle records when it moved at least this far
    uint strips_lo;              // StripPoint[capacity * (max_points + 1)]; 0: no device strips
    uint strips_hi;
    uint strip_counts_lo; // uint[capacity]: points of block i's polyline
    uint strip_counts_hi;
};

// Modes of gpu_ribbon_strips.comp (GpuPushConstants.params.w): which emitters' strips it writes.
SD_CONST uint kGpuStripsRibbon = 0u; // from the trails
SD_CONST uint kGpuStripsBeam = 1u;   // from the beam curve (push.addresses.zw: its BeamFrame)

// One live particle in the gather buffer: its current (head) position in simulation space and
// how many recorded points follow it there, oldest first.
struct GpuTrailHead {
    float x;
    float y;
    float z;
    uint count;
};

// Sub-emitter events (docs/gpu-backend.md, "Sub-emitters"). At most this many per step for the
// whole effect, as on the CPU (cpu::kMaxEventsPerStep); the rest are counted as events_dropped.
SD_CONST uint kGpuMaxEvents = 65536u;
// Particles per chunk of the CPU step (cpu::kChunkParticles): the CPU gathers collision, death
// and threshold events chunk by chunk (collision events of a chunk, then its death events, then
// its threshold crossings).
SD_CONST uint kGpuEventChunk = 1024u;

// Modes of gpu_events.comp (GpuPushConstants.params.w). The gather is parallel and keeps the
// CPU's order: a count pass (each chunk's events), a scan (one workgroup: each chunk's first
// event index, the queue header) and a scatter pass (each chunk writes its events there).
SD_CONST uint kGpuEventsCount = 0u;   // per chunk: its collision, death and threshold events
SD_CONST uint kGpuEventsAssign = 1u;  // the serial walker: the queue's birth events, in order
SD_CONST uint kGpuEventsScan = 2u;    // chunk bases; the queue's count, the walker's cursors
SD_CONST uint kGpuEventsScatter = 3u; // per chunk: its events into the queue, drops counted
// The parallel assignment: the planned births' birth events queued after the gathered ones (per
// emitter with birth links, params.x; only when no walker runs), then per child emitter
// (params.x) the children each chunk of kGpuEventChunk events asks for, then their ordinals and
// slots from prefix sums over those (planSlots' rules have closed forms in them). After the
// walker it assigns the queue the walker completed. params.z: the effect's emitters.
SD_CONST uint kGpuEventsAssignCount = 4u;
SD_CONST uint kGpuEventsAssignScatter = 5u;
SD_CONST uint kGpuEventsQueueBirths = 6u;
// Walker phases (GpuEventQueueHeader.phase), resumed across dispatches.
SD_CONST uint kGpuWalkGather = 0u;  // events gathered (the scan pass): the assign starts here
SD_CONST uint kGpuWalkPlanned = 1u; // queueing the planned births' birth events
SD_CONST uint kGpuWalkEvents = 2u;  // each event's children's birth events
SD_CONST uint kGpuWalkDone = 3u;
// Modes of gpu_event_spawn.comp (GpuPushConstants.params.w).
SD_CONST uint kGpuEventSpawnBirths = 0u; // write the newborns; a ring's entries into the other list
SD_CONST uint kGpuEventSpawnUnring = 1u; // a ring's entries back, in list order
// Work units one walker dispatch does at most on a device with a loop limit (lavapipe's gallivm
// stops any invocation after 65535 loop iterations); the largest unit is below half of it.
SD_CONST uint kGpuWalkBudgetLimited = 60000u;
SD_CONST uint kGpuWalkLargestUnit = 25000u;

// One queued event: what an event's children need (src/cpu/events.cpp, PendingEvent).
struct GpuEvent {
    vec4 position; // xyz, sim space
    vec4 velocity; // xyz, the inherited share already applied
    uint key;      // sdEventKey
    uint link;     // SubEmitterRecord index
    uint pad0;
    uint pad1;
};

// The queue's count (written by the gather's scan) and the serial walker's state between its
// dispatches: on a device that limits the loop iterations of one invocation (lavapipe: 65535),
// the host records several dispatches of it, each doing at most GpuPushConstants.params.z units
// of work and resuming at the cursor.
struct GpuEventQueueHeader {
    uint count;          // events queued this step
    uint phase;          // kGpuWalk*
    uint cursor_emitter; // emitter and birth (planned-birth events), then event index
    uint cursor_index;
    uint cursor_link; // unused since the gather is parallel (0)
    uint pad0;
    uint pad1;
    uint pad2;
};

// The parallel assignment's state of one child emitter for one step (kGpuEventsAssign*): a
// snapshot of its counters before the step's event births, and per chunk of kGpuEventChunk
// queued events the children it requests (x: they take ordinals) and the children it places
// (y: replace_oldest keeps at most the capacity of one event's children, drop_new places all
// it requests until the pool is full).
SD_CONST uint kGpuAssignChunks = kGpuMaxEvents / kGpuEventChunk;
struct GpuEventAssignChild {
    uint alive;            // entries of the alive list written this step, before the event births
    uint free_count;       // free slots, before the event births
    uint first_ordinal_lo; // the first event birth's spawn ordinal
    uint first_ordinal_hi;
    uvec2 requested[kGpuAssignChunks];
};
SD_CONST uint kGpuEventAssignChildBytes = 16u + 8u * kGpuAssignChunks;

// Events to gameplay captured on the device (src/gpu/gameplay_capture.h): the update pass
// appends deaths, contacts and threshold crossings, the spawn passes births, in no particular
// order; the host sorts them (src/driver/gameplay_event.h). Positions, velocities and normals in
// world space (the step header's world_from_sim). step_lo: the low word of the step index.
struct GpuGameplayEvent {
    uint kind; // kEvent*
    uint emitter;
    uint key;
    uint detail; // collision: the collision op's ordinal among the emitter's collision ops
    uint step_lo;
    uint pad0;
    uint pad1;
    uint pad2;
    vec4 position; // xyz; w = 0
    vec4 velocity;
    vec4 normal;
};
struct GpuGameplayHeader {
    uint count;   // events appended this submission (past the capacity: not written)
    uint dropped; // appends past the capacity
    uint pad0;
    uint pad1;
};
// Events one submission captures at most (5 MiB of GpuGameplayEvent).
SD_CONST uint kGpuMaxGameplayEvents = 65536u;

// The event buffer (GpuTables.event_queue.xy): the GpuEventQueueHeader, kGpuMaxEvents
// GpuEvents, a GpuEventAssignChild per emitter (at kGpuEventAssignOffset), then the gather's
// chunks: (events, first event index) per chunk of kGpuEventChunk alive-list entries of the
// emitters with death, collision or threshold links, in the CPU's order (emitter, then chunk).
SD_CONST uint kGpuEventAssignOffset = 32u + kGpuMaxEvents * 48u;

// One emitter's sub-emitter bookkeeping, written only by the GPU (after the GpuEmitterCounters
// of every emitter in the counters buffer, so the statistics copy takes it along).
struct GpuEventCounters {
    uint ordinals_taken_lo; // spawn ordinals event births took, all steps (takeOrdinals)
    uint ordinals_taken_hi;
    uint events_dropped_lo; // events of this emitter past kGpuMaxEvents
    uint events_dropped_hi;
    uint event_births;   // this step's event births still alive: the last ones of the alive list
    uint ring_head;      // replace_oldest: where the oldest particle's entry is after the births
    uint walk_requested; // the serial walker, this step: children requested so far (ordinals)
    uint walk_placed;    // and placed so far (drop_new: while the pool had room)
    // Children the assignment looked at, all steps (docs/gpu-backend.md, "Bounded work"): the
    // survivors it placed, plus the children the walker evaluated for their birth events.
    uint assign_work_lo;
    uint assign_work_hi;
    uint pad0;
    uint pad1;
};

// One emitter's uniforms of one step (src/driver/step_uniforms.h, EmitterStep, and its births
// from the driver's SpawnPlan).
struct GpuStepEmitter {
    vec4 emitter_start0; // sim_from_emitter at the start of the step, rows
    vec4 emitter_start1;
    vec4 emitter_start2;
    vec4 emitter_end0; // and at its end
    vec4 emitter_end1;
    vec4 emitter_end2;
    float dt;
    float time_s;  // at the start of the step
    uint op_first; // into the step's GpuResolvedOp[]
    uint op_count;
    uint flags;       // kGpuStep*
    uint birth_count; // planned births this step
    uint first_ordinal_lo;
    uint first_ordinal_hi;
    uint planned_dropped_lo; // births the driver dropped past the capacity (counted as overflow)
    uint planned_dropped_hi;
    uint seed;          // the effect's
    uint step_index_lo; // the step's index (collision event keys take it)
};

// A resolved op: the op with its vectors in simulation space (force fields and colliders index
// the step's own resolved arrays) and its per-step factor.
struct GpuResolvedOp {
    OpRecord op;
    vec4 vector_factor; // xyz ResolvedOp::vector, w ResolvedOp::factor
};

// Addresses of one step's uniforms, and world_from_sim for the draw pass.
struct GpuStepHeader {
    uvec4 emitters_ops;           // xy: GpuStepEmitter[]; zw: GpuResolvedOp[]
    uvec4 force_fields_colliders; // xy: ForceFieldRecord[]; zw: ColliderRecord[] (sim space)
    vec4 world_from_sim0;
    vec4 world_from_sim1;
    vec4 world_from_sim2;
};

// Push constants of every GPU simulation pass (32 of the portable 128 bytes).
struct GpuPushConstants {
    uvec4 addresses; // xy: GpuTables; zw: this step's GpuStepHeader
    uvec4 params;    // x: emitter index; y: alive list read this step (0 or 1); z: invocations
                     // needed (the live bound or the birth count); w: pass mode
};

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(GpuEmitterPool, 32);
SD_ASSERT_RECORD(GpuEmitterCounters, 64);
SD_ASSERT_RECORD(GpuOrderedScratch, 16);
SD_ASSERT_RECORD(GpuTables, 144);
SD_ASSERT_RECORD(GpuGameplayEvent, 80);
SD_ASSERT_RECORD(GpuGameplayHeader, 16);
SD_ASSERT_RECORD(GpuEmitterTrails, 48);
SD_ASSERT_RECORD(GpuTrailHead, 16);
SD_ASSERT_RECORD(GpuEvent, 48);
SD_ASSERT_RECORD(GpuEventQueueHeader, 32);
SD_ASSERT_RECORD(GpuEventCounters, 48);
SD_ASSERT_RECORD(GpuEventAssignChild, 528);
SD_ASSERT_RECORD(GpuStepEmitter, 144);
SD_ASSERT_RECORD(GpuResolvedOp, 80);
SD_ASSERT_RECORD(GpuStepHeader, 80);
SD_ASSERT_RECORD(GpuPushConstants, 32);
static_assert(offsetof(GpuStepEmitter, dt) == 96);
static_assert(offsetof(GpuStepEmitter, flags) == 112);
static_assert(offsetof(GpuResolvedOp, vector_factor) == 64);
static_assert(offsetof(GpuStepHeader, world_from_sim0) == 32);
} // namespace spindrift
#endif

#endif // SPINDRIFT_GPU_SHADER_GPU_SIM_H
