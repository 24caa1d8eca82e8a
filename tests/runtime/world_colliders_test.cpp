// The host-fed world (runtime.h, "Host-fed world"): the level's colliders of every shape and a
// distance field, collision groups, bad input, and the same collisions on the GPU backend.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "runtime/simulation_device.h"
#include "spindrift/runtime.h"
#include "world_frame.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// Rain: point particles born in a 4 x 4 m square at y = 3, falling under gravity, stuck where a
// world collider of the groups in the mask stops them.
std::string rainEffect(const std::string& collision) {
    return R"({
  "version": 1,
  "name": "rain",
  "seed": 11,
  "emitters": [
    {"name": "drops", "capacity": 2048, "transform": {"position": [0, 3, 0]},
     "spawn": {"rate_per_s": 400},
     "shape": {"type": "box", "size": [4, 0, 4]},
     "init": {"lifetime_s": [3, 3], "speed": 0, "size": [0.1, 0.1]},
     "update": [{"type": "gravity"},
                {"type": "collision", "response": "stick", "radius_scale": 0)" +
           collision + R"(}]}
  ]
})";
}

using test::kFrame;

class WorldCollidersTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               (std::string("spindrift_colliders_") + info->name() + "_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    EffectId add(EffectLibrary& library, const std::string& collision) {
        const fs::path path = dir_ / ("rain" + std::to_string(files_++) + ".json");
        std::ofstream(path, std::ios::binary | std::ios::trunc) << rainEffect(collision);
        return library.add(path.string());
    }
    fs::path dir_;
    int files_ = 0;
};

// 1.5 s of rain: drops born at y = 3 have fallen up to ~11 m, far through the ground without it.
std::vector<Particle> rainFor(World& world, EffectId id, double seconds = 1.5) {
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h;
    EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    for (int i = 0; i < int(seconds / kFrame); ++i) world.update(kFrame);
    std::vector<Particle> out;
    EXPECT_EQ(world.readParticles(h, out), RuntimeError::none);
    return out;
}

float lowest(const std::vector<Particle>& ps) {
    float y = std::numeric_limits<float>::infinity();
    for (const Particle& p : ps) y = std::min(y, p.position.y);
    return y;
}

// Rotation by angle about +X, +Z: quaternions.
Quat aboutX(float rad) {
    return {std::sin(rad / 2), 0, 0, std::cos(rad / 2)};
}
Quat aboutZ(float rad) {
    return {0, 0, std::sin(rad / 2), std::cos(rad / 2)};
}

TEST_F(WorldCollidersTest, WithoutCollidersRainFallsThroughAndAPlaneStopsIt) {
    EffectLibrary library;
    const EffectId id = add(library, R"(, "world_colliders": true)");
    World open(library);
    EXPECT_LT(lowest(rainFor(open, id)), -3.0f);
    World ground(library);
    WorldCollider plane;
    plane.shape = ColliderShape::plane;
    plane.position = {0, 0.5f, 0};
    ASSERT_EQ(ground.setColliders(&plane, 1), RuntimeError::none);
    EXPECT_EQ(ground.colliderCount(), 1u);
    const std::vector<Particle> ps = rainFor(ground, id);
    ASSERT_GT(ps.size(), 300u);
    EXPECT_GE(lowest(ps), 0.5f - 1e-4f);
    // The drops that reached it are stuck on it.
    size_t stuck = 0;
    for (const Particle& p : ps) stuck += std::fabs(p.position.y - 0.5f) < 1e-4f;
    EXPECT_GT(stuck, 100u);
}

TEST_F(WorldCollidersTest, AnEffectWithoutWorldCollidersIgnoresThem) {
    EffectLibrary library;
    const EffectId id = add(library, "");
    World world(library);
    WorldCollider plane;
    ASSERT_EQ(world.setColliders(&plane, 1), RuntimeError::none);
    EXPECT_LT(lowest(rainFor(world, id)), -3.0f);
}

