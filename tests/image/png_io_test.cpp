#include "image/png_io.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "image/crafted_png.h"

namespace spindrift {
namespace {

using test::craftPng;

struct DecodeResult {
    bool ok = false;
    Image image;
    std::vector<Diagnostic> diagnostics;
    std::string message() const { return diagnostics.empty() ? "" : diagnostics[0].message; }
};

DecodeResult decode(const std::vector<uint8_t>& bytes) {
    DecodeResult r;
    r.ok = decodePng(bytes, "tex.png", r.image, r.diagnostics);
    if (!r.ok) {
        // Every failure is exactly one error naming the file, and leaves no half image behind.
        EXPECT_EQ(r.diagnostics.size(), 1u);
        if (!r.diagnostics.empty()) {
            EXPECT_EQ(r.diagnostics[0].file, "tex.png");
            EXPECT_EQ(r.diagnostics[0].severity, Severity::error);
        }
        EXPECT_EQ(r.image.width, 0u);
        EXPECT_TRUE(r.image.rgba8.empty());
    }
    return r;
}

Image noiseImage(uint32_t width, uint32_t height, uint32_t seed) {
    Image image;
    image.width = width;
    image.height = height;
    std::mt19937 random(seed);
    for (size_t i = 0; i < size_t{width} * height * 4; ++i) {
        image.rgba8.push_back(static_cast<uint8_t>(random() & 0xFF));
    }
    return image;
}

std::vector<uint8_t> encode(const Image& image) {
    std::vector<uint8_t> bytes;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(encodePng(image, "out.png", bytes, diagnostics));
    return bytes;
}

// Rows of width 2, filter byte 0 each, from the given samples.
std::vector<uint8_t> rows(const std::vector<std::vector<uint8_t>>& samples) {
    std::vector<uint8_t> raw;
    for (const auto& row : samples) {
        raw.push_back(0);
        raw.insert(raw.end(), row.begin(), row.end());
    }
    return raw;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(PngIo, RoundTripsRandomPixelsExactly) {
    for (const auto& [w, h] : {std::pair{1u, 1u}, {37u, 23u}, {256u, 3u}}) {
        const Image image = noiseImage(w, h, w * 31 + h);
        const DecodeResult r = decode(encode(image));
        ASSERT_TRUE(r.ok) << r.message();
        EXPECT_EQ(r.image.width, w);
        EXPECT_EQ(r.image.height, h);
        EXPECT_EQ(r.image.rgba8, image.rgba8);
    }
}

TEST(PngIo, EncodingIsDeterministic) {
    const Image image = noiseImage(19, 7, 5);
    EXPECT_EQ(encode(image), encode(image));
}

// Smooth gradients with a little noise, like a rendered frame: the filters and levels have
// something to find.
Image gradientImage(uint32_t width, uint32_t height) {
    Image image = noiseImage(width, height, 3);
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            uint8_t* p = &image.rgba8[(size_t{y} * width + x) * 4];
            p[0] = static_cast<uint8_t>(x * 2 + (p[0] & 3));
            p[1] = static_cast<uint8_t>(y * 3);
            p[2] = static_cast<uint8_t>((x + y) & 0xFF);
            p[3] = 255;
        }
    }
    return image;
}

TEST(PngIo, EveryLevelAndFilterDecodesToTheSamePixels) {
    const Image image = gradientImage(97, 41);
    std::vector<uint8_t> stored; // level 0: no compression, the largest
    size_t smallest = SIZE_MAX;
    for (int level = kMinPngLevel; level <= kMaxPngLevel; ++level) {
        for (const PngFilter filter : {PngFilter::none, PngFilter::sub, PngFilter::up,
                                       PngFilter::paeth, PngFilter::adaptive}) {
            std::vector<uint8_t> bytes;
            std::vector<Diagnostic> diagnostics;
            ASSERT_TRUE(encodePng(image, "out.png", bytes, diagnostics, {level, filter})) << level;
            const DecodeResult r = decode(bytes);
            ASSERT_TRUE(r.ok) << "level " << level << ": " << r.message();
            EXPECT_EQ(r.image.rgba8, image.rgba8) << "level " << level;
            // The same settings give the same bytes.
            std::vector<uint8_t> again;
            ASSERT_TRUE(encodePng(image, "out.png", again, diagnostics, {level, filter}));
            EXPECT_EQ(again, bytes) << "level " << level;
            if (level == 0 && filter == PngFilter::none) stored = bytes;
            smallest = std::min(smallest, bytes.size());
        }
    }
    // The settings are applied: stored is larger than the pixels, compression is much smaller.
    EXPECT_GT(stored.size(), image.rgba8.size());
    EXPECT_LT(smallest * 2, stored.size());
    // The default is what the committed textures were written with: level 9, adaptive.
    std::vector<uint8_t> by_default, level9;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(encodePng(image, "out.png", by_default, diagnostics));
    ASSERT_TRUE(encodePng(image, "out.png", level9, diagnostics, {9, PngFilter::adaptive}));
    EXPECT_EQ(by_default, level9);
}

TEST(PngIo, RefusesALevelOutsideZeroToNine) {
    const Image image = noiseImage(4, 4, 1);
    for (const int level : {-1, 10, 1000}) {
        std::vector<uint8_t> bytes = {1, 2, 3};
        std::vector<Diagnostic> diagnostics;
        EXPECT_FALSE(encodePng(image, "level.png", bytes, diagnostics, {level}));
        EXPECT_TRUE(bytes.empty());
        ASSERT_EQ(diagnostics.size(), 1u);
        EXPECT_EQ(diagnostics[0].file, "level.png");
        EXPECT_TRUE(contains(diagnostics[0].message, "level " + std::to_string(level)))
            << diagnostics[0].message;
    }
}

TEST(PngIo, WritesAndReadsAFile) {
    const std::string path =
        (std::filesystem::temp_directory_path() / "spindrift_png_io_test.png").string();
    const Image image = noiseImage(16, 9, 77);
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(writePng(path, image, diagnostics));
    Image back;
    ASSERT_TRUE(readPng(path, back, diagnostics));
    EXPECT_TRUE(diagnostics.empty());
    EXPECT_EQ(back.rgba8, image.rgba8);
    std::filesystem::remove(path);
}

TEST(PngIo, RejectsAMissingFileNamingIt) {
    Image image;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(readPng("/nonexistent/spindrift/flame.png", image, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].file, "/nonexistent/spindrift/flame.png");
    EXPECT_TRUE(contains(diagnostics[0].message, "cannot open")) << diagnostics[0].message;
}

TEST(PngIo, RejectsAnEmptyFile) {
    const DecodeResult r = decode({});
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message(), "empty file")) << r.message();
}

