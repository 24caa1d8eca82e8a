// Reading and writing 8-bit RGBA PNG files (libpng). Texture files are untrusted input: every
// problem is returned as an error value, never a crash, an exception or a hang.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "image/image.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

// Largest width or height accepted on read and write. 8192² RGBA8 is 256 MiB decoded; particle
// textures are far smaller, so anything larger is a broken or hostile file.
inline constexpr uint32_t kMaxImageDimension = 8192;

// Decodes PNG bytes into RGBA8. Any PNG colour type and bit depth is accepted and converted:
// palette and greyscale are expanded to RGB, a tRNS chunk becomes alpha, an image without alpha
// gets alpha 255, 16-bit channels are scaled to 8 bits (rounded), interlaced images are
// de-interlaced. Colour values are returned as stored: gAMA, sRGB and iCCP chunks are not applied.
//
// On success out holds the image and true is returned. On failure exactly one error is appended
// to diagnostics (file = file, byte_offset = how far decoding had read when it stopped, message
// saying what is wrong: not a PNG, truncated, a CRC or zlib error, dimensions over
// kMaxImageDimension, ...), out is left empty, and false is returned. Thread-safe: no state is
// shared between calls.
bool decodePng(std::span<const uint8_t> bytes, std::string_view file, Image& out,
               std::vector<Diagnostic>& diagnostics);

// Reads the file at path and decodes it as decodePng does. A missing or unreadable file is an
// error naming the path.
bool readPng(std::string_view path, Image& out, std::vector<Diagnostic>& diagnostics);

// How encodePng compresses: the zlib level and libpng's row filters. Neither changes the pixels a
// decoder gets back, only the file's size and the time spent encoding (docs/benchmarks.md,
// "Offline output": on rendered 1080p frames level 9 took 3-4 times level 6's time for 6-12 %
// fewer bytes; which single filter is best depends on the picture).
enum class PngFilter : uint8_t {
    none,     // no filter: fastest, largest
    sub,      // each byte minus the one to its left
    up,       // each byte minus the one above it
    paeth,    // Paeth predictor
    adaptive, // libpng picks a filter per row (all five tried): smallest, slowest
};

inline constexpr int kMinPngLevel = 0; // stored, no compression
inline constexpr int kMaxPngLevel = 9;

struct PngEncoding {
    int level = kMaxPngLevel; // zlib level, kMinPngLevel..kMaxPngLevel
    PngFilter filter = PngFilter::adaptive;
};

// Encodes image as an 8-bit RGBA, non-interlaced PNG with no ancillary chunks (no time stamp),
// compressed as encoding says (by default zlib level 9 with libpng's adaptive filtering, what the
// committed textures are written with): the same pixels and encoding always give the same bytes
// with the same libpng and zlib. An image whose size is 0, over kMaxImageDimension, or does not
// match rgba8.size(), or a level outside 0..9, is an error (file names the destination for
// messages). On failure out is empty. Thread-safe: no state is shared between calls.
bool encodePng(const Image& image, std::string_view file, std::vector<uint8_t>& out,
               std::vector<Diagnostic>& diagnostics, const PngEncoding& encoding = {});

// Encodes as encodePng does and writes the bytes to path atomically (writeFileAtomically,
// io/output_file.h): the whole PNG replaces an existing regular file, or nothing changes and no
// temporary file is left. A path that is a directory, a device, a FIFO or a socket is an error.
// Thread-safe for different paths.
bool writePng(std::string_view path, const Image& image, std::vector<Diagnostic>& diagnostics,
              const PngEncoding& encoding = {});

} // namespace spindrift
