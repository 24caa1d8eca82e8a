// The CPU backend's fetch for the draw rules of src/kernels/appearance.h: a particle's stored
// values from the pool's columns, and the effect's LUT and op records as the kernels' read-only
// views. Every draw path of the CPU backend (draw records, draw_records.cpp; ribbon strips,
// trails.cpp) gives a particle the same colour and size because both call sdParticleAppearance
// (DESIGN rule 3), which the GPU backend's draw pass calls too.
//
// Appearance is a pure function of stored values, so it is evaluated when drawing, not in the
// step (docs/cpu-backend.md, "The pool"). Inline: it runs once per particle in writeDrawRecords'
// loop.
#pragma once

#include <cstdint>

#include "compiler/compiled_effect.h"
#include "cpu/particle_pool.h"
#include "kernels/appearance.h"

namespace spindrift::cpu {

inline LutRef lutRef(const CompiledEffect& effect) {
    return LutRef{effect.lut.data()};
}

inline OpRecordsRef opRecordsRef(const CompiledEffect& effect) {
    return OpRecordsRef{effect.ops.data()};
}

// The stored values of the particle in slot (< pool.count), in simulation space.
inline StoredParticle storedParticle(const ParticlePool& pool, uint32_t slot) {
    StoredParticle p;
    p.color = vec4(pool.color_r[slot], pool.color_g[slot], pool.color_b[slot], pool.color_a[slot]);
    p.position = vec3(pool.position_x[slot], pool.position_y[slot], pool.position_z[slot]);
    p.velocity = vec3(pool.velocity_x[slot], pool.velocity_y[slot], pool.velocity_z[slot]);
    p.size = pool.size[slot];
    p.rotation_rad = pool.rotation_rad[slot];
    p.age_s = pool.age_s[slot];
    p.lifetime_s = pool.lifetime_s[slot];
    p.key = pool.key[slot];
    return p;
}

// The particle in slot of emitter as drawn (sdParticleAppearance): colour, size, normalised age.
inline ParticleAppearance particleAppearance(const CompiledEffect& effect,
                                             const EmitterRecord& emitter, const ParticlePool& pool,
                                             uint32_t slot) {
    return sdParticleAppearance(
        lutRef(effect), opRecordsRef(effect), emitter.op_first, emitter.op_count,
        vec4(pool.color_r[slot], pool.color_g[slot], pool.color_b[slot], pool.color_a[slot]),
        pool.size[slot], pool.age_s[slot], pool.lifetime_s[slot],
        vec3(pool.velocity_x[slot], pool.velocity_y[slot], pool.velocity_z[slot]));
}

} // namespace spindrift::cpu
