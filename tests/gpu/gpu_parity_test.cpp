// CPU/GPU parity on lavapipe (issue 5): every sample effect the GPU backend runs, and an effect
// per update module, stepped 60 times from the same seed on both backends. Counts and statistics
// must match exactly every frame; draw records, matched by key, within kAbsoluteTolerance +
// kRelativeTolerance * |cpu| (docs/gpu-backend.md).
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <set>
#include <string>

#include "gpu/gpu_parity.h"

#include "compiler/sample_effects.h"

namespace spindrift::gpu::test {
namespace {

using spindrift::test::curve;
using spindrift::test::gradient;
using spindrift::test::module;

// A busy little emitter: a steady rate and a burst, spread in a sphere, moving in all directions,
// varied lifetimes so particles die throughout the run.
EffectDesc moduleEffect(UpdateModuleVariant update) {
    EmitterDesc e = sprayEmitter({.name = "e",
                                  .capacity = 512,
                                  .rate_per_s = 240,
                                  .burst_time_s = 0.1f,
                                  .burst_count = {40, 60},
                                  .sphere_radius = 0.5f,
                                  .lifetime_s = {0.3f, 1.2f},
                                  .speed = {0.5f, 3},
                                  .size = {0.05f, 0.2f}});
    e.init.rotation_deg = {0, 360};
    e.init.angular_velocity_deg_per_s = {-90, 90};
    e.init.color.mode = ColorMode::random_between;
    e.init.color.a = {1, 0.5f, 0.2f, 1};
    e.init.color.b = {0.2f, 0.5f, 1, 0.5f};
    e.update.push_back(module(std::move(update)));
    return testEffect({.name = "module", .seed = 77, .duration_s = 2, .capacity = 512}, {e});
}

TEST(GpuParity, Gravity) {
    expectParity(moduleEffect(GravityModule{}));
}
TEST(GpuParity, BuoyancyWithCurve) {
    BuoyancyModule m;
    m.acceleration = 3;
    m.has_over_life = true;
    m.over_life = curve(Interpolation::smooth, {{0, 1}, {1, -0.5f}});
    expectParity(moduleEffect(m));
}
TEST(GpuParity, Drag) {
    expectParity(moduleEffect(DragModule{2}));
}
TEST(GpuParity, Force) {
    expectParity(moduleEffect(ForceModule{{1, 2, -3}}));
}
TEST(GpuParity, Wind) {
    expectParity(moduleEffect(WindModule{{3, 0, 1}, 1.5f}));
}
TEST(GpuParity, SpeedLimit) {
    expectParity(moduleEffect(SpeedLimitModule{1, 4}));
}
TEST(GpuParity, CurlNoise) {
    expectParity(moduleEffect(CurlNoiseModule{4, 1.5f, 3, {0, 0.5f, 0}}));
}
TEST(GpuParity, ForceFieldPoint) {
    expectParity(
        moduleEffect(ForceFieldModule{ForceFieldKind::point, {0, 1, 0}, {0, 1, 0}, 5, 3, 1}));
}
TEST(GpuParity, ForceFieldVortex) {
    expectParity(
        moduleEffect(ForceFieldModule{ForceFieldKind::vortex, {0, 0, 0}, {0, 1, 0}, 4, 3, 0.5f}));
}
TEST(GpuParity, ForceFieldDrag) {
    expectParity(
        moduleEffect(ForceFieldModule{ForceFieldKind::drag, {0, 0, 0}, {0, 1, 0}, 3, 2, 1}));
}
TEST(GpuParity, AttractorWithKillRadius) {
    expectParity(moduleEffect(AttractorModule{{0.5f, 0, 0}, 4, 0.1f, 0.3f}));
}
TEST(GpuParity, ColorOverLife) {
    expectParity(moduleEffect(ColorOverLifeModule{
        gradient({{0, {1, 1, 1}}, {0.5f, {1, 0.5f, 0}}, {1, {0.2f, 0, 0}}}, {{0, 1}, {1, 0}})}));
}
TEST(GpuParity, SizeOverLife) {
    expectParity(moduleEffect(
        SizeOverLifeModule{curve(Interpolation::linear, {{0, 0.5f}, {0.3f, 1}, {1, 0}})}));
}
TEST(GpuParity, RotationOverLife) {
    expectParity(
        moduleEffect(RotationOverLifeModule{curve(Interpolation::linear, {{0, 180}, {1, -90}})}));
}
TEST(GpuParity, ColorBySpeed) {
    ColorBySpeedModule m;
    // Keys set one by one over the default gradient's (one white key, one opaque key): GCC 12
    // warns (maybe-uninitialized, a false positive) about an initializer list's copy once this
    // file is compiled in a unity batch.
    m.gradient.color_keys[0] = {0, {0, 0, 1}};
    m.gradient.color_keys.push_back({1, {1, 0, 0}});
    m.gradient.alpha_keys[0] = {0, 1};
    m.min_speed = 0.5f;
    m.max_speed = 2.5f;
    expectParity(moduleEffect(m));
}
TEST(GpuParity, SizeBySpeed) {
    SizeBySpeedModule m;
    m.curve = curve(Interpolation::step, {{0, 1}, {0.5f, 2}});
    m.min_speed = 0.5f;
    m.max_speed = 2.5f;
    expectParity(moduleEffect(m));
}
// The blackbody colour (src/kernels/blackbody.h) is computed per particle on both backends from a
// temperature curve over age: the same text, compared within the parity tolerance.
TEST(GpuParity, BlackbodyColourOverTemperature) {
    BlackbodyModule m;
    m.temperature_k = curve(Interpolation::smooth, {{0, 6500}, {0.4f, 2500}, {1, 1000}});
    m.intensity = 4;
    expectParity(moduleEffect(m));
}

CollisionModule collisionWith(CollisionResponse response) {
    CollisionModule m;
    m.response = response;
    m.bounce = 0.6f;
    m.friction = 0.2f;
    m.lifetime_loss = 0.1f;
    return m;
}

TEST(GpuParity, CollisionPlaneBounce) {
    CollisionModule m = collisionWith(CollisionResponse::bounce);
    m.planes.push_back({{0, -0.3f, 0}, {0, 1, 0}});
    EffectDesc fx = moduleEffect(m);
    fx.emitters[0].update.insert(fx.emitters[0].update.begin(), module(GravityModule{}));
    expectParity(fx);
}
TEST(GpuParity, CollisionSphereStick) {
    CollisionModule m = collisionWith(CollisionResponse::stick);
    m.spheres.push_back({{0, 0, 0}, 1.2f, true});
    expectParity(moduleEffect(m));
}
TEST(GpuParity, CollisionBoxKill) {
    CollisionModule m = collisionWith(CollisionResponse::kill);
    m.boxes.push_back({{1, 0, 0}, {0.6f, 2, 2}});
    expectParity(moduleEffect(m));
}

// Births of a moving emitter interpolate its transform; local space follows the effect.
TEST(GpuParity, MovingEmitterWorldAndLocalSpace) {
    EffectDesc fx = moduleEffect(GravityModule{});
    expectParity(fx, true);
    fx.space = SimulationSpace::local;
    expectParity(fx, true);
}

// A full pool drops births (drop_new) on both backends alike.
TEST(GpuParity, FullPoolDropsNewBirths) {
    EffectDesc fx = moduleEffect(DragModule{1});
    fx.emitters[0].capacity = 64;
    expectParity(fx);
}

// stable_order: both backends keep birth order, so records compare in draw order. Lifetimes vary
// from 0.3 to 1.2 s, so particles die out of birth order throughout the run.
TEST(GpuParity, StableOrderDrawsInBirthOrderWhenParticlesDieOutOfOrder) {
    EffectDesc fx = moduleEffect(DragModule{1});
    fx.emitters[0].render.stable_order = true;
    const ParityResult r = runParity(compileOrFail(fx), kParitySteps);
    EXPECT_GT(r.in_order, 100u);
    EXPECT_EQ(r.in_order, r.particles);
}

// Thousands of particles: the ordered pass walks the list in many chunks of its workgroup.
TEST(GpuParity, StableOrderWithThousandsOfParticles) {
    EffectDesc fx = moduleEffect(CurlNoiseModule{4, 1.5f, 3, {0, 0.5f, 0}});
    fx.capacity = 4096;
    fx.emitters[0].capacity = 4096;
    fx.emitters[0].spawn.rate_per_s = 6000;
    fx.emitters[0].render.stable_order = true;
    const ParityResult r = runParity(compileOrFail(fx), kParitySteps);
    EXPECT_GT(r.in_order, 3000u);
}

// Kills by a collider remove particles from the middle of the list.
TEST(GpuParity, StableOrderWithKillCollisionsAndAMovingEmitter) {
    CollisionModule m = collisionWith(CollisionResponse::kill);
    m.spheres.push_back({{0.3f, 0, 0}, 0.6f, false});
    EffectDesc fx = moduleEffect(m);
    fx.emitters[0].render.stable_order = true;
    const ParityResult r = runParity(compileOrFail(fx), kParitySteps, true);
    EXPECT_GT(r.in_order, 50u);
}

// replace_oldest: a pool of 64 under 240 births/s and a burst of 40-60 replaces its oldest
// particles; births, deaths, replaced and dropped counts match every frame.
TEST(GpuParity, ReplaceOldestReplacesTheSameParticles) {
    EffectDesc fx = moduleEffect(DragModule{1});
    fx.emitters[0].capacity = 64;
    fx.emitters[0].overflow = OverflowPolicy::replace_oldest;
    const ParityResult r = runParity(compileOrFail(fx), kParitySteps);
    EXPECT_GT(r.replaced, 0u);
    EXPECT_EQ(r.particles, 64u);
}

// The same with stable order: replaced particles leave the front, births append at the back.
TEST(GpuParity, ReplaceOldestWithStableOrderKeepsBirthOrder) {
    EffectDesc fx = moduleEffect(DragModule{1});
    fx.emitters[0].capacity = 48;
    fx.emitters[0].overflow = OverflowPolicy::replace_oldest;
    fx.emitters[0].render.stable_order = true;
    const ParityResult r = runParity(compileOrFail(fx), kParitySteps);
    EXPECT_GT(r.replaced, 0u);
    EXPECT_EQ(r.in_order, 48u);
}

// A burst larger than the pool: the driver drops births past the capacity and replace_oldest
// replaces every survivor, on both backends alike.
TEST(GpuParity, ReplaceOldestWithABurstLargerThanThePool) {
    EffectDesc fx = moduleEffect(GravityModule{});
    fx.emitters[0].capacity = 32;
    fx.emitters[0].spawn.rate_per_s = 30;
    fx.emitters[0].spawn.bursts[0].count = {50, 50};
    fx.emitters[0].overflow = OverflowPolicy::replace_oldest;
    const ParityResult r = runParity(compileOrFail(fx), kParitySteps);
    EXPECT_GT(r.replaced, 0u);
}

// Mesh-point shape and gradient colour init read the mesh points and the LUT atlas on the GPU.
TEST(GpuParity, MeshShapeAndGradientColour) {
    EffectDesc fx = moduleEffect(GravityModule{});
    EmitterDesc& e = fx.emitters[0];
    e.shape.type = ShapeKind::mesh;
    e.shape.points = {{{0, 0, 0}, {0, 1, 0}}, {{1, 0, 0}, {1, 0, 0}}, {{0, 0, 1}, {0, 0, 1}}};
    e.init.color = ColorInit{};
    e.init.color.mode = ColorMode::gradient;
    e.init.color.gradient = gradient({{0, {1, 0, 0}}, {1, {0, 0, 1}}}, {{0, 1}});
    expectParity(fx);
}

// Ribbons (docs/gpu-backend.md, "Ribbons"): a busy ribbon emitter whose rings wrap (8 points over
// 60 steps), with slow particles that skip recording some steps, gravity and deaths throughout.
// Trails and strips are compared point by point, matched by key (runParity, compareTrails).
EffectDesc ribbonEffect() {
    EffectDesc fx = moduleEffect(GravityModule{});
    EmitterDesc& e = fx.emitters[0];
    e.capacity = 128;
    fx.capacity = 128;
    e.spawn.rate_per_s = 90;
    e.init.speed = {0.1f, 3};
    e.render.type = RenderType::ribbon;
    e.render.ribbon.max_points = 8;
    e.render.ribbon.min_sample_distance = 0.01f;
    e.render.ribbon.taper = 0.5f;
    return fx;
}

TEST(GpuParity, RibbonTrailsMatchTheCpuPointByPoint) {
    const ParityResult r = expectParity(ribbonEffect());
    EXPECT_GT(r.trail_points, 4 * r.particles) << "rings should be filling up";
    EXPECT_GT(r.strip_points, 0u);
}

// Stable order: the strips come in the same (birth) order on both backends, and so do segments.
TEST(GpuParity, StableOrderRibbonStripsComeInBirthOrder) {
    EffectDesc fx = ribbonEffect();
    fx.emitters[0].render.stable_order = true;
    fx.emitters[0].render.ribbon.uv_tiling = 2;
    const ParityResult r = expectParity(fx);
    EXPECT_GT(r.strip_points, 0u);
}

// Local and world space with a moving effect: trails are kept in simulation space (world space:
// they stay where they were recorded; local space: they move with the effect).
TEST(GpuParity, RibbonTrailsOfAMovingEmitterInWorldAndLocalSpace) {
    EffectDesc fx = ribbonEffect();
    fx.space = SimulationSpace::world;
    expectParity(fx, true);
    fx.space = SimulationSpace::local;
    expectParity(fx, true);
}

// replace_oldest reuses slots of living particles: each newborn starts a fresh trail there.
TEST(GpuParity, RibbonTrailsRestartWhenReplaceOldestReusesASlot) {
    EffectDesc fx = ribbonEffect();
    fx.emitters[0].capacity = 24;
    fx.emitters[0].overflow = OverflowPolicy::replace_oldest;
    const ParityResult r = expectParity(fx);
    EXPECT_GT(r.replaced, 0u);
}

// Every sample in examples/effects/: each is created on the GPU backend (none is refused) and
// matches the CPU backend.
constexpr const char* kParitySamples[] = {
    "campfire.json",    "ember_gust.json", "fireworks.json",   "fountain.json",
    "lightning.json",   "magic_orb.json",  "portal_ring.json", "rockfall.json",
    "smoke_plume.json", "snowfall.json",   "spark_burst.json", "sword_trail.json"};

class GpuParitySample : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuParitySample, MatchesTheCpu) {
    expectParity(loadSample(GetParam()), kParitySteps);
}

INSTANTIATE_TEST_SUITE_P(Samples, GpuParitySample, ::testing::ValuesIn(kParitySamples));

// The list above holds every sample effect the repository ships, so each runs on the GPU backend
// and is compared (a sample added without joining the list fails here). It replaces creating
// every sample's GPU effect a second time, which MatchesTheCpu does already.
TEST(GpuParity, TheSampleListHoldsEverySampleEffect) {
    std::set<std::string> listed(std::begin(kParitySamples), std::end(kParitySamples));
    std::set<std::string> shipped;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(SPINDRIFT_SOURCE_DIR) +
                                                                 "/examples/effects")) {
        if (entry.path().extension() == ".json") shipped.insert(entry.path().filename().string());
    }
    EXPECT_EQ(shipped.size(), 12u);
    EXPECT_EQ(listed, shipped);
}

} // namespace
} // namespace spindrift::gpu::test
