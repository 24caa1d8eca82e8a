// GPU simulation pass 1 of a step, one emitter (docs/gpu-backend.md): every live particle runs
// the update step of src/kernels/update_step.h, the functions the CPU loops call
// (src/cpu/update_loops.inl): the emitter's resolved ops in compiled order, the move
// (semi-implicit Euler), the collision ops on the moved position, the threshold test
// (threshold.h: gameplay events, and the mark the event gather reads for threshold sub-emitter
// links) and the death test. Then compaction (gpu_compact.glsl): a survivor appends
// its slot to the alive list of the next step, a dead particle returns its slot to the free list
// (except for an emitter keeping birth order: gpu_ordered_compact.comp compacts it next).
// The loop steps whole workgroups (invocation k of a group takes entry first + k), because the
// aggregated appends need every invocation of the group.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#ifdef SD_SUBGROUP_APPEND
#extension GL_KHR_shader_subgroup_ballot : require
#endif

#include "threshold.h"
#include "transform.h"
#include "update_step.h"
#include "gpu_sim.glsl"
#include "gpu_compact.glsl"
#include "gpu_trail.glsl"
#include "gpu_gameplay.glsl"

// false for emitters without heavy ops (sdIsHeavyUpdateOp: curl noise, force fields, attractors,
// collision): the pipeline specialised so drops their code, and with it the registers it needs,
// so more particles are in flight to hide the memory latency (gpu_context.h, updatesLight).
layout(constant_id = 0) const bool kHeavyOps = true;

// The velocity ops in compiled order, each pass of each op one sdApplyVelocityOp (the CPU runs
// the same calls op-major: update_loops.inl).
void applyVelocityOps(GpuStepEmitter step, inout ParticleMotion q) {
    ResolvedOpsRef ops = ResolvedOpsRef(loadStepHeader().emitters_ops.zw);
    ForceFieldsRef fields = ForceFieldsRef(loadStepHeader().force_fields_colliders.xy);
    LutRef lut = lutAtlas();
    for (uint k = 0u; k < step.op_count; ++k) {
        GpuResolvedOp r = ops.ops[step.op_first + k];
        uint passes = sdVelocityOpPasses(r.op);
        for (uint pass_index = 0u; pass_index < passes; ++pass_index) {
            sdApplyVelocityOp(r.op.op, sdCurlNoiseOctaves(r.op), kHeavyOps, r.op,
                              r.vector_factor.xyz, r.vector_factor.w, pass_index, fields, lut, step.dt,
                              step.time_s, q);
        }
    }
}

// The collision ops after the move, in compiled order (sdApplyCollisionOpWithNormal). Returns the
// contacts made; q.flags records which collision ops touched (kGpuContactMaskShift), for
// collision events; with `contact_events` each contact is a gameplay event (gpu_gameplay.glsl).
uint applyCollisionOps(GpuStepEmitter step, inout ParticleMotion q, float size,
                       bool contact_events, uint e, uint key) {
    if (!kHeavyOps) return 0u;
    ResolvedOpsRef ops = ResolvedOpsRef(loadStepHeader().emitters_ops.zw);
    CollidersRef colliders = CollidersRef(loadStepHeader().force_fields_colliders.zw);
    uint contacts = 0u;
    uint collision_ops = 0u;
    for (uint k = 0u; k < step.op_count; ++k) {
        GpuResolvedOp r = ops.ops[step.op_first + k];
        if (r.op.op != kOpCollision) continue;
        uint nth = collision_ops++;
        vec3 normal;
        if (!sdApplyCollisionOpWithNormal(r.op, colliders, size, q, normal)) continue;
        if (nth < kGpuMaxContactOps) q.flags |= 1u << (kGpuContactMaskShift + nth);
        if (contact_events) {
            appendGameplayEvent(kEventCollision, e, key, nth, step.step_index_lo, q.position,
                                q.velocity, normal);
        }
        contacts += 1u;
    }
    return contacts;
}

ParticleMotion loadParticle(uint slot, FloatColumn px, FloatColumn py, FloatColumn pz,
                            FloatColumn vx, FloatColumn vy, FloatColumn vz, FloatColumn age,
                            FloatColumn lifetime, FloatColumn rotation, UintColumn flags) {
    ParticleMotion q;
    q.position = vec3(px.v[slot], py.v[slot], pz.v[slot]);
    q.velocity = vec3(vx.v[slot], vy.v[slot], vz.v[slot]);
    q.age_s = age.v[slot];
    q.lifetime_s = lifetime.v[slot];
    q.rotation_rad = rotation.v[slot];
    q.flags = flags.v[slot] & kGpuParticleFlagBits; // last step's contacts and crossing cleared
    return q;
}

