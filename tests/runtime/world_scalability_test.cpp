// Scalability (runtime.h, "Scalability"; runtime/world_scalability.h): global spawn scale,
// quality tiers, distance sleep with its fade band and both wake policies, culling by the cull
// view, budgets that spare important instances, the spatial buckets, and retention of destroyed
// world-space instances.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "runtime/world_scalability.h"
#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// 1/64 s: a frame of this length is one whole step and sums of frames are exact, so a sleeper
// fast-forwarded over N frames can be compared bit for bit with a twin that never slept.
constexpr double kOneStepFrame = 1.0 / 64.0;

// A fountain (emitter 0, "water") with a cosmetic mist (emitter 1); `scalability` is the block.
std::string fountain(const std::string& scalability, const std::string& space = "world") {
    return R"({
  "version": 1, "name": "fountain", "seed": 5, "fixed_timestep_s": 0.015625,
  "space": ")" +
           space + R"(",
  "bounds": {"center": [0, 1, 0], "half_extents": [2, 2, 2]},
  "scalability": )" +
           scalability + R"(,
  "emitters": [
    {"name": "water", "capacity": 1024, "spawn": {"rate_per_s": 200},
     "shape": {"type": "sphere", "radius": 0.2},
     "init": {"lifetime_s": [1, 1.5], "speed": [2, 3], "size": [0.1, 0.1]},
     "update": [{"type": "gravity"}]},
    {"name": "mist", "capacity": 512, "cosmetic": true, "spawn": {"rate_per_s": 100},
     "shape": {"type": "sphere", "radius": 0.5},
     "init": {"lifetime_s": [1, 1], "speed": [0.2, 0.4], "size": [0.3, 0.3]}}
  ]
})";
}

// A path that holds the instance at `at` whatever the time (its transform stays at the origin).
class HoldAt final : public TransformPath {
public:
    explicit HoldAt(Vec3 at) : at_(at) {}
    Matrix3x4 worldFromEffectAt(double) const override {
        Matrix3x4 m;
        m.rows[0][3] = at_.x;
        m.rows[1][3] = at_.y;
        m.rows[2][3] = at_.z;
        return m;
    }

private:
    Vec3 at_;
};

class WorldScalabilityTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               (std::string("spindrift_scalability_") + info->name() + "_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    EffectId add(const std::string& text) {
        const fs::path path = dir_ / ("fx" + std::to_string(files_++) + ".json");
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        return library_.add(path.string());
    }
    InstanceHandle create(World& world, EffectId id, Vec3 at = {}, uint32_t flags = kPlayOnCreate) {
        InstanceDesc desc;
        desc.effect = id;
        desc.transform.position = at;
        desc.flags = flags;
        InstanceHandle h;
        EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
        return h;
    }
    static InstanceInfo info(const World& world, InstanceHandle h) {
        InstanceInfo i;
        EXPECT_EQ(world.info(h, i), RuntimeError::none);
        return i;
    }
    static std::vector<Particle> particles(World& world, InstanceHandle h) {
        std::vector<Particle> out;
        EXPECT_EQ(world.readParticles(h, out), RuntimeError::none);
        return out;
    }
    static void run(World& world, int frames) {
        for (int i = 0; i < frames; ++i) world.update(kOneStepFrame);
    }
    static uint64_t countOf(const std::vector<Particle>& ps, uint32_t emitter) {
        uint64_t n = 0;
        for (const Particle& p : ps) n += p.emitter_index == emitter ? 1 : 0;
        return n;
    }
    static DrawView viewAlongMinusZ() {
        DrawView v;
        v.eye = {0, 1, 10};
        v.forward = {0, 0, -1};
        return v;
    }
    static size_t batchesOf(World& world, InstanceHandle h) {
        DrawList list;
        EXPECT_EQ(world.drawList(viewAlongMinusZ(), list), RuntimeError::none);
        size_t n = 0;
        for (const DrawBatch& b : list.batches()) n += b.instance.value == h.value ? 1 : 0;
        return n;
    }

    fs::path dir_;
    int files_ = 0;
    EffectLibrary library_;
};