// Each shape under the rain: a drop above its footprint never ends inside it.
TEST_F(WorldCollidersTest, EveryShapeKeepsTheRainOut) {
    EffectLibrary library;
    const EffectId id = add(library, R"(, "world_colliders": true)");

    WorldCollider box;
    box.shape = ColliderShape::box;
    box.rotation = aboutZ(0.3f); // a tilted slab covering the square
    box.half_extents = {4, 0.25f, 4};
    WorldCollider capsule;
    capsule.shape = ColliderShape::capsule;
    capsule.rotation = aboutZ(1.5707964f); // lying along X
    capsule.radius = 0.6f;
    capsule.half_height = 1.5f;
    WorldCollider cylinder;
    cylinder.shape = ColliderShape::cylinder;
    cylinder.radius = 1.0f;
    cylinder.half_height = 0.5f;
    WorldCollider sphere;
    sphere.shape = ColliderShape::sphere;
    sphere.radius = 1.0f;

    struct Case {
        const char* name;
        WorldCollider collider;
        // Whether a point is inside the solid (with 1 mm of slack).
        bool (*inside)(const Vec3&);
    };
    const Case cases[] = {
        {"box", box,
         [](const Vec3& p) {
             // Into the slab's frame: rotate by -0.3 about Z.
             const float c = std::cos(0.3f), s = std::sin(0.3f);
             const float y = -s * p.x + c * p.y;
             const float x = c * p.x + s * p.y;
             return std::fabs(y) < 0.25f - 1e-3f && std::fabs(x) < 4 - 1e-3f &&
                    std::fabs(p.z) < 4 - 1e-3f;
         }},
        {"capsule", capsule,
         [](const Vec3& p) {
             const float x = std::clamp(p.x, -1.5f, 1.5f);
             return std::hypot(p.x - x, p.y, p.z) < 0.6f - 1e-3f;
         }},
        {"cylinder", cylinder,
         [](const Vec3& p) {
             return std::hypot(p.x, p.z) < 1 - 1e-3f && std::fabs(p.y) < 0.5f - 1e-3f;
         }},
        {"sphere", sphere, [](const Vec3& p) { return std::hypot(p.x, p.y, p.z) < 1 - 1e-3f; }},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        World world(library);
        ASSERT_EQ(world.setColliders(&c.collider, 1), RuntimeError::none)
            << world.lastErrorMessage();
        const std::vector<Particle> ps = rainFor(world, id);
        size_t resting = 0, inside = 0;
        for (const Particle& p : ps) {
            inside += c.inside(p.position);
            resting += p.velocity_m_per_s.y == 0 && p.position.y < 2.9f;
        }
        EXPECT_EQ(inside, 0u);
        EXPECT_GT(resting, 20u); // some drops landed on it and stuck
    }
}

// A heightfield: a ramp rising along X from 0 to 2 m; every drop over it stays above it.
TEST_F(WorldCollidersTest, HeightfieldKeepsTheRainAboveTheGround) {
    EffectLibrary library;
    const EffectId id = add(library, R"(, "world_colliders": true)");
    std::vector<float> heights(5 * 3);
    for (uint32_t z = 0; z < 3; ++z) {
        for (uint32_t x = 0; x < 5; ++x) heights[z * 5 + x] = 0.5f * float(x);
    }
    WorldCollider ground;
    ground.shape = ColliderShape::heightfield;
    ground.position = {-2, 0, -2}; // covers x, z in [-2, 2]
    ground.heights = heights.data();
    ground.columns = 5;
    ground.rows = 3;
    ground.cell_size_x = 1;
    ground.cell_size_z = 2;
    World world(library);
    ASSERT_EQ(world.setColliders(&ground, 1), RuntimeError::none) << world.lastErrorMessage();
    heights.assign(heights.size(), 100.0f); // the world copied them
    const std::vector<Particle> ps = rainFor(world, id);
    size_t over = 0, landed = 0;
    for (const Particle& p : ps) {
        if (p.position.x <= -2 || p.position.x >= 2 || p.position.z <= -2 || p.position.z >= 2)
            continue;
        ++over;
        const float surface = 0.5f * (p.position.x + 2);
        EXPECT_GE(p.position.y, surface - 1e-3f) << p.position.x;
        landed += std::fabs(p.position.y - surface) < 0.02f;
    }
    EXPECT_GT(over, 300u);
    EXPECT_GT(landed, 100u);
}

