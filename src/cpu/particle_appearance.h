// A live particle's appearance as drawn: colour and size after every appearance op, and its
// normalised age. One function (DESIGN rule 3) for every draw path of the CPU backend: billboard
// draw records (draw_records.cpp) and ribbon strips (trails.cpp) give a particle the same colour
// and size.
//
// Appearance is a pure function of stored values, so it is evaluated when drawing, not in the
// step (docs/cpu-backend.md, "The pool"). Inline: it runs once per particle in writeDrawRecords'
// loop, which is compiled with the hot-loop options.
#pragma once

#include <cstdint>

#include "compiler/compiled_effect.h"
#include "cpu/particle_pool.h"
#include "kernels/appearance.h"
#include "kernels/integrate.h"
#include "kernels/lut.h"

namespace spindrift::cpu {

struct ParticleAppearance {
    vec4 color{1.0f};         // linear RGBA, straight alpha
    float size = 0;           // edge length (billboards) or width factor (ribbons), m
    float normalized_age = 0; // age / lifetime in [0, 1]
};

inline vec4 appearanceLutTexel(const CompiledEffect& effect, uint32_t row, float t) {
    return sdLutSample(LutRef{effect.lut.data()}, row, t);
}

// The particle in slot (< pool.count) of emitter: its born colour and size multiplied by every
// colour/size over life and by speed op, in compiled order. Speed is the length of the stored
// (simulation-space) velocity; rigid transforms do not change it. The per-op maths is
// src/kernels/appearance.h, which the GPU backend's draw pass runs too.
inline ParticleAppearance particleAppearance(const CompiledEffect& effect,
                                             const EmitterRecord& emitter, const ParticlePool& pool,
                                             uint32_t slot) {
    ParticleAppearance look;
    look.normalized_age = sdNormalizedAge(pool.age_s[slot], pool.lifetime_s[slot]);
    look.color =
        vec4(pool.color_r[slot], pool.color_g[slot], pool.color_b[slot], pool.color_a[slot]);
    look.size = pool.size[slot];
    const float speed =
        length(vec3(pool.velocity_x[slot], pool.velocity_y[slot], pool.velocity_z[slot]));
    for (uint32_t k = 0; k < emitter.op_count; ++k) {
        const OpRecord& op = effect.ops[emitter.op_first + k];
        if (!sdIsAppearanceOp(op.op)) continue;
        const vec4 texel = appearanceLutTexel(
            effect, op.lut_row, sdAppearanceLutParameter(op, look.normalized_age, speed));
        sdApplyAppearanceTexel(op.op, texel, look.color, look.size);
    }
    return look;
}

} // namespace spindrift::cpu
