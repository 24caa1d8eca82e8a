// The step timer (gpu/gpu_timing.h), the hook the GPU benchmarks time passes with: one entry per
// stamped step, and submitDrawOutput's own stamps (draw records, sorts, strip pass) taken once
// per draw output — lavapipe writes real timestamps, so a pass that ran has a positive time.
#include "gpu/gpu_parity.h"
#include "gpu/gpu_timing.h"

namespace spindrift::gpu::test {
namespace {

TEST(GpuStepTimer, StampsEveryStepAndTheDrawOutputsStripPass) {
    const auto effect = loadSample("sword_trail.json");
    GpuConfig config = testGpuConfig();
    config.device_strips = true;
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(effect, config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    auto timer = createGpuStepTimer(*fx->gpu->device, d);
    ASSERT_NE(timer, nullptr) << joinedDiagnostics(d);
    fx->step_timer = timer.get();

    // Three steps in one frame: three entries, each step enclosing its update.
    advanceFrame(*fx, 3.0 * effect->effect.fixed_timestep_s);
    ASSERT_TRUE(fx->errors.empty()) << joinedDiagnostics(fx->errors);
    ASSERT_GT(liveCount(*fx), 0u);
    GpuStepTimes steps;
    ASSERT_TRUE(takeStepTimes(*fx->gpu->device, *timer, steps, d)) << joinedDiagnostics(d);
    ASSERT_EQ(steps.step_ms.size(), 3u);
    for (size_t s = 0; s < 3; ++s) {
        EXPECT_GT(steps.update_ms[s], 0.0) << "step " << s;
        EXPECT_GE(steps.step_ms[s], steps.update_ms[s]) << "step " << s;
    }

    // No draw output stamped yet: an error, not stale times.
    GpuOutputTimes output;
    EXPECT_FALSE(takeOutputTimes(*fx->gpu->device, *timer, output, d));
    EXPECT_NE(joinedDiagnostics(d).find("no draw output stamped"), std::string::npos);
    d.clear();

    ASSERT_TRUE(submitDrawOutput(*fx, GpuDrawRequest{}, d)) << joinedDiagnostics(d);
    ASSERT_TRUE(takeOutputTimes(*fx->gpu->device, *timer, output, d)) << joinedDiagnostics(d);
    EXPECT_GT(output.draw_ms, 0.0);
    EXPECT_GT(output.strips_ms, 0.0) << "the sword trail's strips are written on the device";
    EXPECT_GE(output.sorts_ms, 0.0);
    EXPECT_FALSE(takeOutputTimes(*fx->gpu->device, *timer, output, d)) << "taken once";
    EXPECT_TRUE(validationMessages(*fx).empty());
}

} // namespace
} // namespace spindrift::gpu::test