TEST_F(WorldCollidersTest, GroupsDecideWhichCollidersAnEmitterMeets) {
    EffectLibrary library;
    const EffectId mask1 = add(library, R"(, "world_colliders": true, "collision_mask": 1)");
    const EffectId mask6 = add(library, R"(, "world_colliders": true, "collision_mask": 6)");
    WorldCollider plane;
    plane.groups = 4; // group 2
    World world1(library);
    ASSERT_EQ(world1.setColliders(&plane, 1), RuntimeError::none);
    EXPECT_LT(lowest(rainFor(world1, mask1)), -3.0f); // no shared group: falls through
    World world6(library);
    ASSERT_EQ(world6.setColliders(&plane, 1), RuntimeError::none);
    EXPECT_GE(lowest(rainFor(world6, mask6)), -1e-4f);
}

// The distance field (CPU): a floor at y = 1 given as a signed distance; the world calls it.
std::atomic<uint64_t> g_samples{0};
float floorAtOne(Vec3 p, Vec3* gradient, void* user) {
    g_samples.fetch_add(1, std::memory_order_relaxed);
    *gradient = {0, 2, 0}; // any length
    return p.y - *static_cast<const float*>(user);
}

TEST_F(WorldCollidersTest, DistanceFieldIsOneMoreContactOnTheCpu) {
    EffectLibrary library;
    const EffectId id = add(library, R"(, "world_colliders": true)");
    float floor_y = 1.0f;
    World world(library);
    ASSERT_EQ(world.setDistanceField(&floorAtOne, &floor_y), RuntimeError::none);
    g_samples = 0;
    const std::vector<Particle> ps = rainFor(world, id);
    EXPECT_GT(g_samples.load(), 1000u);
    EXPECT_GE(lowest(ps), 1.0f - 1e-4f);
    // Cleared: the rain falls through again.
    ASSERT_EQ(world.setDistanceField(nullptr, nullptr), RuntimeError::none);
    World again(library);
    EXPECT_LT(lowest(rainFor(again, id)), -3.0f);
    // Groups it does not share with the emitter's mask: not sampled.
    const EffectId other = add(library, R"(, "world_colliders": true, "collision_mask": 1)");
    World apart(library);
    ASSERT_EQ(apart.setDistanceField(&floorAtOne, &floor_y, 2), RuntimeError::none);
    g_samples = 0;
    EXPECT_LT(lowest(rainFor(apart, other)), -3.0f);
    EXPECT_EQ(g_samples.load(), 0u);
}

// The linear depth of the plane y = floor_y as a camera at (0, 8, 8) looking at the origin sees
// it, 96 x 64 pixels, 60 degrees vertically; kNoSceneDepth above the horizon.
SceneDepth floorDepth(float floor_y, std::vector<float>& samples) {
    SceneDepth d;
    d.width = 96;
    d.height = 64;
    d.eye = {0, 8, 8};
    const float s = 1.0f / std::sqrt(2.0f);
    d.forward = {0, -s, -s};
    d.up = {0, s, -s};
    d.vertical_fov_rad = 1.0471976f;
    d.near_m = 0.1f;
    const float tan_y = std::tan(d.vertical_fov_rad / 2);
    const float tan_x = tan_y * 96.0f / 64.0f;
    samples.assign(96 * 64, kNoSceneDepth);
    for (uint32_t y = 0; y < d.height; ++y) {
        for (uint32_t x = 0; x < d.width; ++x) {
            const float nx = (float(x) + 0.5f) / 96.0f * 2 - 1;
            const float ny = (float(y) + 0.5f) / 64.0f * 2 - 1;
            // ray = forward + right nx tan_x - up ny tan_y; right = (1, 0, 0)
            const float ray_y = d.forward.y - d.up.y * ny * tan_y;
            (void)nx;
            (void)tan_x;
            if (ray_y < 0) samples[y * 96 + x] = (floor_y - d.eye.y) / ray_y;
        }
    }
    d.samples = samples.data();
    return d;
}

