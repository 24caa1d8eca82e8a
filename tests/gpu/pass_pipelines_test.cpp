// The simulation passes' pipelines are compiled once per device and shared by its instances
// (src/gpu/pass_pipelines.h): a second instance compiles nothing and simulates as if alone, an
// effect compiles only the passes it records, and each variant has its own set.
#include "gpu/gpu_parity.h"

#include "gpu/sort/gpu_radix_sort.h"
#include "vulkan/context.h"

namespace spindrift::gpu::test {
namespace {

std::shared_ptr<vk::Context> sharedContext() {
    std::vector<Diagnostic> d;
    std::shared_ptr<vk::Context> context = vk::createContext("", true, d);
    EXPECT_NE(context, nullptr) << joinedDiagnostics(d);
    return context;
}

GpuConfig configOn(std::shared_ptr<vk::Context> context) {
    GpuConfig config = testGpuConfig();
    config.shared_device = std::move(context);
    return config;
}

std::unique_ptr<GpuEffect> create(std::shared_ptr<const CompiledEffect> effect,
                                  const GpuConfig& config) {
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(std::move(effect), config, d);
    EXPECT_NE(fx, nullptr) << joinedDiagnostics(d);
    return fx;
}

TEST(PassPipelines, ASecondInstanceOnTheDeviceCompilesNothingAndMatchesTheCpu) {
    std::shared_ptr<vk::Context> context = sharedContext();
    ASSERT_NE(context, nullptr);
    const GpuConfig config = configOn(context);
    auto first = create(loadSample("campfire.json"), config);
    ASSERT_NE(first, nullptr);
    const uint32_t compiled = compiledPipelines(*first->gpu->passes);
    EXPECT_GE(compiled, 5u); // pool reset, counters, births, draw records, an update
    auto second = create(loadSample("campfire.json"), config);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->gpu->passes, first->gpu->passes);
    EXPECT_EQ(compiledPipelines(*second->gpu->passes), compiled);
    // The second instance, with the first still alive on the device, simulates what the CPU
    // backend does.
    const ParityResult parity =
        expectParity(loadSample("campfire.json"), kParitySteps, false, config);
    EXPECT_GT(parity.particles, 0u);
    EXPECT_EQ(compiledPipelines(*first->gpu->passes), compiled);
    EXPECT_TRUE(validationMessages(*second).empty()) << joined(validationMessages(*second));
}

TEST(PassPipelines, AnEffectCompilesOnlyThePassesItRecords) {
    std::shared_ptr<vk::Context> context = sharedContext();
    ASSERT_NE(context, nullptr);
    const GpuConfig config = configOn(context);
    auto plain = create(loadSample("campfire.json"), config);
    ASSERT_NE(plain, nullptr);
    const uint32_t prepared = compiledPipelines(*plain->gpu->passes);
    const double dt = static_cast<double>(plain->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 30; ++i) advanceFrame(*plain, dt);
    EXPECT_GT(liveCount(*plain), 0u);
    // Its steps recorded nothing it had not prepared: no event, trail or ordering pass.
    EXPECT_EQ(compiledPipelines(*plain->gpu->passes), prepared);
    // Fireworks' shells burst into sparks through sub-emitters: the event passes are compiled
    // when its steps first record them, on the same set.
    auto fireworks = create(loadSample("fireworks.json"), config);
    ASSERT_NE(fireworks, nullptr);
    const uint32_t before_events = compiledPipelines(*plain->gpu->passes);
    for (int i = 0; i < 120; ++i) advanceFrame(*fireworks, dt);
    EXPECT_TRUE(fireworks->errors.empty()) << joinedDiagnostics(fireworks->errors);
    EXPECT_GT(compiledPipelines(*plain->gpu->passes), before_events);
    uint64_t child_births = 0;
    for (const SubEmitterRecord& link : fireworks->effect->sub_emitters) {
        child_births += fireworks->stats[link.emitter].births;
    }
    EXPECT_GT(child_births, 0u);
    EXPECT_TRUE(validationMessages(*fireworks).empty()) << joined(validationMessages(*fireworks));
}

// The radix sorts of instances on one device (here each emitter's alive-list sort, asked of
// every emitter) share their pipelines too: the second instance compiles none of them.
TEST(PassPipelines, SortsOnOneDeviceShareTheirPipelines) {
    std::shared_ptr<vk::Context> context = sharedContext();
    ASSERT_NE(context, nullptr);
    GpuConfig config = configOn(context);
    config.min_sorted_list = 1;
    auto first = create(loadSample("campfire.json"), config);
    auto second = create(loadSample("smoke_plume.json"), config);
    ASSERT_NE(first, nullptr);
    ASSERT_NE(second, nullptr);
    ASSERT_TRUE(first->list_sort.has_value());
    ASSERT_TRUE(second->list_sort.has_value());
    EXPECT_EQ(first->list_sort->pipelines, second->list_sort->pipelines);
    // A sort made without the context keeps its own.
    std::vector<Diagnostic> d;
    const std::optional<GpuRadixSort> own =
        createGpuRadixSort(*context->device, GpuRadixSortConfig{64, false}, d);
    ASSERT_TRUE(own.has_value()) << joinedDiagnostics(d);
    EXPECT_NE(own->pipelines, first->list_sort->pipelines);
    const double dt = static_cast<double>(first->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 30; ++i) {
        advanceFrame(*first, dt);
        advanceFrame(*second, dt);
    }
    EXPECT_GT(liveCount(*first), 0u);
    EXPECT_TRUE(first->errors.empty()) << joinedDiagnostics(first->errors);
    EXPECT_TRUE(second->errors.empty()) << joinedDiagnostics(second->errors);
    EXPECT_TRUE(validationMessages(*second).empty()) << joined(validationMessages(*second));
}

TEST(PassPipelines, EachVariantHasItsOwnSet) {
    std::shared_ptr<vk::Context> context = sharedContext();
    ASSERT_NE(context, nullptr);
    GpuConfig config = configOn(context);
    auto chosen = create(loadSample("campfire.json"), config);
    config.force_portable_append = true;
    config.force_portable_strips = true;
    auto portable = create(loadSample("campfire.json"), config);
    ASSERT_NE(chosen, nullptr);
    ASSERT_NE(portable, nullptr);
    EXPECT_FALSE(portable->gpu->passes->variant.subgroup_append);
    EXPECT_FALSE(portable->gpu->passes->variant.subgroup_strips);
    // lavapipe has subgroup operations: the device's own choice is the subgroup variant.
    EXPECT_TRUE(chosen->gpu->passes->variant.subgroup_append);
    EXPECT_NE(chosen->gpu->passes, portable->gpu->passes);
    EXPECT_GE(compiledPipelines(*portable->gpu->passes), 5u);
}

} // namespace
} // namespace spindrift::gpu::test
