#include "runtime/backend_choice.h"

#include <algorithm>

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

BackendChoice wholeChoice(bool ok, Backend backend, std::string reason, size_t emitters) {
    return {ok, backend, std::move(reason), std::vector<Backend>(emitters, backend)};
}

// The group of each emitter: emitters linked by sub-emitters, transitively, share one (the
// smallest index among them).
std::vector<uint32_t> linkGroups(const CompiledEffect& effect) {
    std::vector<uint32_t> group(effect.emitters.size());
    for (uint32_t e = 0; e < group.size(); ++e) group[e] = e;
    auto root = [&](uint32_t e) {
        while (group[e] != e) e = group[e] = group[group[e]];
        return e;
    };
    for (uint32_t e = 0; e < group.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        for (uint32_t k = 0; k < emitter.sub_emitter_count; ++k) {
            const uint32_t child = effect.sub_emitters[emitter.sub_emitter_first + k].emitter;
            if (child >= group.size()) continue;
            const uint32_t a = root(e), b = root(child);
            group[std::max(a, b)] = std::min(a, b);
        }
    }
    for (uint32_t e = 0; e < group.size(); ++e) group[e] = root(e);
    return group;
}

} // namespace

BackendChoice chooseBackend(const CompiledEffect& effect, BackendRequest request,
                            const SimulationDevice& device) {
    switch (request) {
    case BackendRequest::cpu: {
        std::string reason = "cpu requested";
        if (const EmitterRecord* e = firstPreferring(effect, kBackendGpu))
            reason += " (" + emitterLabel(effect, *e) + " prefers gpu)";
        return wholeChoice(true, Backend::cpu, reason, effect.emitters.size());
    }
    case BackendRequest::gpu: {
        if (device.kind == DeviceKind::none)
            return wholeChoice(false, Backend::gpu,
                               "gpu requested, but there is " + noDevice(device),
                               effect.emitters.size());
        const std::string gap = firstGpuGap(effect);
        if (!gap.empty()) {
            return wholeChoice(false, Backend::gpu, "gpu requested, but " + gap,
                               effect.emitters.size());
        }
        std::string reason = "gpu requested, on " + deviceLabel(device);
        if (device.kind == DeviceKind::cpu)
            reason += " (a CPU device: slower than the CPU backend)";
        if (const EmitterRecord* e = firstPreferring(effect, kBackendCpu))
            reason += " (" + emitterLabel(effect, *e) + " prefers cpu)";
        return wholeChoice(true, Backend::gpu, reason, effect.emitters.size());
    }
    case BackendRequest::automatic:
        break;
    }
    const size_t n = effect.emitters.size();
    if (device.kind == DeviceKind::none) {
        return wholeChoice(true, Backend::cpu, "auto: " + noDevice(device), n);
    }
    if (device.kind == DeviceKind::cpu) {
        return wholeChoice(true, Backend::cpu,
                           "auto: " + deviceLabel(device) +
                               " is a CPU device, where the CPU backend is faster (ask for gpu to "
                               "use it anyway)",
                           n);
    }
    // Why each emitter cannot run on the GPU ("" when it can): its preference, else the first
    // feature the GPU backend lacks. A group goes to the CPU when any member has a reason.
    std::vector<std::string> why_cpu(n);
    for (uint32_t e = 0; e < n; ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        why_cpu[e] = emitter.backend == kBackendCpu
                         ? emitterLabel(effect, emitter) + " asks for the cpu backend"
                         : gpuGapOf(effect, e);
        // The GPU backend runs an emitter with particle lights, but its records stay on the
        // device: the public draw list makes no lights of it, and the scene player reads its
        // particles back each frame to make them (render/particle_lights.h). auto keeps it where
        // its lights cost nothing.
        if (why_cpu[e].empty() && particleLights(effect, e).count > 0) {
            why_cpu[e] = emitterLabel(effect, emitter) +
                         " makes particle lights (render.lights), which a GPU emitter makes only "
                         "from a readback";
        }
    }
    const std::vector<uint32_t> group = linkGroups(effect);
    BackendChoice choice{true, Backend::gpu, "", std::vector<Backend>(n, Backend::gpu)};
    std::string first_reason;
    std::string left_on_cpu;
    for (uint32_t e = 0; e < n; ++e) {
        for (uint32_t m = 0; m < n; ++m) {
            if (group[m] != group[e] || why_cpu[m].empty()) continue;
            choice.emitters[e] = Backend::cpu;
            if (first_reason.empty()) {
                first_reason = why_cpu[m] + (m == e ? "" : " (linked by sub-emitters)");
            }
            break;
        }
        if (choice.emitters[e] != Backend::cpu) continue;
        left_on_cpu += (left_on_cpu.empty() ? "" : ", ") + emitterLabel(effect, effect.emitters[e]);
    }
    const auto on_cpu = static_cast<size_t>(
        std::count(choice.emitters.begin(), choice.emitters.end(), Backend::cpu));
    if (on_cpu == n) return wholeChoice(true, Backend::cpu, "auto: " + first_reason, n);
    if (on_cpu == 0) {
        choice.reason = "auto: every emitter can run on the GPU backend, on " + deviceLabel(device);
        return choice;
    }
    choice.reason = "auto: split: the GPU backend on " + deviceLabel(device) + ", except " +
                    left_on_cpu + " on the CPU: " + first_reason;
    return choice;
}

bool splitsEffect(const BackendChoice& choice) {
    for (const Backend b : choice.emitters) {
        if (b != choice.emitters.front()) return true;
    }
    return false;
}

std::shared_ptr<const CompiledEffect> runOnly(std::shared_ptr<const CompiledEffect> effect,
                                              const BackendChoice& choice, Backend backend) {
    if (std::count(choice.emitters.begin(), choice.emitters.end(), backend) ==
        static_cast<std::ptrdiff_t>(choice.emitters.size())) {
        return nullptr;
    }
    auto copy = std::make_shared<CompiledEffect>(*effect);
    for (uint32_t e = 0; e < copy->emitters.size(); ++e) {
        if (e < choice.emitters.size() && choice.emitters[e] != backend) {
            copy->emitters[e].capacity = 0;
        }
    }
    return copy;
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
