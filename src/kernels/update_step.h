// One particle's update step, composed once for both backends (docs/kernels.md, "update_step.h"):
// the update ops in compiled order (sdApplyVelocityOp), the move (sdIntegrateParticle),
// the collision ops on the moved position (sdApplyCollisionOp) and the death test
// (sdParticleDead), in integrate.h's order. The CPU loops (src/cpu/update_loops.inl) and the GPU
// update pass (shaders/gpu_update.comp) fetch a particle's values into a ParticleMotion, call these
// functions and store what they changed; neither writes an op's physics itself.
//
// The CPU runs the same functions op-major (for each op, a loop over the chunk's particles, which
// GCC vectorises); the GPU particle-major (each invocation walks the ops for its particle). Since
// an op reads and writes one particle only, both orders give the same values. Two parameters
// exist for the CPU's sake and are documented where they appear: `kind` (the op code, a
// compile-time constant in each CPU loop) and `octaves` (likewise for curl noise).
#ifndef SPINDRIFT_KERNELS_UPDATE_STEP_H
#define SPINDRIFT_KERNELS_UPDATE_STEP_H

#include "collision.h"
#include "curl_noise.h"
#include "effect_records.h"
#include "forces.h"
#include "integrate.h"
#include "lut.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// A particle's flag bits as the update step sets them (the pools' flags column). Frozen: the GPU
// backend's flags column and the CPU snapshots hold them.
SD_CONST uint kParticleFlagStuck = 1u;  // collision response stick: no more motion
SD_CONST uint kParticleFlagKilled = 2u; // dies at the end of this step (attractor, kill response)

// The values of one particle the update step reads and changes, in simulation space.
struct ParticleMotion {
    vec3 position;
    vec3 velocity;
    float age_s;
    float lifetime_s;
    float rotation_rad;
    uint flags; // kParticleFlag*
};

// The ops applied before the move, in compiled order: they change velocity (and, for rotation
// over life, rotation; for an attractor, the kill flag). Appearance ops are evaluated when draw
// records are written (appearance.h); collision runs after the move (sdApplyCollisionOp).
SD_FUNC bool sdIsVelocityOp(uint kind) {
    return kind == kOpAcceleration || kind == kOpBuoyancy || kind == kOpDrag || kind == kOpWind ||
           kind == kOpSpeedLimit || kind == kOpCurlNoise || kind == kOpForceFields ||
           kind == kOpAttractor || kind == kOpRotationOverLife;
}

// The ops whose code costs registers or memory traffic beyond a few multiplies: curl noise, force
// fields, attractors, collision. An emitter with none of them runs the GPU update pipeline
// specialised without them (src/gpu/gpu_context.cpp, updatesLight; kHeavyOps in
// shaders/gpu_update.comp).
SD_FUNC bool sdIsHeavyUpdateOp(uint kind) {
    return kind == kOpCurlNoise || kind == kOpForceFields || kind == kOpAttractor ||
           kind == kOpCollision;
}

// What a velocity op of this kind may change (none changes position, age or lifetime): a caller
// that stores only these (the CPU loops, which move whole columns) stores everything it changed.
SD_FUNC bool sdVelocityOpWritesVelocity(uint kind) {
    return sdIsVelocityOp(kind) && kind != kOpRotationOverLife;
}
SD_FUNC bool sdVelocityOpWritesRotation(uint kind) {
    return kind == kOpRotationOverLife;
}
SD_FUNC bool sdVelocityOpWritesFlags(uint kind) {
    return kind == kOpAttractor;
}

// How many passes of sdApplyVelocityOp an op takes: one per force field of a kOpForceFields op
// (applied in order), one for every other velocity op, none for the rest. A force field is a pass
// of its own so that the CPU can loop over the fields outside its loop over particles: the
// field's shape is then the same for every particle of the loop, and the loop vectorises.
SD_FUNC uint sdVelocityOpPasses(OpRecord op) {
    if (op.op == kOpForceFields) return op.count;
    return sdIsVelocityOp(op.op) ? 1u : 0u;
}

// The octave count of a curl-noise op (OpRecord.mode, validated to 1..kCurlMaxOctaves; anything
// else reads as the maximum).
SD_FUNC uint sdCurlNoiseOctaves(OpRecord op) {
    return op.mode >= 1u && op.mode < kCurlMaxOctaves ? op.mode : kCurlMaxOctaves;
}

