// Ribbon trails in the CPU backend: the recording rule, the ring, trails following their
// particles through births, removal and replacement, simulation space, determinism across
// threads, snapshots and seeks, the strips writeRibbonStrips builds, the creation limit, and the
// shared ribbon kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <span>
#include <stdexcept>

#include "allocation_counter.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "cpu/snapshot.h"
#include "cpu/trails.h"
#include "cpu_test_effects.h"
#include "kernels/ribbon.h"

namespace spindrift::cpu {
namespace {

using test::burstAt;
using test::busyEffect;
using test::compileOrFail;
using test::singleEmitterEffect;

// Dyadic step and distances, so positions and distances along a straight line are exact.
constexpr float kDt = 1.0f / 64.0f;
constexpr float kSample = 1.0f / 16.0f; // four steps at 1 m/s

std::unique_ptr<CpuEffect> makeTrailEffect(const EffectDesc& desc, uint32_t threads = 1) {
    CpuConfig config;
    config.threads = threads;
    return createCpuEffect(compileOrFail(desc), config);
}

void runTrailSteps(CpuEffect& fx, uint32_t steps) {
    for (uint32_t i = 0; i < steps; ++i) stepOnce(fx);
}

void makeRibbon(EmitterDesc& emitter, uint32_t max_points, float min_sample_distance) {
    emitter.render.type = RenderType::ribbon;
    emitter.render.ribbon.max_points = max_points;
    emitter.render.ribbon.min_sample_distance = min_sample_distance;
}

// One particle born at t = 0 moving at constant velocity v; a ribbon of max_points points.
EffectDesc ribbonProjectile(Float3 v, uint32_t max_points = kMaxRibbonPoints) {
    EffectDesc desc = singleEmitterEffect(16);
    desc.fixed_timestep_s = kDt;
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 1));
    desc.emitters[0].init.velocity = {v, v};
    makeRibbon(desc.emitters[0], max_points, kSample);
    return desc;
}

// busyEffect at a third of its rate, with ribbons on both emitters: several chunks, every update
// op, deaths, collisions, sub-emitter births and replace_oldest (the child), and rings that wrap.
EffectDesc busyRibbonEffect() {
    EffectDesc desc = busyEffect();
    desc.emitters[0].capacity = 12000;
    desc.emitters[0].spawn.rate_per_s /= 3;
    desc.emitters[0].spawn.bursts[0].count = {1500, 1500};
    desc.emitters[1].capacity = 4000;
    makeRibbon(desc.emitters[0], 16, 0.05f);
    makeRibbon(desc.emitters[1], 8, 0.02f);
    return desc;
}

vec3 headOf(const CpuEffect& fx, uint32_t emitter, uint32_t slot) {
    const ParticlePool& p = fx.pools[emitter];
    return vec3(p.position_x[slot], p.position_y[slot], p.position_z[slot]);
}

struct Strips {
    std::vector<StripPoint> points;
    std::vector<uint32_t> segments;
};

Strips stripsOf(const CpuEffect& fx, uint32_t emitter) {
    Strips s;
    writeRibbonStrips(fx, emitter, s.points, s.segments);
    return s;
}

bool sameBytes(const Strips& a, const Strips& b) {
    return a.points.size() == b.points.size() && a.segments == b.segments &&
           (a.points.empty() || std::memcmp(a.points.data(), b.points.data(),
                                            a.points.size() * sizeof(StripPoint)) == 0);
}

// --- recording ----------------------------------------------------------------------------------

