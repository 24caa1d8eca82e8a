// chooseBackend: every request on every kind of device, and the reason it gives.
#include <gtest/gtest.h>

#include <string>

#include "cook/effect_file.h"
#include "runtime/backend_choice.h"

namespace spindrift {
namespace {

CompiledEffect sample(const std::string& name, const std::string& folder = "/examples/effects/") {
    CompiledEffect effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(
        loadCompiledEffect(std::string(SPINDRIFT_SOURCE_DIR) + folder + name, effect, diagnostics));
    return effect;
}

// Rain that also collides with the renderer's depth buffer: a feature the GPU backend lacks.
CompiledEffect depthRain() {
    return sample("depth_rain.json", "/tests/data/effects/");
}

// The campfire sample without its particle lights (its flames make 4), which keep an emitter on
// the CPU under auto: the GPU could run every emitter of it then.
CompiledEffect campfireWithoutLights() {
    CompiledEffect campfire = sample("campfire.json");
    campfire.particle_lights.clear();
    return campfire;
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

TEST(BackendChoice, GpuRequestFailsWithoutADevice) {
    const BackendChoice no_device =
        chooseBackend(sample("campfire.json"), BackendRequest::gpu, kNoDevice);
    EXPECT_FALSE(no_device.ok);
    EXPECT_TRUE(mentions(no_device, "no usable Vulkan device: no Vulkan driver"))
        << no_device.reason;
    // Depth-buffer collision, the last feature the GPU backend lacked, it runs (issue 17).
    const BackendChoice depth = chooseBackend(depthRain(), BackendRequest::gpu, kGpu);
    EXPECT_TRUE(depth.ok) << depth.reason;
    EXPECT_EQ(depth.backend, Backend::gpu);
}

TEST(BackendChoice, AutoPicksTheGpuOnlyOnAGpuDeviceWhenEveryEmitterAllowsIt) {
    const CompiledEffect campfire = campfireWithoutLights();
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

    const BackendChoice depth = chooseBackend(depthRain(), BackendRequest::automatic, kGpu);
    EXPECT_TRUE(depth.ok);
    EXPECT_EQ(depth.backend, Backend::gpu) << depth.reason;

    // Every emitter asking for the CPU: all on the CPU, the first one named.
    CompiledEffect prefers_cpu = campfire;
    for (EmitterRecord& e : prefers_cpu.emitters) e.backend = kBackendCpu;
    const BackendChoice preference = chooseBackend(prefers_cpu, BackendRequest::automatic, kGpu);
    EXPECT_EQ(preference.backend, Backend::cpu);
    EXPECT_FALSE(splitsEffect(preference));
    EXPECT_TRUE(mentions(preference, "emitter 'flames' asks for the cpu backend"))
        << preference.reason;
}

// auto chooses per emitter: the campfire's unlinked emitters go each their own way, and the
// reason names the ones left on the CPU and why.
TEST(BackendChoice, AutoSplitsAnEffectWhoseEmittersDisagree) {
    CompiledEffect campfire = campfireWithoutLights();
    // flames, smoke, embers, firelight, halo
    ASSERT_EQ(campfire.emitters.size(), 5u);
    campfire.emitters[1].backend = kBackendCpu; // smoke
    const BackendChoice choice = chooseBackend(campfire, BackendRequest::automatic, kGpu);
    EXPECT_TRUE(choice.ok);
    EXPECT_EQ(choice.backend, Backend::gpu);
    EXPECT_TRUE(splitsEffect(choice));
    EXPECT_EQ(choice.emitters, (std::vector<Backend>{Backend::gpu, Backend::cpu, Backend::gpu,
                                                     Backend::gpu, Backend::gpu}));
    EXPECT_TRUE(mentions(choice, "split")) << choice.reason;
    EXPECT_TRUE(mentions(choice, "emitter 'smoke' on the CPU")) << choice.reason;
    EXPECT_TRUE(mentions(choice, "asks for the cpu backend")) << choice.reason;
    // An explicit request does not split.
    EXPECT_FALSE(splitsEffect(chooseBackend(campfire, BackendRequest::gpu, kGpu)));
    EXPECT_FALSE(splitsEffect(chooseBackend(campfire, BackendRequest::cpu, kGpu)));

    // runOnly: each part keeps its emitters and switches the others off (capacity 0), nothing
    // else changes.
    const auto shared = std::make_shared<const CompiledEffect>(campfire);
    const auto gpu_part = runOnly(shared, choice, Backend::gpu);
    const auto cpu_part = runOnly(shared, choice, Backend::cpu);
    ASSERT_NE(gpu_part, nullptr);
    ASSERT_NE(cpu_part, nullptr);
    for (uint32_t e = 0; e < campfire.emitters.size(); ++e) {
        const bool gpu = choice.emitters[e] == Backend::gpu;
        EXPECT_EQ(gpu_part->emitters[e].capacity, gpu ? campfire.emitters[e].capacity : 0u);
        EXPECT_EQ(cpu_part->emitters[e].capacity, gpu ? 0u : campfire.emitters[e].capacity);
    }
    EXPECT_EQ(gpu_part->ops.size(), campfire.ops.size());
    const BackendChoice whole = chooseBackend(campfire, BackendRequest::gpu, kGpu);
    EXPECT_EQ(runOnly(shared, whole, Backend::gpu), nullptr) << "nothing to switch off";
}

// Particle lights are chosen from host draw records, so auto keeps an emitter making them on the
// CPU (the campfire's flames), and says why; an explicit gpu request still runs it there.
TEST(BackendChoice, AutoKeepsEmittersMakingParticleLightsOnTheCpu) {
    const CompiledEffect campfire = sample("campfire.json");
    ASSERT_EQ(particleLights(campfire, 0).count, 4u); // flames
    const BackendChoice choice = chooseBackend(campfire, BackendRequest::automatic, kGpu);
    EXPECT_TRUE(choice.ok);
    EXPECT_EQ(choice.emitters, (std::vector<Backend>{Backend::cpu, Backend::gpu, Backend::gpu,
                                                     Backend::gpu, Backend::gpu}));
    EXPECT_TRUE(mentions(choice, "emitter 'flames' makes particle lights (render.lights)"))
        << choice.reason;
    EXPECT_EQ(chooseBackend(campfire, BackendRequest::gpu, kGpu).backend, Backend::gpu);
}

// Emitters linked by sub-emitters go together: a child the GPU could run stays with a parent it
// cannot, and a parent with its child.
TEST(BackendChoice, SubEmitterLinkedEmittersStayOnOneBackend) {
    CompiledEffect fountain = sample("fountain.json");
    ASSERT_GE(fountain.emitters.size(), 2u);
    const BackendChoice choice = chooseBackend(fountain, BackendRequest::automatic, kGpu);
    std::vector<bool> linked(fountain.emitters.size(), false);
    for (uint32_t e = 0; e < fountain.emitters.size(); ++e) {
        const EmitterRecord& r = fountain.emitters[e];
        for (uint32_t k = 0; k < r.sub_emitter_count; ++k) {
            linked[e] = true;
            linked[fountain.sub_emitters[r.sub_emitter_first + k].emitter] = true;
        }
    }
    for (uint32_t e = 0; e < fountain.emitters.size(); ++e) {
        for (uint32_t m = 0; m < fountain.emitters.size(); ++m) {
            if (linked[e] && linked[m]) {
                EXPECT_EQ(choice.emitters[e], choice.emitters[m]);
            }
        }
    }
    // A child preferring the CPU pulls its parent along.
    uint32_t child = 0;
    for (uint32_t e = 0; e < fountain.emitters.size(); ++e) {
        const EmitterRecord& r = fountain.emitters[e];
        if (r.sub_emitter_count > 0) child = fountain.sub_emitters[r.sub_emitter_first].emitter;
    }
    fountain.emitters[child].backend = kBackendCpu;
    const BackendChoice pulled = chooseBackend(fountain, BackendRequest::automatic, kGpu);
    for (uint32_t e = 0; e < fountain.emitters.size(); ++e) {
        if (linked[e]) {
            EXPECT_EQ(pulled.emitters[e], Backend::cpu) << "emitter " << e;
        }
    }
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
