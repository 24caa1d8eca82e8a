// The mipmap levels of a texture, built on the host so every device samples the same texels
// (a GPU blit's filter is the implementation's choice, and the goldens are compared across
// lavapipe and real GPUs).
#pragma once

#include <cstdint>
#include <vector>

#include "image/image.h"

namespace spindrift {

// How many levels a full chain of a width x height image has: down to 1 x 1
// (floor(log2(max(width, height))) + 1); 0 for an empty image.
uint32_t mipLevelCount(uint32_t width, uint32_t height);

// What a texture's bytes are: colour, sRGB-encoded (the GPU decodes it to linear light as it
// samples), or data stored as it is (a distortion billboard's displacement field: UNORM, no
// decoding, averaged as stored).
enum class TextureEncoding : uint8_t { color = 0, data = 1 };

// Levels 1.. of image (level 0 is image itself), each half the one above (rounded down, at
// least 1), down to 1 x 1. Each texel is the area-weighted mean of the texels of the level above
// that it covers (a box filter that also handles odd sizes, where a texel covers 1.5 texels of
// the level above), averaged in linear light: colour is decoded from sRGB, averaged and encoded
// again, alpha is averaged as stored. Colour is not weighted by alpha, which is right for
// premultiplied textures (the additive and premultiplied blend modes) and what a GPU's blit gives
// for straight-alpha ones. With TextureEncoding::data every channel is averaged as stored. image
// must be well formed (rgba8.size() == width * height * 4).
std::vector<Image> buildMipChain(const Image& image,
                                 TextureEncoding encoding = TextureEncoding::color);

} // namespace spindrift