TEST_F(WorldScalabilityTest, SpawnScaleScalesEveryBirthAndRefusesBadValues) {
    const EffectId id = add(fountain("{}"));
    World full(library_), half(library_), none(library_);
    ASSERT_EQ(half.setSpawnScale(0.5f), RuntimeError::none);
    ASSERT_EQ(none.setSpawnScale(0.0f), RuntimeError::none);
    EXPECT_EQ(half.spawnScale(), 0.5f);
    const InstanceHandle a = create(full, id), b = create(half, id), c = create(none, id);
    run(full, 64);
    run(half, 64);
    run(none, 64);
    const double ratio =
        double(info(half, b).live_particles) / double(info(full, a).live_particles);
    EXPECT_NEAR(ratio, 0.5, 0.05);
    EXPECT_EQ(info(none, c).live_particles, 0u);
    for (float bad : {-1.0f, 2e6f, std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity()}) {
        EXPECT_EQ(full.setSpawnScale(bad), RuntimeError::invalid_argument) << bad;
        EXPECT_NE(full.lastErrorMessage().find("spawn scale"), std::string::npos);
    }
    EXPECT_EQ(full.spawnScale(), 1.0f);
}

TEST_F(WorldScalabilityTest, TheLowTierDropsCosmeticEmittersOnly) {
    const EffectId id = add(fountain("{}"));
    World high(library_), low(library_);
    EXPECT_EQ(high.qualityTier(), QualityTier::high);
    ASSERT_EQ(low.setQualityTier(QualityTier::low), RuntimeError::none);
    const InstanceHandle a = create(high, id), b = create(low, id);
    run(high, 32);
    run(low, 32);
    const std::vector<Particle> ph = particles(high, a), pl = particles(low, b);
    EXPECT_GT(countOf(ph, 1), 0u);
    EXPECT_EQ(countOf(pl, 1), 0u);
    EXPECT_EQ(countOf(ph, 0), countOf(pl, 0)); // the water is untouched
    // Back to medium: the mist spawns again.
    ASSERT_EQ(low.setQualityTier(QualityTier::medium), RuntimeError::none);
    run(low, 8);
    EXPECT_GT(countOf(particles(low, b), 1), 0u);
    EXPECT_EQ(low.setQualityTier(static_cast<QualityTier>(7)), RuntimeError::invalid_argument);
}

TEST_F(WorldScalabilityTest, AFarInstanceSleepsUnlookedAtAndDrawsNothing) {
    const EffectId id = add(fountain(R"({"sleep_distance_m": 100})"));
    World world(library_);
    const InstanceHandle near = create(world, id, {10, 0, 0});
    const InstanceHandle far = create(world, id, {500, 0, 0});
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_EQ(r.instances_asleep, 1u);
    EXPECT_EQ(r.instances_stepped, 1u);
    EXPECT_EQ(r.instances_examined, 1u); // the far one's cell is out of reach: never looked at
    EXPECT_TRUE(info(world, far).asleep);
    EXPECT_FALSE(info(world, near).asleep);
    run(world, 31);
    EXPECT_EQ(info(world, far).steps, 0u);
    EXPECT_EQ(info(world, near).steps, 32u);
    EXPECT_EQ(batchesOf(world, far), 0u);
    EXPECT_GT(batchesOf(world, near), 0u);
    // The camera comes: it wakes (fast-forward, the effect's default) and draws.
    ASSERT_EQ(world.setCameraPosition({480, 0, 0}), RuntimeError::none);
    const WorldUpdateReceipt woke = world.update(kOneStepFrame);
    EXPECT_EQ(woke.instances_woken, 1u);
    EXPECT_EQ(woke.fast_forward_steps, 32u);
    EXPECT_EQ(info(world, far).steps, 33u);
    EXPECT_TRUE(info(world, near).asleep); // now the first one is too far
    EXPECT_GT(batchesOf(world, far), 0u);
}

// A sleeper woken by fast-forward holds exactly the particles of a twin that never slept.
TEST_F(WorldScalabilityTest, FastForwardWakesExactlyAsIfNeverAsleep) {
    const EffectId id = add(fountain(R"({"sleep_distance_m": 100, "max_fast_forward_s": 4})"));
    World awake(library_), sleeper(library_);
    const InstanceHandle a = create(awake, id, {300, 0, 0});
    const InstanceHandle s = create(sleeper, id, {300, 0, 0});
    ASSERT_EQ(awake.setCameraPosition({300, 0, 10}), RuntimeError::none);
    run(awake, 20);
    run(sleeper, 20); // camera at the origin: asleep
    EXPECT_EQ(info(sleeper, s).steps, 0u);
    ASSERT_EQ(sleeper.setCameraPosition({300, 0, 10}), RuntimeError::none);
    run(awake, 100);
    run(sleeper, 100);
    EXPECT_EQ(info(sleeper, s).steps, info(awake, a).steps);
    const std::vector<Particle> pa = particles(awake, a), ps = particles(sleeper, s);
    ASSERT_EQ(pa.size(), ps.size());
    ASSERT_GT(pa.size(), 100u);
    for (size_t i = 0; i < pa.size(); ++i) {
        EXPECT_EQ(pa[i].key, ps[i].key);
        EXPECT_EQ(pa[i].position.x, ps[i].position.x);
        EXPECT_EQ(pa[i].position.y, ps[i].position.y);
        EXPECT_EQ(pa[i].velocity_m_per_s.y, ps[i].velocity_m_per_s.y);
    }
}

