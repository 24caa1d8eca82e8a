// A contact sheet: N frames of a render, evenly spaced over its duration, tiled left to right,
// top to bottom in a grid with a small gap, scaled down so the sheet stays within
// kMaxContactSheetSize on each side. One picture that shows how an effect evolves.
#pragma once

#include <cstdint>
#include <vector>

#include "image/image.h"

namespace spindrift::render {

inline constexpr uint32_t kMaxContactSheetFrames = 256;
inline constexpr uint32_t kMaxContactSheetSize = 2048; // pixels, width and height
inline constexpr uint32_t kContactSheetGap = 4;        // pixels between cells and at the border
inline constexpr uint8_t kContactSheetBackground = 24; // grey level of the gaps

struct ContactSheetLayout {
    uint32_t frames = 0;
    uint32_t columns = 0; // ceil(sqrt(frames))
    uint32_t rows = 0;    // ceil(frames / columns)
    uint32_t cell_width = 0;
    uint32_t cell_height = 0;
    uint32_t width = 0; // columns * cell_width + (columns + 1) * gap
    uint32_t height = 0;
};

// The grid for frames (1..kMaxContactSheetFrames) frames of frame_width x frame_height pixels:
// cells keep the frame's aspect ratio and are the frame's size unless the sheet would exceed
// kMaxContactSheetSize, in which case they shrink (never below 1 pixel).
ContactSheetLayout contactSheetLayout(uint32_t frames, uint32_t frame_width, uint32_t frame_height);

// Scene times of the frames: the midpoints of frames equal slices of [0, duration_s], so neither
// the empty first instant nor the very end is shown.
std::vector<float> contactSheetTimes(uint32_t frames, float duration_s);

// A sheet of layout.width x layout.height filled with the gap colour (alpha 255).
Image makeContactSheet(const ContactSheetLayout& layout);

// Scales frame to the cell size (area average) and copies it into cell index (row-major).
// frame must be RGBA8 and well formed; index < layout.frames.
void placeInContactSheet(Image& sheet, const ContactSheetLayout& layout, uint32_t index,
                         const Image& frame);

} // namespace spindrift::render
