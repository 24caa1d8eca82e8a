// A particle's appearance ops: colour and size over life and by speed. Appearance is a pure
// function of stored values, evaluated when draw records are written (docs/cpu-backend.md, "The
// pool"). Both backends walk the emitter's ops in compiled order and, for each appearance op,
// fetch the LUT texel at sdAppearanceLutParameter and fold it in with sdApplyAppearanceTexel; the
// texel fetch is the caller's (a C++ vector on the CPU, a buffer on the GPU).
#ifndef SPINDRIFT_KERNELS_APPEARANCE_H
#define SPINDRIFT_KERNELS_APPEARANCE_H

#include "effect_records.h"
#include "lut.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

SD_FUNC bool sdIsAppearanceOp(uint op) {
    return op == kOpColorOverLife || op == kOpSizeOverLife || op == kOpColorBySpeed ||
           op == kOpSizeBySpeed;
}

// Where an appearance op samples its LUT row: the normalised age for the over-life ops, the
// clamped normalised speed (params0.x = min speed, params0.y = max speed) for the by-speed ops.
SD_FUNC float sdAppearanceLutParameter(OpRecord op, float normalized_age, float speed) {
    bool by_speed = op.op == kOpColorBySpeed || op.op == kOpSizeBySpeed;
    return by_speed ? sdSpeedParameter(speed, op.params0.x, op.params0.y) : normalized_age;
}

// Folds one appearance op's texel into the colour (colour ops: component-wise product) or the
// size (size ops: times the curve value in .x). Other ops change nothing.
SD_FUNC void sdApplyAppearanceTexel(uint op, vec4 texel, SD_INOUT(vec4) color,
                                    SD_INOUT(float) size) {
    if (op == kOpColorOverLife || op == kOpColorBySpeed) color = color * texel;
    if (op == kOpSizeOverLife || op == kOpSizeBySpeed) size = size * texel.x;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_APPEARANCE_H