// depth_buffer meets the scene depth the host gives (here a floor at y = 1 the rain cannot see
// otherwise), on the CPU backend; cleared, the rain falls through; the receipt counts a step
// that had none.
TEST_F(WorldCollidersTest, DepthBufferMeetsTheSceneDepthTheHostGives) {
    EffectLibrary library;
    const EffectId id = add(library, R"(, "depth_buffer": true)");
    std::vector<float> samples;
    World world(library);
    ASSERT_EQ(world.setSceneDepth(floorDepth(1.0f, samples)), RuntimeError::none)
        << world.lastErrorMessage();
    samples.assign(samples.size(), 0.0f); // copied: the host's array may change
    const std::vector<Particle> ps = rainFor(world, id);
    ASSERT_GT(ps.size(), 300u);
    EXPECT_GE(lowest(ps), 1.0f - 1e-3f);
    size_t stuck = 0;
    for (const Particle& p : ps) stuck += std::fabs(p.position.y - 1.0f) < 1e-3f;
    EXPECT_GT(stuck, 100u);
    EXPECT_EQ(world.update(kFrame).depth_collisions_unfed, 0u);
    world.clearSceneDepth();
    EXPECT_EQ(world.update(kFrame).depth_collisions_unfed, 1u);
    World open(library);
    EXPECT_LT(lowest(rainFor(open, id)), -3.0f);
    // A thinner surface than a drop falls in one step lets the fastest through: thickness is the
    // op's (depth_thickness).
    const EffectId thin = add(library, R"(, "depth_buffer": true, "depth_thickness": 0.01)");
    World through(library);
    ASSERT_EQ(through.setSceneDepth(floorDepth(1.0f, samples)), RuntimeError::none);
    EXPECT_LT(lowest(rainFor(through, thin)), 0.5f);
}

// A renderer's host sets and clears the scene depth every frame: that makes the seek checkpoints
// of the instances meeting it wrong, and only theirs. After the set and clear, a seek back on an
// instance without depth_buffer resumes from its checkpoint; one with it replays from time 0.
// (Before, every instance of the world replayed from 0 after each frame's depth.)
TEST_F(WorldCollidersTest, ASceneDepthDropsOnlyTheCheckpointsOfItsUsers) {
    EffectLibrary library;
    const EffectId plain = add(library, R"(, "world_colliders": true)");
    const EffectId depth = add(library, R"(, "depth_buffer": true)");
    WorldConfig config;
    config.seek_checkpoint_interval_steps = 30;
    World world(library, config);
    InstanceHandle a, b;
    InstanceDesc desc;
    desc.effect = plain;
    ASSERT_EQ(world.create(desc, a), RuntimeError::none) << world.lastErrorMessage();
    desc.effect = depth;
    ASSERT_EQ(world.create(desc, b), RuntimeError::none) << world.lastErrorMessage();
    std::vector<float> samples;
    ASSERT_EQ(world.setSceneDepth(floorDepth(1.0f, samples)), RuntimeError::none);
    for (InstanceHandle h : {a, b}) ASSERT_EQ(world.seek(h, 2.0), RuntimeError::none);
    ASSERT_EQ(world.setSceneDepth(floorDepth(1.0f, samples)), RuntimeError::none);
    world.clearSceneDepth();
    for (InstanceHandle h : {a, b}) ASSERT_EQ(world.seek(h, 1.2), RuntimeError::none);
    SeekCost cost;
    ASSERT_EQ(world.lastSeekCost(a, cost), RuntimeError::none);
    EXPECT_EQ(cost.origin, SeekOrigin::checkpoint);
    EXPECT_GT(cost.resumed_from_step, 0u);
    ASSERT_EQ(world.lastSeekCost(b, cost), RuntimeError::none);
    EXPECT_EQ(cost.origin, SeekOrigin::start);
    EXPECT_EQ(cost.steps_replayed, cost.target_step);
    // A collider change is every colliding instance's: both replay.
    for (InstanceHandle h : {a, b}) ASSERT_EQ(world.seek(h, 2.0), RuntimeError::none);
    WorldCollider ground;
    ASSERT_EQ(world.setColliders(&ground, 1), RuntimeError::none);
    ASSERT_EQ(world.seek(a, 1.2), RuntimeError::none);
    ASSERT_EQ(world.lastSeekCost(a, cost), RuntimeError::none);
    EXPECT_EQ(cost.origin, SeekOrigin::start);
}