TEST(CpuTrails, StraightLineRecordsAPointEveryMinSampleDistance) {
    auto fx = makeTrailEffect(ribbonProjectile({1, 0, 0}));
    const TrailStore& trails = fx->trails[0];
    ASSERT_TRUE(hasTrails(trails));
    stepOnce(*fx); // born at fraction 0.5 of step 0: pre-aged by dt / 2
    ASSERT_EQ(fx->pools[0].count, 1u);
    const float birth_x = 0.5f * kDt;
    EXPECT_EQ(trails.count[0], 1u);
    EXPECT_EQ(trailPoint(trails, 0, 0), vec3(birth_x, 0, 0)) << "the birth position is point 0";
    for (uint32_t k = 1; k <= 200; ++k) {
        stepOnce(*fx);
        ASSERT_EQ(headOf(*fx, 0, 0).x, birth_x + static_cast<float>(k) * kDt);
        // 1 m/s at dt = 1/64 s: exactly min_sample_distance every 4 steps.
        const uint32_t count = 1 + k / 4;
        ASSERT_EQ(trails.count[0], count) << "step " << k;
        for (uint32_t j = 0; j < count; ++j) {
            const float expected = birth_x + static_cast<float>(count - 1 - j) * kSample;
            ASSERT_EQ(trailPoint(trails, 0, j), vec3(expected, 0, 0))
                << "step " << k << " point " << j;
        }
    }
}

TEST(CpuTrails, FullRingDropsTheOldestPoint) {
    auto fx = makeTrailEffect(ribbonProjectile({0, 0, -1}, 8));
    const TrailStore& trails = fx->trails[0];
    const float birth_z = -0.5f * kDt;
    stepOnce(*fx);
    for (uint32_t k = 1; k <= 150; ++k) {
        stepOnce(*fx);
        const uint32_t recorded = 1 + k / 4; // points ever recorded
        ASSERT_EQ(trails.count[0], std::min(recorded, 8u)) << "step " << k;
        // The newest 8 of them remain, newest first.
        for (uint32_t j = 0; j < trails.count[0]; ++j) {
            const float expected = birth_z - static_cast<float>(recorded - 1 - j) * kSample;
            ASSERT_EQ(trailPoint(trails, 0, j), vec3(0, 0, expected)) << "step " << k;
        }
    }
    EXPECT_LT(trailPoint(trails, 0, 7).z, birth_z) << "the birth point was dropped";
}

TEST(CpuTrails, AParticleBornIntoAReusedSlotStartsAFreshTrail) {
    for (OverflowPolicy overflow : {OverflowPolicy::drop_new, OverflowPolicy::replace_oldest}) {
        EffectDesc desc = ribbonProjectile({1, 0, 0});
        desc.emitters[0].capacity = 1;
        desc.emitters[0].overflow = overflow;
        // drop_new: the first dies at 0.5 s and the second reuses its slot; replace_oldest: the
        // first lives on and is replaced.
        desc.emitters[0].init.lifetime_s =
            overflow == OverflowPolicy::drop_new ? FloatRange{0.5f, 0.5f} : FloatRange{100, 100};
        desc.emitters[0].spawn.bursts.push_back(burstAt(1, 1));
        auto fx = makeTrailEffect(desc);
        const TrailStore& trails = fx->trails[0];
        runTrailSteps(*fx, 64); // steps 0..63; the second birth is in step 64 (t = 1 s)
        EXPECT_EQ(fx->stats[0].births, 1u);
        ASSERT_GT(trails.count[0], 5u);
        stepOnce(*fx);
        ASSERT_EQ(fx->stats[0].births, 2u);
        ASSERT_EQ(fx->pools[0].count, 1u);
        EXPECT_EQ(trails.count[0], 1u);
        EXPECT_EQ(trailPoint(trails, 0, 0), headOf(*fx, 0, 0));
    }
}

// Particles born at the origin fly in straight lines in different directions: every point of a
// slot's trail must lie behind its particle on its own ray, whoever died or was replaced.
void expectTrailsOnTheirParticlesRays(const CpuEffect& fx) {
    const ParticlePool& pool = fx.pools[0];
    const TrailStore& trails = fx.trails[0];
    ASSERT_GT(pool.count, 3u);
    for (uint32_t slot = 0; slot < pool.count; ++slot) {
        const vec3 head = headOf(fx, 0, slot);
        const vec3 dir =
            normalize(vec3(pool.velocity_x[slot], pool.velocity_y[slot], pool.velocity_z[slot]));
        ASSERT_GE(trails.count[slot], 1u);
        for (uint32_t k = 0; k < trails.count[slot]; ++k) {
            const vec3 back = head - trailPoint(trails, slot, k);
            EXPECT_GE(dot(back, dir), -1e-6f) << "slot " << slot;
            EXPECT_LT(length(cross(back, dir)), 1e-5f) << "slot " << slot << " point " << k;
        }
    }
}