void main() {
    GpuEmitterPool pool = emitterPool();
    GpuStepEmitter step = stepEmitter();
    CountersRef counters = countersRef();
    uint e = emitterIndex();
    uint list_in = push.params.y;
    uint alive = list_in == 0u ? counters.counters[e].alive0 : counters.counters[e].alive1;
    uint count = min(alive, push.params.z);
    UintColumn in_list = uintColumn(pool, kGpuColumnAlive0 + list_in);
    UintColumn out_list = uintColumn(pool, kGpuColumnAlive0 + (1u - list_in));
    UintColumn free_list = uintColumn(pool, kGpuColumnFree);
    FloatColumn px = floatColumn(pool, kGpuColumnPositionX);
    FloatColumn py = floatColumn(pool, kGpuColumnPositionY);
    FloatColumn pz = floatColumn(pool, kGpuColumnPositionZ);
    FloatColumn vx = floatColumn(pool, kGpuColumnVelocityX);
    FloatColumn vy = floatColumn(pool, kGpuColumnVelocityY);
    FloatColumn vz = floatColumn(pool, kGpuColumnVelocityZ);
    FloatColumn age = floatColumn(pool, kGpuColumnAge);
    FloatColumn lifetime = floatColumn(pool, kGpuColumnLifetime);
    FloatColumn rotation = floatColumn(pool, kGpuColumnRotation);
    UintColumn flags = uintColumn(pool, kGpuColumnFlags);
    FloatColumn angular = floatColumn(pool, kGpuColumnAngularVelocity);
    FloatColumn size = floatColumn(pool, kGpuColumnSize);
    bool spins = (step.flags & kGpuStepSpins) != 0u;
    bool uses_flags = (step.flags & kGpuStepUsesFlags) != 0u;
    bool keeps_order = (step.flags & kGpuStepKeepsBirthOrder) != 0u;
    GpuEmitterTrails trails = emitterTrails();
    uint contacts = 0u;
    // Events to gameplay (gpu_gameplay.glsl): what this emitter reports, and its threshold.
    EmitterEventsRecord events = emitterEventsAt(e);
    bool reports = events.kinds != 0u;
    // Threshold sub-emitter links: a crossing marks the particle for the event gather.
    bool marks_crossings = (step.flags & kGpuStepThresholdLinks) != 0u;
    // The threshold is tested only for what asks for it (the CPU's watchesThreshold tests it
    // whenever the emitter has one: the same crossings, fewer tests).
    bool threshold = events.threshold_quantity != kThresholdNone &&
                     (marks_crossings || deliversEvent(events, kEventThreshold));
    vec4 world_y = loadStepHeader().world_from_sim1;

    // Software-pipelined: the next particle's slot and columns are loaded before this one's are
    // stored. The compiler cannot prove a store apart from a later load (all are buffer
    // references), so without this every iteration waited out its loads in turn; with it two
    // particles' loads are in flight per invocation.
    uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    uint i = first + gl_LocalInvocationID.x;
    uint next_slot = 0u;
    ParticleMotion next = ParticleMotion(vec3(0.0), vec3(0.0), 0.0, 0.0, 0.0, 0u);
    if (i < count) {
        next_slot = in_list.v[i];
        next = loadParticle(next_slot, px, py, pz, vx, vy, vz, age, lifetime, rotation, flags);
    }
    for (; first < count; first += gridStride()) {
        i = first + gl_LocalInvocationID.x;
        bool live = i < count;
        bool dead = false;
        uint slot = next_slot;
        ParticleMotion q = next;
        uint ahead = i + gridStride();
        if (ahead < count) {
            next_slot = in_list.v[ahead];
            next = loadParticle(next_slot, px, py, pz, vx, vy, vz, age, lifetime, rotation, flags);
        }
        if (live) {
            // The threshold's quantity before the step (threshold.h; the CPU's thresholdBefore).
            float before = threshold ? sdThresholdQuantity(events.threshold_quantity, q.position,
                                                           q.velocity, q.age_s, q.lifetime_s,
                                                           world_y)
                                     : 0.0;
            uint key = reports ? uintColumn(pool, kGpuColumnKey).v[slot] : 0u;
            applyVelocityOps(step, q);
            // A non-spinning emitter does not read the angular velocity column.
            sdIntegrateParticle(uses_flags, spins, spins ? angular.v[slot] : 0.0, step.dt, q);
            contacts += applyCollisionOps(step, q, size.v[slot],
                                          deliversEvent(events, kEventCollision), e, key);
            // The quantity where the particle ended the step (the CPU's thresholdAfter).
            bool crossed = threshold &&
                           sdThresholdCrossed(events.threshold_quantity,
                                              events.threshold_direction, events.threshold_value,
                                              before,
                                              sdThresholdQuantity(events.threshold_quantity,
                                                                  q.position, q.velocity, q.age_s,
                                                                  q.lifetime_s, world_y));
            if (crossed && marks_crossings) q.flags |= kGpuThresholdCrossedBit;

            px.v[slot] = q.position.x;
            py.v[slot] = q.position.y;
            pz.v[slot] = q.position.z;
            vx.v[slot] = q.velocity.x;
            vy.v[slot] = q.velocity.y;
            vz.v[slot] = q.velocity.z;
            age.v[slot] = q.age_s;
            lifetime.v[slot] = q.lifetime_s;
            rotation.v[slot] = q.rotation_rad;
            flags.v[slot] = q.flags;
            // After collision, where the particle ended the step (the CPU's recordTrails).
            if (hasTrails(trails)) recordTrailPoint(trails, slot, q.position);

            dead = sdParticleDead(q.age_s, q.lifetime_s, q.flags);
            if (dead && deliversEvent(events, kEventDeath)) {
                appendGameplayEvent(kEventDeath, e, key, 0u, step.step_index_lo, q.position,
                                    q.velocity, vec3(0.0));
            }
            if (crossed && deliversEvent(events, kEventThreshold)) {
                appendGameplayEvent(kEventThreshold, e, key, 0u, step.step_index_lo, q.position,
                                    q.velocity, vec3(0.0));
            }
        }
        // An emitter keeping birth order is compacted by the ordered pass instead (keeps_order is
        // the dispatch's emitter's, so the whole group skips the aggregated appends together).
        if (!keeps_order) {
            compactSlot(e, 1u - list_in, live && !dead, live && dead, slot, out_list, free_list);
        }
    }
    if (!keeps_order) compactFlush(e, 1u - list_in, out_list, free_list);
    if (contacts != 0u) atomicAdd(counters.counters[e].step_contacts, contacts);
}
