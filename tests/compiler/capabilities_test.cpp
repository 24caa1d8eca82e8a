#include "compiler/capabilities.h"

#include <gtest/gtest.h>

#include "compiler/compile_effect.h"
#include "compiler/sample_effects.h"

namespace spindrift {
namespace {

CompiledEffect compiled(const EffectDesc& fx) {
    CompiledEffect out;
    std::vector<Diagnostic> d;
    EXPECT_TRUE(compileEffect(fx, out, d));
    return out;
}

bool uses(const std::vector<FeatureUse>& list, Feature f, const std::string& path) {
    for (const FeatureUse& u : list) {
        if (u.feature == f && u.path == path) return true;
    }
    return false;
}

// The CPU runs every feature; depth-buffer collision through the host's world (issue 15).
TEST(Capabilities, CpuRunsEveryFeature) {
    EXPECT_EQ(backendFeatures(Backend::cpu), kAllFeatures);
}

// The GPU backend (docs/gpu-backend.md) runs every feature too, since depth-buffer collision
// reads the scene depth on the device (issue 17); threshold sub-emitter links it runs
// (tests/gpu/sub_emitter_parity_test.cpp).
TEST(Capabilities, GpuRunsEveryFeature) {
    EXPECT_EQ(backendFeatures(Backend::gpu), kAllFeatures);
    EXPECT_EQ(preferableFeatures(Backend::gpu), kAllFeatures);
    EXPECT_EQ(preferableFeatures(Backend::cpu), backendFeatures(Backend::cpu));
}

TEST(Capabilities, ListsTheFeaturesEachEmitterNeedsWithTheirPaths) {
    const CompiledEffect c = compiled(test::campfireEffect());
    const std::vector<FeatureUse> flames = emitterFeatureUses(c, 0);
    EXPECT_TRUE(uses(flames, Feature::force_fields, "$.emitters[0].update[5]"));
    EXPECT_TRUE(uses(flames, Feature::collider_collision, "$.emitters[0].update[6]"));
    EXPECT_TRUE(uses(flames, Feature::soft_fade, "$.emitters[0].render.soft_fade_distance"));
    EXPECT_TRUE(uses(flames, Feature::frame_blend, "$.emitters[0].render.flipbook.frame_blend"));
    EXPECT_TRUE(uses(flames, Feature::sub_emitters, "$.emitters[0].sub_emitters"));
    EXPECT_FALSE(
        uses(flames, Feature::depth_buffer_collision, "$.emitters[0].update[6].depth_buffer"));
    EXPECT_TRUE(emitterFeatureUses(c, 1).empty());
    EXPECT_TRUE(emitterFeatureUses(c, 2).empty()); // out of range
}

TEST(Capabilities, ReportsPerEmitterWhichBackendsCanRunItAndWhy) {
    const CompiledEffect c = compiled(test::everythingEffect());
    const std::vector<EmitterBackends> report = checkBackends(c);
    ASSERT_EQ(report.size(), 3u);
    EXPECT_EQ(report[0].name, "trail");
    EXPECT_TRUE(report[0].backends[0].can_run);
    // Ribbons run on both backends.
    const BackendVerdict& trail_gpu = report[0].backends[static_cast<int>(Backend::gpu)];
    EXPECT_TRUE(trail_gpu.can_run);
    EXPECT_TRUE(trail_gpu.reasons.empty());
    const EmitterBackends& beam = report[1];
    EXPECT_EQ(beam.name, "beam");
    EXPECT_EQ(beam.source_index, 1u);
    EXPECT_EQ(beam.backends[static_cast<int>(Backend::cpu)].backend, Backend::cpu);
    // Both backends run the op and say where its depth comes from, and that without one it
    // meets the colliders only.
    for (const Backend b : {Backend::cpu, Backend::gpu}) {
        const BackendVerdict& v = beam.backends[static_cast<int>(b)];
        EXPECT_TRUE(v.can_run);
        EXPECT_TRUE(v.reasons.empty());
        ASSERT_EQ(v.notes.size(), 1u);
        EXPECT_NE(v.notes[0].find("$.emitters[1].update[0].depth_buffer"), std::string::npos);
        EXPECT_NE(v.notes[0].find("without one, with "), std::string::npos) << v.notes[0];
    }
    EXPECT_EQ(beam.backends[static_cast<int>(Backend::cpu)].notes[0],
              "cpu collides depth_buffer with the scene depth the host gives the world "
              "(World::setSceneDepth; spindrift render: the previous frame's) and with its "
              "colliders and distance field; without one, with those only: "
              "$.emitters[1].update[0].depth_buffer");
}

// Particle lights are chosen from host draw records: the GPU runs the emitter but makes no lights,
// and says so; the CPU makes them and has nothing to say; an emitter without lights gets no note.
TEST(Capabilities, ParticleLightsAreNotedAsHostOnlyForTheGpu) {
    const CompiledEffect c = compiled(test::everythingEffect());
    const std::vector<EmitterBackends> report = checkBackends(c);
    ASSERT_EQ(report.size(), 3u);
    const EmitterBackends& rocks = report[2];
    EXPECT_EQ(rocks.name, "rocks");
    const BackendVerdict& gpu = rocks.backends[static_cast<int>(Backend::gpu)];
    EXPECT_TRUE(gpu.can_run);
    ASSERT_EQ(gpu.notes.size(), 1u);
    EXPECT_EQ(gpu.notes[0], "gpu keeps its particles on the device: render.lights makes no lights "
                            "there yet (a cpu-simulated instance of the emitter does): "
                            "$.emitters[2].render.lights");
    EXPECT_TRUE(rocks.backends[static_cast<int>(Backend::cpu)].notes.empty());
    EXPECT_TRUE(report[0].backends[static_cast<int>(Backend::gpu)].notes.empty());
}

// A sub-emitter link on a threshold crossing is listed with its path, and both backends run it.
TEST(Capabilities, ThresholdSubEmitterLinksRunOnBothBackends) {
    EffectDesc fx = test::campfireEffect();
    EmitterDesc& flames = fx.emitters[0];
    flames.events.threshold_at = {ThresholdQuantity::height, 0.5f, ThresholdDirection::rising};
    flames.sub_emitters.push_back({SubEmitterEvent::threshold, fx.emitters[1].name, 1, {1, 1}, 0});
    const CompiledEffect c = compiled(fx);
    const size_t link = flames.sub_emitters.size() - 1;
    EXPECT_TRUE(uses(emitterFeatureUses(c, 0), Feature::threshold_sub_emitters,
                     "$.emitters[0].sub_emitters[" + std::to_string(link) + "]"));
    const EmitterBackends report = checkBackends(c)[0];
    for (const BackendVerdict& verdict : report.backends) {
        EXPECT_TRUE(verdict.can_run) << backendName(verdict.backend);
        EXPECT_TRUE(verdict.reasons.empty()) << backendName(verdict.backend);
    }
}

TEST(Capabilities, AutoBackendWithDepthCollisionCompilesAndRunsOnBoth) {
    EffectDesc fx = test::everythingEffect();
    fx.emitters[1].backend = BackendPreference::auto_;
    const CompiledEffect c = compiled(fx);
    EXPECT_TRUE(checkBackends(c)[1].backends[static_cast<int>(Backend::cpu)].can_run);
    EXPECT_TRUE(checkBackends(c)[1].backends[static_cast<int>(Backend::gpu)].can_run);
}

} // namespace
} // namespace spindrift
