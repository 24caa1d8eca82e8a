// The GPU backend's own behaviour beyond parity: refusals, idling, restart.
#include "gpu/gpu_parity.h"

#include "compiler/sample_effects.h"

namespace spindrift::gpu::test {
namespace {

EffectDesc burstEffect() {
    return testEffect({.name = "burst", .seed = 5, .duration_s = 5, .capacity = 256},
                      {sprayEmitter({.name = "puff",
                                     .capacity = 256,
                                     .rate_per_s = 0,
                                     .burst_time_s = 0,
                                     .burst_count = {100, 100},
                                     .lifetime_s = {0.1f, 0.2f}})});
}

TEST(GpuEffect, AnIdleEffectDispatchesNothing) {
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(compileOrFail(burstEffect()), testGpuConfig(), d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    advanceFrame(*fx, dt);
    EXPECT_EQ(liveCount(*fx), 100u);
    EXPECT_GT(fx->dispatches_last_frame, 0u);
    for (int i = 0; i < 30; ++i) advanceFrame(*fx, dt);
    EXPECT_EQ(liveCount(*fx), 0u);
    EXPECT_EQ(liveBoundOf(*fx, 0), 0u);
    EXPECT_EQ(fx->dispatches_last_frame, 0u);
    EXPECT_EQ(fx->stats[0].deaths, 100u);
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

TEST(GpuEffect, RestartEmptiesThePoolAndKeepsStatistics) {
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(compileOrFail(burstEffect()), testGpuConfig(), d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    advanceFrame(*fx, dt);
    restart(*fx);
    EXPECT_EQ(liveCount(*fx), 0u);
    EXPECT_EQ(simulationTime(*fx), 0.0);
    EXPECT_EQ(fx->stats[0].births, 100u);
    advanceFrame(*fx, dt); // the burst at t = 0 fires again
    EXPECT_EQ(liveCount(*fx), 100u);
    EXPECT_EQ(fx->stats[0].births, 200u);
    EXPECT_TRUE(fx->errors.empty()) << joinedDiagnostics(fx->errors);
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

TEST(GpuEffect, SeveralStepsPerFrameMatchTheCpu) {
    auto effect = compileOrFail(burstEffect());
    cpu::CpuConfig cpu_config;
    auto cpu_fx = cpu::createCpuEffect(effect, cpu_config);
    std::vector<Diagnostic> d;
    GpuConfig config = testGpuConfig();
    config.driver.max_steps_per_frame = 3; // a frame of 5 steps: two submissions, 2 dropped
    cpu_fx->config.driver.max_steps_per_frame = 3;
    auto fx = createGpuEffect(effect, config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(effect->effect.fixed_timestep_s);
    for (int i = 0; i < 4; ++i) {
        const FrameReport c = cpu::advanceFrame(*cpu_fx, 5 * dt);
        const FrameReport g = advanceFrame(*fx, 5 * dt);
        EXPECT_EQ(c.steps, g.steps);
        EXPECT_EQ(c.discarded_steps, g.discarded_steps);
        EXPECT_EQ(cpu::liveCount(*cpu_fx), liveCount(*fx)) << "frame " << i;
    }
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

// Collision events are ordered by which collision module a particle touched, recorded in
// kGpuMaxContactOps bits: an emitter with collision events and more collision modules than that
// is refused, naming the emitter.
TEST(GpuEffect, RefusesCollisionEventsPastTheContactMaskNamingTheEmitter) {
    EffectDesc fx = burstEffect();
    fx.capacity = 2048;
    EmitterDesc child;
    child.name = "child";
    fx.emitters.push_back(child);
    fx.emitters[0].sub_emitters.push_back({SubEmitterEvent::collision, "child", 1, {1, 1}, 0});
    for (uint32_t k = 0; k <= kGpuMaxContactOps; ++k) {
        CollisionModule collision;
        collision.planes.push_back({{0, -1.0f - static_cast<float>(k), 0}, {0, 1, 0}});
        fx.emitters[0].update.push_back(spindrift::test::module(collision));
    }
    const auto compiled = compileOrFail(fx);
    uint32_t collision_ops = 0;
    for (const OpRecord& op : compiled->ops) collision_ops += op.op == kOpCollision ? 1u : 0u;
    ASSERT_GT(collision_ops, kGpuMaxContactOps) << "the compiler fused collision modules";
    std::vector<Diagnostic> d;
    EXPECT_EQ(createGpuEffect(compiled, testGpuConfig(), d), nullptr);
    ASSERT_EQ(d.size(), 1u) << joinedDiagnostics(d);
    EXPECT_EQ(d[0].path, "$.emitters[0].sub_emitters");
    EXPECT_NE(d[0].message.find("emitter 'puff'"), std::string::npos) << d[0].message;
    // One collision module fewer runs.
    fx.emitters[0].update.pop_back();
    d.clear();
    EXPECT_NE(createGpuEffect(compileOrFail(fx), testGpuConfig(), d), nullptr)
        << joinedDiagnostics(d);
}

// Depth-buffer collision runs (issue 17): creation succeeds, and the step reads the scene depth
// at a device address when the world gives one (tests/render/scene_player_test.cpp,
// DepthBufferRainStopsOnTheRenderedGround).
TEST(GpuEffect, RunsDepthBufferCollision) {
    EffectDesc fx = burstEffect();
    CollisionModule collision;
    collision.depth_buffer = true;
    fx.emitters[0].backend = BackendPreference::gpu;
    fx.emitters[0].update.push_back(spindrift::test::module(collision));
    std::vector<Diagnostic> d;
    EXPECT_NE(createGpuEffect(compileOrFail(fx), testGpuConfig(), d), nullptr)
        << joinedDiagnostics(d);
}

// Ribbons run (trail rings per slot, docs/gpu-backend.md "Ribbons"), within the CPU backend's
// limit: Σ capacity x max_points <= kMaxTrailPoints. Past it, creation is refused at the ribbon
// emitter's max_points with the total, the limit and the backend.
TEST(GpuEffect, RunsRibbonsAndRefusesTrailStoragePastTheLimit) {
    EffectDesc fx = burstEffect();
    fx.emitters[0].render.type = RenderType::ribbon;
    std::vector<Diagnostic> d;
    auto gpu = createGpuEffect(compileOrFail(fx), testGpuConfig(), d);
    ASSERT_NE(gpu, nullptr) << joinedDiagnostics(d);
    advanceFrame(*gpu, fx.fixed_timestep_s);
    EXPECT_TRUE(gpu->errors.empty()) << joinedDiagnostics(gpu->errors);
    EXPECT_GT(liveCount(*gpu), 0u);

    // The compiler refuses such an effect (compile_effect_test); records that did not come
    // through it are refused by the backend too.
    fx.emitters[0].capacity = (1u << 16) + 1;
    fx.capacity = fx.emitters[0].capacity;
    fx.emitters[0].render.ribbon.max_points = 2;
    auto past = std::make_shared<CompiledEffect>(*compileOrFail(fx));
    past->emitters[0].ribbon_max_points = kMaxRibbonPoints; // 2^24 + 256 points
    d.clear();
    EXPECT_EQ(createGpuEffect(past, testGpuConfig(), d), nullptr);
    ASSERT_EQ(d.size(), 1u) << joinedDiagnostics(d);
    EXPECT_EQ(d[0].path, "$.emitters[0].render.max_points");
    EXPECT_NE(d[0].message.find("16777472"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("GPU backend's limit of 16777216"), std::string::npos)
        << d[0].message;
}

// Trail storage layout (no device needed): a ribbon emitter's buffer holds its points, then a
// ring per slot; other emitters have none. A buffer past the buffer limit, or trails taking the
// pool past the total limit, are refused naming the emitter.
TEST(GpuEffect, LaysOutTrailBuffersWithinTheLimits) {
    EffectDesc fx = burstEffect();
    fx.emitters.push_back(fx.emitters[0]);
    fx.emitters[1].name = "trail";
    fx.emitters[1].render.type = RenderType::ribbon;
    fx.emitters[1].render.ribbon.max_points = 10;
    fx.capacity = 512;
    const auto compiled = compileOrFail(fx);
    std::vector<TrailRegion> regions;
    std::vector<Diagnostic> d;
    ASSERT_TRUE(layoutTrails(*compiled, PoolLimits{}, 0, false, regions, d))
        << joinedDiagnostics(d);
    ASSERT_EQ(regions.size(), 2u);
    EXPECT_FALSE(hasTrails(regions[0]));
    EXPECT_EQ(regions[0].buffer_bytes, 0u);
    ASSERT_TRUE(hasTrails(regions[1]));
    EXPECT_EQ(regions[1].rings_offset_bytes, 256u * 10 * 12); // already a multiple of 256
    EXPECT_EQ(regions[1].buffer_bytes, 256u * 10 * 12 + 256 * 8);
    EXPECT_EQ(regions[1].gather_bytes, 256u * 16 + 256 * 10 * 12);

    PoolLimits small;
    small.buffer_bytes = 4096;
    EXPECT_FALSE(layoutTrails(*compiled, small, 0, false, regions, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].path, "$.emitters[1].render.max_points");
    EXPECT_NE(d[0].message.find("emitter 'trail'"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("buffer limit of 4096 bytes"), std::string::npos) << d[0].message;

    PoolLimits total;
    total.total_bytes = 100000;
    d.clear();
    EXPECT_FALSE(layoutTrails(*compiled, total, 90000, false, regions, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("past the limit of 100000 bytes"), std::string::npos)
        << d[0].message;
}

// Stable order and replace_oldest run: no refusal, and the replaced count is reported.
TEST(GpuEffect, RunsStableOrderAndReplaceOldestAndCountsReplacements) {
    EffectDesc fx = burstEffect();
    fx.emitters[0].capacity = 64;
    fx.emitters[0].render.stable_order = true;
    fx.emitters[0].overflow = OverflowPolicy::replace_oldest;
    std::vector<Diagnostic> d;
    auto gpu_fx = createGpuEffect(compileOrFail(fx), testGpuConfig(), d);
    ASSERT_NE(gpu_fx, nullptr) << joinedDiagnostics(d);
    advanceFrame(*gpu_fx, static_cast<double>(gpu_fx->effect->effect.fixed_timestep_s));
    // The driver caps the burst of 100 at the capacity (36 dropped); all 64 are born.
    EXPECT_EQ(liveCount(*gpu_fx), 64u);
    EXPECT_EQ(gpu_fx->stats[0].births, 64u);
    EXPECT_EQ(gpu_fx->stats[0].overflow_dropped, 36u);
    EXPECT_EQ(gpu_fx->stats[0].overflow_replaced, 0u);
    EXPECT_TRUE(validationMessages(*gpu_fx).empty()) << joined(validationMessages(*gpu_fx));
}

TEST(GpuEffect, WithoutAMatchingDeviceGivesAClearError) {
    GpuConfig config = testGpuConfig();
    config.device = "no-such-device-anywhere";
    std::vector<Diagnostic> d;
    EXPECT_EQ(createGpuEffect(compileOrFail(burstEffect()), config, d), nullptr);
    ASSERT_FALSE(d.empty());
    EXPECT_NE(joinedDiagnostics(d).find("no-such-device-anywhere"), std::string::npos)
        << joinedDiagnostics(d);
}

} // namespace
} // namespace spindrift::gpu::test
