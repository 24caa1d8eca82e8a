// GPU simulation pass 1 of a step, one emitter (docs/gpu-backend.md): every live particle runs
// the emitter's resolved ops in compiled order with the kernels the CPU loops call
// (src/cpu/update_loops.inl), integrates (semi-implicit Euler), runs the collision ops on the
// moved position and takes the death test. Then compaction (gpu_compact.glsl): a survivor appends
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

#include "collision.h"
#include "curl_noise.h"
#include "forces.h"
#include "integrate.h"
#include "lut.h"
#include "gpu_sim.glsl"
#include "gpu_compact.glsl"
#include "gpu_trail.glsl"

// false for emitters without heavy ops (curl noise, force fields, attractors, collision): the
// pipeline specialised so drops their code, and with it the registers it needs, so more
// particles are in flight to hide the memory latency (gpu_context.h, lightUpdate).
layout(constant_id = 0) const bool kHeavyOps = true;

struct Particle {
    vec3 p;
    vec3 v;
    float age;
    float lifetime;
    float rotation;
    uint flags;
};

// The velocity ops, in compiled order (update_loops.inl, updateChunkLoops' first loop).
void applyVelocityOps(GpuStepEmitter step, inout Particle q) {
    ResolvedOpsRef ops = ResolvedOpsRef(loadStepHeader().emitters_ops.zw);
    ForceFieldsRef fields = ForceFieldsRef(loadStepHeader().force_fields_colliders.xy);
    float dt = step.dt;
    for (uint k = 0u; k < step.op_count; ++k) {
        GpuResolvedOp r = ops.ops[step.op_first + k];
        vec3 vector = r.vector_factor.xyz;
        float factor = r.vector_factor.w;
        uint op = r.op.op;
        if (op == kOpAcceleration) {
            q.v = q.v + vector;
        } else if (op == kOpBuoyancy) {
            // vector is up * acceleration * dt; the curve scales it (sdBuoyancy's order).
            if (r.op.lut_row == kNone) {
                q.v = q.v + vector;
            } else {
                float curve = lutScalar(r.op.lut_row, sdNormalizedAge(q.age, q.lifetime));
                q.v = q.v + vector * curve;
            }
        } else if (op == kOpDrag) {
            q.v = q.v * factor;
        } else if (op == kOpWind) {
            q.v = sdWind(q.v, vector, factor);
        } else if (op == kOpSpeedLimit) {
            q.v = sdSpeedLimit(q.v, r.op.params0.x, factor);
        } else if (kHeavyOps && op == kOpCurlNoise) {
            uint octaves = r.op.mode >= 1u && r.op.mode <= 5u ? r.op.mode : 6u;
            vec3 a = sdCurlNoiseAcceleration(q.p, step.time_s, r.op.params0.x, r.op.params0.y,
                                             vector, octaves);
            q.v = sdAcceleration(q.v, a, dt);
        } else if (kHeavyOps && op == kOpForceFields) {
            for (uint f = 0u; f < r.op.count; ++f) {
                q.v = sdForceField(fields.fields[r.op.first + f], q.p, q.v, dt);
            }
        } else if (kHeavyOps && op == kOpAttractor) {
            AttractorResult a = sdAttractor(q.p, vector, r.op.params0.w, r.op.params1.x,
                                            r.op.params1.y);
            q.v = sdAcceleration(q.v, a.acceleration, dt);
            q.flags |= a.kill ? kGpuParticleKilled : 0u;
        } else if (op == kOpRotationOverLife) {
            float added = lutScalar(r.op.lut_row, sdNormalizedAge(q.age, q.lifetime));
            q.rotation += added * dt;
        }
    }
}

