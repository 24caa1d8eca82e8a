// Baking curves and gradients into rows of the LUT atlas (layout: src/kernels/effect_records.h,
// docs/compiled-records.md).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/effect_records.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

using LutRow = std::array<vec4, kLutWidth>;

// The normalised time of texel i: i / (kLutWidth - 1), so texel 0 is t = 0 and the last is t = 1.
float lutTexelTime(uint32_t texel);

// The exact value of a curve at t (effect_desc.h: held before the first and after the last key;
// linear, smoothstep or step between keys). A curve without keys evaluates to 0.
float evaluateCurve(const Curve& curve, float t);

// The exact linear RGBA of a gradient at t; colour and alpha keys interpolate independently.
vec4 evaluateGradient(const Gradient& gradient, float t);

// One row: the curve times scale in .x of each texel (.yzw = 0), or the gradient's RGBA.
LutRow bakeCurve(const Curve& curve, float scale);
LutRow bakeGradient(const Gradient& gradient);

// Appends row to the atlas unless an identical row (bit for bit) is already there; returns the
// row's index either way.
uint32_t addLutRow(std::vector<vec4>& atlas, const LutRow& row);

} // namespace spindrift
