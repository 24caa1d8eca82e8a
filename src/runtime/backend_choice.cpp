#include "runtime/backend_choice.h"

namespace spindrift {

namespace {

std::string emitterLabel(const CompiledEffect& effect, const EmitterRecord& emitter) {
    return "emitter '" + std::string(stringAt(effect, emitter.name_offset, emitter.name_length)) +
           "'";
}

// Emitter e's first feature the GPU backend cannot run, as "emitter 'x' uses sub_emitters
// ($.emitters[1].sub_emitters), which the GPU backend does not run yet"; "" when it runs them all.
std::string gpuGapOf(const CompiledEffect& effect, uint32_t e) {
    for (const FeatureUse& use : emitterFeatureUses(effect, e)) {
        if ((kGpuFeatures & static_cast<FeatureSet>(use.feature)) != 0) continue;
        return emitterLabel(effect, effect.emitters[e]) + " uses " +
               std::string(featureName(use.feature)) + " (" + use.path +
               "), which the GPU backend does not run yet";
    }
    return "";
}

std::string firstGpuGap(const CompiledEffect& effect) {
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        std::string gap = gpuGapOf(effect, e);
        if (!gap.empty()) return gap;
    }
    return "";
}

// The first emitter whose `backend` preference is `preference`; nullptr when none.
const EmitterRecord* firstPreferring(const CompiledEffect& effect, uint32_t preference) {
    for (const EmitterRecord& emitter : effect.emitters) {
        if (emitter.backend == preference) return &emitter;
    }
    return nullptr;
}

std::string deviceLabel(const SimulationDevice& device) {
    return "device '" + device.name + "'";
}

std::string noDevice(const SimulationDevice& device) {
    return "no usable Vulkan device" + (device.why_none.empty() ? "" : ": " + device.why_none);
}

BackendChoice cpuChoice(std::string reason) {
    return {true, Backend::cpu, std::move(reason)};
}

} // namespace

BackendChoice chooseBackend(const CompiledEffect& effect, BackendRequest request,
                            const SimulationDevice& device) {
    switch (request) {
    case BackendRequest::cpu: {
        std::string reason = "cpu requested";
        if (const EmitterRecord* e = firstPreferring(effect, kBackendGpu))
            reason += " (" + emitterLabel(effect, *e) + " prefers gpu)";
        return cpuChoice(reason);
    }
    case BackendRequest::gpu: {
        if (device.kind == DeviceKind::none)
            return {false, Backend::gpu, "gpu requested, but there is " + noDevice(device)};
        const std::string gap = firstGpuGap(effect);
        if (!gap.empty()) return {false, Backend::gpu, "gpu requested, but " + gap};
        std::string reason = "gpu requested, on " + deviceLabel(device);
        if (device.kind == DeviceKind::cpu)
            reason += " (a CPU device: slower than the CPU backend)";
        if (const EmitterRecord* e = firstPreferring(effect, kBackendCpu))
            reason += " (" + emitterLabel(effect, *e) + " prefers cpu)";
        return {true, Backend::gpu, reason};
    }
    case BackendRequest::automatic:
        break;
    }
    if (device.kind == DeviceKind::none) return cpuChoice("auto: " + noDevice(device));
    if (device.kind == DeviceKind::cpu) {
        return cpuChoice("auto: " + deviceLabel(device) +
                         " is a CPU device, where the CPU backend is faster (ask for gpu to use "
                         "it anyway)");
    }
    // The first emitter in compiled order that keeps the instance on the CPU, by its preference
    // or by a feature the GPU backend lacks.
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        if (emitter.backend == kBackendCpu)
            return cpuChoice("auto: " + emitterLabel(effect, emitter) +
                             " asks for the cpu backend");
        const std::string gap = gpuGapOf(effect, e);
        if (!gap.empty()) return cpuChoice("auto: " + gap);
    }
    return {true, Backend::gpu,
            "auto: every emitter can run on the GPU backend, on " + deviceLabel(device)};
}

std::string_view backendRequestName(BackendRequest request) {
    switch (request) {
    case BackendRequest::cpu:
        return "cpu";
    case BackendRequest::gpu:
        return "gpu";
    case BackendRequest::automatic:
        return "auto";
    }
    return "?";
}

bool parseBackendRequest(std::string_view text, BackendRequest& out) {
    for (const BackendRequest r :
         {BackendRequest::cpu, BackendRequest::gpu, BackendRequest::automatic}) {
        if (text == backendRequestName(r)) {
            out = r;
            return true;
        }
    }
    return false;
}

} // namespace spindrift
