// User parameters changed mid-run (compiler/parameter_bindings.h): both backends read the
// patched records and stay in parity (docs/gpu-backend.md, "Parity"). Lavapipe, validation on.
#include <gtest/gtest.h>

#include "compiler/sample_effects.h"
#include "cpu/cpu_effect.h"
#include "gpu/gpu_buffers.h"
#include "gpu/gpu_parity.h"

namespace spindrift::gpu::test {
namespace {

std::shared_ptr<const CompiledEffect> withValues(const CompiledEffect& part,
                                                 const std::vector<vec4>& values) {
    auto patched = std::make_shared<CompiledEffect>(part);
    applyParameterValues(*patched, values);
    return patched;
}

// The campfire with parameters: at step 20 every parameter changes on both backends (rate,
// colour, gravity, force-field strength, burst count, one end of a speed range, one colour
// component of a two-colour init), again at step 40.
TEST(ParameterParity, BackendsAgreeWithParametersChangedMidRun) {
    const std::shared_ptr<const CompiledEffect> effect =
        compileOrFail(spindrift::test::parametersEffect());
    ASSERT_EQ(effect->parameters.size(), 6u);
    std::vector<vec4> values;
    for (const ParameterRecord& p : effect->parameters) values.push_back(p.default_value);
    uint32_t changes = 0;
    const ParityResult r = runParity(
        effect, kParitySteps, true, testGpuConfig(),
        [&](uint32_t frame, cpu::CpuEffect& cpu_fx, GpuEffect& gpu_fx) {
            if (frame != 20 && frame != 40) return;
            const float k = frame == 20 ? 1.0f : -1.0f;
            values[0].x = 200 + 100 * k;           // intensity: birth rate
            values[1] = vec4(0.3f, 2, 3.5f, 0.6f); // tint
            values[2] = vec4(2 * k, -4, 1, 0);     // wind: gravity acceleration
            values[3].x = 9 * k;                   // swirl: vortex strength, speed max
            values[4].x = 40 + 20 * k;             // burst count
            values[5].x = 0.1f;                    // spark_green: one colour component
            cpu::replaceRecords(cpu_fx, withValues(*cpu_fx.effect, values), frame);
            std::vector<Diagnostic> diagnostics;
            ASSERT_TRUE(replaceRecords(gpu_fx, withValues(*gpu_fx.effect, values), diagnostics))
                << joinedDiagnostics(diagnostics);
            ++changes;
        });
    printParity(r);
    EXPECT_EQ(changes, 2u);
    EXPECT_GT(r.particles, 100u);
}

} // namespace
} // namespace spindrift::gpu::test