TEST(PngIo, RejectsRandomBytesAsNotAPng) {
    std::mt19937 random(3);
    std::vector<uint8_t> bytes(300);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
    const DecodeResult r = decode(bytes);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message(), "not a PNG")) << r.message();
    // A prefix of the signature is not a PNG either.
    EXPECT_TRUE(contains(decode(test::pngSignature()).message(), "truncated"));
    std::vector<uint8_t> short_signature = test::pngSignature();
    short_signature.resize(5);
    EXPECT_TRUE(contains(decode(short_signature).message(), "not a PNG"));
}

TEST(PngIo, RejectsEveryTruncation) {
    const std::vector<uint8_t> whole = encode(noiseImage(20, 20, 9));
    // Every cut after the signature, including one just before the end of IEND, is truncated.
    for (size_t size = 8; size < whole.size(); ++size) {
        const DecodeResult r =
            decode(std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<long>(size)));
        ASSERT_FALSE(r.ok) << "cut at " << size;
        EXPECT_TRUE(contains(r.message(), "truncated")) << "cut at " << size << ": " << r.message();
        EXPECT_LE(r.diagnostics[0].byte_offset, size);
    }
}

// Found by the fuzzer: an sPLT chunk declaring 0x73737373 bytes in a tiny file made libpng
// allocate 1.9 GB before noticing the file had ended. Declared lengths are checked first.
TEST(PngIo, RejectsAChunkDeclaringMoreBytesThanTheFileHolds) {
    std::vector<uint8_t> png = test::pngSignature();
    test::appendChunk(png, "IHDR", test::ihdrData(4, 2, 8, test::kColourRgba));
    const size_t at = png.size();
    png.insert(png.end(), {0x73, 0x73, 0x73, 0x73, 's', 'P', 'L', 'T', 1, 2, 3});
    const DecodeResult r = decode(png);
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message(), "truncated PNG: the chunk 'sPLT' at byte " +
                                          std::to_string(at) + " declares 1936946035 bytes"))
        << r.message();
    EXPECT_EQ(r.diagnostics[0].byte_offset, png.size());
}

