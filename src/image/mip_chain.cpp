#include "image/mip_chain.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace spindrift {

namespace {

// sRGB transfer functions (IEC 61966-2-1), decoding through a table: 256 entries.
float srgbToLinear(float c) {
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

float linearToSrgb(float c) {
    c = std::clamp(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

const std::array<float, 256>& decodeTable() {
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t{};
        for (size_t i = 0; i < t.size(); ++i) t[i] = srgbToLinear(static_cast<float>(i) / 255.0f);
        return t;
    }();
    return table;
}

uint8_t toByte(float unit) {
    return static_cast<uint8_t>(std::lround(std::clamp(unit, 0.0f, 1.0f) * 255.0f));
}

// The source texels destination texel `index` of `to` covers along one axis of `from` source
// texels, with the share of each (they sum to 1).
struct Footprint {
    uint32_t first = 0;
    std::array<float, 3> weight{}; // a destination texel covers at most 3 source texels
    uint32_t count = 0;
};

std::vector<Footprint> footprints(uint32_t from, uint32_t to) {
    std::vector<Footprint> result(to);
    double scale = static_cast<double>(from) / to; // in [2, 3) when halving (1 when from == 1)
    for (uint32_t i = 0; i < to; ++i) {
        double begin = i * scale;
        double end = (i + 1) * scale;
        Footprint& f = result[i];
        f.first = static_cast<uint32_t>(begin);
        for (uint32_t s = f.first; s < from && s < end && f.count < f.weight.size(); ++s) {
            double overlap = std::min<double>(end, s + 1) - std::max<double>(begin, s);
            f.weight[f.count++] = static_cast<float>(overlap / scale);
        }
    }
    return result;
}

// The unit value of byte v as the texture stores it: colour decoded from sRGB, data as stored.
struct Decoder {
    const std::array<float, 256>* srgb = nullptr; // null: data
    float operator()(uint8_t v) const { return srgb != nullptr ? (*srgb)[v] : v / 255.0f; }
};

Image halve(const Image& from, TextureEncoding encoding) {
    Image to;
    to.width = std::max(1u, from.width / 2);
    to.height = std::max(1u, from.height / 2);
    to.rgba8.resize(size_t{to.width} * to.height * 4);
    const Decoder decode{encoding == TextureEncoding::color ? &decodeTable() : nullptr};
    std::vector<Footprint> xs = footprints(from.width, to.width);
    std::vector<Footprint> ys = footprints(from.height, to.height);
    for (uint32_t y = 0; y < to.height; ++y) {
        for (uint32_t x = 0; x < to.width; ++x) {
            std::array<float, 4> sum{};
            const Footprint& fy = ys[y];
            const Footprint& fx = xs[x];
            for (uint32_t j = 0; j < fy.count; ++j) {
                for (uint32_t i = 0; i < fx.count; ++i) {
                    float w = fy.weight[j] * fx.weight[i];
                    const uint8_t* texel =
                        &from.rgba8[(size_t{fy.first + j} * from.width + fx.first + i) * 4];
                    for (int c = 0; c < 3; ++c) sum[c] += w * decode(texel[c]);
                    sum[3] += w * (texel[3] / 255.0f);
                }
            }
            uint8_t* out = &to.rgba8[(size_t{y} * to.width + x) * 4];
            for (int c = 0; c < 3; ++c) {
                out[c] = toByte(encoding == TextureEncoding::color ? linearToSrgb(sum[c]) : sum[c]);
            }
            out[3] = toByte(sum[3]);
        }
    }
    return to;
}

} // namespace

uint32_t mipLevelCount(uint32_t width, uint32_t height) {
    uint32_t side = std::max(width, height);
    if (side == 0) return 0;
    uint32_t levels = 1;
    while (side > 1) {
        side /= 2;
        ++levels;
    }
    return levels;
}

std::vector<Image> buildMipChain(const Image& image, TextureEncoding encoding) {
    std::vector<Image> levels;
    uint32_t count = mipLevelCount(image.width, image.height);
    if (count <= 1) return levels;
    levels.reserve(count - 1);
    const Image* above = &image;
    for (uint32_t level = 1; level < count; ++level) {
        levels.push_back(halve(*above, encoding));
        above = &levels.back();
    }
    return levels;
}

} // namespace spindrift