TEST(CpuTrails, TrailsMoveWithTheirParticlesThroughRemoval) {
    EffectDesc desc = singleEmitterEffect(64);
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 40));
    desc.emitters[0].init.lifetime_s = {0.2f, 2.0f};
    desc.emitters[0].init.velocity = {{-2, -2, -2}, {2, 2, 2}};
    makeRibbon(desc.emitters[0], 32, 0.02f);
    auto fx = makeTrailEffect(desc);
    runTrailSteps(*fx, 70);
    EXPECT_GT(fx->stats[0].deaths, 10u) << "holes were filled by moving particles";
    expectTrailsOnTheirParticlesRays(*fx);
}

TEST(CpuTrails, TrailsMoveWithTheirParticlesThroughReplacement) {
    EffectDesc desc = singleEmitterEffect(24);
    desc.emitters[0].spawn.rate_per_s = 90;
    desc.emitters[0].overflow = OverflowPolicy::replace_oldest;
    desc.emitters[0].init.velocity = {{-2, -2, -2}, {2, 2, 2}};
    makeRibbon(desc.emitters[0], 32, 0.02f);
    auto fx = makeTrailEffect(desc);
    runTrailSteps(*fx, 70);
    EXPECT_GT(fx->stats[0].overflow_replaced, 10u);
    expectTrailsOnTheirParticlesRays(*fx);
}

TEST(CpuTrails, LocalTrailsFollowTheEffectWorldTrailsStay) {
    for (SimulationSpace space : {SimulationSpace::world, SimulationSpace::local}) {
        EffectDesc desc = ribbonProjectile({1, 0, 0});
        desc.space = space;
        auto fx = makeTrailEffect(desc);
        for (int i = 0; i < 32; ++i) advanceFrame(*fx, 2 * kDt);
        setTransform(*fx, makeRigidTransform(0, 5, 0, 0));
        advanceFrame(*fx, 2 * kDt);
        const Strips s = stripsOf(*fx, 0);
        ASSERT_GT(s.points.size(), 10u);
        const float expected_y = space == SimulationSpace::local ? 5.0f : 0.0f;
        for (const StripPoint& p : s.points) {
            EXPECT_NEAR(p.position_width.y, expected_y, 1e-6)
                << (space == SimulationSpace::local ? "local" : "world");
        }
    }
}

// --- determinism ----------------------------------------------------------------------------

TEST(CpuTrails, ThreadCountDoesNotChangeAnyBitOfTheTrails) {
    const EffectDesc desc = busyRibbonEffect();
    auto one = makeTrailEffect(desc, 1);
    auto two = makeTrailEffect(desc, 2);
    auto four = makeTrailEffect(desc, 4);
    for (int i = 0; i < 90; ++i) {
        stepOnce(*one);
        stepOnce(*two);
        stepOnce(*four);
        ASSERT_EQ(stateHash(*one), stateHash(*two)) << "step " << i;
        ASSERT_EQ(stateHash(*one), stateHash(*four)) << "step " << i;
    }
    EXPECT_GT(one->pools[0].count, 3 * kChunkParticles);
    EXPECT_GT(one->stats[1].overflow_replaced + one->stats[1].births, 0u);
    for (uint32_t e = 0; e < 2; ++e) {
        const Strips a = stripsOf(*one, e);
        EXPECT_GT(a.points.size(), one->pools[e].count);
        EXPECT_TRUE(sameBytes(a, stripsOf(*two, e)));
        EXPECT_TRUE(sameBytes(a, stripsOf(*four, e)));
    }
}

TEST(CpuTrails, StateHashCoversTrailPoints) {
    auto fx = makeTrailEffect(busyRibbonEffect());
    runTrailSteps(*fx, 30);
    const uint64_t before = stateHash(*fx);
    TrailStore& trails = fx->trails[0];
    const size_t slot = 7;
    const uint32_t entry =
        sdRibbonRingEntry(trails.first[slot], trails.count[slot], trails.max_points, 0);
    TrailPoint& p = trails.points[slot * trails.max_points + entry];
    const float saved = p.y;
    p.y += 1.0f;
    EXPECT_NE(stateHash(*fx), before);
    p.y = saved;
    EXPECT_EQ(stateHash(*fx), before);
}

