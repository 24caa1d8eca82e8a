#include "texgen/texture_generators.h"

#include <algorithm>
#include <cmath>

#include "texgen/value_noise.h"

namespace spindrift::texgen {
namespace {

struct Rgb {
    float r, g, b;
};

Rgb mix(Rgb a, Rgb b, float t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

uint8_t toByte(float value) {
    // Round half up after clamping; exact for every float in [0, 1].
    return static_cast<uint8_t>(clamp01(value) * 255.0f + 0.5f);
}

Image blankImage(uint32_t width, uint32_t height) {
    Image image;
    image.width = width;
    image.height = height;
    image.rgba8.assign(size_t{width} * height * 4, 0);
    return image;
}

void setPixel(Image& image, uint32_t x, uint32_t y, Rgb colour, float alpha) {
    const size_t at = (size_t{y} * image.width + x) * 4;
    image.rgba8[at + 0] = toByte(colour.r);
    image.rgba8[at + 1] = toByte(colour.g);
    image.rgba8[at + 2] = toByte(colour.b);
    image.rgba8[at + 3] = toByte(alpha);
}

// Fades to exactly zero in the outer margin of a flipbook frame, so bilinear filtering and
// mipmaps never bleed one frame into its neighbour.
float frameWindow(float u, float v) {
    constexpr float kMargin = 0.06f;
    return smoothstep(0.0f, kMargin, u) * smoothstep(1.0f, 1.0f - kMargin, u) *
           smoothstep(0.0f, kMargin, v) * smoothstep(1.0f, 1.0f - kMargin, v);
}

// Calls shade(u, v, phase) for every pixel of every frame; u runs right, v runs up (0 at the
// bottom of the frame), both in [0, 1] at pixel centres; phase is frame / frame count.
template <typename Shade> Image flipbook(Shade shade) {
    constexpr uint32_t kSize = kFlipbookFrameSize;
    Image image = blankImage(kFlipbookColumns * kSize, kFlipbookRows * kSize);
    constexpr float kFrames = static_cast<float>(kFlipbookColumns * kFlipbookRows);
    for (uint32_t frame = 0; frame < kFlipbookColumns * kFlipbookRows; ++frame) {
        const uint32_t x0 = (frame % kFlipbookColumns) * kSize;
        const uint32_t y0 = (frame / kFlipbookColumns) * kSize;
        const float phase = static_cast<float>(frame) / kFrames;
        for (uint32_t y = 0; y < kSize; ++y) {
            for (uint32_t x = 0; x < kSize; ++x) {
                const float u = (static_cast<float>(x) + 0.5f) / kSize;
                const float v = 1.0f - (static_cast<float>(y) + 0.5f) / kSize;
                float alpha = 0.0f;
                const Rgb colour = shade(u, v, phase, alpha);
                setPixel(image, x0 + x, y0 + y, colour, alpha);
            }
        }
    }
    return image;
}

Rgb flamePixel(float u, float v, float phase, float& alpha) {
    constexpr uint32_t kTurbulenceSeed = 11;
    constexpr uint32_t kSwaySeed = 23;
    // Fine turbulence rising through the flame: it scrolls up two noise cells per loop.
    const float turbulence =
        loopingFbm(u * 3.2f, v * 2.4f, phase, 0.0f, 2.0f, kTurbulenceSeed, 4) - 0.5f;
    // The whole flame sways, more at the tip than at the base.
    const float sway =
        (loopingFbm(0.5f, v * 1.3f, phase, 0.0f, 1.0f, kSwaySeed, 2) - 0.5f) * 0.5f * v;
    // s runs from the rounded base (0) to the tip (1); the half-width sqrt(s)(1 - s) gives a
    // teardrop whose widest point is a third of the way up.
    const float s = clamp01((v - 0.1f) / 0.8f);
    const float half_width = 0.66f * std::sqrt(s) * (1.0f - s) + 0.001f;
    const float across = std::fabs(u - 0.5f - sway) / half_width;
    // Outside the teardrop (below the base, above the tip) there is no body, only turbulence.
    const float shape = (s <= 0.0f || s >= 1.0f) ? -1.0f : 1.0f - across;
    // Heat falls with height so the core is white only low in the flame and the tips are red;
    // turbulence grows with height and breaks the top into tongues.
    // The base burns dimmer (where fuel meets air) and fades in over the first tenth.
    const float base = smoothstep(0.0f, 0.12f, s);
    const float heat =
        (shape * (1.25f - 0.95f * s) * (0.45f + 0.55f * base) + turbulence * (0.4f + 1.2f * s)) *
        frameWindow(u, v);
    const float h = clamp01(heat);
    alpha = smoothstep(0.02f, 0.45f, h);
    const Rgb ember{0.55f, 0.06f, 0.01f};
    const Rgb orange{1.0f, 0.38f, 0.04f};
    const Rgb yellow{1.0f, 0.72f, 0.22f};
    const Rgb white{1.0f, 0.97f, 0.88f};
    Rgb colour = mix(ember, orange, smoothstep(0.0f, 0.35f, h));
    colour = mix(colour, yellow, smoothstep(0.35f, 0.65f, h));
    colour = mix(colour, white, smoothstep(0.65f, 0.95f, h));
    return {colour.r * alpha, colour.g * alpha, colour.b * alpha};
}

// Unclamped smoke density: above 0 inside the puff, growing towards its middle. Shading reads
// its differences, so it is not clamped here (a clamped interior would shade flat).
float smokeDensity(float u, float v, float phase) {
    constexpr uint32_t kWarpXSeed = 41;
    constexpr uint32_t kWarpYSeed = 43;
    constexpr uint32_t kBillowSeed = 47;
    const float px = (u - 0.5f) * 2.0f;
    const float py = (v - 0.5f) * 2.0f;
    // A gentle domain warp rolls the billows; it drifts over the loop while the billows rise.
    const float wx = loopingFbm(px * 1.1f, py * 1.1f, phase, 0.0f, 0.0f, kWarpXSeed, 2) - 0.5f;
    const float wy = loopingFbm(px * 1.1f, py * 1.1f, phase, 0.0f, 0.0f, kWarpYSeed, 2) - 0.5f;
    const float qx = px + 0.35f * wx;
    const float qy = py + 0.35f * wy;
    const float billows =
        loopingFbm(qx * 1.5f, qy * 1.5f, phase, 0.0f, 1.0f, kBillowSeed, 3) - 0.5f;
    const float radius = std::sqrt(qx * qx + qy * qy);
    const float body = 1.0f - radius / 0.72f;
    return (body * 1.4f + billows * 1.6f) * frameWindow(u, v);
}

Rgb smokePixel(float u, float v, float phase, float& alpha) {
    // Below -0.2 the shade is constant, so the empty corners compress to almost nothing.
    const float density = std::max(smokeDensity(u, v, phase), -0.2f);
    // Self-shadowing: a point with less smoke between it and the light (upper left) is brighter;
    // thick smoke is a little darker overall.
    constexpr float kStep = 0.1f;
    const float toward_light =
        std::max(-0.2f, smokeDensity(u - kStep * 0.6f, v + kStep * 0.8f, phase));
    const float lit = clamp01(0.6f + (density - toward_light) * 0.9f - clamp01(density) * 0.15f);
    const Rgb shadow{0.32f, 0.32f, 0.32f};
    const Rgb light{0.92f, 0.92f, 0.92f};
    alpha = 0.85f * smoothstep(0.0f, 0.9f, density);
    return mix(shadow, light, lit);
}

} // namespace

Image generateFlameAtlas() {
    return flipbook(flamePixel);
}

Image generateSmokeAtlas() {
    return flipbook(smokePixel);
}

// A heat-haze displacement field (read as data by a distortion billboard: red and green 0.5 is
// no displacement): two noise fields, scaled down to nothing at the rim of a soft disc, so
// filtering and mipmaps average toward 0.5 and never shift the image.
Rgb hazePixel(float u, float v, float phase, float& alpha) {
    constexpr uint32_t kSeedX = 41;
    constexpr uint32_t kSeedY = 43;
    const float dx = loopingFbm(u * 3.0f, v * 3.0f, phase, 0.0f, 1.0f, kSeedX, 3) - 0.5f;
    const float dy = loopingFbm(u * 3.0f, v * 3.0f, phase, 0.0f, 1.0f, kSeedY, 3) - 0.5f;
    const float cx = (u - 0.5f) * 2.0f;
    const float cy = (v - 0.5f) * 2.0f;
    const float r = std::sqrt(cx * cx + cy * cy);
    const float window = smoothstep(1.0f, 0.35f, r) * frameWindow(u, v);
    alpha = window;
    constexpr float kGain = 1.8f; // fbm rarely strays 0.3 from its middle: reach about +-0.5
    return {0.5f + dx * kGain * window, 0.5f + dy * kGain * window, 0.5f};
}

Image generateHazeField() {
    // One frame (noise fields compress poorly: a 4 x 4 flipbook of them passes the committed
    // textures' 64 KiB bound); particles bring the motion, rising, turning and growing.
    constexpr uint32_t kSize = 128;
    Image image = blankImage(kSize, kSize);
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            const float u = (static_cast<float>(x) + 0.5f) / kSize;
            const float v = 1.0f - (static_cast<float>(y) + 0.5f) / kSize;
            float alpha = 0.0f;
            const Rgb field = hazePixel(u, v, 0.0f, alpha);
            setPixel(image, x, y, field, alpha);
        }
    }
    return image;
}

