// The per-chunk update loops, compiled once per instruction set: update_ops_baseline.cpp and
// update_ops_avx2.cpp include this file with SPINDRIFT_UPDATE_ISA set to their namespace, and
// update_ops.cpp picks one at run time. Both give the same bits: the loops use only IEEE
// operations without contraction (-ffp-contract=off) and no libm.
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

#include "kernels/collision.h"
#include "kernels/curl_noise.h"
#include "kernels/forces.h"
#include "kernels/integrate.h"
#include "kernels/lut.h"

namespace spindrift::cpu::SPINDRIFT_UPDATE_ISA {

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

vec3 velocityAt(const Columns& c, uint32_t i) {
    return vec3(c.vx[i], c.vy[i], c.vz[i]);
}
vec3 positionAt(const Columns& c, uint32_t i) {
    return vec3(c.px[i], c.py[i], c.pz[i]);
}
void storeVelocity(const Columns& c, uint32_t i, vec3 v) {
    c.vx[i] = v.x;
    c.vy[i] = v.y;
    c.vz[i] = v.z;
}

float lutScalar(const CompiledEffect& effect, uint32_t row, float t) {
    return sdLutSampleScalar(LutRef{effect.lut.data()}, row, t);
}

void addVelocity(const Columns& c, uint32_t begin, uint32_t end, vec3 dv) {
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        c.vx[i] += dv.x;
        c.vy[i] += dv.y;
        c.vz[i] += dv.z;
    }
}

void scaleVelocity(const Columns& c, uint32_t begin, uint32_t end, float factor) {
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        c.vx[i] *= factor;
        c.vy[i] *= factor;
        c.vz[i] *= factor;
    }
}

void applyBuoyancy(const CompiledEffect& effect, const ResolvedOp& r, const Columns& c,
                   uint32_t begin, uint32_t end) {
    if (r.op.lut_row == kNone) {
        addVelocity(c, begin, end, r.vector);
        return;
    }
    // r.vector is up * acceleration * dt; the curve scales it (sdBuoyancy's product order).
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        const float curve =
            lutScalar(effect, r.op.lut_row, sdNormalizedAge(c.age[i], c.lifetime[i]));
        storeVelocity(c, i, velocityAt(c, i) + r.vector * curve);
    }
}

void applyWind(const ResolvedOp& r, const Columns& c, uint32_t begin, uint32_t end) {
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        storeVelocity(c, i, sdWind(velocityAt(c, i), r.vector, r.factor));
    }
}

void applySpeedLimit(const ResolvedOp& r, const Columns& c, uint32_t begin, uint32_t end) {
    const float max_speed = r.op.params0.x;
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        storeVelocity(c, i, sdSpeedLimit(velocityAt(c, i), max_speed, r.factor));
    }
}

// The octave count is a template argument so each loop is compiled for exactly its octaves;
// with a run-time count the vectorised loop would evaluate every octave and mask the rest.
template <uint Octaves>
void curlNoiseLoop(const ResolvedOp& r, const Columns& c, uint32_t begin, uint32_t end,
                   const EmitterStep& step) {
    const float strength = r.op.params0.x;
    const float frequency = r.op.params0.y;
    const vec3 scroll = r.vector;
    const float time_s = step.time_s;
    const float dt = step.dt;
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        const vec3 a =
            sdCurlNoiseAcceleration(positionAt(c, i), time_s, strength, frequency, scroll, Octaves);
        storeVelocity(c, i, sdAcceleration(velocityAt(c, i), a, dt));
    }
}

void applyCurlNoise(const ResolvedOp& r, const Columns& c, uint32_t begin, uint32_t end,
                    const EmitterStep& step) {
    static_assert(kCurlMaxOctaves == 6, "one case per octave count");
    switch (r.op.mode) {
    case 1:
        curlNoiseLoop<1>(r, c, begin, end, step);
        break;
    case 2:
        curlNoiseLoop<2>(r, c, begin, end, step);
        break;
    case 3:
        curlNoiseLoop<3>(r, c, begin, end, step);
        break;
    case 4:
        curlNoiseLoop<4>(r, c, begin, end, step);
        break;
    case 5:
        curlNoiseLoop<5>(r, c, begin, end, step);
        break;
    default:
        curlNoiseLoop<6>(r, c, begin, end, step);
        break;
    }
}

void applyForceFields(const StepScratch& scratch, const ResolvedOp& r, const Columns& c,
                      uint32_t begin, uint32_t end, float dt) {
    for (uint32_t f = 0; f < r.op.count; ++f) {
        const ForceFieldRecord field = scratch.force_fields[r.op.first + f];
        SPINDRIFT_IVDEP
        for (uint32_t i = begin; i < end; ++i) {
            storeVelocity(c, i, sdForceField(field, positionAt(c, i), velocityAt(c, i), dt));
        }
    }
}

void applyAttractor(const ResolvedOp& r, const Columns& c, uint32_t begin, uint32_t end, float dt) {
    const float strength = r.op.params0.w;
    const float radius = r.op.params1.x;
    const float kill_radius = r.op.params1.y;
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        const AttractorResult a =
            sdAttractor(positionAt(c, i), r.vector, strength, radius, kill_radius);
        storeVelocity(c, i, sdAcceleration(velocityAt(c, i), a.acceleration, dt));
        c.flags[i] |= a.kill ? kParticleKilled : 0u;
    }
}

void applyRotationOverLife(const CompiledEffect& effect, const ResolvedOp& r, const Columns& c,
                           uint32_t begin, uint32_t end, float dt) {
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        const float added =
            lutScalar(effect, r.op.lut_row, sdNormalizedAge(c.age[i], c.lifetime[i]));
        c.rotation[i] += added * dt;
    }
}

