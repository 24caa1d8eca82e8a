// Which simulation backend runs an effect instance (issue 5, item 4; docs/gpu-backend.md,
// "Choosing a backend"). One pure function every host calls (DESIGN rule 3): the CLI's simulate
// and render, the scene player, later the runtime. It needs no Vulkan: the host says what device
// it has (render/simulation_device.h probes one).
//
// The choice is per instance, not per emitter: one effect runs wholly on one backend. Splitting
// an effect across both would need the two backends to exchange sub-emitter events and share one
// draw order every step; until then an emitter that cannot run on the GPU keeps its whole
// instance on the CPU, and the reason names it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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
    Backend backend = Backend::cpu;
    std::string reason; // one line: why this backend, or why the request fails
};

// Picks the backend of one instance of effect:
// - cpu: the CPU backend (the reason notes an emitter that prefers the GPU).
// - gpu: the GPU backend when a device is present (a CPU device included, on request) and every
//   emitter needs only features the GPU backend runs (kGpuFeatures); otherwise ok = false and the
//   reason names the missing device, or the first emitter and feature it lacks. An emitter's own
//   `backend: cpu` preference does not stop an explicit request; the reason notes it.
// - automatic: the GPU backend only when the device is a GPU (not a CPU device) and every emitter
//   both allows it (its preference is auto or gpu) and needs only GPU features; otherwise the CPU
//   backend, the reason naming the first thing that kept it there (the device, else the first
//   emitter by compiled order, its preference or its first missing feature with its JSON path).
BackendChoice chooseBackend(const CompiledEffect& effect, BackendRequest request,
                            const SimulationDevice& device);

// "cpu", "gpu", "auto".
std::string_view backendRequestName(BackendRequest request);
// Parses "cpu", "gpu" or "auto"; false for anything else.
bool parseBackendRequest(std::string_view text, BackendRequest& out);

} // namespace spindrift