// Without a scene depth, depth_buffer meets the host's colliders (as world_colliders does).
TEST_F(WorldCollidersTest, DepthBufferWithoutASceneDepthMeetsTheColliders) {
    EffectLibrary library;
    const EffectId id = add(library, R"(, "depth_buffer": true)");
    World world(library);
    WorldCollider plane;
    ASSERT_EQ(world.setColliders(&plane, 1), RuntimeError::none);
    EXPECT_GE(lowest(rainFor(world, id)), -1e-4f);
}

TEST_F(WorldCollidersTest, BadSceneDepthIsRefusedAndTheOldStays) {
    EffectLibrary library;
    const EffectId id = add(library, R"(, "depth_buffer": true)");
    World world(library);
    std::vector<float> samples;
    ASSERT_EQ(world.setSceneDepth(floorDepth(1.0f, samples)), RuntimeError::none);
    const auto refused = [&](SceneDepth d, const std::string& message) {
        EXPECT_EQ(world.setSceneDepth(d), RuntimeError::invalid_argument) << message;
        EXPECT_EQ(world.lastErrorMessage(), message);
    };
    std::vector<float> bad;
    SceneDepth d = floorDepth(1.0f, bad);
    bad[5] = std::numeric_limits<float>::quiet_NaN();
    refused(d, "scene depth sample 5 (row 0, column 5) is NaN: a depth is positive");
    bad[5] = 1.0f;
    bad[96 * 2 + 1] = -2.0f;
    refused(d, "scene depth sample 193 (row 2, column 1) is -2.000000: a depth is positive");
    d = floorDepth(1.0f, bad);
    d.width = 0;
    refused(d, "scene depth size 0x64 is not within 1..8192 on each side");
    d = floorDepth(1.0f, bad);
    d.width = 8192;
    d.height = 8192;
    refused(d, "scene depth of 67108864 samples is over 16777216");
    d = floorDepth(1.0f, bad);
    d.forward = {0, 0, -2};
    refused(d, "scene depth forward is not a unit vector");
    d = floorDepth(1.0f, bad);
    d.up = {0, 0, -1};
    refused(d, "scene depth up is not perpendicular to forward");
    d = floorDepth(1.0f, bad);
    d.eye.x = std::numeric_limits<float>::infinity();
    refused(d, "scene depth eye is not finite");
    d = floorDepth(1.0f, bad);
    d.vertical_fov_rad = 3.2f;
    refused(d, "scene depth vertical_fov_rad is not in (0, pi)");
    d = floorDepth(1.0f, bad);
    d.near_m = 0;
    refused(d, "scene depth near_m is not a positive finite number");
    d = floorDepth(1.0f, bad);
    d.samples = nullptr;
    refused(d, "scene depth samples is null");
    // The floor given first still holds.
    EXPECT_GE(lowest(rainFor(world, id)), 1.0f - 1e-3f);
}

