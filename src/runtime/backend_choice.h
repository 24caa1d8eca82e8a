// Which simulation backend runs an effect instance (issue 5, item 4; docs/gpu-backend.md,
// "Choosing a backend"). One pure function every host calls (DESIGN rule 3): the CLI's simulate
// and render, the scene player, later the runtime. It needs no Vulkan: the host says what device
// it has (runtime/simulation_device.h probes one).
//
// The choice is per emitter under `auto`: the emitters linked by sub-emitters (a group: parents
// and children, transitively) go together, since their events pass from parent to child every
// step; each group runs on the GPU when a GPU is present and every member allows it and needs
// only GPU features, else on the CPU. An effect whose groups land on both backends is split:
// both backends run the same compiled effect, each with the other's emitters switched off
// (runOnly), so keys, ordinals and draw order are as if one backend ran it all.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/capabilities.h"
#include "compiler/compiled_effect.h"

namespace spindrift {

// What a host asks for (`--backend cpu|gpu|auto`).
enum class BackendRequest : uint8_t { cpu = 0, gpu = 1, automatic = 2 };

// The device a GPU instance would run on. A CPU device (Mesa's lavapipe) runs the GPU backend
// correctly but slower than the CPU backend, so `auto` never picks the GPU on one.
enum class DeviceKind : uint8_t { none = 0, cpu = 1, gpu = 2 };

struct SimulationDevice {
    DeviceKind kind = DeviceKind::none;
    std::string name;     // the device's name; "" when there is none
    std::string why_none; // kind none: why there is no usable device (the probe's first error)
};

struct BackendChoice {
    bool ok = true; // false: the request cannot be met (an explicit gpu request)
    // The instance's backend: gpu when any emitter runs on the GPU.
    Backend backend = Backend::cpu;
    std::string reason; // one line: why this backend (or split), or why the request fails
    // Per emitter (compiled order), the backend that runs it; every entry is `backend` unless
    // the effect is split.
    std::vector<Backend> emitters;
};

// Whether the choice runs some emitters on each backend.
bool splitsEffect(const BackendChoice& choice);

// A copy of effect in which only the emitters `choice` gives to `backend` run: every other
// emitter's capacity is 0, so it holds, spawns, updates and draws nothing (its driver plan still
// runs, which changes nothing else: keys and ordinals are per emitter). nullptr when no emitter
// is switched off (use effect itself).
std::shared_ptr<const CompiledEffect> runOnly(std::shared_ptr<const CompiledEffect> effect,
                                              const BackendChoice& choice, Backend backend);

// Picks the backend of one instance of effect:
// - cpu: the CPU backend (the reason notes an emitter that prefers the GPU).
// - gpu: the GPU backend when a device is present (a CPU device included, on request) and every
//   emitter needs only features the GPU backend runs (kGpuFeatures); otherwise ok = false and the
//   reason names the missing device, or the first emitter and feature it lacks. An emitter's own
//   `backend: cpu` preference does not stop an explicit request; the reason notes it.
// - automatic: per group of sub-emitter-linked emitters, the GPU backend when the device is a GPU
//   (not a CPU device) and every member both allows it (its preference is auto or gpu), needs
//   only GPU features and makes no particle lights (render.lights: only host emitters make them),
//   else the CPU backend. All on the CPU: the reason names the first thing that
//   kept them there (the device, else the first emitter by compiled order, its preference or its
//   first missing feature with its JSON path). Split: backend gpu, the reason names the emitters
//   left on the CPU and the first one's cause.
BackendChoice chooseBackend(const CompiledEffect& effect, BackendRequest request,
                            const SimulationDevice& device);

// "cpu", "gpu", "auto".
std::string_view backendRequestName(BackendRequest request);
// Parses "cpu", "gpu" or "auto"; false for anything else.
bool parseBackendRequest(std::string_view text, BackendRequest& out);

} // namespace spindrift
