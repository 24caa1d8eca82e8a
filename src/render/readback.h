// The linear HDR frame to 8-bit sRGB: what renderFrame writes into an Image.
//
// Each colour channel c (linear, a half float) becomes round(255 * srgb(clamp(c, 0, 1))) with the
// sRGB transfer function of IEC 61966-2-1: srgb(c) = 12.92 c for c <= 0.0031308, else
// 1.055 c^(1/2.4) - 0.055. So 0 -> 0, 1.0 and above -> 255, 0.5 -> 188; NaN -> 0. No tone
// mapping: values above 1 clip. Alpha is written as 255.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "image/image.h"

namespace spindrift::render {

// Threads convertHalfRgbaToSrgb8 uses for a frame of `pixels`: one per kPixelsPerConversionThread
// pixels, at most the cores and kMaxConversionThreads, at least 1.
inline constexpr size_t kPixelsPerConversionThread = size_t{1} << 18;
inline constexpr uint32_t kMaxConversionThreads = 8;
uint32_t conversionThreads(size_t pixels);

// The 8-bit sRGB code of one linear channel value (as above).
uint8_t encodeSrgb8(float linear);

// The sRGB code of a half float given by its bits (a table of all 65536 values).
uint8_t encodeSrgb8FromHalf(uint16_t half_bits);

// The float value of a half float (IEEE 754 binary16: subnormals, infinities, NaN).
float halfToFloat(uint16_t half_bits);

// Converts width * height RGBA16F pixels (rows top to bottom, tightly packed) into out: on
// conversionThreads(width * height) threads, in contiguous slices, the same bytes as on one.
void convertHalfRgbaToSrgb8(std::span<const uint16_t> rgba16f, uint32_t width, uint32_t height,
                            Image& out);

} // namespace spindrift::render