TEST_F(WorldCollidersTest, BadCollidersAreRefusedAndTheOldSetStays) {
    EffectLibrary library;
    World world(library);
    WorldCollider good;
    ASSERT_EQ(world.setColliders(&good, 1), RuntimeError::none);
    WorldCollider list[2];
    list[1].position.y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    EXPECT_EQ(world.lastErrorMessage(), "collider 1: position is not finite");
    list[1] = WorldCollider{};
    list[1].rotation = {0, 0, 0, 0};
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    EXPECT_EQ(world.lastErrorMessage(), "collider 1: rotation is a zero quaternion");
    list[1] = WorldCollider{};
    list[1].groups = 1u << 24;
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    list[1] = WorldCollider{};
    list[1].shape = ColliderShape::box;
    list[1].half_extents.z = 0;
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    EXPECT_EQ(world.lastErrorMessage(), "collider 1: half_extents must be finite and > 0");
    list[1] = WorldCollider{};
    list[1].shape = ColliderShape::cylinder;
    list[1].radius = std::numeric_limits<float>::infinity();
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    list[1] = WorldCollider{};
    list[1].shape = ColliderShape::heightfield;
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    EXPECT_EQ(world.lastErrorMessage(), "collider 1: heights is null");
    std::vector<float> heights(65 * 2, 0.0f);
    list[1].heights = heights.data();
    list[1].columns = 65;
    list[1].rows = 2;
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    list[1].columns = 2;
    heights[3] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(world.setColliders(list, 2), RuntimeError::invalid_argument);
    EXPECT_EQ(world.lastErrorMessage(), "collider 1: heights[3] is not finite");
    // Too many, in count and in records (a 64 x 32 heightfield takes 1 + 128 records).
    std::vector<WorldCollider> many(kMaxWorldColliders + 1);
    EXPECT_EQ(world.setColliders(many.data(), uint32_t(many.size())),
              RuntimeError::capacity_exceeded);
    std::vector<float> big(64 * 64, 0.0f);
    WorldCollider field;
    field.shape = ColliderShape::heightfield;
    field.heights = big.data();
    field.columns = 64;
    field.rows = 32;
    const WorldCollider fields[4] = {field, field, field, field};
    EXPECT_EQ(world.setColliders(fields, 3), RuntimeError::none);
    EXPECT_EQ(world.setColliders(fields, 4), RuntimeError::invalid_argument);
    EXPECT_NE(world.lastErrorMessage().find("at most 512"), std::string::npos);
    EXPECT_EQ(world.colliderCount(), 3u);
    EXPECT_EQ(world.setColliders(nullptr, 1), RuntimeError::invalid_argument);
    EXPECT_EQ(world.setColliders(nullptr, 0), RuntimeError::none);
    EXPECT_EQ(world.colliderCount(), 0u);
    EXPECT_EQ(world.setDistanceField(&floorAtOne, nullptr, 0), RuntimeError::invalid_argument);
}

// The GPU backend reads the same resolved colliders: the same drops stop at the same places.
TEST_F(WorldCollidersTest, GpuCollidesWithTheWorldLikeTheCpu) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    EffectLibrary library;
    const EffectId id = add(library, R"(, "world_colliders": true)");
    std::vector<float> heights = {0, 0.5f, 1, 0.2f, 0.7f, 1.2f};
    WorldCollider colliders[3];
    colliders[0].shape = ColliderShape::box;
    colliders[0].position = {1, 1, 0};
    colliders[0].rotation = aboutX(0.4f);
    colliders[0].half_extents = {0.5f, 0.3f, 0.8f};
    colliders[1].shape = ColliderShape::capsule;
    colliders[1].position = {-1, 0.8f, 1};
    colliders[1].radius = 0.4f;
    colliders[2].shape = ColliderShape::heightfield;
    colliders[2].position = {-2, -0.5f, -2};
    colliders[2].heights = heights.data();
    colliders[2].columns = 3;
    colliders[2].rows = 2;
    colliders[2].cell_size_x = 2;
    colliders[2].cell_size_z = 4;
    WorldConfig gpu_config;
    gpu_config.backend = SimulationBackend::gpu;
    World gpu(library, gpu_config);
    World cpu(library);
    for (World* w : {&gpu, &cpu}) ASSERT_EQ(w->setColliders(colliders, 3), RuntimeError::none);
    const std::vector<Particle> pg = rainFor(gpu, id, 1.0);
    const std::vector<Particle> pc = rainFor(cpu, id, 1.0);
    ASSERT_EQ(pg.size(), pc.size());
    ASSERT_GT(pc.size(), 300u);
    // Match by key (order may differ); positions agree to float rounding.
    std::vector<const Particle*> by_key(1u << 16, nullptr);
    size_t matched = 0;
    for (const Particle& p : pc) by_key[p.key & 0xffffu] = &p;
    for (const Particle& p : pg) {
        const Particle* q = by_key[p.key & 0xffffu];
        if (q == nullptr || q->key != p.key) continue;
        ++matched;
        EXPECT_NEAR(p.position.x, q->position.x, 1e-3f);
        EXPECT_NEAR(p.position.y, q->position.y, 1e-3f);
        EXPECT_NEAR(p.position.z, q->position.z, 1e-3f);
    }
    EXPECT_GT(matched, pc.size() / 2);
    EXPECT_GE(lowest(pg), -0.5f - 1e-3f);
}