TEST(CpuTrails, SnapshotRestoreContinueEqualsAStraightRun) {
    const EffectDesc desc = busyRibbonEffect();
    auto straight = makeTrailEffect(desc);
    runTrailSteps(*straight, 120);

    auto first = makeTrailEffect(desc);
    runTrailSteps(*first, 47);
    const std::vector<uint8_t> bytes = snapshotState(*first);
    auto second = makeTrailEffect(desc, 2);
    std::string error;
    ASSERT_TRUE(restoreState(*second, bytes, error)) << error;
    EXPECT_EQ(stateHash(*second), stateHash(*first));
    EXPECT_TRUE(sameBytes(stripsOf(*second, 0), stripsOf(*first, 0)));
    // Rings of the restored instance start at entry 0; the original's had wrapped.
    bool wrapped = false;
    for (uint32_t s = 0; s < first->pools[0].count; ++s) wrapped |= first->trails[0].first[s] != 0;
    EXPECT_TRUE(wrapped);
    runTrailSteps(*second, 120 - 47);
    EXPECT_EQ(stateHash(*second), stateHash(*straight));
    EXPECT_TRUE(sameBytes(stripsOf(*second, 0), stripsOf(*straight, 0)));
}

TEST(CpuTrails, SeekEqualsAStraightRunWithTrails) {
    const EffectDesc desc = busyRibbonEffect();
    auto straight = makeTrailEffect(desc);
    std::vector<uint64_t> hashes;
    for (int i = 0; i <= 100; ++i) {
        hashes.push_back(stateHash(*straight));
        stepOnce(*straight);
    }
    auto fx = makeTrailEffect(desc);
    SeekConfig config;
    config.checkpoint_interval_steps = 25;
    SeekCache cache(config);
    for (int target : {80, 33, 100, 51}) {
        const SeekResult r = cache.seek(*fx, target / 60.0);
        ASSERT_EQ(r.reached_step, static_cast<uint64_t>(target));
        EXPECT_EQ(stateHash(*fx), hashes[target]) << "seek to step " << target;
    }
}

TEST(CpuTrails, RestoreRejectsABadTrailSection) {
    auto fx = makeTrailEffect(ribbonProjectile({1, 0, 0}, 8));
    runTrailSteps(*fx, 60);
    const std::vector<uint8_t> bytes = snapshotState(*fx);
    const uint64_t before = stateHash(*fx);
    // Header (40 bytes), driver, statistics, two transforms, the pool's count and its particle:
    // then the trail of slot 0 starts with its point count.
    const size_t at = 40 + sizeof(DriverState) + sizeof(EmitterStats) + 2 * sizeof(Rows3x4) + 4 +
                      kParticleStateBytes;
    uint32_t count = 0;
    std::memcpy(&count, bytes.data() + at, 4);
    ASSERT_EQ(count, fx->trails[0].count[0]);
    std::string error;
    for (uint32_t bad : {0u, 9u, 0xFFFFFFFFu}) {
        std::vector<uint8_t> damaged = bytes;
        std::memcpy(damaged.data() + at, &bad, 4);
        EXPECT_FALSE(restoreState(*fx, damaged, error)) << bad;
        EXPECT_NE(error.find("trail section"), std::string::npos) << error;
    }
    std::vector<uint8_t> truncated(bytes.begin(), bytes.end() - 5);
    EXPECT_FALSE(restoreState(*fx, truncated, error));
    EXPECT_EQ(stateHash(*fx), before);
    ASSERT_TRUE(restoreState(*fx, bytes, error)) << error;
    EXPECT_EQ(stateHash(*fx), before);
}

// --- strips --------------------------------------------------------------------------------