TEST_F(WorldScalabilityTest, ALongSleepRestartsAndRunsOnlyTheBoundedPart) {
    const EffectId id = add(fountain(R"({"sleep_distance_m": 100, "max_fast_forward_s": 0.5})"));
    World world(library_);
    const InstanceHandle h = create(world, id, {300, 0, 0});
    run(world, 192); // 3 s asleep
    ASSERT_EQ(world.setCameraPosition({300, 0, 0}), RuntimeError::none);
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_EQ(r.fast_forward_steps, 32u); // 0.5 s of 1/64 s steps, not 192
    EXPECT_EQ(info(world, h).steps, 33u);
}

TEST_F(WorldScalabilityTest, ARestartWakeStartsOver) {
    const EffectId id = add(fountain(R"({"sleep_distance_m": 100, "wake": "restart"})"));
    World world(library_);
    const InstanceHandle h = create(world, id, {0, 0, 0});
    run(world, 40);
    EXPECT_EQ(info(world, h).steps, 40u);
    ASSERT_EQ(world.setCameraPosition({1000, 0, 0}), RuntimeError::none);
    run(world, 10);
    EXPECT_TRUE(info(world, h).asleep);
    ASSERT_EQ(world.setCameraPosition({0, 0, 0}), RuntimeError::none);
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_EQ(r.instances_woken, 1u);
    EXPECT_EQ(r.fast_forward_steps, 0u);
    EXPECT_EQ(info(world, h).steps, 1u);
}

TEST_F(WorldScalabilityTest, APausedSleeperAccruesNoTime) {
    const EffectId id = add(fountain(R"({"sleep_distance_m": 100})"));
    World world(library_);
    const InstanceHandle h = create(world, id, {300, 0, 0});
    run(world, 10); // 10 frames asleep while playing
    ASSERT_EQ(world.pause(h), RuntimeError::none);
    run(world, 50);
    ASSERT_EQ(world.resume(h), RuntimeError::none);
    run(world, 5); // 5 more
    ASSERT_EQ(world.setCameraPosition({300, 0, 0}), RuntimeError::none);
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_EQ(r.fast_forward_steps, 15u);
    EXPECT_EQ(info(world, h).steps, 16u);
}

TEST_F(WorldScalabilityTest, BirthsFadeAcrossTheBand) {
    const EffectId id = add(fountain(R"({"sleep_distance_m": 100, "fade_band_m": 40})"));
    World world(library_);
    const InstanceHandle inside = create(world, id, {50, 0, 0}); // before the band
    const InstanceHandle middle = create(world, id, {0, 0, 80}); // half way through it
    run(world, 64);
    EXPECT_EQ(info(world, inside).birth_fade, 1.0f);
    EXPECT_FLOAT_EQ(info(world, middle).birth_fade, 0.5f);
    const double ratio =
        double(info(world, middle).live_particles) / double(info(world, inside).live_particles);
    EXPECT_NEAR(ratio, 0.5, 0.05);
    EXPECT_FLOAT_EQ(birthFade(100, 100, 40), 0.0f);
    EXPECT_FLOAT_EQ(birthFade(60, 100, 40), 1.0f);
    EXPECT_FLOAT_EQ(birthFade(1e9f, 0, 0), 1.0f); // no sleep distance: never fades
}

