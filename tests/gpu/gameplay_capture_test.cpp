// Events to gameplay on the GPU backend (src/gpu/gameplay_capture.h): with asynchronous
// statistics the events come back through the readback ring without a wait, late by at most the
// ring, each carrying its step; once waited for, the stream is exactly the waiting instance's
// and the CPU backend's (kind, emitter, step, key, collision op; values within the tolerance).
// Validation on (lavapipe).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/compile_effect.h"
#include "cpu/cpu_effect.h"
#include "gpu/gameplay_capture.h"
#include "gpu/gpu_parity.h"
#include "spindrift/effect_json.h"

namespace spindrift::gpu::test {
namespace {

std::shared_ptr<const CompiledEffect> parityEffect() {
    EffectDesc desc;
    std::vector<Diagnostic> d;
    EXPECT_TRUE(loadEffectFile(
        std::string(SPINDRIFT_SOURCE_DIR) + "/tests/data/runtime/events_parity.json", desc, d));
    auto compiled = std::make_shared<CompiledEffect>();
    EXPECT_TRUE(compileEffect(desc, *compiled, d)) << joinedDiagnostics(d);
    return compiled;
}

void expectSameStream(const std::vector<GameplayEventRecord>& a,
                      const std::vector<GameplayEventRecord>& b, float tolerance) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE("event " + std::to_string(i));
        ASSERT_EQ(a[i].step, b[i].step);
        ASSERT_EQ(a[i].emitter, b[i].emitter);
        ASSERT_EQ(a[i].kind, b[i].kind);
        ASSERT_EQ(a[i].key, b[i].key);
        ASSERT_EQ(a[i].detail, b[i].detail);
        for (int c = 0; c < 3; ++c) {
            EXPECT_NEAR(a[i].position[c], b[i].position[c], tolerance);
            EXPECT_NEAR(a[i].velocity[c], b[i].velocity[c], tolerance);
            EXPECT_NEAR(a[i].normal[c], b[i].normal[c], tolerance);
        }
    }
}

TEST(GpuGameplayEvents, AsynchronousReadbackIsLateButLosesNothing) {
    const auto effect = parityEffect();
    std::vector<Diagnostic> d;
    GpuConfig async_config = testGpuConfig();
    async_config.async_statistics = true;
    auto sync_fx = createGpuEffect(effect, testGpuConfig(), d);
    auto async_fx = createGpuEffect(effect, async_config, d);
    ASSERT_NE(sync_fx, nullptr) << joinedDiagnostics(d);
    ASSERT_NE(async_fx, nullptr) << joinedDiagnostics(d);
    auto cpu_fx = cpu::createCpuEffect(effect, cpu::CpuConfig{});
    const double dt = static_cast<double>(effect->effect.fixed_timestep_s);
    std::vector<GameplayEventRecord> sync_events, async_events, cpu_events;
    uint64_t sync_dropped = 0, async_dropped = 0, cpu_dropped = 0;
    uint32_t most_late = 0;
    for (int i = 0; i < 60; ++i) {
        advanceFrame(*sync_fx, 2 * dt); // two steps a frame
        advanceFrame(*async_fx, 2 * dt);
        cpu::advanceFrame(*cpu_fx, 2 * dt);
        uint32_t late = 0;
        sync_dropped += takeGpuGameplayEvents(*sync_fx, sync_events, late);
        EXPECT_EQ(late, 0u) << "a waiting instance has this frame's events";
        async_dropped += takeGpuGameplayEvents(*async_fx, async_events, late);
        EXPECT_LE(late, kGpuSubmissionsInFlight);
        most_late = std::max(most_late, late);
        cpu_dropped += cpu::takeGameplayEvents(*cpu_fx, cpu_events);
        // Whatever has arrived is of steps already run, never ahead of the waiting instance.
        EXPECT_LE(async_events.size(), sync_events.size());
    }
    ASSERT_TRUE(waitForStatistics(*async_fx)) << joinedDiagnostics(async_fx->errors);
    uint32_t late = 0;
    async_dropped += takeGpuGameplayEvents(*async_fx, async_events, late);
    EXPECT_GT(most_late, 0u) << "the asynchronous instance never ran behind";
    EXPECT_GT(sync_events.size(), 100u);
    EXPECT_EQ(async_dropped, sync_dropped);
    EXPECT_EQ(cpu_dropped, sync_dropped);
    expectSameStream(sync_events, async_events, 0.0f); // the same device, the same bits
    expectSameStream(cpu_events, sync_events, 1e-3f);
    EXPECT_TRUE(validationMessages(*async_fx).empty()) << joined(validationMessages(*async_fx));
}

// A restart forgets the events of the steps before it, delivered or not; the steps after it
// count from 0 again.
TEST(GpuGameplayEvents, ARestartForgetsTheEventsInFlight) {
    const auto effect = parityEffect();
    std::vector<Diagnostic> d;
    GpuConfig config = testGpuConfig();
    config.async_statistics = true;
    auto fx = createGpuEffect(effect, config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(effect->effect.fixed_timestep_s);
    for (int i = 0; i < 10; ++i) advanceFrame(*fx, dt);
    restart(*fx);
    std::vector<GameplayEventRecord> events;
    uint32_t late = 0;
    takeGpuGameplayEvents(*fx, events, late);
    EXPECT_TRUE(events.empty());
    advanceFrame(*fx, dt);
    ASSERT_TRUE(waitForStatistics(*fx)) << joinedDiagnostics(fx->errors);
    takeGpuGameplayEvents(*fx, events, late);
    ASSERT_FALSE(events.empty());
    for (const GameplayEventRecord& e : events) EXPECT_EQ(e.step, 0u);
}

} // namespace
} // namespace spindrift::gpu::test