TEST(PngIo, RejectsABadCrcInEachCriticalChunk) {
    const std::vector<uint8_t> whole = encode(noiseImage(8, 8, 1));
    for (const std::string type : {"IHDR", "IDAT", "IEND"}) {
        std::vector<uint8_t> bad = whole;
        const size_t chunk = test::findChunk(bad, type);
        ASSERT_NE(chunk, SIZE_MAX);
        const uint32_t length = uint32_t{bad[chunk + 2]} << 8 | bad[chunk + 3];
        bad[chunk + 8 + length] ^= 0x01; // first CRC byte
        const DecodeResult r = decode(bad);
        EXPECT_FALSE(r.ok) << type;
        EXPECT_TRUE(contains(r.message(), "CRC")) << type << ": " << r.message();
    }
}

TEST(PngIo, RejectsCorruptCompressedData) {
    std::vector<uint8_t> png = test::pngSignature();
    test::appendChunk(png, "IHDR", test::ihdrData(4, 4, 8, test::kColourRgba));
    test::appendChunk(png, "IDAT", {0x78, 0xDA, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x11, 0x22, 0x33});
    test::appendChunk(png, "IEND", {});
    const DecodeResult r = decode(png);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message(), "corrupt PNG")) << r.message();
}

TEST(PngIo, RejectsTooFewScanlines) {
    // The zlib stream is valid but holds 2 of the 4 rows the header promises.
    const std::vector<uint8_t> png = craftPng(2, 4, 8, test::kColourGrey, rows({{1, 2}, {3, 4}}));
    EXPECT_FALSE(decode(png).ok);
}

TEST(PngIo, RejectsDimensionsOverTheLimit) {
    for (const auto& [w, h] :
         {std::pair{kMaxImageDimension + 1, 1u}, {1u, 100000u}, {2000000000u, 2000000000u}}) {
        std::vector<uint8_t> png = test::pngSignature();
        test::appendChunk(png, "IHDR", test::ihdrData(w, h, 8, test::kColourRgba));
        test::appendChunk(png, "IDAT", test::zlibCompress(std::vector<uint8_t>(64, 0)));
        test::appendChunk(png, "IEND", {});
        const DecodeResult r = decode(png);
        EXPECT_FALSE(r.ok);
        EXPECT_TRUE(contains(r.message(), "the limit is 8192"))
            << w << "x" << h << ": " << r.message();
    }
}

TEST(PngIo, RejectsATinyFileClaimingHugePixelsBeforeAllocating) {
    std::vector<uint8_t> png = test::pngSignature();
    test::appendChunk(png, "IHDR", test::ihdrData(8192, 8192, 16, test::kColourRgba));
    test::appendChunk(png, "IDAT", test::zlibCompress(std::vector<uint8_t>(64, 0)));
    test::appendChunk(png, "IEND", {});
    const DecodeResult r = decode(png);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message(), "cannot fit")) << r.message();
}

TEST(PngIo, RejectsAnInvalidHeader) {
    // Bit depth 3 does not exist.
    std::vector<uint8_t> png = test::pngSignature();
    test::appendChunk(png, "IHDR", test::ihdrData(4, 4, 3, test::kColourRgb));
    test::appendChunk(png, "IEND", {});
    const DecodeResult r = decode(png);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message(), "corrupt PNG")) << r.message();
}

TEST(PngIo, AcceptsTheLargestAllowedWidth) {
    const std::vector<uint8_t> raw(1 + size_t{kMaxImageDimension}, 0);
    const DecodeResult r = decode(craftPng(kMaxImageDimension, 1, 8, test::kColourGrey, raw));
    ASSERT_TRUE(r.ok) << r.message();
    EXPECT_EQ(r.image.rgba8.size(), size_t{kMaxImageDimension} * 4);
    EXPECT_EQ(r.image.rgba8[3], 255);
}

TEST(PngIo, ConvertsPaletteWithTransparencyToRgba) {
    const std::vector<uint8_t> palette = {255, 0, 0, 0, 255, 0, 0, 0, 255};
    const std::vector<uint8_t> alpha = {128}; // entries 1 and 2 stay opaque
    const DecodeResult r = decode(craftPng(2, 2, 8, test::kColourPalette, rows({{0, 1}, {2, 0}}),
                                           {{"PLTE", palette}, {"tRNS", alpha}}));
    ASSERT_TRUE(r.ok) << r.message();
    const std::vector<uint8_t> expected = {255, 0, 0,   128, 0,   255, 0, 255,
                                           0,   0, 255, 255, 255, 0,   0, 128};
    EXPECT_EQ(r.image.rgba8, expected);
}