// Collision tests the position after the step's move (src/kernels/collision.h), so collision ops
// run after integration, in their compiled order. The collision radius uses the born size.
void applyCollision(const StepScratch& scratch, const ResolvedOp& r, const Columns& c,
                    ParticlePool& pool, uint32_t begin, uint32_t end, ChunkResult& result) {
    const uint response = r.op.mode;
    const float bounce = r.op.params0.x;
    const float friction = r.op.params0.y;
    const float lifetime_loss = r.op.params0.z;
    const float radius_scale = r.op.params0.w;
    // The chunk's region of the contact lists (particle_pool.h): room for every particle in
    // every collision op.
    uint32_t* contact_out = pool.contact_slots.get() + size_t{begin} * pool.contact_lists;
    for (uint32_t i = begin; i < end; ++i) {
        if ((c.flags[i] & (kParticleStuck | kParticleKilled)) != 0) continue;
        vec3 p = positionAt(c, i);
        vec3 v = velocityAt(c, i);
        const float radius = c.size[i] * radius_scale;
        bool contact = false;
        bool kill = false;
        for (uint32_t k = 0; k < r.op.count; ++k) {
            const CollisionResult hit = sdCollide(scratch.colliders[r.op.first + k], response,
                                                  bounce, friction, p, v, radius);
            p = hit.position;
            v = hit.velocity;
            contact = contact || hit.contact;
            kill = kill || hit.kill;
        }
        if (!contact) continue;
        c.px[i] = p.x;
        c.py[i] = p.y;
        c.pz[i] = p.z;
        storeVelocity(c, i, v);
        c.lifetime[i] = sdLifetimeAfterContact(c.lifetime[i], lifetime_loss);
        c.flags[i] |=
            (response == kResponseStick ? kParticleStuck : 0u) | (kill ? kParticleKilled : 0u);
        contact_out[result.contact_count++] = i;
        ++result.contacts;
    }
}

// Semi-implicit Euler: the ops above changed velocity; now position, rotation and age move, and
// the death test runs. A stuck particle keeps its place.
void integrate(const EmitterStep& step, const Columns& c, uint32_t begin, uint32_t end) {
    const float dt = step.dt;
    // Only a stick collision sets kParticleStuck; other emitters need not read the flags.
    if (step.uses_flags) {
        SPINDRIFT_IVDEP
        for (uint32_t i = begin; i < end; ++i) {
            const float moving = (c.flags[i] & kParticleStuck) != 0 ? 0.0f : 1.0f;
            c.vx[i] *= moving;
            c.vy[i] *= moving;
            c.vz[i] *= moving;
        }
    }
    SPINDRIFT_IVDEP
    for (uint32_t i = begin; i < end; ++i) {
        const vec3 p = sdIntegratePosition(positionAt(c, i), velocityAt(c, i), dt);
        c.px[i] = p.x;
        c.py[i] = p.y;
        c.pz[i] = p.z;
        c.age[i] = sdAdvanceAge(c.age[i], dt);
    }
    if (step.spins) {
        SPINDRIFT_IVDEP
        for (uint32_t i = begin; i < end; ++i) {
            c.rotation[i] = sdIntegrateRotation(c.rotation[i], c.angular_velocity[i], dt);
        }
    }
}

void collectDead(const EmitterStep& step, const Columns& c, ParticlePool& pool, uint32_t begin,
                 uint32_t end, ChunkResult& result) {
    uint32_t* dead_out = pool.dead_slots.get() + begin;
    if (!step.uses_flags) {
        for (uint32_t i = begin; i < end; ++i) {
            if (sdIsDead(c.age[i], c.lifetime[i])) dead_out[result.dead_count++] = i;
        }
        return;
    }
    for (uint32_t i = begin; i < end; ++i) {
        const bool dead = sdIsDead(c.age[i], c.lifetime[i]) || (c.flags[i] & kParticleKilled) != 0;
        if (dead) dead_out[result.dead_count++] = i;
    }
}

} // namespace

ChunkResult updateChunkLoops(const CompiledEffect& effect, const StepScratch& scratch,
                             const EmitterStep& step, ParticlePool& pool, uint32_t begin,
                             uint32_t end) {
    ChunkResult result;
    const Columns c = columnsOf(pool);
    const float dt = step.dt;
    for (uint32_t k = 0; k < step.op_count; ++k) {
        const ResolvedOp& r = scratch.ops[step.op_first + k];
        switch (r.op.op) {
        case kOpAcceleration:
            addVelocity(c, begin, end, r.vector);
            break;
        case kOpBuoyancy:
            applyBuoyancy(effect, r, c, begin, end);
            break;
        case kOpDrag:
            scaleVelocity(c, begin, end, r.factor);
            break;
        case kOpWind:
            applyWind(r, c, begin, end);
            break;
        case kOpSpeedLimit:
            applySpeedLimit(r, c, begin, end);
            break;
        case kOpCurlNoise:
            applyCurlNoise(r, c, begin, end, step);
            break;
        case kOpForceFields:
            applyForceFields(scratch, r, c, begin, end, dt);
            break;
        case kOpAttractor:
            applyAttractor(r, c, begin, end, dt);
            break;
        case kOpRotationOverLife:
            applyRotationOverLife(effect, r, c, begin, end, dt);
            break;
        default:
            break; // collision below; appearance ops when draw records are written
        }
    }
    integrate(step, c, begin, end);
    for (uint32_t k = 0; k < step.op_count; ++k) {
        const ResolvedOp& r = scratch.ops[step.op_first + k];
        if (r.op.op == kOpCollision) applyCollision(scratch, r, c, pool, begin, end, result);
    }
    collectDead(step, c, pool, begin, end, result);
    return result;
}

} // namespace spindrift::cpu::SPINDRIFT_UPDATE_ISA