Image generateSpark() {
    constexpr uint32_t kSize = 32;
    Image image = blankImage(kSize, kSize);
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            const float px = ((static_cast<float>(x) + 0.5f) / kSize - 0.5f) * 2.0f;
            const float py = ((static_cast<float>(y) + 0.5f) / kSize - 0.5f) * 2.0f;
            const float r = std::sqrt(px * px + py * py);
            // A hot point plus a thin streak along v, the axis velocity stretching uses.
            const float core = 1.0f / (1.0f + (r / 0.09f) * (r / 0.09f));
            const float streak_x = px / 0.12f;
            const float streak_y = py / 0.92f;
            const float streak =
                clamp01(1.0f - std::sqrt(streak_x * streak_x + streak_y * streak_y));
            const float halo = clamp01(1.0f - r);
            const float alpha =
                clamp01((core + 0.85f * streak * streak + 0.25f * halo * halo * halo) *
                        smoothstep(1.0f, 0.85f, r));
            const Rgb warm{1.0f, 0.74f, 0.38f};
            const Rgb white{1.0f, 1.0f, 0.96f};
            const Rgb colour = mix(warm, white, clamp01(core * 1.4f));
            setPixel(image, x, y, {colour.r * alpha, colour.g * alpha, colour.b * alpha}, alpha);
        }
    }
    return image;
}