TEST(CpuTrails, StripRunsHeadFirstWithTaperAndStretchedU) {
    EffectDesc desc = ribbonProjectile({1, 0, 0}, 16);
    desc.emitters[0].init.size = {0.5f, 0.5f};
    desc.emitters[0].init.lifetime_s = {4, 4};
    desc.emitters[0].render.ribbon.width = 0.4f;
    desc.emitters[0].render.ribbon.taper = 0.75f;
    desc.emitters[0].render.ribbon.uv_tiling = 0;
    Gradient fade;
    fade.color_keys = {{0, {1, 1, 1}}, {1, {1, 0, 0}}};
    fade.alpha_keys = {{0, 1}, {1, 0}};
    desc.emitters[0].update.push_back({true, ColorOverLifeModule{fade}});
    Curve grow;
    grow.keys = {{0, 1}, {1, 3}};
    desc.emitters[0].update.push_back({true, SizeOverLifeModule{grow}});
    auto fx = makeTrailEffect(desc);
    runTrailSteps(*fx,
                  43); // 42 steps after birth: 11 recorded points, the head 2 steps past the newest
    const TrailStore& trails = fx->trails[0];
    ASSERT_EQ(trails.count[0], 11u);

    DrawRecord record;
    ASSERT_EQ(writeDrawRecords(*fx, &record), 1u);
    const Strips s = stripsOf(*fx, 0);
    ASSERT_EQ(s.points.size(), 12u) << "the head and every recorded point";
    ASSERT_EQ(s.segments.size(), 11u);
    for (uint32_t k = 0; k < 11; ++k) EXPECT_EQ(s.segments[k], k);

    const float head_width = 0.4f * record.position_size.w;
    const float length_m = s.points[0].position_width.x - s.points[11].position_width.x;
    EXPECT_EQ(vec3(s.points[0].position_width), headOf(*fx, 0, 0));
    EXPECT_FLOAT_EQ(s.points[0].position_width.w, head_width);
    EXPECT_FLOAT_EQ(s.points[11].position_width.w, head_width * 0.25f);
    EXPECT_EQ(s.points[0].tangent_u.w, 0.0f);
    EXPECT_EQ(s.points[11].tangent_u.w, 1.0f);
    for (uint32_t k = 0; k < 12; ++k) {
        const StripPoint& p = s.points[k];
        if (k > 0) {
            EXPECT_EQ(vec3(p.position_width), trailPoint(trails, 0, k - 1)) << k;
            EXPECT_LT(p.position_width.w, s.points[k - 1].position_width.w) << "narrows " << k;
        }
        const float from_head = s.points[0].position_width.x - p.position_width.x;
        EXPECT_NEAR(p.tangent_u.w, from_head / length_m, 1e-6) << k;
        EXPECT_NEAR(p.position_width.w, head_width * (1 - 0.75f * from_head / length_m), 1e-6);
        EXPECT_EQ(vec3(p.tangent_u), vec3(-1, 0, 0)) << "head toward tail, " << k;
        EXPECT_EQ(p.color, record.color) << "the particle's draw colour, " << k;
    }
    EXPECT_LT(record.color.w, 1.0f) << "colour over life applied";
    EXPECT_GT(record.position_size.w, 0.5f) << "size over life applied";
}

TEST(CpuTrails, StripUIsMetresFromTheHeadTimesTiling) {
    EffectDesc desc = ribbonProjectile({0, 2, 0}, 16);
    desc.emitters[0].render.ribbon.uv_tiling = 3;
    desc.emitters[0].render.ribbon.taper = 0;
    auto fx = makeTrailEffect(desc);
    runTrailSteps(*fx, 30);
    const Strips s = stripsOf(*fx, 0);
    ASSERT_GE(s.points.size(), 5u);
    const float head_y = s.points[0].position_width.y;
    for (const StripPoint& p : s.points) {
        EXPECT_NEAR(p.tangent_u.w, (head_y - p.position_width.y) * 3.0f, 1e-5);
        EXPECT_FLOAT_EQ(p.position_width.w, s.points[0].position_width.w) << "taper 0";
    }
}

