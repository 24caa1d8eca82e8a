// CompiledEffect: an effect as plain records (src/kernels/effect_records.h) plus its baked LUT
// atlas, string table and structural hash. What compileEffect produces, cookEffect writes and
// loadCookedEffect reads back; both backends and the renderer read nothing else.
// Layout and rules: docs/compiled-records.md.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/parameter_bindings.h"
#include "kernels/effect_records.h"

namespace spindrift {

// The effect's scalability block and cosmetic emitters (effect_desc.h, ScalabilityDesc): what the
// world reads to put instances to sleep, fade them and drop emitters at a low quality tier. None
// for an effect whose block and emitters are all default. Frozen: cooked (sfx section 14).
inline constexpr uint32_t kScalabilityWakeRestart = 1u;  // else fast-forward on waking
inline constexpr uint32_t kScalabilityCulledSleeps = 2u; // else keeps simulating when culled
inline constexpr uint32_t kScalabilityFlagsKnown = 3u;
struct ScalabilityRecord {
    float sleep_distance_m = 0; // 0: never sleeps by distance
    float fade_band_m = 0;      // <= sleep_distance_m
    float max_fast_forward_s = 0;
    uint32_t flags = 0;       // kScalability*
    uint32_t cosmetic_lo = 0; // bit e: compiled emitter e (0..31) is cosmetic
    uint32_t cosmetic_hi = 0; // emitters 32..63
    uint32_t reserved0 = 0;
    uint32_t reserved1 = 0;
};
static_assert(sizeof(ScalabilityRecord) == 32);

struct CompiledEffect {
    EffectRecord effect{};
    std::vector<EmitterRecord> emitters; // enabled emitters, authored order
    std::vector<OpRecord> ops;           // each emitter's ops are one contiguous range
    std::vector<BurstRecord> bursts;
    std::vector<ColliderRecord> colliders;
    std::vector<ForceFieldRecord> force_fields;
    std::vector<MeshPointRecord> mesh_points;
    std::vector<SubEmitterRecord> sub_emitters;
    // One per emitter when any emitter has an events block (kinds or a threshold), else empty:
    // an effect without events carries nothing for them.
    std::vector<EmitterEventsRecord> emitter_events;
    std::vector<vec4> lut; // lutRowCount() rows of kLutWidth texels
    std::string strings;   // names and paths, referenced by (offset, length)
    uint64_t structural_hash = 0;
    // User parameters and the record words bound to them (compiler/parameter_bindings.h); empty
    // for an effect without parameters.
    std::vector<ParameterRecord> parameters;
    std::vector<ParameterBindingRecord> parameter_bindings;
    std::vector<ScalabilityRecord> scalability; // 0 or 1
    // One per emitter when any emitter makes particle lights (render.lights.count > 0), else
    // empty: an effect without them carries nothing for them.
    std::vector<ParticleLightRecord> particle_lights;

    uint32_t lutRowCount() const { return static_cast<uint32_t>(lut.size() / kLutWidth); }
};

// The text of a string-table reference; empty when the reference is kNone or out of range.
inline std::string_view stringAt(const CompiledEffect& effect, uint32_t offset, uint32_t length) {
    if (offset == kNone || offset > effect.strings.size() ||
        length > effect.strings.size() - offset) {
        return {};
    }
    return std::string_view(effect.strings).substr(offset, length);
}

// Emitter e's particle-light record, or one making none (count 0) when the effect has none.
inline ParticleLightRecord particleLights(const CompiledEffect& effect, uint32_t e) {
    if (e < effect.particle_lights.size()) return effect.particle_lights[e];
    return ParticleLightRecord{};
}

// Emitter e's events record, or a record asking for nothing (no kinds, no threshold) when the
// effect has none.
inline EmitterEventsRecord emitterEvents(const CompiledEffect& effect, uint32_t e) {
    if (e < effect.emitter_events.size()) return effect.emitter_events[e];
    EmitterEventsRecord none{};
    none.max_per_step = 1;
    return none;
}

namespace detail {
template <typename T> bool sameBytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
} // namespace detail

// Bit-for-bit equality (floats compare by their bits, so -0 != +0 and a NaN equals itself).
inline bool operator==(const CompiledEffect& a, const CompiledEffect& b) {
    return std::memcmp(&a.effect, &b.effect, sizeof(EffectRecord)) == 0 &&
           detail::sameBytes(a.emitters, b.emitters) && detail::sameBytes(a.ops, b.ops) &&
           detail::sameBytes(a.bursts, b.bursts) && detail::sameBytes(a.colliders, b.colliders) &&
           detail::sameBytes(a.force_fields, b.force_fields) &&
           detail::sameBytes(a.mesh_points, b.mesh_points) &&
           detail::sameBytes(a.sub_emitters, b.sub_emitters) && detail::sameBytes(a.lut, b.lut) &&
           a.strings == b.strings && a.structural_hash == b.structural_hash &&
           detail::sameBytes(a.parameters, b.parameters) &&
           detail::sameBytes(a.parameter_bindings, b.parameter_bindings) &&
           detail::sameBytes(a.emitter_events, b.emitter_events) &&
           detail::sameBytes(a.scalability, b.scalability) &&
           detail::sameBytes(a.particle_lights, b.particle_lights);
}

} // namespace spindrift