Image generateGlow() {
    constexpr uint32_t kSize = 64;
    Image image = blankImage(kSize, kSize);
    // An inverse-square-like falloff, rescaled to reach exactly zero at the rim and multiplied
    // by (1 - r^2)^2 so its slope is zero there too: no visible edge on the quad.
    constexpr float kCore = 0.16f;
    const float at_rim = 1.0f / (1.0f + 1.0f / (kCore * kCore));
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            const float px = ((static_cast<float>(x) + 0.5f) / kSize - 0.5f) * 2.0f;
            const float py = ((static_cast<float>(y) + 0.5f) / kSize - 0.5f) * 2.0f;
            const float r2 = px * px + py * py;
            const float falloff = 1.0f / (1.0f + r2 / (kCore * kCore));
            const float window = clamp01(1.0f - r2);
            const float alpha = clamp01((falloff - at_rim) / (1.0f - at_rim)) * window * window;
            setPixel(image, x, y, {alpha, alpha, alpha}, alpha);
        }
    }
    return image;
}

std::span<const GeneratedTexture> generatedTextures() {
    static constexpr GeneratedTexture kTextures[] = {
        {"flame_atlas.png", generateFlameAtlas},
        {"smoke_atlas.png", generateSmokeAtlas},
        {"spark.png", generateSpark},
        {"glow.png", generateGlow},
        {"haze_field.png", generateHazeField},
    };
    return kTextures;
}

} // namespace spindrift::texgen
