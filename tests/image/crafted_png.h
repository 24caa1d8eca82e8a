// Builds PNG files byte by byte (chunks, CRCs, zlib data) so tests can make every colour type and
// every kind of damage, independently of the encoder under test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spindrift::test {

inline constexpr uint8_t kColourGrey = 0;
inline constexpr uint8_t kColourRgb = 2;
inline constexpr uint8_t kColourPalette = 3;
inline constexpr uint8_t kColourGreyAlpha = 4;
inline constexpr uint8_t kColourRgba = 6;

std::vector<uint8_t> pngSignature();

// Appends length, type, data and a correct CRC.
void appendChunk(std::vector<uint8_t>& png, const std::string& type,
                 const std::vector<uint8_t>& data);

std::vector<uint8_t> ihdrData(uint32_t width, uint32_t height, uint8_t bit_depth,
                              uint8_t colour_type);

// zlib-compresses scanlines that the caller already prefixed with filter bytes.
std::vector<uint8_t> zlibCompress(const std::vector<uint8_t>& raw);

// A complete non-interlaced PNG: raw_rows holds each row's filter byte (0) and packed samples.
// extra_chunks (type, data) go between IHDR and IDAT (PLTE, tRNS).
std::vector<uint8_t>
craftPng(uint32_t width, uint32_t height, uint8_t bit_depth, uint8_t colour_type,
         const std::vector<uint8_t>& raw_rows,
         const std::vector<std::pair<std::string, std::vector<uint8_t>>>& extra_chunks = {});

// Offset of the first chunk of this type (its length field), or SIZE_MAX.
size_t findChunk(const std::vector<uint8_t>& png, const std::string& type);

} // namespace spindrift::test
