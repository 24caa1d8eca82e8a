// The per-chunk update loops, compiled once per instruction set: update_ops_baseline.cpp and
// update_ops_avx2.cpp include this file with SPINDRIFT_UPDATE_ISA set to their namespace, and
// update_ops.cpp picks one at run time. Both give the same bits: the loops use only IEEE
// operations without contraction (-ffp-contract=off) and no libm.
//
// The loops only fetch, call and store: what a particle's step does is src/kernels/update_step.h,
// the functions the GPU update pass calls too. They run op-major, one vectorised loop over the
// chunk per op, where the GPU runs particle-major (docs/kernels.md, "update_step.h").
#include "cpu/update_ops.h"

// "The columns of this loop never alias": GCC ignores __restrict on struct members and gives up
// on run-time alias checks past ten, so the particle loops say it directly.
// Clang (the fuzz build) gets nothing: under sanitizers it cannot honour a vectorisation
// request and would warn.
#if defined(__clang__)
#define SPINDRIFT_IVDEP
#else
#define SPINDRIFT_IVDEP _Pragma("GCC ivdep")
#endif

#include <array>
#include <cmath>
#include <utility>

#include "cpu/step_timing.h"
#include "kernels/transform.h"
#include "kernels/update_step.h"

namespace spindrift::cpu::SPINDRIFT_UPDATE_ISA {

static_assert(kParticleStuck == kParticleFlagStuck && kParticleKilled == kParticleFlagKilled,
              "the pool's flag bits are the update step's (src/kernels/update_step.h)");

namespace {

// The columns of one chunk. Columns never alias each other or the LUT atlas; GCC ignores
// __restrict on struct members, so each particle loop also says so with SPINDRIFT_IVDEP
// (without it GCC gives up on the run-time alias checks and leaves the loop scalar).
struct Columns {
    float* __restrict px;
    float* __restrict py;
    float* __restrict pz;
    float* __restrict vx;
    float* __restrict vy;
    float* __restrict vz;
    float* __restrict age;
    float* __restrict lifetime;
    float* __restrict rotation;
    uint32_t* __restrict flags;
    const float* __restrict angular_velocity;
    const float* __restrict size;
};

Columns columnsOf(ParticlePool& pool) {
    return Columns{pool.position_x.get(),
                   pool.position_y.get(),
                   pool.position_z.get(),
                   pool.velocity_x.get(),
                   pool.velocity_y.get(),
                   pool.velocity_z.get(),
                   pool.age_s.get(),
                   pool.lifetime_s.get(),
                   pool.rotation_rad.get(),
                   pool.flags.get(),
                   pool.angular_velocity_rad_per_s.get(),
                   pool.size.get()};
}

// Every column the update step's kernels read, as a ParticleMotion. Loads a loop's kernel does
// not use are dead code once it is inlined, so a loop reads only the columns its op needs.
ParticleMotion motionAt(const Columns& c, uint32_t i) {
    ParticleMotion q;
    q.position = vec3(c.px[i], c.py[i], c.pz[i]);
    q.velocity = vec3(c.vx[i], c.vy[i], c.vz[i]);
    q.age_s = c.age[i];
    q.lifetime_s = c.lifetime[i];
    q.rotation_rad = c.rotation[i];
    q.flags = c.flags[i];
    return q;
}
void storePosition(const Columns& c, uint32_t i, vec3 p) {
    c.px[i] = p.x;
    c.py[i] = p.y;
    c.pz[i] = p.z;
}
void storeVelocity(const Columns& c, uint32_t i, vec3 v) {
    c.vx[i] = v.x;
    c.vy[i] = v.y;
    c.vz[i] = v.z;
}

// What every velocity-op loop of a step reads besides the op.
struct OpLoopInputs {
    ForceFieldsRef fields;
    LutRef lut;
    float dt;
    float time_s;
};

// One pass of one velocity op over the chunk: sdApplyVelocityOp for each particle, with the op's
// kind (and a curl-noise op's octave count) as compile-time constants, so the inlined kernel is
// that op's code alone and GCC vectorises the loop (docs/kernels.md, "update_step.h"). It stores
// the columns sdVelocityOpWrites* name for the kind: those are all the kernel may change. The op
// is passed by value, so the loop reads it from registers, not through a reference that the
// column stores might alias.
template <uint Kind, uint Octaves>
[[gnu::always_inline]] inline void velocityOpRange(OpRecord op, vec3 vector, float factor,
                                                   uint32_t pass, OpLoopInputs in, const Columns& c,
                                                   uint32_t begin, uint32_t end) {
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        ParticleMotion q = motionAt(c, i);
        sdApplyVelocityOp(Kind, Octaves, true, op, vector, factor, pass, in.fields, in.lut, in.dt,
                          in.time_s, q);
        if (sdVelocityOpWritesVelocity(Kind)) storeVelocity(c, i, q.velocity);
        if (sdVelocityOpWritesRotation(Kind)) c.rotation[i] = q.rotation_rad;
        if (sdVelocityOpWritesFlags(Kind)) c.flags[i] = q.flags;
    }
}

template <uint Kind, uint Octaves>
void velocityOpLoop(const OpLoopInputs& in, const ResolvedOp& r, uint32_t pass, const Columns& c,
                    uint32_t begin, uint32_t end) {
    // Buoyancy samples its curve only when it has one, a branch in the kernel that GCC does not
    // take out of the loop by itself (and a loop with a conditional LUT load does not vectorise):
    // the loop is instantiated once with the row known to be absent, once with it present.
    if (Kind == kOpBuoyancy && r.op.lut_row == kNone) {
        OpRecord op = r.op;
        op.lut_row = kNone;
        velocityOpRange<Kind, Octaves>(op, r.vector, r.factor, pass, in, c, begin, end);
        return;
    }
    velocityOpRange<Kind, Octaves>(r.op, r.vector, r.factor, pass, in, c, begin, end);
}

using OpLoop = void (*)(const OpLoopInputs&, const ResolvedOp&, uint32_t, const Columns&, uint32_t,
                        uint32_t);

// One loop per op kind (kinds that are not velocity ops get an empty loop and are never called)
// and one per curl-noise octave count: the kinds are numbered, so the tables need no list of them.
template <uint... Kinds>
constexpr std::array<OpLoop, sizeof...(Kinds)>
opLoopsByKind(std::integer_sequence<uint, Kinds...>) {
    return {&velocityOpLoop<Kinds, kCurlMaxOctaves>...};
}
template <uint... Octaves>
constexpr std::array<OpLoop, sizeof...(Octaves)>
curlLoopsByOctaves(std::integer_sequence<uint, Octaves...>) {
    return {&velocityOpLoop<kOpCurlNoise, Octaves + 1u>...};
}
constexpr auto kOpLoops = opLoopsByKind(std::make_integer_sequence<uint, kOpCount>{});
constexpr auto kCurlLoops = curlLoopsByOctaves(std::make_integer_sequence<uint, kCurlMaxOctaves>{});

// The loop of a velocity op (op.op < kOpCount: validated when the effect was loaded).
OpLoop opLoopFor(const OpRecord& op) {
    if (op.op == kOpCurlNoise) return kCurlLoops[sdCurlNoiseOctaves(op) - 1u];
    return kOpLoops[op.op];
}

// The move: sdIntegrateParticle over the chunk, instantiated for the emitter's two step flags so
// that an emitter without stick collisions or spin neither reads the flags column nor touches
// rotation. Velocity is stored only where the stuck test may have zeroed it.
template <bool UsesFlags, bool Spins>
void integrateLoop(const Columns& c, uint32_t begin, uint32_t end, float dt) {
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        ParticleMotion q = motionAt(c, i);
        sdIntegrateParticle(UsesFlags, Spins, c.angular_velocity[i], dt, q);
        if (UsesFlags) storeVelocity(c, i, q.velocity);
        storePosition(c, i, q.position);
        c.age[i] = q.age_s;
        if (Spins) c.rotation[i] = q.rotation_rad;
    }
}