TEST(PngIo, ConvertsFourBitPaletteToRgba) {
    const std::vector<uint8_t> palette = {10, 20, 30, 40, 50, 60};
    // Two 4-bit indices per byte: 1, 0.
    const DecodeResult r =
        decode(craftPng(2, 1, 4, test::kColourPalette, rows({{0x10}}), {{"PLTE", palette}}));
    ASSERT_TRUE(r.ok) << r.message();
    const std::vector<uint8_t> expected = {40, 50, 60, 255, 10, 20, 30, 255};
    EXPECT_EQ(r.image.rgba8, expected);
}

TEST(PngIo, RejectsAPaletteIndexWithoutAPalette) {
    EXPECT_FALSE(decode(craftPng(2, 1, 8, test::kColourPalette, rows({{0, 1}}))).ok);
}

TEST(PngIo, ScalesSixteenBitRgbaToEightBits) {
    // Samples that are multiples of 257 scale to exactly sample / 257.
    const DecodeResult r = decode(
        craftPng(2, 1, 16, test::kColourRgba,
                 rows({{0xFF, 0xFF, 0x80, 0x80, 0x00, 0x00, 0x12, 0x12, // 65535, 32896, 0, 4626
                        0x01, 0x01, 0x02, 0x02, 0xFE, 0xFE, 0xFF, 0xFF}})));
    ASSERT_TRUE(r.ok) << r.message();
    const std::vector<uint8_t> expected = {255, 128, 0, 0x12, 1, 2, 254, 255};
    EXPECT_EQ(r.image.rgba8, expected);
}

TEST(PngIo, ScalesSixteenBitGreyWithRounding) {
    // 0x7FFF * 255 / 65535 = 127.498 -> 127; 0x8000 -> 127.502 -> 128.
    const DecodeResult r =
        decode(craftPng(2, 1, 16, test::kColourGrey, rows({{0x7F, 0xFF, 0x80, 0x00}})));
    ASSERT_TRUE(r.ok) << r.message();
    const std::vector<uint8_t> expected = {127, 127, 127, 255, 128, 128, 128, 255};
    EXPECT_EQ(r.image.rgba8, expected);
}

TEST(PngIo, ExpandsGreyAndGreyAlphaAndRgb) {
    const DecodeResult one_bit = decode(craftPng(2, 1, 1, test::kColourGrey, rows({{0x40}})));
    ASSERT_TRUE(one_bit.ok) << one_bit.message();
    EXPECT_EQ(one_bit.image.rgba8, (std::vector<uint8_t>{0, 0, 0, 255, 255, 255, 255, 255}));

    const DecodeResult grey_alpha =
        decode(craftPng(2, 1, 8, test::kColourGreyAlpha, rows({{7, 8, 200, 0}})));
    ASSERT_TRUE(grey_alpha.ok) << grey_alpha.message();
    EXPECT_EQ(grey_alpha.image.rgba8, (std::vector<uint8_t>{7, 7, 7, 8, 200, 200, 200, 0}));

    const DecodeResult rgb =
        decode(craftPng(2, 1, 8, test::kColourRgb, rows({{1, 2, 3, 4, 5, 6}})));
    ASSERT_TRUE(rgb.ok) << rgb.message();
    EXPECT_EQ(rgb.image.rgba8, (std::vector<uint8_t>{1, 2, 3, 255, 4, 5, 6, 255}));
}

TEST(PngIo, RefusesToEncodeMalformedImages) {
    std::vector<uint8_t> bytes{1, 2, 3};
    std::vector<Diagnostic> diagnostics;
    Image empty;
    EXPECT_FALSE(encodePng(empty, "a.png", bytes, diagnostics));
    EXPECT_TRUE(bytes.empty());
    Image short_pixels = noiseImage(4, 4, 1);
    short_pixels.rgba8.pop_back();
    EXPECT_FALSE(encodePng(short_pixels, "b.png", bytes, diagnostics));
    Image too_wide;
    too_wide.width = kMaxImageDimension + 1;
    too_wide.height = 1;
    too_wide.rgba8.resize(size_t{too_wide.width} * 4);
    EXPECT_FALSE(encodePng(too_wide, "c.png", bytes, diagnostics));
    ASSERT_EQ(diagnostics.size(), 3u);
    EXPECT_EQ(diagnostics[1].file, "b.png");
    EXPECT_TRUE(contains(diagnostics[1].message, "expected 64")) << diagnostics[1].message;
}

TEST(PngIo, ReportsAnUnwritablePath) {
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(writePng("/nonexistent/spindrift/out.png", noiseImage(2, 2, 1), diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].file, "/nonexistent/spindrift/out.png");
}

} // namespace
} // namespace spindrift