// Still particles in a 2 m square around the origin, pulled by the host's attractors.
constexpr const char* kDust = R"({
  "version": 1,
  "name": "dust",
  "seed": 2,
  "emitters": [
    {"name": "motes", "capacity": 256, "spawn": {"rate_per_s": 0, "bursts": [{"time_s": 0, "count": 100}]},
     "shape": {"type": "box", "size": [2, 2, 2]},
     "init": {"lifetime_s": [5, 5], "speed": 0},
     "update": [{"type": "world_attractors"MODULE}]}
  ]
})";

std::string dust(const std::string& module_fields) {
    std::string text = kDust;
    text.replace(text.find("MODULE"), 6, module_fields);
    return text;
}

// Mean x of the particles after `seconds`.
double meanX(World& world, EffectId id, double seconds, WorldUpdateReceipt* last = nullptr) {
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h;
    EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    for (int i = 0; i < int(seconds / kFrame); ++i) {
        const WorldUpdateReceipt r = world.update(kFrame);
        if (last != nullptr) *last = r;
    }
    std::vector<Particle> ps;
    EXPECT_EQ(world.readParticles(h, ps), RuntimeError::none);
    EXPECT_EQ(ps.size(), 100u);
    double sum = 0;
    for (const Particle& p : ps) sum += p.position.x;
    return ps.empty() ? 0 : sum / double(ps.size());
}

class WorldAttractorsTest : public WorldCollidersTest {
protected:
    EffectId addDust(EffectLibrary& library, const std::string& module_fields) {
        const fs::path path = dir_ / ("dust" + std::to_string(files_++) + ".json");
        std::ofstream(path, std::ios::binary | std::ios::trunc) << dust(module_fields);
        return library.add(path.string());
    }
};

TEST_F(WorldAttractorsTest, AttractorsPullAndTheMaskAndScaleApply) {
    EffectLibrary library;
    const EffectId plain = addDust(library, "");
    const EffectId repelled = addDust(library, R"(, "strength_scale": -1)");
    const EffectId masked = addDust(library, R"(, "attractor_mask": 2)");
    WorldAttractor magnet;
    magnet.position = {6, 0, 0};
    magnet.strength = 20;
    magnet.radius = 20;
    World none(library);
    EXPECT_NEAR(meanX(none, plain, 0.5), 0.0, 0.2); // no attractors: still
    World pulled(library);
    ASSERT_EQ(pulled.setAttractors(&magnet, 1), RuntimeError::none);
    WorldUpdateReceipt receipt;
    EXPECT_GT(meanX(pulled, plain, 0.5, &receipt), 1.0);
    EXPECT_EQ(receipt.attractors_active, 1u);
    EXPECT_EQ(receipt.attractors_dropped, 0u);
    World pushed(library);
    ASSERT_EQ(pushed.setAttractors(&magnet, 1), RuntimeError::none);
    EXPECT_LT(meanX(pushed, repelled, 0.5), -1.0);
    World apart(library);
    ASSERT_EQ(apart.setAttractors(&magnet, 1), RuntimeError::none); // groups 1, mask 2
    EXPECT_NEAR(meanX(apart, masked, 0.5), 0.0, 0.2);
}

