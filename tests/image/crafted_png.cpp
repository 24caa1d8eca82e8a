#include "image/crafted_png.h"

#include <zlib.h>

#include <cstdint>
#include <stdexcept>

namespace spindrift::test {
namespace {

void appendBigEndian(std::vector<uint8_t>& out, uint32_t value) {
    out.push_back(static_cast<uint8_t>(value >> 24));
    out.push_back(static_cast<uint8_t>(value >> 16));
    out.push_back(static_cast<uint8_t>(value >> 8));
    out.push_back(static_cast<uint8_t>(value));
}

} // namespace

std::vector<uint8_t> pngSignature() {
    return {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
}

void appendChunk(std::vector<uint8_t>& png, const std::string& type,
                 const std::vector<uint8_t>& data) {
    appendBigEndian(png, static_cast<uint32_t>(data.size()));
    const size_t type_at = png.size();
    png.insert(png.end(), type.begin(), type.end());
    png.insert(png.end(), data.begin(), data.end());
    const uLong crc = crc32(0, png.data() + type_at, static_cast<uInt>(png.size() - type_at));
    appendBigEndian(png, static_cast<uint32_t>(crc));
}

std::vector<uint8_t> ihdrData(uint32_t width, uint32_t height, uint8_t bit_depth,
                              uint8_t colour_type) {
    std::vector<uint8_t> data;
    appendBigEndian(data, width);
    appendBigEndian(data, height);
    data.push_back(bit_depth);
    data.push_back(colour_type);
    data.push_back(0); // deflate
    data.push_back(0); // adaptive filtering
    data.push_back(0); // not interlaced
    return data;
}

std::vector<uint8_t> zlibCompress(const std::vector<uint8_t>& raw) {
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::vector<uint8_t> out(size);
    if (compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 9) != Z_OK) {
        throw std::runtime_error("zlib compress failed");
    }
    out.resize(size);
    return out;
}

std::vector<uint8_t>
craftPng(uint32_t width, uint32_t height, uint8_t bit_depth, uint8_t colour_type,
         const std::vector<uint8_t>& raw_rows,
         const std::vector<std::pair<std::string, std::vector<uint8_t>>>& extra_chunks) {
    std::vector<uint8_t> png = pngSignature();
    appendChunk(png, "IHDR", ihdrData(width, height, bit_depth, colour_type));
    for (const auto& [type, data] : extra_chunks) appendChunk(png, type, data);
    appendChunk(png, "IDAT", zlibCompress(raw_rows));
    appendChunk(png, "IEND", {});
    return png;
}

size_t findChunk(const std::vector<uint8_t>& png, const std::string& type) {
    size_t at = 8;
    while (at + 8 <= png.size()) {
        const uint32_t length = uint32_t{png[at]} << 24 | uint32_t{png[at + 1]} << 16 |
                                uint32_t{png[at + 2]} << 8 | uint32_t{png[at + 3]};
        if (std::string(png.begin() + static_cast<std::ptrdiff_t>(at + 4),
                        png.begin() + static_cast<std::ptrdiff_t>(at + 8)) == type) {
            return at;
        }
        at += 12 + size_t{length};
    }
    return SIZE_MAX;
}

} // namespace spindrift::test
