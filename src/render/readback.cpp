#include "render/readback.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

namespace spindrift::render {

float halfToFloat(uint16_t h) {
    // Bit arithmetic, no libm: a readback converts millions of these a frame (a 1080p motion
    // image is 4 M), and std::ldexp cost ~10 ns each.
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    const uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    if (exponent == 0) {
        // Zero or subnormal: mantissa x 2^-24, exact in a float.
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        std::memcpy(&bits, &magnitude, 4);
    } else if (exponent == 31) {
        bits = 0x7f800000u | (mantissa << 13); // infinity, or NaN keeping its payload
    } else {
        bits = ((exponent + 112u) << 23) | (mantissa << 13); // rebias 15 -> 127
    }
    bits |= sign;
    float out;
    std::memcpy(&out, &bits, 4);
    return out;
}

uint8_t encodeSrgb8(float linear) {
    if (!(linear > 0.0f)) return 0; // also NaN
    if (linear >= 1.0f) return 255;
    double c = linear;
    double s = c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
    return static_cast<uint8_t>(std::lround(s * 255.0));
}

uint8_t encodeSrgb8FromHalf(uint16_t half_bits) {
    static const std::array<uint8_t, 65536> table = [] {
        std::array<uint8_t, 65536> t{};
        for (uint32_t i = 0; i < t.size(); ++i) {
            t[i] = encodeSrgb8(halfToFloat(static_cast<uint16_t>(i)));
        }
        return t;
    }();
    return table[half_bits];
}

namespace {

// Pixels [begin, end) of the frame; each pixel depends on its own bits alone.
void convertPixels(std::span<const uint16_t> rgba16f, size_t begin, size_t end, Image& out) {
    for (size_t i = begin; i < end && i * 4 + 3 < rgba16f.size(); ++i) {
        out.rgba8[i * 4 + 0] = encodeSrgb8FromHalf(rgba16f[i * 4 + 0]);
        out.rgba8[i * 4 + 1] = encodeSrgb8FromHalf(rgba16f[i * 4 + 1]);
        out.rgba8[i * 4 + 2] = encodeSrgb8FromHalf(rgba16f[i * 4 + 2]);
        out.rgba8[i * 4 + 3] = 255;
    }
}

} // namespace

uint32_t conversionThreads(size_t pixels) {
    const size_t by_size = pixels / kPixelsPerConversionThread;
    const uint32_t cores = std::max(1u, std::thread::hardware_concurrency());
    return static_cast<uint32_t>(
        std::clamp<size_t>(by_size, 1, std::min(cores, kMaxConversionThreads)));
}

void convertHalfRgbaToSrgb8(std::span<const uint16_t> rgba16f, uint32_t width, uint32_t height,
                            Image& out) {
    size_t pixels = static_cast<size_t>(width) * height;
    out.width = width;
    out.height = height;
    out.rgba8.resize(pixels * 4);
    // A 1080p frame is ~2M pixels: on one thread its conversion held the render thread for
    // tens of milliseconds per frame, as long as drawing it on a fast GPU. Contiguous slices on
    // a few threads give the same bytes (each pixel is converted alone).
    const uint32_t threads = conversionThreads(pixels);
    if (threads <= 1) {
        convertPixels(rgba16f, 0, pixels, out);
        return;
    }
    encodeSrgb8FromHalf(0); // builds the table once, before the threads read it
    std::vector<std::thread> helpers;
    helpers.reserve(threads - 1);
    const size_t slice = (pixels + threads - 1) / threads;
    for (uint32_t t = 1; t < threads; ++t) {
        const size_t begin = std::min(pixels, t * slice);
        const size_t end = std::min(pixels, begin + slice);
        helpers.emplace_back([&, begin, end] { convertPixels(rgba16f, begin, end, out); });
    }
    convertPixels(rgba16f, 0, std::min(pixels, slice), out);
    for (std::thread& h : helpers) h.join();
}

} // namespace spindrift::render
