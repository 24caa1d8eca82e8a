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

// Encodes image as an 8-bit RGBA, non-interlaced PNG with no ancillary chunks (no time stamp), at
// zlib level 9 with libpng's adaptive filtering: the same pixels always give the same bytes with
// the same libpng and zlib. An image whose size is 0, over kMaxImageDimension, or does not match
// rgba8.size() is an error (file names the destination for messages). On failure out is empty.
bool encodePng(const Image& image, std::string_view file, std::vector<uint8_t>& out,
               std::vector<Diagnostic>& diagnostics);

// Encodes as encodePng does and writes the bytes to path atomically (writeFileAtomically,
// io/output_file.h): the whole PNG replaces an existing regular file, or nothing changes and no
// temporary file is left. A path that is a directory, a device, a FIFO or a socket is an error.
bool writePng(std::string_view path, const Image& image, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