TEST(CpuTrails, StripLeavesOutANewestPointThatIsTheHead) {
    auto fx = makeTrailEffect(ribbonProjectile({1, 0, 0}, 16));
    stepOnce(*fx);
    EXPECT_EQ(stripsOf(*fx, 0).points.size(), 0u) << "one point: no polyline";
    runTrailSteps(*fx, 4); // recorded in the 4th step after birth: the head is the newest point
    const TrailStore& trails = fx->trails[0];
    ASSERT_EQ(trails.count[0], 2u);
    ASSERT_EQ(trailPoint(trails, 0, 0), headOf(*fx, 0, 0));
    Strips s = stripsOf(*fx, 0);
    ASSERT_EQ(s.points.size(), 2u);
    EXPECT_EQ(s.segments, std::vector<uint32_t>{0});
    EXPECT_GT(s.points[0].position_width.x, s.points[1].position_width.x);
    stepOnce(*fx);
    EXPECT_EQ(stripsOf(*fx, 0).points.size(), 3u) << "the head moved on";
}

TEST(CpuTrails, StripSegmentsStayInsideTheirPolylineAndCountFromTheBatch) {
    EffectDesc desc = singleEmitterEffect(64);
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 20));
    desc.emitters[0].init.velocity = {{-2, -2, -2}, {2, 2, 2}};
    makeRibbon(desc.emitters[0], 12, 0.05f);
    auto fx = makeTrailEffect(desc);
    runTrailSteps(*fx, 40);
    // Points already in the vectors (an earlier batch) do not shift this batch's indices.
    Strips s;
    s.points.resize(5);
    s.segments.resize(3, 77);
    const uint64_t written = writeRibbonStrips(*fx, 0, s.points, s.segments);
    ASSERT_EQ(s.points.size(), 5 + written);
    const std::span<const uint32_t> segments(s.segments.data() + 3, s.segments.size() - 3);
    const std::span<const StripPoint> points(s.points.data() + 5, written);
    // Polylines start at each particle's head, in slot order.
    std::vector<uint32_t> starts;
    uint32_t slot = 0;
    for (uint32_t i = 0; i < points.size() && slot < fx->pools[0].count; ++i) {
        if (vec3(points[i].position_width) == headOf(*fx, 0, slot)) {
            starts.push_back(i);
            ++slot;
        }
    }
    ASSERT_EQ(starts.size(), fx->pools[0].count);
    EXPECT_EQ(starts[0], 0u);
    starts.push_back(static_cast<uint32_t>(points.size()));
    EXPECT_EQ(segments.size(), points.size() - fx->pools[0].count) << "n - 1 per polyline";
    size_t next = 0;
    for (size_t p = 0; p + 1 < starts.size(); ++p) {
        ASSERT_GE(starts[p + 1] - starts[p], 2u);
        for (uint32_t i = starts[p]; i + 1 < starts[p + 1]; ++i) EXPECT_EQ(segments[next++], i);
    }
    EXPECT_LE(written, maxRibbonPoints(*fx, 0));
    EXPECT_EQ(maxRibbonPoints(*fx, 0), 64u * 13u);
}

TEST(CpuTrails, EveryPointCarriesItsParticlesVelocityWhenAskedForVelocities) {
    EffectDesc desc = singleEmitterEffect(64);
    desc.emitters[0].spawn.bursts.push_back(burstAt(0, 20));
    desc.emitters[0].init.velocity = {{-2, -2, -2}, {2, 2, 2}};
    makeRibbon(desc.emitters[0], 12, 0.05f);
    auto fx = makeTrailEffect(desc);
    runTrailSteps(*fx, 40);
    // Kept as long as the points, an earlier batch's included.
    Strips s;
    std::vector<vec4> velocities(5, vec4(9));
    s.points.resize(5);
    const uint64_t written = writeRibbonStrips(*fx, 0, s.points, s.segments, &velocities);
    ASSERT_EQ(velocities.size(), s.points.size());
    EXPECT_EQ(velocities[4], vec4(9)) << "an earlier batch's velocity changed";
    // The points are those written without velocities; each polyline's points carry their
    // particle's velocity (a world-space effect: as stored), slot by slot.
    Strips plain;
    plain.points.resize(5);
    writeRibbonStrips(*fx, 0, plain.points, plain.segments);
    EXPECT_TRUE(sameBytes(s, plain));
    const ParticlePool& pool = fx->pools[0];
    uint32_t slot = 0;
    for (uint64_t i = 5; i < 5 + written; ++i) {
        if (vec3(s.points[i].position_width) == headOf(*fx, 0, slot + 1)) ++slot;
        ASSERT_LT(slot, pool.count);
        EXPECT_EQ(velocities[i],
                  vec4(pool.velocity_x[slot], pool.velocity_y[slot], pool.velocity_z[slot], 0.0f))
            << "point " << i << " of slot " << slot;
    }
    EXPECT_EQ(slot + 1, pool.count);
}

