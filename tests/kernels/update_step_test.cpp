#include "kernels/update_step.h"

#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

namespace spindrift {
namespace {

// A resolved op as the kernels take it (what resolveStep leaves: vector and factor precomputed).
struct TestOp {
    OpRecord op{};
    vec3 vector{0.0f};
    float factor = 0.0f;
};

TestOp makeOp(uint kind) {
    TestOp o;
    o.op.op = kind;
    o.op.lut_row = kNone;
    o.op.source_count = 1;
    return o;
}

ParticleMotion particle(vec3 p, vec3 v) {
    ParticleMotion q{};
    q.position = p;
    q.velocity = v;
    q.age_s = 0.0f;
    q.lifetime_s = 10.0f;
    q.rotation_rad = 0.0f;
    q.flags = 0u;
    return q;
}

// Every pass of one op, as both backends run it (the GPU in this loop, the CPU op-major).
void applyOp(const TestOp& o, ParticleMotion& q, ForceFieldsRef fields, LutRef lut, float dt,
             float time_s, bool with_heavy_ops = true) {
    for (uint pass = 0; pass < sdVelocityOpPasses(o.op); ++pass) {
        sdApplyVelocityOp(o.op.op, sdCurlNoiseOctaves(o.op), with_heavy_ops, o.op, o.vector,
                          o.factor, pass, fields, lut, dt, time_s, q);
    }
}

// One whole update step of one particle: ops, move, collision ops, death.
bool stepParticle(const std::vector<TestOp>& ops, ParticleMotion& q, ForceFieldsRef fields,
                  CollidersRef colliders, LutRef lut, float dt, float time_s, float size) {
    for (const TestOp& o : ops) applyOp(o, q, fields, lut, dt, time_s);
    sdIntegrateParticle(true, true, 0.0f, dt, q);
    for (const TestOp& o : ops) {
        if (o.op.op == kOpCollision) sdApplyCollisionOp(o.op, colliders, size, q);
    }
    return sdParticleDead(q.age_s, q.lifetime_s, q.flags);
}

ColliderRecord groundCollider() {
    ColliderRecord c{};
    c.kind = kColliderPlane;
    c.extent = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    return c;
}

TestOp collisionOp(uint response, float bounce, float friction, float loss, uint first,
                   uint count) {
    TestOp o = makeOp(kOpCollision);
    o.op.mode = response;
    o.op.params0 = vec4(bounce, friction, loss, 1.0f);
    o.op.first = first;
    o.op.count = count;
    return o;
}

// A LUT of one row whose value at t is t (a ramp), so a sample gives back the normalised age.
std::vector<vec4> rampLut() {
    std::vector<vec4> texels(kLutWidth);
    for (uint i = 0; i < kLutWidth; ++i) texels[i] = vec4(float(i) / float(kLutWidth - 1u));
    return texels;
}

uint32_t stepBits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

const ForceFieldsRef kNoFields{nullptr};
const CollidersRef kNoColliders{nullptr};
const LutRef kNoLut{nullptr};

TEST(UpdateStep, GravityThenDragConvergesToTheTerminalVelocity) {
    // v <- (v + g dt) f each step: the fixed point is g dt f / (1 - f).
    const float dt = 1.0f / 64.0f;
    TestOp gravity = makeOp(kOpAcceleration);
    gravity.vector = vec3(0.0f, -9.81f, 0.0f) * dt;
    TestOp drag = makeOp(kOpDrag);
    drag.factor = sdDragFactor(2.0f, dt);
    ParticleMotion q = particle(vec3(0.0f), vec3(0.0f));
    q.lifetime_s = 1.0e6f;
    for (int i = 0; i < 64 * 20; ++i) {
        stepParticle({gravity, drag}, q, kNoFields, kNoColliders, kNoLut, dt, 0.0f, 0.0f);
    }
    const float f = drag.factor;
    EXPECT_NEAR(q.velocity.y, -9.81f * dt * f / (1.0f - f), 1.0e-4f);
    EXPECT_EQ(q.velocity.x, 0.0f);
    // The fall matches the continuous solution -(g / k) (t - (1 - e^(-kt)) / k) to within the
    // step's first-order error.
    const float t = 20.0f, k = 2.0f;
    EXPECT_NEAR(q.position.y, -(9.81f / k) * (t - (1.0f - std::exp(-k * t)) / k), 2.0f);
}

TEST(UpdateStep, OpsRunInAuthoredOrder) {
    // Drag then +1 differs from +1 then drag: (v f + a) vs (v + a) f.
    TestOp add = makeOp(kOpAcceleration);
    add.vector = vec3(1.0f, 0.0f, 0.0f);
    TestOp half = makeOp(kOpDrag);
    half.factor = 0.5f;
    ParticleMotion a = particle(vec3(0.0f), vec3(2.0f, 0.0f, 0.0f));
    ParticleMotion b = a;
    applyOp(half, a, kNoFields, kNoLut, 0.1f, 0.0f);
    applyOp(add, a, kNoFields, kNoLut, 0.1f, 0.0f);
    applyOp(add, b, kNoFields, kNoLut, 0.1f, 0.0f);
    applyOp(half, b, kNoFields, kNoLut, 0.1f, 0.0f);
    EXPECT_EQ(a.velocity.x, 2.0f);
    EXPECT_EQ(b.velocity.x, 1.5f);
}

TEST(UpdateStep, ProjectileStepMatchesTheClosedFormExactly) {
    // Dyadic values: v_n = v_0 + n a dt, p_n = p_0 + n v_0 dt + a dt^2 n (n + 1) / 2, bit for bit.
    const float dt = 1.0f / 16.0f;
    TestOp gravity = makeOp(kOpAcceleration);
    gravity.vector = vec3(0.0f, -8.0f, 0.0f) * dt;
    ParticleMotion q = particle(vec3(0.0f), vec3(1.0f, 4.0f, 0.0f));
    const int n = 12;
    for (int i = 0; i < n; ++i) {
        stepParticle({gravity}, q, kNoFields, kNoColliders, kNoLut, dt, 0.0f, 0.0f);
    }
    EXPECT_EQ(q.velocity.y, 4.0f - 8.0f * dt * n);
    EXPECT_EQ(q.position.y, 4.0f * dt * n - 8.0f * dt * dt * n * (n + 1) / 2.0f);
    EXPECT_EQ(q.position.x, 1.0f * dt * n);
    EXPECT_EQ(q.age_s, dt * n);
}

TEST(UpdateStep, BuoyancyIsScaledByItsCurveAtTheNormalisedAge) {
    const std::vector<vec4> lut = rampLut();
    TestOp buoyancy = makeOp(kOpBuoyancy);
    buoyancy.vector = vec3(0.0f, 2.0f, 0.0f); // up * acceleration * dt
    ParticleMotion q = particle(vec3(0.0f), vec3(0.0f));
    applyOp(buoyancy, q, kNoFields, kNoLut, 0.1f, 0.0f); // no curve: the whole push
    EXPECT_EQ(q.velocity, vec3(0.0f, 2.0f, 0.0f));
    buoyancy.op.lut_row = 0;
    q = particle(vec3(0.0f), vec3(0.0f));
    q.age_s = 2.5f; // a quarter of its life: the ramp reads 0.25
    applyOp(buoyancy, q, kNoFields, LutRef{lut.data()}, 0.1f, 0.0f);
    EXPECT_NEAR(q.velocity.y, 0.5f, 1.0e-6f);
}

TEST(UpdateStep, ForceFieldsOfOneOpApplyInOrderOnePassEach) {
    ForceFieldRecord fields[2] = {};
    fields[0].shape = kForceFieldPoint; // pulls toward the origin
    fields[0].strength = 4.0f;
    fields[0].radius = 100.0f;
    fields[1].shape = kForceFieldDrag; // then halves what it finds (exp(-ln2) within the radius)
    fields[1].strength = std::log(2.0f);
    fields[1].radius = 100.0f;
    TestOp op = makeOp(kOpForceFields);
    op.op.first = 0;
    op.op.count = 2;
    EXPECT_EQ(sdVelocityOpPasses(op.op), 2u);
    ParticleMotion q = particle(vec3(3.0f, 0.0f, 0.0f), vec3(0.0f));
    applyOp(op, q, ForceFieldsRef{fields}, kNoLut, 1.0f, 0.0f);
    const vec3 pulled = sdForceField(fields[0], q.position, vec3(0.0f), 1.0f);
    EXPECT_LT(pulled.x, 0.0f);
    EXPECT_EQ(q.velocity, sdForceField(fields[1], q.position, pulled, 1.0f));
    EXPECT_NEAR(q.velocity.x, pulled.x * 0.5f, 1.0e-6f * std::abs(pulled.x));
}

TEST(UpdateStep, AttractorPullsAndKillsInsideItsKillRadius) {
    TestOp attractor = makeOp(kOpAttractor);
    attractor.vector = vec3(0.0f);                        // its position
    attractor.op.params0.w = 8.0f;                        // strength
    attractor.op.params1 = vec4(0.5f, 0.25f, 0.0f, 0.0f); // radius, kill radius
    ParticleMotion far = particle(vec3(2.0f, 0.0f, 0.0f), vec3(0.0f));
    applyOp(attractor, far, kNoFields, kNoLut, 0.5f, 0.0f);
    EXPECT_EQ(far.velocity, vec3(-8.0f / 4.0f * 0.5f, 0.0f, 0.0f)); // strength / d^2 * dt
    EXPECT_EQ(far.flags, 0u);
    EXPECT_FALSE(sdParticleDead(far.age_s, far.lifetime_s, far.flags));
    ParticleMotion near = particle(vec3(0.0f, 0.125f, 0.0f), vec3(0.0f));
    applyOp(attractor, near, kNoFields, kNoLut, 0.5f, 0.0f);
    EXPECT_EQ(near.flags, kParticleFlagKilled);
    EXPECT_TRUE(sdParticleDead(near.age_s, near.lifetime_s, near.flags));
}

TEST(UpdateStep, RotationOverLifeAddsItsRateTimesDtAndLeavesVelocity) {
    const std::vector<vec4> lut = rampLut();
    TestOp spin = makeOp(kOpRotationOverLife);
    spin.op.lut_row = 0;
    ParticleMotion q = particle(vec3(0.0f), vec3(1.0f, 2.0f, 3.0f));
    q.age_s = 5.0f; // the ramp reads 0.5 rad/s
    q.rotation_rad = 1.0f;
    applyOp(spin, q, kNoFields, LutRef{lut.data()}, 0.5f, 0.0f);
    EXPECT_NEAR(q.rotation_rad, 1.25f, 1.0e-6f);
    EXPECT_EQ(q.velocity, vec3(1.0f, 2.0f, 3.0f));
}

TEST(UpdateStep, EachOpChangesOnlyWhatItsKindDeclares) {
    // The CPU loops store only the columns sdVelocityOpWrites* name: nothing else may change.
    const std::vector<vec4> lut = rampLut();
    ForceFieldRecord field{};
    field.shape = kForceFieldVortex;
    field.strength = 3.0f;
    field.radius = 10.0f;
    field.axis = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    for (uint kind = 0; kind < kOpCount; ++kind) {
        TestOp o = makeOp(kind);
        o.vector = vec3(0.3f, -0.2f, 0.1f);
        o.factor = 0.75f;
        o.op.params0 = vec4(0.5f, 1.5f, 0.0f, 2.0f);
        o.op.params1 = vec4(0.1f, 5.0f, 0.0f, 0.0f); // attractor kill radius 5: kills
        o.op.mode = 2;
        o.op.count = kind == kOpForceFields ? 1u : 0u;
        if (kind == kOpBuoyancy || kind == kOpRotationOverLife) o.op.lut_row = 0;
        ParticleMotion before = particle(vec3(1.0f, 0.5f, -0.25f), vec3(2.0f, 1.0f, 0.5f));
        before.age_s = 4.0f;
        ParticleMotion q = before;
        applyOp(o, q, ForceFieldsRef{&field}, LutRef{lut.data()}, 0.25f, 1.0f);
        EXPECT_EQ(q.position, before.position) << "kind " << kind;
        EXPECT_EQ(q.age_s, before.age_s) << "kind " << kind;
        EXPECT_EQ(q.lifetime_s, before.lifetime_s) << "kind " << kind;
        if (!sdVelocityOpWritesVelocity(kind)) {
            EXPECT_EQ(q.velocity, before.velocity) << kind;
        }
        if (!sdVelocityOpWritesRotation(kind)) {
            EXPECT_EQ(q.rotation_rad, 0.0f) << kind;
        }
        if (!sdVelocityOpWritesFlags(kind)) {
            EXPECT_EQ(q.flags, 0u) << kind;
        }
        // Each velocity op does change what it declares here.
        if (sdVelocityOpWritesVelocity(kind)) {
            EXPECT_NE(q.velocity, before.velocity) << kind;
        }
        if (sdVelocityOpWritesRotation(kind)) {
            EXPECT_NE(q.rotation_rad, 0.0f) << kind;
        }
        if (sdVelocityOpWritesFlags(kind)) {
            EXPECT_EQ(q.flags, kParticleFlagKilled) << kind;
        }
        EXPECT_EQ(sdVelocityOpPasses(o.op) > 0u, sdIsVelocityOp(kind)) << kind;
    }
}

TEST(UpdateStep, WithoutHeavyOpsTheHeavyKindsAreCompiledOut) {
    const std::vector<vec4> lut = rampLut();
    ForceFieldRecord field{};
    field.shape = kForceFieldPoint;
    field.strength = 3.0f;
    field.radius = 10.0f;
    for (uint kind = 0; kind < kOpCount; ++kind) {
        TestOp o = makeOp(kind);
        o.vector = vec3(0.3f, -0.2f, 0.1f);
        o.factor = 0.75f;
        o.op.params0 = vec4(0.5f, 1.5f, 0.0f, 2.0f);
        o.op.mode = 1;
        o.op.count = kind == kOpForceFields ? 1u : 0u;
        if (kind == kOpRotationOverLife) o.op.lut_row = 0; // it always has a curve
        ParticleMotion q = particle(vec3(1.0f, 0.5f, -0.25f), vec3(2.0f, 1.0f, 0.5f));
        applyOp(o, q, ForceFieldsRef{&field}, LutRef{lut.data()}, 0.25f, 1.0f, false);
        if (sdIsHeavyUpdateOp(kind)) {
            EXPECT_EQ(q.velocity, vec3(2.0f, 1.0f, 0.5f)) << kind;
        }
    }
    EXPECT_TRUE(sdIsHeavyUpdateOp(kOpCurlNoise) && sdIsHeavyUpdateOp(kOpForceFields) &&
                sdIsHeavyUpdateOp(kOpAttractor) && sdIsHeavyUpdateOp(kOpCollision));
    EXPECT_FALSE(sdIsHeavyUpdateOp(kOpAcceleration) || sdIsHeavyUpdateOp(kOpDrag) ||
                 sdIsHeavyUpdateOp(kOpBuoyancy) || sdIsHeavyUpdateOp(kOpColorOverLife));
}

TEST(UpdateStep, CurlNoiseOctavesComeFromTheModeAndAreBounded) {
    TestOp o = makeOp(kOpCurlNoise);
    for (uint mode = 1; mode <= kCurlMaxOctaves; ++mode) {
        o.op.mode = mode;
        EXPECT_EQ(sdCurlNoiseOctaves(o.op), mode);
    }
    o.op.mode = 0;
    EXPECT_EQ(sdCurlNoiseOctaves(o.op), kCurlMaxOctaves);
    o.op.mode = 99;
    EXPECT_EQ(sdCurlNoiseOctaves(o.op), kCurlMaxOctaves);
}

TEST(UpdateStep, IntegrationMovesWithTheNewVelocityAndAStuckParticleStays) {
    ParticleMotion q = particle(vec3(1.0f, 2.0f, 3.0f), vec3(4.0f, 0.0f, -2.0f));
    q.rotation_rad = 1.0f;
    sdIntegrateParticle(false, false, 8.0f, 0.25f, q);
    EXPECT_EQ(q.position, vec3(2.0f, 2.0f, 2.5f));
    EXPECT_EQ(q.age_s, 0.25f);
    EXPECT_EQ(q.rotation_rad, 1.0f); // not spinning: angular velocity ignored
    sdIntegrateParticle(false, true, 8.0f, 0.25f, q);
    EXPECT_EQ(q.rotation_rad, 3.0f);
    q.flags = kParticleFlagStuck;
    EXPECT_EQ(q.position, vec3(3.0f, 2.0f, 2.0f)); // where the spinning step left it
    sdIntegrateParticle(true, false, 8.0f, 0.25f, q);
    EXPECT_EQ(q.position, vec3(3.0f, 2.0f, 2.0f)); // stuck: velocity zeroed, position kept
    EXPECT_EQ(q.velocity, vec3(0.0f));
    EXPECT_EQ(q.age_s, 0.75f);
}

TEST(UpdateStep, BounceReflectsWithRestitutionAndFrictionAndCostsLifetime) {
    // One spare record: GCC's bounds check cannot rule out the kernel's heightfield branch
    // reading the record after a collider.
    const ColliderRecord colliders[2] = {groundCollider(), {}};
    const TestOp bounce = collisionOp(kResponseBounce, 0.5f, 0.25f, 0.5f, 0, 1);
    ParticleMotion q = particle(vec3(1.0f, -0.125f, 0.0f), vec3(2.0f, -4.0f, 0.0f));
    ASSERT_TRUE(sdApplyCollisionOp(bounce.op, CollidersRef{colliders}, 0.0f, q));
    EXPECT_EQ(q.position, vec3(1.0f, 0.0f, 0.0f)); // pushed back onto the plane
    EXPECT_EQ(q.velocity, vec3(2.0f * 0.75f, 4.0f * 0.5f, 0.0f));
    EXPECT_EQ(q.lifetime_s, 5.0f);
    EXPECT_EQ(q.flags, 0u);
    // Above the plane: no contact, nothing changes.
    ParticleMotion above = particle(vec3(0.0f, 1.0f, 0.0f), vec3(0.0f, -1.0f, 0.0f));
    const ParticleMotion kept = above;
    EXPECT_FALSE(sdApplyCollisionOp(bounce.op, CollidersRef{colliders}, 0.0f, above));
    EXPECT_EQ(above.position, kept.position);
    EXPECT_EQ(above.velocity, kept.velocity);
    EXPECT_EQ(above.lifetime_s, kept.lifetime_s);
}

TEST(UpdateStep, RadiusIsTheSizeTimesTheRadiusScale) {
    // One spare record: GCC's bounds check cannot rule out the kernel's heightfield branch
    // reading the record after a collider.
    const ColliderRecord colliders[2] = {groundCollider(), {}};
    TestOp bounce = collisionOp(kResponseBounce, 1.0f, 0.0f, 0.0f, 0, 1);
    bounce.op.params0.w = 0.5f;
    ParticleMotion q = particle(vec3(0.0f, 0.75f, 0.0f), vec3(0.0f, -1.0f, 0.0f));
    EXPECT_FALSE(sdApplyCollisionOp(bounce.op, CollidersRef{colliders}, 1.0f, q)); // radius 0.5
    EXPECT_TRUE(sdApplyCollisionOp(bounce.op, CollidersRef{colliders}, 2.0f, q));  // radius 1
    EXPECT_EQ(q.position.y, 1.0f);
}

TEST(UpdateStep, StickHoldsTheParticleAndLaterOpsSkipIt) {
    // One spare record: GCC's bounds check cannot rule out the kernel's heightfield branch
    // reading the record after a collider.
    const ColliderRecord colliders[2] = {groundCollider(), {}};
    const TestOp stick = collisionOp(kResponseStick, 0.0f, 0.0f, 0.0f, 0, 1);
    TestOp gravity = makeOp(kOpAcceleration);
    gravity.vector = vec3(0.0f, -1.0f, 0.0f);
    ParticleMotion q = particle(vec3(0.0f, 0.5f, 0.0f), vec3(1.0f, -1.0f, 0.0f));
    // Step 1 ends below the plane: pushed up and stuck.
    stepParticle({gravity, stick}, q, kNoFields, CollidersRef{colliders}, kNoLut, 0.5f, 0.0f, 0.0f);
    EXPECT_EQ(q.flags, kParticleFlagStuck);
    EXPECT_EQ(q.velocity, vec3(0.0f));
    const vec3 stuck_at = q.position;
    EXPECT_EQ(stuck_at.y, 0.0f);
    // Later steps: gravity still adds velocity, but the move keeps a stuck particle in place and
    // the collision op no longer tests it (no second contact).
    for (int i = 0; i < 4; ++i) {
        stepParticle({gravity, stick}, q, kNoFields, CollidersRef{colliders}, kNoLut, 0.5f, 0.0f,
                     0.0f);
        EXPECT_EQ(q.position, stuck_at);
        EXPECT_FALSE(sdApplyCollisionOp(stick.op, CollidersRef{colliders}, 0.0f, q));
    }
}

TEST(UpdateStep, KillResponseKillsAtTheEndOfTheStep) {
    // One spare record: GCC's bounds check cannot rule out the kernel's heightfield branch
    // reading the record after a collider.
    const ColliderRecord colliders[2] = {groundCollider(), {}};
    const TestOp kill = collisionOp(kResponseKill, 0.0f, 0.0f, 0.0f, 0, 1);
    ParticleMotion q = particle(vec3(0.0f, 0.25f, 0.0f), vec3(0.0f, -1.0f, 0.0f));
    EXPECT_TRUE(
        stepParticle({kill}, q, kNoFields, CollidersRef{colliders}, kNoLut, 0.5f, 0.0f, 0.0f));
    EXPECT_EQ(q.flags, kParticleFlagKilled);
}

TEST(UpdateStep, CollidersOfAnOpApplyInOrderAndLifetimeIsLostOnce) {
    // A floor and a wall at x = 1: a particle past both is pushed out of each in turn.
    // (One spare record: GCC's bounds check cannot rule out the scene depth branch reading the
    // record after the last collider.)
    ColliderRecord colliders[3] = {groundCollider(), groundCollider(), {}};
    colliders[1].position = vec4(1.0f, 0.0f, 0.0f, 0.0f);
    colliders[1].extent = vec4(-1.0f, 0.0f, 0.0f, 0.0f);
    const TestOp op = collisionOp(kResponseBounce, 1.0f, 0.0f, 0.5f, 0, 2);
    ParticleMotion q = particle(vec3(1.5f, -0.5f, 0.0f), vec3(1.0f, -1.0f, 0.0f));
    ASSERT_TRUE(sdApplyCollisionOp(op.op, CollidersRef{colliders}, 0.0f, q));
    EXPECT_EQ(q.position, vec3(1.0f, 0.0f, 0.0f));
    EXPECT_EQ(q.velocity, vec3(-1.0f, 1.0f, 0.0f));
    EXPECT_EQ(q.lifetime_s, 5.0f); // one contact op: the loss once, not once per collider
    // The op's range: first = 1 selects the wall alone.
    const TestOp wall_only = collisionOp(kResponseBounce, 1.0f, 0.0f, 0.0f, 1, 1);
    ParticleMotion w = particle(vec3(1.5f, -0.5f, 0.0f), vec3(1.0f, -1.0f, 0.0f));
    ASSERT_TRUE(sdApplyCollisionOp(wall_only.op, CollidersRef{colliders}, 0.0f, w));
    EXPECT_EQ(w.position, vec3(1.0f, -0.5f, 0.0f));
}

TEST(UpdateStep, OpMajorAndParticleMajorOrdersGiveTheSameBits) {
    // The CPU runs each op over all particles before the next; the GPU runs all ops per particle.
    const std::vector<vec4> lut = rampLut();
    ForceFieldRecord fields[2] = {};
    fields[0].shape = kForceFieldVortex;
    fields[0].strength = 2.0f;
    fields[0].radius = 3.0f;
    fields[0].falloff = 1.5f;
    fields[0].axis = vec4(0.0f, 1.0f, 0.0f, 0.0f);
    fields[1].shape = kForceFieldPoint;
    fields[1].strength = -1.0f;
    fields[1].radius = 4.0f;
    fields[1].falloff = 1.0f;
    std::vector<TestOp> ops;
    ops.push_back(makeOp(kOpAcceleration));
    ops.back().vector = vec3(0.0f, -0.1f, 0.0f);
    ops.push_back(makeOp(kOpCurlNoise));
    ops.back().op.mode = 2;
    ops.back().op.params0 = vec4(1.5f, 0.7f, 0.0f, 0.0f);
    ops.back().vector = vec3(0.0f, 0.2f, 0.0f);
    ops.push_back(makeOp(kOpForceFields));
    ops.back().op.count = 2;
    ops.push_back(makeOp(kOpSpeedLimit));
    ops.back().op.params0.x = 1.0f;
    ops.back().factor = 0.5f;
    ops.push_back(makeOp(kOpRotationOverLife));
    ops.back().op.lut_row = 0;
    const int n = 64;
    std::vector<ParticleMotion> a(n);
    for (int i = 0; i < n; ++i) {
        const float t = float(i) / float(n);
        a[i] =
            particle(vec3(std::sin(7.0f * t) * 2.0f, t, std::cos(5.0f * t)), vec3(t, -t, 0.5f * t));
        a[i].age_s = 9.0f * t;
    }
    std::vector<ParticleMotion> b = a;
    for (const TestOp& o : ops) {
        for (uint pass = 0; pass < sdVelocityOpPasses(o.op); ++pass) {
            for (ParticleMotion& q : a) {
                sdApplyVelocityOp(o.op.op, sdCurlNoiseOctaves(o.op), true, o.op, o.vector, o.factor,
                                  pass, ForceFieldsRef{fields}, LutRef{lut.data()}, 0.02f, 1.0f, q);
            }
        }
    }
    for (ParticleMotion& q : b) {
        for (const TestOp& o : ops)
            applyOp(o, q, ForceFieldsRef{fields}, LutRef{lut.data()}, 0.02f, 1.0f);
    }
    for (int i = 0; i < n; ++i) {
        EXPECT_EQ(stepBits(a[i].velocity.x), stepBits(b[i].velocity.x));
        EXPECT_EQ(stepBits(a[i].velocity.y), stepBits(b[i].velocity.y));
        EXPECT_EQ(stepBits(a[i].velocity.z), stepBits(b[i].velocity.z));
        EXPECT_EQ(stepBits(a[i].rotation_rad), stepBits(b[i].rotation_rad));
        const float t = float(i) / float(n);
        EXPECT_NE(a[i].velocity, vec3(t, -t, 0.5f * t)); // the ops did something
    }
}

} // namespace
} // namespace spindrift
