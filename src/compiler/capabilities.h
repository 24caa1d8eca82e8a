// Capabilities are values (DESIGN rule 4): each backend has a constant feature set, each compiled
// emitter needs a set of features, and the difference is reported per emitter with the JSON path
// of what needs the missing feature. validate, inspect and the editor all call checkBackends.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"

namespace spindrift {

// Frozen numbering (shown by tools, may be stored by hosts).
enum class Backend : uint8_t { cpu = 0, gpu = 1 };
inline constexpr uint32_t kBackendKinds = 2;

// One bit each.
enum class Feature : uint32_t {
    curl_noise = 1u << 0,
    force_fields = 1u << 1,
    attractors = 1u << 2,
    collider_collision = 1u << 3,     // planes, spheres, boxes
    depth_buffer_collision = 1u << 4, // the renderer's scene depth
    sub_emitters = 1u << 5,
    ribbon_render = 1u << 6,
    beam_render = 1u << 7,
    mesh_render = 1u << 8,
    mesh_shape = 1u << 9,
    sorting = 1u << 10,
    stable_order = 1u << 11,
    lit = 1u << 12,
    soft_fade = 1u << 13,
    frame_blend = 1u << 14,
    overflow_replace_oldest = 1u << 15, // a full pool replaces its oldest particles
    gameplay_events = 1u << 16,         // events handed to the host (EmitterDesc::events)
    threshold_sub_emitters = 1u << 17,  // a sub-emitter link on a threshold crossing
};
inline constexpr uint32_t kFeatureCount = 18;
using FeatureSet = uint32_t;
inline constexpr FeatureSet kAllFeatures = (1u << kFeatureCount) - 1u;

// What each backend runs today: everything. depth_buffer collision meets the scene depth the
// world is given (World::setSceneDepth, or the renderer's previous frame in the engine's own
// hosts: collision.h, sdContactSceneDepth) on both backends, read at a host pointer on the CPU
// and at a buffer device address on the GPU; without one it meets the world's colliders only,
// and backendNotes says so for inspect and validate. The GPU backend (src/gpu/,
// docs/gpu-backend.md) runs stable order and replace_oldest on its birth-ordered alive lists,
// sub-emitter events on birth, death, collision and threshold crossings (a parallel gather and
// assignment with the CPU's order) and ribbon trails in per-slot rings; events to gameplay it
// delivers (src/gpu/gameplay_capture.h).
inline constexpr FeatureSet kCpuFeatures = kAllFeatures;
inline constexpr FeatureSet kGpuFeatures = kAllFeatures;
// What an emitter may ask a backend for with its `backend` preference (checked when compiling):
// what the backend runs today and, for the GPU backend, everything issue 5 is building for it.
// Asking early is never silently wrong: the GPU backend refuses at creation what it cannot run.
inline constexpr FeatureSet kCpuPreferableFeatures = kCpuFeatures;
inline constexpr FeatureSet kGpuPreferableFeatures = kAllFeatures;

// What the backend runs today: what checkBackends, inspect and validate report.
FeatureSet backendFeatures(Backend backend);
// What an emitter preferring the backend may use without failing to compile.
FeatureSet preferableFeatures(Backend backend);
std::string_view backendName(Backend backend); // "cpu", "gpu"
std::string_view featureName(Feature feature); // "depth_buffer_collision", ...

// One feature an emitter needs and the JSON path in the authored effect of what needs it
// ("$.emitters[2].update[4].depth_buffer").
struct FeatureUse {
    Feature feature;
    std::string path;
};

// The features the compiled emitter at emitter_index needs, in record order. Empty for an index
// out of range.
std::vector<FeatureUse> emitterFeatureUses(const CompiledEffect& effect, uint32_t emitter_index);

struct BackendVerdict {
    Backend backend = Backend::cpu;
    bool can_run = true;
    std::vector<std::string> reasons; // "gpu lacks depth_buffer_collision: $.emitters[0]..."
    // How the backend runs what it runs differently from what was asked ("cpu runs
    // depth_buffer_collision against the host's world colliders and distance field: $...").
    std::vector<std::string> notes;
};

struct EmitterBackends {
    uint32_t emitter_index = 0; // in the compiled emitter array
    uint32_t source_index = 0;  // in the authored effect
    std::string name;
    std::array<BackendVerdict, kBackendKinds> backends; // indexed by Backend
};

// For every compiled emitter, which backends can run it and, for those that cannot, why.
std::vector<EmitterBackends> checkBackends(const CompiledEffect& effect);

} // namespace spindrift