// Only the nearest kActiveAttractors to the camera act: a strong attractor beyond 16 idle ones
// near the camera does nothing until the camera comes to it.
TEST_F(WorldAttractorsTest, TheNearestToTheCameraActAndTheRestAreCounted) {
    EffectLibrary library;
    const EffectId id = addDust(library, "");
    std::vector<WorldAttractor> given(kActiveAttractors + 1);
    for (uint32_t i = 0; i < kActiveAttractors; ++i) {
        given[i].position = {-50, float(i), 0};
        given[i].strength = 0; // idle
    }
    given.back().position = {6, 0, 0};
    given.back().strength = 20;
    given.back().radius = 20;
    World far(library);
    ASSERT_EQ(far.setAttractors(given.data(), uint32_t(given.size())), RuntimeError::none);
    ASSERT_EQ(far.setCameraPosition({-50, 0, 0}), RuntimeError::none);
    WorldUpdateReceipt receipt;
    EXPECT_NEAR(meanX(far, id, 0.5, &receipt), 0.0, 0.2);
    EXPECT_EQ(receipt.attractors_active, kActiveAttractors);
    EXPECT_EQ(receipt.attractors_dropped, 1u);
    World near(library);
    ASSERT_EQ(near.setAttractors(given.data(), uint32_t(given.size())), RuntimeError::none);
    ASSERT_EQ(near.setCameraPosition({0, 0, 0}), RuntimeError::none);
    EXPECT_GT(meanX(near, id, 0.5), 1.0);
}

TEST_F(WorldAttractorsTest, BadAttractorsAndModulesAreRefused) {
    EffectLibrary library;
    World world(library);
    WorldAttractor a;
    a.strength = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(world.setAttractors(&a, 1), RuntimeError::invalid_argument);
    EXPECT_EQ(world.lastErrorMessage(), "attractor 0: strength is not finite");
    a = WorldAttractor{};
    a.radius = 0;
    EXPECT_EQ(world.setAttractors(&a, 1), RuntimeError::invalid_argument);
    a = WorldAttractor{};
    a.groups = 0;
    EXPECT_EQ(world.setAttractors(&a, 1), RuntimeError::invalid_argument);
    std::vector<WorldAttractor> many(kMaxWorldAttractorsGiven + 1);
    EXPECT_EQ(world.setAttractors(many.data(), uint32_t(many.size())),
              RuntimeError::capacity_exceeded);
    EXPECT_EQ(world.setAttractors(nullptr, 2), RuntimeError::invalid_argument);
    EXPECT_EQ(world.setCameraPosition({0, std::numeric_limits<float>::infinity(), 0}),
              RuntimeError::invalid_argument);
    // The module's own fields are checked where they are written.
    const EffectId bad = addDust(library, R"(, "attractor_mask": 0)");
    EXPECT_EQ(library.compile(bad), RuntimeError::effect_failed);
    EffectInfo info;
    ASSERT_TRUE(library.info(bad, info));
    ASSERT_FALSE(info.diagnostics.empty());
    EXPECT_EQ(info.diagnostics[0].path, "$.emitters[0].update[0].attractor_mask");
    EXPECT_EQ(info.diagnostics[0].line, 9u);
    const EffectId bad_mask =
        add(library, R"(, "world_colliders": true, "collision_mask": 16777216)");
    EXPECT_EQ(library.compile(bad_mask), RuntimeError::effect_failed);
}

TEST_F(WorldAttractorsTest, GpuAttractsLikeTheCpu) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    EffectLibrary library;
    const EffectId id = addDust(library, R"(, "strength_scale": 0.5)");
    WorldAttractor magnets[2];
    magnets[0].position = {6, 0, 0};
    magnets[0].strength = 20;
    magnets[0].radius = 20;
    magnets[1].position = {0, 4, 0};
    magnets[1].strength = 10;
    magnets[1].radius = 6;
    magnets[1].falloff = 2;
    WorldConfig gpu_config;
    gpu_config.backend = SimulationBackend::gpu;
    World gpu(library, gpu_config);
    World cpu(library);
    for (World* w : {&gpu, &cpu}) ASSERT_EQ(w->setAttractors(magnets, 2), RuntimeError::none);
    const double xg = meanX(gpu, id, 0.5);
    const double xc = meanX(cpu, id, 0.5);
    EXPECT_GT(xc, 0.5);
    EXPECT_NEAR(xg, xc, 1e-3);
}

} // namespace
} // namespace spindrift