TEST(CpuTrails, NonRibbonEmittersWriteNoStrips) {
    EffectDesc desc = ribbonProjectile({1, 0, 0});
    desc.emitters[0].render = RenderDesc{};
    auto fx = makeTrailEffect(desc);
    runTrailSteps(*fx, 20);
    EXPECT_FALSE(hasTrails(fx->trails[0]));
    Strips s;
    EXPECT_EQ(writeRibbonStrips(*fx, 0, s.points, s.segments), 0u);
    EXPECT_EQ(writeRibbonStrips(*fx, 9, s.points, s.segments), 0u);
    EXPECT_TRUE(s.points.empty());
    EXPECT_TRUE(s.segments.empty());
    EXPECT_EQ(maxRibbonPoints(*fx, 0), 0u);
    EXPECT_EQ(maxRibbonPoints(*fx, 9), 0u);
}

TEST(CpuTrails, SteppingAndWritingStripsAllocateNothing) {
    auto fx = makeTrailEffect(busyRibbonEffect(), 2);
    Strips s;
    s.points.reserve(maxRibbonPoints(*fx, 0));
    s.segments.reserve(maxRibbonPoints(*fx, 0));
    runTrailSteps(*fx, 5); // warm up: thread start-up may allocate
    spindrift::test::armAllocationCounter();
    for (int i = 0; i < 60; ++i) {
        stepOnce(*fx);
        s.points.clear();
        s.segments.clear();
        writeRibbonStrips(*fx, 0, s.points, s.segments);
    }
    EXPECT_EQ(spindrift::test::disarmAllocationCounter(), 0u);
    EXPECT_GT(s.points.size(), 1000u);
}

// --- limits --------------------------------------------------------------------------------

// The compiler refuses such an effect (compile_effect_test); records that did not come through it
// are refused by the backend too.
TEST(CpuTrails, CreationRefusesTrailStoragePastTheLimit) {
    EffectDesc desc = singleEmitterEffect(1u << 17);
    makeRibbon(desc.emitters[0], kMaxRibbonPoints / 2, 0.05f); // 2^24 points: the limit
    auto past = std::make_shared<CompiledEffect>(*compileOrFail(desc));
    past->emitters[0].ribbon_max_points = kMaxRibbonPoints; // 2^25 points
    const std::shared_ptr<const CompiledEffect> compiled = past;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(checkCpuLimits(*compiled, diagnostics));
    diagnostics.clear();
    EXPECT_TRUE(createCpuEffect(compiled, CpuConfig{}, diagnostics) == nullptr);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].path, "$.emitters[0].render.max_points");
    EXPECT_NE(diagnostics[0].message.find("kMaxTrailPoints"), std::string::npos)
        << diagnostics[0].message;
    EXPECT_NE(diagnostics[0].message.find("33554432"), std::string::npos) << diagnostics[0].message;
    EXPECT_THROW(createCpuEffect(compiled, CpuConfig{}), std::length_error);

    desc.emitters[0].render.ribbon.max_points = 128; // exactly kMaxTrailPoints
    diagnostics.clear();
    EXPECT_TRUE(checkCpuLimits(*compileOrFail(desc), diagnostics));
    EXPECT_TRUE(diagnostics.empty());
}

// --- the shared kernels (src/kernels/ribbon.h) ----------------------------------------------