// Pass `pass_index` of one resolved op on one particle (docs/kernels.md, forces.h). `op`, `vector`
// and `factor` are the op as resolveStep leaves it (src/driver/step_uniforms.h, ResolvedOp:
// vectors in simulation space, per-step factors computed once). `kind` must equal op.op and
// `octaves` sdCurlNoiseOctaves(op): a caller may pass them as compile-time constants, so that the
// inlined body is that one op's code (the CPU loops are instantiated per kind and octave count).
// `with_heavy_ops` false compiles the heavy kinds out (sdIsHeavyUpdateOp: the GPU's light
// pipeline, used only for emitters without them); the CPU passes true. dt is the step length,
// time_s the time at its start. Force fields are read through `fields`, curves through `lut`.
SD_FUNC void sdApplyVelocityOp(uint kind, uint octaves, bool with_heavy_ops, OpRecord op,
                               vec3 vector, float factor, uint pass_index, ForceFieldsRef fields,
                               LutRef lut, float dt, float time_s, SD_INOUT(ParticleMotion) q) {
    if (kind == kOpAcceleration) {
        // vector is acceleration * dt.
        q.velocity = q.velocity + vector;
    } else if (kind == kOpBuoyancy) {
        // vector is up * acceleration * dt; the curve scales it (sdBuoyancy's product order).
        if (op.lut_row == kNone) {
            q.velocity = q.velocity + vector;
        } else {
            float curve =
                sdLutSampleScalar(lut, op.lut_row, sdNormalizedAge(q.age_s, q.lifetime_s));
            q.velocity = q.velocity + vector * curve;
        }
    } else if (kind == kOpDrag) {
        q.velocity = sdDrag(q.velocity, factor);
    } else if (kind == kOpWind) {
        q.velocity = sdWind(q.velocity, vector, factor);
    } else if (kind == kOpSpeedLimit) {
        q.velocity = sdSpeedLimit(q.velocity, op.params0.x, factor);
    } else if (with_heavy_ops && kind == kOpCurlNoise) {
        // vector is the field's scroll velocity.
        vec3 a = sdCurlNoiseAcceleration(q.position, time_s, op.params0.x, op.params0.y, vector,
                                         octaves);
        q.velocity = sdAcceleration(q.velocity, a, dt);
    } else if (with_heavy_ops && kind == kOpForceFields) {
        q.velocity = sdForceField(fields.fields[op.first + pass_index], q.position, q.velocity, dt);
    } else if (with_heavy_ops && kind == kOpAttractor) {
        // vector is the attractor's position.
        AttractorResult a =
            sdAttractor(q.position, vector, op.params0.w, op.params1.x, op.params1.y);
        q.velocity = sdAcceleration(q.velocity, a.acceleration, dt);
        q.flags |= a.kill ? kParticleFlagKilled : 0u;
    } else if (kind == kOpRotationOverLife) {
        // The summed rotation-rate curve, in rad/s.
        float added = sdLutSampleScalar(lut, op.lut_row, sdNormalizedAge(q.age_s, q.lifetime_s));
        q.rotation_rad += added * dt;
    }
}

// The move after the velocity ops (integrate.h's step 2 and 4): semi-implicit Euler, a stuck
// particle keeps its place, and the age advances. `uses_flags` says an op of the emitter may set
// particle flags (otherwise the stuck test is skipped: the flags are 0); `spins` that rotation
// integrates (any angular velocity or rotation op), with the particle's angular velocity.
SD_FUNC void sdIntegrateParticle(bool uses_flags, bool spins, float angular_velocity_rad_per_s,
                                 float dt, SD_INOUT(ParticleMotion) q) {
    if (uses_flags) q.velocity = q.velocity * ((q.flags & kParticleFlagStuck) != 0u ? 0.0f : 1.0f);
    q.position = sdIntegratePosition(q.position, q.velocity, dt);
    q.age_s = sdAdvanceAge(q.age_s, dt);
    if (spins) q.rotation_rad = sdIntegrateRotation(q.rotation_rad, angular_velocity_rad_per_s, dt);
}

