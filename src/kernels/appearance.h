// A particle's appearance: colour and size over life and by speed. Appearance is a pure function
// of stored values, evaluated when draw records and ribbon strips are written
// (docs/cpu-backend.md, "The pool"). sdParticleAppearance is the one composition both backends
// run: the born colour and size times every appearance op of the emitter, in compiled order, each
// sampling its LUT row at sdAppearanceLutParameter and folded in by sdApplyAppearanceTexel.
// sdParticleDrawRecord is the one composition of a draw record (draw_record.h) from a particle's
// stored values. A shader including this header enables GL_EXT_buffer_reference (the op and LUT
// views, SD_READONLY_REF).
#ifndef SPINDRIFT_KERNELS_APPEARANCE_H
#define SPINDRIFT_KERNELS_APPEARANCE_H

#include "blackbody.h"
#include "draw_record.h"
#include "effect_records.h"
#include "integrate.h"
#include "lut.h"
#include "shared_types.h"
#include "transform.h"

SD_BEGIN_NAMESPACE

// The compiled effect's op records as kernels read them: ops[i] (SD_READONLY_REF); an emitter's
// ops are [op_first, op_first + op_count) in execution order.
SD_READONLY_REF(OpRecordsRef, OpRecord, ops, 16);

// A particle as drawn.
struct ParticleAppearance {
    vec4 color;           // linear RGBA, straight alpha, after every colour op
    float size;           // m (billboard edge, ribbon width factor), after every size op
    float normalized_age; // age / lifetime in [0, 1]
};

SD_FUNC bool sdIsAppearanceOp(uint op) {
    return op == kOpColorOverLife || op == kOpSizeOverLife || op == kOpColorBySpeed ||
           op == kOpSizeBySpeed || op == kOpBlackbody;
}

// Where an appearance op samples its LUT row: the normalised age for the over-life ops, the
// clamped normalised speed (params0.x = min speed, params0.y = max speed) for the by-speed ops.
SD_FUNC float sdAppearanceLutParameter(OpRecord op, float normalized_age, float speed) {
    bool by_speed = op.op == kOpColorBySpeed || op.op == kOpSizeBySpeed;
    return by_speed ? sdSpeedParameter(speed, op.params0.x, op.params0.y) : normalized_age;
}

// Folds one appearance op's texel into the colour (colour ops: component-wise product) or the
// size (size ops: times the curve value in .x). The blackbody op's texel is a temperature in .x
// (kelvin): rgb times sdBlackbodyColor of it times intensity, alpha kept. Other ops change
// nothing.
SD_FUNC void sdApplyAppearanceTexel(OpRecord op, vec4 texel, SD_INOUT(vec4) color,
                                    SD_INOUT(float) size) {
    if (op.op == kOpColorOverLife || op.op == kOpColorBySpeed) color = color * texel;
    if (op.op == kOpSizeOverLife || op.op == kOpSizeBySpeed) size = size * texel.x;
    if (op.op == kOpBlackbody) {
        vec3 rgb = vec3(color) * sdBlackbodyColor(texel.x) * op.params0.x;
        color = vec4(rgb, color.w);
    }
}

// The appearance of a particle with stored colour, size, age, lifetime and velocity (simulation
// space: rigid transforms do not change its length, the speed of the by-speed ops), under the ops
// [op_first, op_first + op_count) of `ops`: the stored colour and size multiplied by every colour
// and size over life and by speed op, in that order; other ops are skipped. The CPU's
// writeDrawRecords and writeRibbonStrips and the GPU's draw-record pass all call it.
SD_FUNC ParticleAppearance sdParticleAppearance(LutRef lut, OpRecordsRef ops, uint op_first,
                                                uint op_count, vec4 color, float size, float age_s,
                                                float lifetime_s, vec3 velocity) {
    ParticleAppearance look;
    look.normalized_age = sdNormalizedAge(age_s, lifetime_s);
    look.color = color;
    look.size = size;
    float speed = length(velocity);
    for (uint k = 0u; k < op_count; ++k) {
        OpRecord op = ops.ops[op_first + k];
        if (!sdIsAppearanceOp(op.op)) continue;
        vec4 texel =
            sdLutSample(lut, op.lut_row, sdAppearanceLutParameter(op, look.normalized_age, speed));
        sdApplyAppearanceTexel(op, texel, look.color, look.size);
    }
    return look;
}

// What the draw rules read of one particle: its stored values (pool columns), in simulation
// space. The caller fetches them (SoA columns on either backend).
struct StoredParticle {
    vec4 color; // stored (born) colour: linear RGBA, straight alpha
    vec3 position;
    vec3 velocity;
    float size; // stored (born) size, m
    float rotation_rad;
    float age_s;
    float lifetime_s;
    uint key; // sdParticleKey
};

// The draw record of particle p of emitter e (index emitter_index): colour and size after every
// appearance op (sdParticleAppearance over e's ops), the flipbook frame at its normalised age
// (sdFlipbookFrame), position and velocity carried to the world by world_from_sim's rows
// (identity for a world-space effect), rotation and key as stored. Both backends' draw-record
// writers call it (src/cpu/draw_records.cpp, shaders/gpu_draw_records.comp).
SD_FUNC DrawRecord sdParticleDrawRecord(LutRef lut, OpRecordsRef ops, EmitterRecord e,
                                        uint emitter_index, vec4 world_from_sim0,
                                        vec4 world_from_sim1, vec4 world_from_sim2,
                                        StoredParticle p) {
    ParticleAppearance look = sdParticleAppearance(lut, ops, e.op_first, e.op_count, p.color,
                                                   p.size, p.age_s, p.lifetime_s, p.velocity);
    vec3 position = sdTransformPoint(world_from_sim0, world_from_sim1, world_from_sim2, p.position);
    vec3 velocity =
        sdTransformVector(world_from_sim0, world_from_sim1, world_from_sim2, p.velocity);
    return sdDrawRecord(position, look.size, look.color, velocity, p.rotation_rad,
                        look.normalized_age, sdFlipbookFrame(e, look.normalized_age, p.key),
                        emitter_index, p.key);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_APPEARANCE_H