void integrate(const EmitterStep& step, const Columns& c, uint32_t begin, uint32_t end) {
    if (step.uses_flags) {
        if (step.spins) {
            integrateLoop<true, true>(c, begin, end, step.dt);
        } else {
            integrateLoop<true, false>(c, begin, end, step.dt);
        }
    } else if (step.spins) {
        integrateLoop<false, true>(c, begin, end, step.dt);
    } else {
        integrateLoop<false, false>(c, begin, end, step.dt);
    }
}

// The world's distance field as one more contact of the op (after its colliders): sampled in
// world space at the swept position, its gradient brought back into simulation space.
void sweepDistanceField(const StepScratch& scratch, const OpRecord& op, float radius,
                        CollisionSweep& s) {
    const vec3 p = sdTransformPoint(scratch.world_from_sim[0], scratch.world_from_sim[1],
                                    scratch.world_from_sim[2], s.position);
    float at[3] = {p.x, p.y, p.z};
    float gradient[3] = {0.0f, 1.0f, 0.0f};
    const float d = scratch.distance_field.sample(at, gradient, scratch.distance_field.user);
    vec3 g =
        sdTransformVector(scratch.sim_from_world[0], scratch.sim_from_world[1],
                          scratch.sim_from_world[2], vec3(gradient[0], gradient[1], gradient[2]));
    const float g_length = length(g);
    // A field that is not finite or has no direction touches nothing (never a NaN position).
    if (!(d < radius) || !(g_length > 0.0f) || !std::isfinite(g_length)) return;
    sdCollisionSweepAdd(op.mode, op.params0.x, op.params0.y, s,
                        sdContact(true, g / g_length, radius - d));
}