// Collision ops after the move, in compiled order (update_loops.inl, applyCollision). Returns
// the contacts made; q.flags records which collision ops touched (kGpuContactMaskShift).
uint applyCollisionOps(GpuStepEmitter step, inout Particle q, float size) {
    if (!kHeavyOps) return 0u;
    ResolvedOpsRef ops = ResolvedOpsRef(loadStepHeader().emitters_ops.zw);
    CollidersRef colliders = CollidersRef(loadStepHeader().force_fields_colliders.zw);
    uint contacts = 0u;
    uint collision_ops = 0u;
    for (uint k = 0u; k < step.op_count; ++k) {
        GpuResolvedOp r = ops.ops[step.op_first + k];
        if (r.op.op != kOpCollision) continue;
        uint nth = collision_ops++;
        if ((q.flags & (kGpuParticleStuck | kGpuParticleKilled)) != 0u) continue;
        uint response = r.op.mode;
        float radius = size * r.op.params0.w;
        vec3 p = q.p;
        vec3 v = q.v;
        bool contact = false;
        bool kill = false;
        for (uint c = 0u; c < r.op.count; ++c) {
            CollisionResult hit = sdCollide(colliders.colliders[r.op.first + c], response,
                                            r.op.params0.x, r.op.params0.y, p, v, radius);
            p = hit.position;
            v = hit.velocity;
            contact = contact || hit.contact;
            kill = kill || hit.kill;
        }
        if (!contact) continue;
        // Which collision op touched, for collision events (gpu_sim.h, kGpuContactMaskShift).
        if (nth < kGpuMaxContactOps) q.flags |= 1u << (kGpuContactMaskShift + nth);
        q.p = p;
        q.v = v;
        q.lifetime = sdLifetimeAfterContact(q.lifetime, r.op.params0.z);
        q.flags |= (response == kResponseStick ? kGpuParticleStuck : 0u) |
                   (kill ? kGpuParticleKilled : 0u);
        contacts += 1u;
    }
    return contacts;
}

Particle loadParticle(uint slot, FloatColumn px, FloatColumn py, FloatColumn pz, FloatColumn vx,
                      FloatColumn vy, FloatColumn vz, FloatColumn age, FloatColumn lifetime,
                      FloatColumn rotation, UintColumn flags) {
    Particle q;
    q.p = vec3(px.v[slot], py.v[slot], pz.v[slot]);
    q.v = vec3(vx.v[slot], vy.v[slot], vz.v[slot]);
    q.age = age.v[slot];
    q.lifetime = lifetime.v[slot];
    q.rotation = rotation.v[slot];
    q.flags = flags.v[slot] & kGpuParticleFlagBits; // last step's contacts cleared
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

    // Software-pipelined: the next particle's slot and columns are loaded before this one's are
    // stored. The compiler cannot prove a store apart from a later load (all are buffer
    // references), so without this every iteration waited out its loads in turn; with it two
    // particles' loads are in flight per invocation.
    uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    uint i = first + gl_LocalInvocationID.x;
    uint next_slot = 0u;
    Particle next = Particle(vec3(0.0), vec3(0.0), 0.0, 0.0, 0.0, 0u);
    if (i < count) {
        next_slot = in_list.v[i];
        next = loadParticle(next_slot, px, py, pz, vx, vy, vz, age, lifetime, rotation, flags);
    }
    for (; first < count; first += gridStride()) {
        i = first + gl_LocalInvocationID.x;
        bool live = i < count;
        bool dead = false;
        uint slot = next_slot;
        Particle q = next;
        uint ahead = i + gridStride();
        if (ahead < count) {
            next_slot = in_list.v[ahead];
            next = loadParticle(next_slot, px, py, pz, vx, vy, vz, age, lifetime, rotation, flags);
        }
        if (live) {
            applyVelocityOps(step, q);
            // Integration (update_loops.inl, integrate): a stuck particle keeps its place.
            if (uses_flags) q.v = q.v * ((q.flags & kGpuParticleStuck) != 0u ? 0.0 : 1.0);
            q.p = sdIntegratePosition(q.p, q.v, step.dt);
            q.age = sdAdvanceAge(q.age, step.dt);
            if (spins) q.rotation = sdIntegrateRotation(q.rotation, angular.v[slot], step.dt);
            contacts += applyCollisionOps(step, q, size.v[slot]);

            px.v[slot] = q.p.x;
            py.v[slot] = q.p.y;
            pz.v[slot] = q.p.z;
            vx.v[slot] = q.v.x;
            vy.v[slot] = q.v.y;
            vz.v[slot] = q.v.z;
            age.v[slot] = q.age;
            lifetime.v[slot] = q.lifetime;
            rotation.v[slot] = q.rotation;
            flags.v[slot] = q.flags;
            // After collision, where the particle ended the step (the CPU's recordTrails).
            if (hasTrails(trails)) recordTrailPoint(trails, slot, q.p);

            dead = sdIsDead(q.age, q.lifetime) || (q.flags & kGpuParticleKilled) != 0u;
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
