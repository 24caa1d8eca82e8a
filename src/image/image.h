// A decoded 2D image: what texture loading hands to the renderer and what tools write.
#pragma once

#include <cstdint>
#include <vector>

namespace spindrift {

// Rows top to bottom, each row left to right, 4 bytes per pixel in R, G, B, A order, no padding
// between rows: rgba8.size() == width * height * 4 for a well-formed image. Whether the colour is
// premultiplied by alpha is a property of the asset, not of this struct.
struct Image {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> rgba8;
};

} // namespace spindrift
