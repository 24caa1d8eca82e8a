// chooseBackend: every request on every kind of device, and the reason it gives.
#include <gtest/gtest.h>

#include <string>

#include "cook/effect_file.h"
#include "runtime/backend_choice.h"

namespace spindrift {
namespace {

CompiledEffect sample(const std::string& name) {
    CompiledEffect effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadCompiledEffect(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/" + name,
                                   effect, diagnostics));
    return effect;
}

const SimulationDevice kNoDevice{DeviceKind::none, "", "no Vulkan driver"};
const SimulationDevice kLavapipe{DeviceKind::cpu, "llvmpipe", ""};
const SimulationDevice kGpu{DeviceKind::gpu, "NVIDIA H200", ""};

bool mentions(const BackendChoice& choice, const std::string& text) {
    return choice.reason.find(text) != std::string::npos;
}

// campfire runs on the GPU backend; sword_trail's 'blade' draws ribbons, which it does not.
TEST(BackendChoice, CpuRequestIsAlwaysTheCpu) {
    const CompiledEffect campfire = sample("campfire.json");
    for (const SimulationDevice& device : {kNoDevice, kLavapipe, kGpu}) {
        const BackendChoice choice = chooseBackend(campfire, BackendRequest::cpu, device);
        EXPECT_TRUE(choice.ok);
        EXPECT_EQ(choice.backend, Backend::cpu);
        EXPECT_TRUE(mentions(choice, "cpu requested")) << choice.reason;
    }
    CompiledEffect prefers_gpu = campfire;
    prefers_gpu.emitters[1].backend = kBackendGpu;
    const BackendChoice noted = chooseBackend(prefers_gpu, BackendRequest::cpu, kGpu);
    EXPECT_EQ(noted.backend, Backend::cpu);
    EXPECT_TRUE(mentions(noted, "emitter 'smoke' prefers gpu")) << noted.reason;
}

TEST(BackendChoice, GpuRequestRunsOnAnyDeviceIncludingACpuOne) {
    const CompiledEffect campfire = sample("campfire.json");
    const BackendChoice on_gpu = chooseBackend(campfire, BackendRequest::gpu, kGpu);
    EXPECT_TRUE(on_gpu.ok);
    EXPECT_EQ(on_gpu.backend, Backend::gpu);
    EXPECT_TRUE(mentions(on_gpu, "NVIDIA H200")) << on_gpu.reason;
    const BackendChoice on_lavapipe = chooseBackend(campfire, BackendRequest::gpu, kLavapipe);
    EXPECT_TRUE(on_lavapipe.ok);
    EXPECT_EQ(on_lavapipe.backend, Backend::gpu);
    EXPECT_TRUE(mentions(on_lavapipe, "a CPU device")) << on_lavapipe.reason;
    // An emitter's own cpu preference does not overrule an explicit request; it is noted.
    CompiledEffect prefers_cpu = campfire;
    prefers_cpu.emitters[2].backend = kBackendCpu;
    const BackendChoice noted = chooseBackend(prefers_cpu, BackendRequest::gpu, kGpu);
    EXPECT_EQ(noted.backend, Backend::gpu);
    EXPECT_TRUE(mentions(noted, "emitter 'embers' prefers cpu")) << noted.reason;
}

TEST(BackendChoice, GpuRequestFailsWithoutADeviceOrForAMissingFeature) {
    const BackendChoice no_device =
        chooseBackend(sample("campfire.json"), BackendRequest::gpu, kNoDevice);
    EXPECT_FALSE(no_device.ok);
    EXPECT_TRUE(mentions(no_device, "no usable Vulkan device: no Vulkan driver"))
        << no_device.reason;
    const BackendChoice lacking =
        chooseBackend(sample("sword_trail.json"), BackendRequest::gpu, kGpu);
    EXPECT_FALSE(lacking.ok);
    EXPECT_TRUE(mentions(lacking, "emitter 'blade' uses ribbon_render")) << lacking.reason;
    EXPECT_TRUE(mentions(lacking, "$.emitters[0].render")) << lacking.reason;
}

TEST(BackendChoice, AutoPicksTheGpuOnlyOnAGpuDeviceWhenEveryEmitterAllowsIt) {
    const CompiledEffect campfire = sample("campfire.json");
    const BackendChoice gpu = chooseBackend(campfire, BackendRequest::automatic, kGpu);
    EXPECT_TRUE(gpu.ok);
    EXPECT_EQ(gpu.backend, Backend::gpu);
    EXPECT_TRUE(mentions(gpu, "every emitter")) << gpu.reason;

    const BackendChoice lavapipe = chooseBackend(campfire, BackendRequest::automatic, kLavapipe);
    EXPECT_TRUE(lavapipe.ok);
    EXPECT_EQ(lavapipe.backend, Backend::cpu);
    EXPECT_TRUE(mentions(lavapipe, "'llvmpipe' is a CPU device")) << lavapipe.reason;

    const BackendChoice none = chooseBackend(campfire, BackendRequest::automatic, kNoDevice);
    EXPECT_TRUE(none.ok);
    EXPECT_EQ(none.backend, Backend::cpu);
    EXPECT_TRUE(mentions(none, "no usable Vulkan device")) << none.reason;

    const BackendChoice feature =
        chooseBackend(sample("sword_trail.json"), BackendRequest::automatic, kGpu);
    EXPECT_TRUE(feature.ok);
    EXPECT_EQ(feature.backend, Backend::cpu);
    EXPECT_TRUE(mentions(feature, "emitter 'blade' uses ribbon_render")) << feature.reason;

    // The first emitter that keeps it on the CPU is named, by compiled order.
    CompiledEffect prefers_cpu = campfire;
    prefers_cpu.emitters[1].backend = kBackendCpu;
    prefers_cpu.emitters[2].backend = kBackendCpu;
    const BackendChoice preference = chooseBackend(prefers_cpu, BackendRequest::automatic, kGpu);
    EXPECT_EQ(preference.backend, Backend::cpu);
    EXPECT_TRUE(mentions(preference, "emitter 'smoke' asks for the cpu backend"))
        << preference.reason;
}

TEST(BackendChoice, RequestNamesRoundTripAndUnknownOnesAreRefused) {
    for (const BackendRequest r :
         {BackendRequest::cpu, BackendRequest::gpu, BackendRequest::automatic}) {
        BackendRequest parsed = BackendRequest::cpu;
        ASSERT_TRUE(parseBackendRequest(backendRequestName(r), parsed));
        EXPECT_EQ(parsed, r);
    }
    BackendRequest unchanged = BackendRequest::gpu;
    EXPECT_FALSE(parseBackendRequest("vulkan", unchanged));
    EXPECT_FALSE(parseBackendRequest("", unchanged));
    EXPECT_EQ(unchanged, BackendRequest::gpu);
}

} // namespace
} // namespace spindrift