TEST_F(WorldScalabilityTest, CulledInstancesHideAndSimulateOrSleepPerEffect) {
    const EffectId simulate = add(fountain("{}"));
    const EffectId sleep = add(fountain(R"({"when_culled": "sleep"})"));
    World world(library_);
    const InstanceHandle seen = create(world, simulate, {0, 0, 0});
    const InstanceHandle behind = create(world, simulate, {0, 0, 40}); // behind the eye at z = 10
    const InstanceHandle behind_sleeps = create(world, sleep, {0, 0, 40});
    const DrawView view = viewAlongMinusZ();
    ASSERT_EQ(world.setCullView(&view), RuntimeError::none);
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_EQ(r.instances_culled, 2u);
    EXPECT_EQ(r.instances_asleep, 1u);
    run(world, 15);
    EXPECT_FALSE(info(world, seen).culled);
    EXPECT_TRUE(info(world, behind).culled);
    EXPECT_FALSE(info(world, behind).asleep);
    EXPECT_EQ(info(world, behind).steps, 16u); // keeps simulating
    EXPECT_TRUE(info(world, behind_sleeps).asleep);
    EXPECT_EQ(info(world, behind_sleeps).steps, 0u);
    EXPECT_GT(batchesOf(world, seen), 0u);
    EXPECT_EQ(batchesOf(world, behind), 0u);
    // A bounding sphere that reaches into the view is not culled: 2 m box corners reach z = 12.
    const InstanceHandle edge = create(world, simulate, {0, 0, 12.5f});
    world.update(kOneStepFrame);
    EXPECT_FALSE(info(world, edge).culled);
    // No cull view: nothing is culled, and the sleeper wakes.
    ASSERT_EQ(world.setCullView(nullptr), RuntimeError::none);
    world.update(kOneStepFrame);
    EXPECT_FALSE(info(world, behind).culled);
    EXPECT_FALSE(info(world, behind_sleeps).asleep);
    DrawView bad = view;
    bad.fov_y_deg = 0;
    EXPECT_EQ(world.setCullView(&bad), RuntimeError::invalid_argument);
}

TEST_F(WorldScalabilityTest, BudgetsSleepTheFarthestAndNeverTheImportant) {
    const EffectId id = add(fountain("{}"));
    World world(library_);
    std::vector<InstanceHandle> hs;
    for (float x : {10.0f, 20.0f, 30.0f, 40.0f}) hs.push_back(create(world, id, {x, 0, 0}));
    ASSERT_EQ(world.setImportant(hs[3], true), RuntimeError::none);
    WorldBudgets budgets;
    budgets.max_awake_instances = 2;
    ASSERT_EQ(world.setBudgets(budgets), RuntimeError::none);
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_EQ(r.asleep_by_budget, 2u);
    EXPECT_FALSE(info(world, hs[0]).asleep);
    EXPECT_TRUE(info(world, hs[1]).asleep);
    EXPECT_TRUE(info(world, hs[2]).asleep);
    EXPECT_FALSE(info(world, hs[3]).asleep); // the farthest, but important
    EXPECT_TRUE(info(world, hs[3]).important);
    // A particle budget: about two instances' worth after a second of spawning.
    budgets = {};
    run(world, 1);
    world.setBudgets(budgets);
    run(world, 64);
    const uint64_t one = info(world, hs[0]).live_particles;
    budgets.max_live_particles = one * 2 + one / 2;
    world.setBudgets(budgets);
    const WorldUpdateReceipt p = world.update(kOneStepFrame);
    EXPECT_EQ(p.asleep_by_budget, 2u); // 4 instances' particles fit 2.5 only after two sleep
    EXPECT_TRUE(info(world, hs[2]).asleep);
    EXPECT_FALSE(info(world, hs[3]).asleep);
}

// An instance that follows a path is culled, measured and bucketed where its path has put it, not
// at its own transform (which stays at the origin, in view and near the camera).
TEST_F(WorldScalabilityTest, PathFollowersAreJudgedWhereThePathPutsThem) {
    const EffectId simulate = add(fountain("{}"));
    const EffectId far_sleeps = add(fountain(R"({"sleep_distance_m": 100, "fade_band_m": 10})"));
    World world(library_);
    const HoldAt behind_eye({0, 0, 40}); // behind the eye at z = 10, looking down -z
    const HoldAt far_away({500, 0, 0});
    const InstanceHandle culled = create(world, simulate);
    const InstanceHandle asleep = create(world, far_sleeps);
    const InstanceHandle awake = create(world, far_sleeps);
    ASSERT_EQ(world.followPath(culled, &behind_eye), RuntimeError::none);
    ASSERT_EQ(world.followPath(asleep, &far_away), RuntimeError::none);
    const DrawView view = viewAlongMinusZ();
    ASSERT_EQ(world.setCullView(&view), RuntimeError::none);
    ASSERT_EQ(world.setCameraPosition({0, 1, 10}), RuntimeError::none);
    run(world, 4);
    EXPECT_TRUE(info(world, culled).culled);
    EXPECT_EQ(batchesOf(world, culled), 0u);
    EXPECT_TRUE(info(world, asleep).asleep);
    EXPECT_FALSE(info(world, awake).asleep);
    EXPECT_GT(batchesOf(world, awake), 0u);
    // Back on its own transform (the origin): in view, and near enough to wake.
    ASSERT_EQ(world.followPath(culled, nullptr), RuntimeError::none);
    ASSERT_EQ(world.followPath(asleep, nullptr), RuntimeError::none);
    run(world, 2);
    EXPECT_FALSE(info(world, culled).culled);
    EXPECT_FALSE(info(world, asleep).asleep);
}

