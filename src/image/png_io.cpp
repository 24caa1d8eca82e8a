#include "image/png_io.h"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "io/output_file.h"

namespace spindrift {
namespace {

// Deflate codes at least 2 bits (a 1-bit length-258 code and a 1-bit distance-1 code) per 258
// output bytes, so no zlib stream expands more than 1032:1. A file smaller than its pixel data
// divided by this is truncated; rejecting it before allocating keeps a 100-byte file from
// claiming 256 MiB.
constexpr uint64_t kMaxDeflateRatio = 1032;
// Ancillary chunks (text, ICC profiles) are not needed for textures; cap what libpng may buffer.
constexpr png_alloc_size_t kMaxChunkBytes = 4u << 20;
// No valid texture file comes close; larger files are refused before they are read into memory.
constexpr uint64_t kMaxPngFileBytes = uint64_t{512} << 20;

// Everything libpng's callbacks touch is plain data: libpng reports errors by longjmp, which
// must never skip a C++ destructor. Each function that calls setjmp keeps its C++ objects
// (vectors, strings) alive in its caller and creates none after setjmp.
struct Failure {
    char message[256] = {};
};

struct MemorySource {
    const uint8_t* data = nullptr;
    size_t size = 0;
    size_t offset = 0;
    bool truncated = false;
};

struct MemorySink {
    std::vector<uint8_t>* bytes = nullptr;
};

[[noreturn]] void onPngError(png_structp png, png_const_charp message) {
    auto* failure = static_cast<Failure*>(png_get_error_ptr(png));
    std::snprintf(failure->message, sizeof(failure->message), "%s", message);
    png_longjmp(png, 1);
}

// libpng warns about ancillary chunks it discards (bad CRC in a text chunk, a known-incorrect
// sRGB profile); the pixels are still right, so a texture loads.
void onPngWarning(png_structp, png_const_charp) {}

void readFromMemory(png_structp png, png_bytep destination, size_t count) {
    auto* source = static_cast<MemorySource*>(png_get_io_ptr(png));
    if (count > source->size - source->offset) {
        source->truncated = true;
        png_error(png, "unexpected end of file");
    }
    std::memcpy(destination, source->data + source->offset, count);
    source->offset += count;
}

void writeToMemory(png_structp png, png_bytep data, size_t count) {
    auto* sink = static_cast<MemorySink*>(png_get_io_ptr(png));
    try {
        sink->bytes->insert(sink->bytes->end(), data, data + count);
    } catch (const std::bad_alloc&) {
        png_error(png, "out of memory while encoding");
    }
}

void flushNothing(png_structp) {}

struct Header {
    png_uint_32 width = 0;
    png_uint_32 height = 0;
    int bit_depth = 0;
    int color_type = 0;
    int channels = 0;
    size_t row_bytes = 0;
};

// Releases libpng's structures on every path.
struct ReadStructs {
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~ReadStructs() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

struct WriteStructs {
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~WriteStructs() { png_destroy_write_struct(&png, info ? &info : nullptr); }
};

// Reads the chunks before the pixels and sets the transforms that turn any PNG into RGBA8.
// Returns false with failure filled if libpng reported an error.
bool readHeader(png_structp png, png_infop info, Header& header) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_info(png, info);
    header.width = png_get_image_width(png, info);
    header.height = png_get_image_height(png, info);
    header.bit_depth = png_get_bit_depth(png, info);
    header.color_type = png_get_color_type(png, info);
    header.channels = png_get_channels(png, info);
    return true;
}

bool setRgba8Transforms(png_structp png, png_infop info, Header& header) {
    if (setjmp(png_jmpbuf(png))) return false;
    if (header.color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (header.color_type == PNG_COLOR_TYPE_GRAY && header.bit_depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (header.bit_depth == 16) png_set_scale_16(png);
    if (header.color_type == PNG_COLOR_TYPE_GRAY ||
        header.color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    if ((header.color_type & PNG_COLOR_MASK_ALPHA) == 0 &&
        !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    header.bit_depth = png_get_bit_depth(png, info);
    header.channels = png_get_channels(png, info);
    header.row_bytes = png_get_rowbytes(png, info);
    return true;
}

// Decodes every row, then reads to IEND so corruption after the pixels (a bad CRC, a missing
// IEND) is still reported.
bool readPixels(png_structp png, png_infop info, png_bytep* rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_image(png, rows);
    png_read_end(png, info);
    return true;
}

int libpngFilters(PngFilter filter) {
    switch (filter) {
    case PngFilter::none:
        return PNG_FILTER_NONE;
    case PngFilter::sub:
        return PNG_FILTER_SUB;
    case PngFilter::up:
        return PNG_FILTER_UP;
    case PngFilter::paeth:
        return PNG_FILTER_PAETH;
    case PngFilter::adaptive:
        break;
    }
    return PNG_ALL_FILTERS;
}

bool writeAll(png_structp png, png_infop info, const Image& image, const PngEncoding& encoding,
              png_bytep* rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, encoding.level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, libpngFilters(encoding.filter));
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    return true;
}

bool fail(std::vector<Diagnostic>& diagnostics, std::string_view file, uint64_t byte_offset,
          std::string message) {
    Diagnostic d;
    d.file = std::string(file);
    d.byte_offset = byte_offset;
    d.message = std::move(message);
    diagnostics.push_back(std::move(d));
    return false;
}

std::string size2d(uint64_t width, uint64_t height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

bool decodeChecked(std::span<const uint8_t> bytes, std::string_view file, Image& out,
                   std::vector<Diagnostic>& diagnostics) {
    constexpr size_t kSignatureBytes = 8;
    if (bytes.empty()) return fail(diagnostics, file, 0, "empty file, expected a PNG");
    if (bytes.size() < kSignatureBytes || png_sig_cmp(bytes.data(), 0, kSignatureBytes) != 0) {
        return fail(diagnostics, file, 0,
                    "not a PNG file: the first 8 bytes are not the PNG signature");
    }

    // Every chunk must fit in the bytes given: libpng allocates (and clears) a chunk's declared
    // length before it reads the chunk, so an ancillary chunk declaring 1.9 GB in a 139-byte file
    // cost 1.9 GB of memory (found by the fuzzer). Declared lengths are checked here first.
    for (size_t at = kSignatureBytes; bytes.size() - at >= 8;) {
        const uint32_t length = uint32_t{bytes[at]} << 24 | uint32_t{bytes[at + 1]} << 16 |
                                uint32_t{bytes[at + 2]} << 8 | uint32_t{bytes[at + 3]};
        const std::string type(reinterpret_cast<const char*>(bytes.data() + at + 4), 4);
        const uint64_t end = uint64_t{at} + 12 + length; // length, type, data, CRC
        if (end > bytes.size()) {
            bool printable = true;
            for (char c : type) printable = printable && c >= 0x21 && c <= 0x7e;
            return fail(diagnostics, file, bytes.size(),
                        "truncated PNG: the chunk " + (printable ? "'" + type + "' " : "") +
                            "at byte " + std::to_string(at) + " declares " +
                            std::to_string(length) + " bytes of data, but the file ends at byte " +
                            std::to_string(bytes.size()));
        }
        if (type == "IEND") break;
        at = static_cast<size_t>(end);
    }

    Failure failure;
    MemorySource source{bytes.data(), bytes.size(), 0, false};
    ReadStructs structs;
    structs.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, onPngError, onPngWarning);
    if (structs.png) structs.info = png_create_info_struct(structs.png);
    if (!structs.png || !structs.info) {
        return fail(diagnostics, file, 0, "cannot create a PNG decoder (out of memory)");
    }
    png_set_read_fn(structs.png, &source, readFromMemory);
    // Our own limit below gives the clearer message; libpng's only guards against overflow.
    png_set_user_limits(structs.png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_chunk_malloc_max(structs.png, kMaxChunkBytes);

    auto libpngFailure = [&](const char* stage) {
        if (source.truncated) {
            return fail(diagnostics, file, source.offset,
                        "truncated PNG: the file ends at byte " + std::to_string(source.size) +
                            " while reading " + stage);
        }
        return fail(diagnostics, file, source.offset,
                    "corrupt PNG (" + std::string(stage) + ", stopped at byte " +
                        std::to_string(source.offset) + "): " + failure.message);
    };

    Header header;
    if (!readHeader(structs.png, structs.info, header)) return libpngFailure("the header");
    if (header.width > kMaxImageDimension || header.height > kMaxImageDimension) {
        return fail(diagnostics, file, 16,
                    "image is " + size2d(header.width, header.height) + " pixels; the limit is " +
                        std::to_string(kMaxImageDimension) + " on each side");
    }
    const uint64_t stored_bits_per_pixel = uint64_t(header.channels) * uint64_t(header.bit_depth);
    const uint64_t pixel_bytes =
        (uint64_t{header.width} * header.height * stored_bits_per_pixel + 7) / 8;
    if (pixel_bytes / kMaxDeflateRatio > bytes.size()) {
        return fail(diagnostics, file, bytes.size(),
                    "truncated PNG: " + size2d(header.width, header.height) + " pixels need " +
                        std::to_string(pixel_bytes) + " bytes of image data, which cannot fit " +
                        "in a " + std::to_string(bytes.size()) + "-byte file");
    }
    if (!setRgba8Transforms(structs.png, structs.info, header)) {
        return libpngFailure("the header");
    }
    const size_t row_bytes = size_t{header.width} * 4;
    if (header.bit_depth != 8 || header.channels != 4 || header.row_bytes != row_bytes) {
        return fail(diagnostics, file, source.offset,
                    "cannot convert this PNG to 8-bit RGBA (got " +
                        std::to_string(header.channels) + " channels of " +
                        std::to_string(header.bit_depth) + " bits)");
    }

    std::vector<uint8_t> pixels;
    std::vector<png_bytep> rows;
    try {
        pixels.resize(row_bytes * header.height);
        rows.resize(header.height);
    } catch (const std::bad_alloc&) {
        return fail(diagnostics, file, source.offset,
                    "out of memory for " + size2d(header.width, header.height) + " pixels");
    }
    for (size_t y = 0; y < rows.size(); ++y) rows[y] = pixels.data() + y * row_bytes;
    if (!readPixels(structs.png, structs.info, rows.data())) return libpngFailure("the pixels");

    out.width = header.width;
    out.height = header.height;
    out.rgba8 = std::move(pixels);
    return true;
}

bool encodeChecked(const Image& image, std::string_view file, const PngEncoding& encoding,
                   std::vector<uint8_t>& out, std::vector<Diagnostic>& diagnostics) {
    if (encoding.level < kMinPngLevel || encoding.level > kMaxPngLevel) {
        return fail(diagnostics, file, 0,
                    "cannot write a PNG at compression level " + std::to_string(encoding.level) +
                        ": the level must be " + std::to_string(kMinPngLevel) + ".." +
                        std::to_string(kMaxPngLevel));
    }
    if (image.width == 0 || image.height == 0 || image.width > kMaxImageDimension ||
        image.height > kMaxImageDimension) {
        return fail(diagnostics, file, 0,
                    "cannot write a " + size2d(image.width, image.height) +
                        " image: each side must be 1.." + std::to_string(kMaxImageDimension));
    }
    const size_t row_bytes = size_t{image.width} * 4;
    if (image.rgba8.size() != row_bytes * image.height) {
        return fail(diagnostics, file, 0,
                    "cannot write a " + size2d(image.width, image.height) + " image from " +
                        std::to_string(image.rgba8.size()) + " bytes of pixels; expected " +
                        std::to_string(row_bytes * image.height));
    }

    Failure failure;
    MemorySink sink{&out};
    WriteStructs structs;
    std::vector<png_bytep> rows(image.height);
    // libpng's row pointers are non-const, but with no transforms set it only reads them.
    auto* pixels = const_cast<uint8_t*>(image.rgba8.data());
    for (size_t y = 0; y < rows.size(); ++y) rows[y] = pixels + y * row_bytes;

    structs.png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, onPngError, onPngWarning);
    if (structs.png) structs.info = png_create_info_struct(structs.png);
    if (!structs.png || !structs.info) {
        return fail(diagnostics, file, 0, "cannot create a PNG encoder (out of memory)");
    }
    png_set_write_fn(structs.png, &sink, writeToMemory, flushNothing);
    if (!writeAll(structs.png, structs.info, image, encoding, rows.data())) {
        out.clear();
        return fail(diagnostics, file, 0, std::string("cannot encode PNG: ") + failure.message);
    }
    return true;
}

} // namespace

bool decodePng(std::span<const uint8_t> bytes, std::string_view file, Image& out,
               std::vector<Diagnostic>& diagnostics) {
    out = Image{};
    try {
        return decodeChecked(bytes, file, out, diagnostics);
    } catch (const std::bad_alloc&) {
        out = Image{};
        return fail(diagnostics, file, 0, "out of memory while decoding");
    }
}

bool readPng(std::string_view path, Image& out, std::vector<Diagnostic>& diagnostics) {
    out = Image{};
    const std::string name(path);
    std::FILE* stream = std::fopen(name.c_str(), "rb");
    if (!stream) {
        return fail(diagnostics, path, 0,
                    std::string("cannot open the PNG file: ") + std::strerror(errno));
    }
    std::vector<uint8_t> bytes;
    uint8_t buffer[1 << 16];
    bool too_large = false;
    size_t count = 0;
    while ((count = std::fread(buffer, 1, sizeof(buffer), stream)) > 0) {
        if (bytes.size() + count > kMaxPngFileBytes) {
            too_large = true;
            break;
        }
        bytes.insert(bytes.end(), buffer, buffer + count);
    }
    const bool read_error = std::ferror(stream) != 0;
    std::fclose(stream);
    if (too_large) {
        return fail(diagnostics, path, kMaxPngFileBytes,
                    "PNG file is larger than the limit of " + std::to_string(kMaxPngFileBytes) +
                        " bytes");
    }
    if (read_error) {
        return fail(diagnostics, path, bytes.size(), "cannot read the PNG file (I/O error)");
    }
    return decodePng(bytes, path, out, diagnostics);
}

bool encodePng(const Image& image, std::string_view file, std::vector<uint8_t>& out,
               std::vector<Diagnostic>& diagnostics, const PngEncoding& encoding) {
    out.clear();
    try {
        return encodeChecked(image, file, encoding, out, diagnostics);
    } catch (const std::bad_alloc&) {
        out.clear();
        return fail(diagnostics, file, 0, "out of memory while encoding");
    }
}

bool writePng(std::string_view path, const Image& image, std::vector<Diagnostic>& diagnostics,
              const PngEncoding& encoding) {
    std::vector<uint8_t> bytes;
    if (!encodePng(image, path, bytes, diagnostics, encoding)) return false;
    return writeFileAtomically(path, bytes, diagnostics);
}

} // namespace spindrift