// One collision op over the chunk, after the move (sdApplyCollisionOp). A particle that touched
// is stored and appended to the chunk's region of the contact lists (particle_pool.h: room for
// every particle in every collision op), which the collision events read.
// An emitter delivering collision events also keeps each contact's normal and the op's ordinal
// among the emitter's collision ops (pool.contact_normals, cpu/gameplay_events.h).
void applyCollision(const StepScratch& scratch, const ResolvedOp& r, uint32_t ordinal,
                    const Columns& c, ParticlePool& pool, uint32_t begin, uint32_t end,
                    ChunkResult& result) {
    const OpRecord op = r.op;
    const CollidersRef colliders{scratch.colliders.data()};
    uint32_t* contact_out = pool.contact_slots.get() + size_t{begin} * pool.contact_lists;
    float* normal_out = pool.contact_normals == nullptr
                            ? nullptr
                            : pool.contact_normals + size_t{begin} * pool.contact_lists * 4;
    for (uint32_t i = begin; i < end; ++i) {
        ParticleMotion q = motionAt(c, i);
        vec3 normal;
        if (r.distance_field) {
            if (!sdCollisionTested(q.flags)) continue;
            const float radius = c.size[i] * op.params0.w;
            CollisionSweep s = sdCollisionSweepBegin(q);
            sdCollisionSweepColliders(op, colliders, radius, s);
            sweepDistanceField(scratch, op, radius, s);
            normal = s.normal;
            if (!sdCollisionSweepEnd(op, s, q)) continue;
        } else if (!sdApplyCollisionOpWithNormal(op, colliders, c.size[i], q, normal)) {
            continue;
        }
        storePosition(c, i, q.position);
        storeVelocity(c, i, q.velocity);
        c.lifetime[i] = q.lifetime_s;
        c.flags[i] = q.flags;
        if (normal_out != nullptr) {
            float* n = normal_out + size_t{result.contact_count} * 4;
            n[0] = normal.x;
            n[1] = normal.y;
            n[2] = normal.z;
            n[3] = static_cast<float>(ordinal);
        }
        contact_out[result.contact_count++] = i;
        ++result.contacts;
    }
}

void collectDead(const EmitterStep& step, const Columns& c, ParticlePool& pool, uint32_t begin,
                 uint32_t end, ChunkResult& result) {
    uint32_t* dead_out = pool.dead_slots.get() + begin;
    // Without an op that may set flags they are 0, and the flags column is not read.
    if (!step.uses_flags) {
        for (uint32_t i = begin; i < end; ++i) {
            if (sdParticleDead(c.age[i], c.lifetime[i], 0u)) dead_out[result.dead_count++] = i;
        }
        return;
    }
    for (uint32_t i = begin; i < end; ++i) {
        if (sdParticleDead(c.age[i], c.lifetime[i], c.flags[i])) dead_out[result.dead_count++] = i;
    }
}

} // namespace

ChunkResult updateChunkLoops(const CompiledEffect& effect, const StepScratch& scratch,
                             const EmitterStep& step, ParticlePool& pool, uint32_t begin,
                             uint32_t end, bool timed) {
    ChunkResult result;
    const Columns c = columnsOf(pool);
    const OpLoopInputs inputs{ForceFieldsRef{scratch.force_fields.data()},
                              LutRef{effect.lut.data()}, step.dt, step.time_s};
    // The update step in integrate.h's order, each op over the whole chunk before the next.
    for (uint32_t k = 0; k < step.op_count; ++k) {
        const ResolvedOp& r = scratch.ops[step.op_first + k];
        const uint32_t passes = sdVelocityOpPasses(r.op);
        if (passes == 0) continue; // collision below; appearance ops when draw records are written
        const OpLoop loop = opLoopFor(r.op);
        for (uint32_t pass = 0; pass < passes; ++pass) loop(inputs, r, pass, c, begin, end);
    }
    integrate(step, c, begin, end);
    // Timed: started at the first collision op, so an emitter without one reads no clock here.
    StageClock clock(false);
    uint32_t collision_ordinal = 0;
    for (uint32_t k = 0; k < step.op_count; ++k) {
        const ResolvedOp& r = scratch.ops[step.op_first + k];
        if (r.op.op != kOpCollision) continue;
        if (timed && !clock.on) clock = StageClock(true);
        applyCollision(scratch, r, collision_ordinal++, c, pool, begin, end, result);
    }
    clock.lap(result.collision_ns);
    collectDead(step, c, pool, begin, end, result);
    return result;
}

} // namespace spindrift::cpu::SPINDRIFT_UPDATE_ISA