// One collision op (kOpCollision) on the moved particle: its colliders in order, each testing the
// position and velocity the previous one left (collision.h), with the op's response (mode), bounce
// (params0.x), friction (params0.y), lifetime loss (params0.z) and radius scale (params0.w, times
// the particle's born `size`). A stuck or killed particle is not tested. Returns whether any
// collider touched; only then is q changed: position and velocity as responded, lifetime reduced
// once by the loss, and the stuck (response stick) or killed (a kill response) flag set.
// The op is a sweep (begin, one add per contact, end) so a host-side contact (the CPU's distance
// field, src/cpu) joins the same rule.
struct CollisionSweep {
    vec3 position;
    vec3 velocity;
    vec3 normal; // of the last contact that touched: the normal a collision gameplay event reports
    // 0 or 1 (words, not bools: the C++ build keeps the sweep in registers this way).
    uint contact;
    uint kill;
};

SD_FUNC CollisionSweep sdCollisionSweepBegin(ParticleMotion q) {
    CollisionSweep s;
    s.position = q.position;
    s.velocity = q.velocity;
    s.normal = vec3(0.0f);
    s.contact = 0u;
    s.kill = 0u;
    return s;
}

// One contact of the op's sweep, with the op's response, bounce and friction (op.mode,
// op.params0.x, op.params0.y: taken apart so the per-collider loop carries no record).
// The sweep is updated in place (no struct copies in the per-collider loop).
SD_FUNC void sdCollisionSweepAdd(uint response, float bounce, float friction,
                                 SD_INOUT(CollisionSweep) s, CollisionContact c) {
    CollisionResult hit = sdRespond(c, response, bounce, friction, s.position, s.velocity);
    s.position = hit.position;
    s.velocity = hit.velocity;
    s.normal = hit.contact ? hit.normal : s.normal;
    s.contact |= hit.contact ? 1u : 0u;
    s.kill |= hit.kill ? 1u : 0u;
}

// Every collider of the op in order; a heightfield's sample records are stepped over.
SD_FUNC void sdCollisionSweepColliders(OpRecord op, CollidersRef colliders, float radius,
                                       SD_INOUT(CollisionSweep) s) {
    uint response = op.mode;
    float bounce = op.params0.x;
    float friction = op.params0.y;
    uint first = op.first;
    uint count = op.count;
    for (uint k = 0u; k < count; k += 1u + colliders.colliders[first + k].payload) {
        sdCollisionSweepAdd(response, bounce, friction, s,
                            sdColliderContact(colliders, first + k, s.position, radius));
    }
}

SD_FUNC bool sdCollisionSweepEnd(OpRecord op, CollisionSweep s, SD_INOUT(ParticleMotion) q) {
    if (s.contact == 0u) return false;
    q.position = s.position;
    q.velocity = s.velocity;
    q.lifetime_s = sdLifetimeAfterContact(q.lifetime_s, op.params0.z);
    q.flags |= (op.mode == kResponseStick ? kParticleFlagStuck : 0u) |
               (s.kill != 0u ? kParticleFlagKilled : 0u);
    return true;
}

SD_FUNC bool sdCollisionTested(uint flags) {
    return (flags & (kParticleFlagStuck | kParticleFlagKilled)) == 0u;
}

// The op's colliders swept in order. `normal` is set to the contact normal of the last collider
// that touched (simulation space): the normal a collision gameplay event reports.
SD_FUNC bool sdApplyCollisionOpWithNormal(OpRecord op, CollidersRef colliders, float size,
                                          SD_INOUT(ParticleMotion) q, SD_OUT(vec3) normal) {
    normal = vec3(0.0f);
    if (!sdCollisionTested(q.flags)) return false;
    CollisionSweep s = sdCollisionSweepBegin(q);
    sdCollisionSweepColliders(op, colliders, size * op.params0.w, s);
    normal = s.normal;
    return sdCollisionSweepEnd(op, s, q);
}

// sdApplyCollisionOpWithNormal without the normal.
SD_FUNC bool sdApplyCollisionOp(OpRecord op, CollidersRef colliders, float size,
                                SD_INOUT(ParticleMotion) q) {
    vec3 normal;
    return sdApplyCollisionOpWithNormal(op, colliders, size, q, normal);
}

// The death test at the end of the step: age past lifetime, or killed this step.
SD_FUNC bool sdParticleDead(float age_s, float lifetime_s, uint flags) {
    return sdIsDead(age_s, lifetime_s) || (flags & kParticleFlagKilled) != 0u;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_UPDATE_STEP_H