TEST(RibbonKernel, RecordsAtExactlyTheMinSampleDistance) {
    EXPECT_TRUE(sdRibbonShouldRecord(vec3(0.0f), vec3(0.25f, 0, 0), 0.25f));
    EXPECT_FALSE(sdRibbonShouldRecord(vec3(0.0f), vec3(0.2499f, 0, 0), 0.25f));
    EXPECT_TRUE(sdRibbonShouldRecord(vec3(1, 1, 1), vec3(1, 1.2f, 1.2f), 0.25f)); // 0.283 m
    EXPECT_FALSE(sdRibbonShouldRecord(vec3(1, 1, 1), vec3(1, 1, 1), 0.25f));
}

TEST(RibbonKernel, RingAppendsThenOverwritesTheOldest) {
    uint first = 0, count = 1;
    for (uint n = 2; n <= 4; ++n) {
        EXPECT_EQ(sdRibbonRingAppendEntry(first, count, 4), n - 1);
        const uvec2 r = sdRibbonRingAfterAppend(first, count, 4);
        first = r.x;
        count = r.y;
        EXPECT_EQ(count, n);
        EXPECT_EQ(first, 0u);
    }
    EXPECT_EQ(sdRibbonRingEntry(first, count, 4, 0), 3u); // newest
    EXPECT_EQ(sdRibbonRingEntry(first, count, 4, 3), 0u); // oldest
    EXPECT_EQ(sdRibbonRingAppendEntry(first, count, 4), 0u) << "full: over the oldest";
    const uvec2 r = sdRibbonRingAfterAppend(first, count, 4);
    EXPECT_EQ(r, uvec2(1, 4));
    EXPECT_EQ(sdRibbonRingEntry(r.x, r.y, 4, 0), 0u);
    EXPECT_EQ(sdRibbonRingEntry(r.x, r.y, 4, 3), 1u);
}

TEST(RibbonKernel, TangentAveragesAndFallsBackWhereUndefined) {
    const vec3 x(1, 0, 0), y(0, 1, 0);
    EXPECT_EQ(sdRibbonSegmentDirection(vec3(1, 2, 3), vec3(1, 2, 5)), vec3(0, 0, 1));
    EXPECT_EQ(sdRibbonSegmentDirection(vec3(1, 2, 3), vec3(1, 2, 3)), vec3(0.0f));
    const vec3 t = sdRibbonTangent(x, y);
    EXPECT_NEAR(t.x, std::sqrt(0.5), 1e-6);
    EXPECT_NEAR(t.y, std::sqrt(0.5), 1e-6);
    EXPECT_EQ(sdRibbonTangent(vec3(0.0f), y), y) << "head";
    EXPECT_EQ(sdRibbonTangent(x, vec3(0.0f)), x) << "tail";
    EXPECT_EQ(sdRibbonTangent(x, -x), -x) << "a hairpin takes the outgoing direction";
    EXPECT_EQ(sdRibbonTangent(vec3(0.0f), vec3(0.0f)), vec3(0.0f));
}

TEST(RibbonKernel, TaperAndUAlongTheTrail) {
    EXPECT_EQ(sdRibbonTrailFraction(0, 2), 0.0f);
    EXPECT_EQ(sdRibbonTrailFraction(2, 2), 1.0f);
    EXPECT_EQ(sdRibbonTrailFraction(0.5f, 2), 0.25f);
    EXPECT_EQ(sdRibbonTrailFraction(0, 0), 0.0f) << "a trail of no length";
    EXPECT_EQ(sdRibbonWidth(0.4f, 1, 0), 0.4f);
    EXPECT_EQ(sdRibbonWidth(0.4f, 1, 1), 0.0f);
    EXPECT_EQ(sdRibbonWidth(0.4f, 0.5f, 1), 0.2f);
    EXPECT_EQ(sdRibbonWidth(0.4f, 0, 1), 0.4f);
    EXPECT_EQ(sdRibbonU(0.5f, 2, 0), 0.25f);
    EXPECT_EQ(sdRibbonU(0.5f, 2, 3), 1.5f);
}

} // namespace
} // namespace spindrift::cpu
