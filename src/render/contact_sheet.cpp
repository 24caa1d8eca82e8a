#include "render/contact_sheet.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace spindrift::render {

ContactSheetLayout contactSheetLayout(uint32_t frames, uint32_t frame_width,
                                      uint32_t frame_height) {
    ContactSheetLayout l;
    l.frames = std::clamp(frames, 1u, kMaxContactSheetFrames);
    l.columns = static_cast<uint32_t>(std::ceil(std::sqrt(double(l.frames))));
    l.rows = (l.frames + l.columns - 1) / l.columns;
    const double w = std::max(frame_width, 1u), h = std::max(frame_height, 1u);
    const double room_w = double(kMaxContactSheetSize) - (l.columns + 1) * kContactSheetGap;
    const double room_h = double(kMaxContactSheetSize) - (l.rows + 1) * kContactSheetGap;
    const double scale = std::min({1.0, room_w / (l.columns * w), room_h / (l.rows * h)});
    l.cell_width = std::max(1u, static_cast<uint32_t>(std::floor(w * scale)));
    l.cell_height = std::max(1u, static_cast<uint32_t>(std::floor(h * scale)));
    l.width = l.columns * l.cell_width + (l.columns + 1) * kContactSheetGap;
    l.height = l.rows * l.cell_height + (l.rows + 1) * kContactSheetGap;
    return l;
}

std::vector<float> contactSheetTimes(uint32_t frames, float duration_s) {
    std::vector<float> times(frames);
    for (uint32_t i = 0; i < frames; ++i)
        times[i] = static_cast<float>(double(duration_s) * (i + 0.5) / frames);
    return times;
}

Image makeContactSheet(const ContactSheetLayout& layout) {
    Image sheet;
    sheet.width = layout.width;
    sheet.height = layout.height;
    sheet.rgba8.resize(size_t(layout.width) * layout.height * 4);
    for (size_t i = 0; i < sheet.rgba8.size(); i += 4) {
        sheet.rgba8[i + 0] = kContactSheetBackground;
        sheet.rgba8[i + 1] = kContactSheetBackground;
        sheet.rgba8[i + 2] = kContactSheetBackground;
        sheet.rgba8[i + 3] = 255;
    }
    return sheet;
}

void placeInContactSheet(Image& sheet, const ContactSheetLayout& layout, uint32_t index,
                         const Image& frame) {
    assert(index < layout.frames && frame.width > 0 && frame.height > 0);
    const uint32_t column = index % layout.columns;
    const uint32_t row = index / layout.columns;
    const uint32_t x0 = kContactSheetGap + column * (layout.cell_width + kContactSheetGap);
    const uint32_t y0 = kContactSheetGap + row * (layout.cell_height + kContactSheetGap);
    // Each cell pixel averages the frame pixels its footprint covers (at least one): a box filter,
    // exact when the frame is a whole multiple of the cell and a copy when they are equal size.
    for (uint32_t cy = 0; cy < layout.cell_height; ++cy) {
        const uint32_t sy0 = uint32_t(uint64_t(cy) * frame.height / layout.cell_height);
        const uint32_t sy1 =
            std::max(sy0 + 1, uint32_t(uint64_t(cy + 1) * frame.height / layout.cell_height));
        for (uint32_t cx = 0; cx < layout.cell_width; ++cx) {
            const uint32_t sx0 = uint32_t(uint64_t(cx) * frame.width / layout.cell_width);
            const uint32_t sx1 =
                std::max(sx0 + 1, uint32_t(uint64_t(cx + 1) * frame.width / layout.cell_width));
            uint64_t sum[4] = {0, 0, 0, 0};
            for (uint32_t sy = sy0; sy < std::min(sy1, frame.height); ++sy) {
                const uint8_t* p = &frame.rgba8[(size_t(sy) * frame.width + sx0) * 4];
                for (uint32_t sx = sx0; sx < std::min(sx1, frame.width); ++sx, p += 4) {
                    for (int c = 0; c < 4; ++c) sum[c] += p[c];
                }
            }
            const uint64_t n =
                uint64_t(std::min(sy1, frame.height) - sy0) * (std::min(sx1, frame.width) - sx0);
            uint8_t* out = &sheet.rgba8[(size_t(y0 + cy) * sheet.width + x0 + cx) * 4];
            for (int c = 0; c < 4; ++c) out[c] = static_cast<uint8_t>((sum[c] + n / 2) / n);
        }
    }
}

} // namespace spindrift::render