TEST(SpatialBuckets, GathersTheCellsNearTheCameraAndFollowsMoves) {
    SpatialBuckets b;
    b.place(0, {0, 0, 0});
    b.place(1, {40, 0, 0});
    b.place(2, {1000, 0, 0});
    b.place(3, {0, 500, 10}); // height does not matter: cells are on the ground plane
    std::vector<uint32_t> out;
    b.gather({0, 0, 0}, 50, out);
    std::sort(out.begin(), out.end());
    EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 3}));
    b.place(2, {5, 0, 5});
    b.remove(1);
    out.clear();
    b.gather({0, 0, 0}, 10, out);
    std::sort(out.begin(), out.end());
    EXPECT_EQ(out, (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_FALSE(b.contains(1));
}

// 1,000 sleepers spread over 2 km: an update looks only at those in cells near the camera.
TEST_F(WorldScalabilityTest, AFramesCostFollowsWhatIsNearTheCamera) {
    const EffectId id = add(fountain(R"({"sleep_distance_m": 60})"));
    World world(library_);
    std::vector<InstanceHandle> hs;
    for (int i = 0; i < 1000; ++i) {
        const float x = float((i * 37) % 2000) - 1000.0f;
        const float z = float((i * 91) % 2000) - 1000.0f;
        hs.push_back(create(world, id, {x, 0, z}));
    }
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_LT(r.instances_examined, 60u); // a 5 x 5 cell window of a 63 x 63 cell field
    EXPECT_EQ(r.instances_stepped + r.instances_asleep, 1000u);
    EXPECT_GT(r.instances_asleep, 990u);
    // A moved instance moves its bucket: brought to the camera, it wakes.
    InstanceTransform t;
    t.position = {1, 0, 1};
    const InstanceHandle moved = hs[500];
    ASSERT_TRUE(info(world, moved).asleep || info(world, moved).transform.position.x < 60);
    ASSERT_EQ(world.setTransform(moved, t, true), RuntimeError::none);
    world.update(kOneStepFrame);
    EXPECT_FALSE(info(world, moved).asleep);
}

TEST_F(WorldScalabilityTest, DestroyedWorldSpaceParticlesFinishTheirLives) {
    const EffectId world_fx = add(fountain("{}", "world"));
    const EffectId local_fx = add(fountain("{}", "local"));
    World world(library_);
    const InstanceHandle w = create(world, world_fx, {0, 0, 0});
    const InstanceHandle l = create(world, local_fx, {0, 0, 0});
    const InstanceHandle cleared = create(world, world_fx, {0, 0, 0});
    run(world, 32);
    const uint64_t before = info(world, w).live_particles;
    ASSERT_GT(before, 0u);
    ASSERT_EQ(world.clear(cleared), RuntimeError::none); // clear first: nothing to keep
    ASSERT_EQ(world.destroy(cleared), RuntimeError::none);
    ASSERT_EQ(world.destroy(w), RuntimeError::none);
    ASSERT_EQ(world.destroy(l), RuntimeError::none);
    EXPECT_FALSE(world.isAlive(w)); // the handle is stale at once
    EXPECT_EQ(world.stats().instances_retained, 1u);
    const WorldUpdateReceipt r = world.update(kOneStepFrame);
    EXPECT_EQ(r.instances, 0u);
    EXPECT_EQ(r.retained_instances, 1u);
    EXPECT_GT(r.retained_particles, 0u);
    EXPECT_LE(r.retained_particles, before); // no births any more
    EXPECT_EQ(r.live_particles, r.retained_particles);
    EXPECT_GT(batchesOf(world, w), 0u); // still drawn, under its old handle
    run(world, 100);                    // the longest life is 1.5 s
    const WorldUpdateReceipt done = world.update(kOneStepFrame);
    EXPECT_EQ(done.retained_instances, 0u);
    EXPECT_EQ(done.live_particles, 0u);
    EXPECT_EQ(batchesOf(world, w), 0u);
    // The kept instance went back to the effect's recycled ones: the next create reuses it.
    const uint64_t recycled = world.stats().instances_recycled;
    create(world, world_fx);
    EXPECT_EQ(world.stats().instances_recycled, recycled + 1);
}

// The draw list carries each instance's tint and size scale (copies; the plain twin's batch is
// the instance's own records, unchanged).
TEST_F(WorldScalabilityTest, TheDrawListAppliesTintAndSizeScale) {
    const EffectId id = add(fountain("{}"));
    World world(library_);
    const InstanceHandle plain = create(world, id, {0, 0, 0});
    const InstanceHandle tinted = create(world, id, {0, 0, 0});
    ASSERT_EQ(world.setTint(tinted, {0.5f, 1, 0.25f, 1}), RuntimeError::none);
    ASSERT_EQ(world.setSizeScale(tinted, 2), RuntimeError::none);
    run(world, 16);
    DrawList list;
    ASSERT_EQ(world.drawList(viewAlongMinusZ(), list), RuntimeError::none);
    const DrawBatch* a = nullptr;
    const DrawBatch* b = nullptr;
    for (const DrawBatch& batch : list.batches()) {
        if (batch.emitter_index != 0) continue;
        if (batch.instance.value == plain.value) a = &batch;
        if (batch.instance.value == tinted.value) b = &batch;
    }
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(a->particles.size(), b->particles.size());
    ASSERT_GT(a->particles.size(), 0u);
    for (size_t i = 0; i < a->particles.size(); ++i) {
        EXPECT_EQ(b->particles[i].size_m, a->particles[i].size_m * 2);
        EXPECT_EQ(b->particles[i].color.r, a->particles[i].color.r * 0.5f);
        EXPECT_EQ(b->particles[i].color.g, a->particles[i].color.g);
        EXPECT_EQ(b->particles[i].color.b, a->particles[i].color.b * 0.25f);
    }
}

// Draw records written in the update's step jobs are reused by every view, but never once the
// state moved: a teleported local-space instance is listed at its new place with no update.
TEST_F(WorldScalabilityTest, ReusedDrawRecordsFollowEveryChangeOfState) {
    const EffectId id = add(fountain("{}", "local"));
    World world(library_);
    const InstanceHandle h = create(world, id, {0, 0, 0});
    run(world, 16);
    auto firstPosition = [&]() {
        DrawList list;
        EXPECT_EQ(world.drawList(viewAlongMinusZ(), list), RuntimeError::none);
        for (const DrawBatch& b : list.batches())
            if (b.instance.value == h.value && !b.particles.empty()) return b.particles[0].position;
        ADD_FAILURE() << "no particles";
        return Vec3{};
    };
    const Vec3 a = firstPosition();
    const Vec3 again = firstPosition(); // a second view of the same state
    EXPECT_EQ(a.x, again.x);
    InstanceTransform moved;
    moved.position = {10, 0, 0};
    ASSERT_EQ(world.setTransform(h, moved, true), RuntimeError::none);
    const Vec3 b = firstPosition();
    EXPECT_NEAR(b.x, a.x + 10, 1e-4);
    EXPECT_EQ(b.y, a.y);
    ASSERT_EQ(world.seek(h, 0.5), RuntimeError::none); // a replay rewrites them too
    EXPECT_EQ(particles(world, h).size(), info(world, h).live_particles);
}

TEST_F(WorldScalabilityTest, AScalabilityBlockIsValidatedWithItsPlace) {
    const EffectId bad = add(fountain(R"({"sleep_distance_m": 10, "fade_band_m": 20})"));
    const EffectId unknown = add(fountain(R"({"wake": "later"})"));
    World world(library_);
    InstanceDesc desc;
    desc.effect = bad;
    InstanceHandle h;
    EXPECT_EQ(world.create(desc, h), RuntimeError::effect_failed);
    EXPECT_NE(world.lastErrorMessage().find("fade band no wider than sleep_distance_m"),
              std::string::npos)
        << world.lastErrorMessage();
    desc.effect = unknown;
    EXPECT_EQ(world.create(desc, h), RuntimeError::effect_failed);
    EXPECT_NE(world.lastErrorMessage().find("fast_forward, restart"), std::string::npos)
        << world.lastErrorMessage();
    EXPECT_NE(world.lastErrorMessage().find(":"), std::string::npos); // file:line:col
}

} // namespace
} // namespace spindrift
