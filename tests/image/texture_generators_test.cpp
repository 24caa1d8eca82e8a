#include "texgen/texture_generators.h"

#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "image/png_io.h"

namespace spindrift::texgen {
namespace {

const std::string kTextureFolder = SPINDRIFT_SOURCE_DIR "/examples/effects/textures/";
constexpr size_t kMaxCommittedBytes = 64 * 1024;

std::vector<uint8_t> readBytes(const std::string& path) {
    std::ifstream stream(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

uint8_t alphaAt(const Image& image, uint32_t x, uint32_t y) {
    return image.rgba8[(size_t{y} * image.width + x) * 4 + 3];
}

TEST(TextureGenerators, CommittedTexturesMatchTheGenerator) {
    const std::string hint =
        "; regenerate with: build/bin/spindrift-texgen examples/effects/textures";
    for (const GeneratedTexture& texture : generatedTextures()) {
        const std::string path = kTextureFolder + texture.file_name;
        const Image generated = texture.generate();
        // Pixels first: this is what matters to a renderer, and it does not depend on zlib.
        Image committed;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(readPng(path, committed, diagnostics))
            << (diagnostics.empty() ? path : formatDiagnostic(diagnostics[0])) << hint;
        EXPECT_EQ(committed.width, generated.width) << path << hint;
        EXPECT_EQ(committed.height, generated.height) << path << hint;
        EXPECT_TRUE(committed.rgba8 == generated.rgba8) << path << " pixels differ" << hint;
        // Then the bytes, so the committed files are exactly what the tool writes.
        std::vector<uint8_t> encoded;
        ASSERT_TRUE(encodePng(generated, path, encoded, diagnostics));
        const std::vector<uint8_t> bytes = readBytes(path);
        EXPECT_TRUE(bytes == encoded) << path << " bytes differ" << hint;
        EXPECT_LT(bytes.size(), kMaxCommittedBytes) << path;
    }
}

TEST(TextureGenerators, SameInputsGiveTheSamePixels) {
    for (const GeneratedTexture& texture : generatedTextures()) {
        EXPECT_TRUE(texture.generate().rgba8 == texture.generate().rgba8) << texture.file_name;
    }
}

TEST(TextureGenerators, HaveTheDocumentedSizes) {
    EXPECT_EQ(generateFlameAtlas().width, 256u);
    EXPECT_EQ(generateFlameAtlas().height, 256u);
    EXPECT_EQ(generateSmokeAtlas().width, 256u);
    EXPECT_EQ(generateSpark().width, 32u);
    EXPECT_EQ(generateSpark().height, 32u);
    EXPECT_EQ(generateGlow().width, 64u);
    EXPECT_EQ(generateHazeField().width, 128u);
    EXPECT_EQ(generateHazeField().height, 128u);
}

// Bilinear filtering must not bleed one flipbook frame into the next: the outer pixel ring of
// every frame is fully transparent, and every frame has something in it.
TEST(TextureGenerators, FlipbookFramesAreSeparatedAndNonEmpty) {
    for (const Image& atlas : {generateFlameAtlas(), generateSmokeAtlas()}) {
        for (uint32_t frame = 0; frame < kFlipbookColumns * kFlipbookRows; ++frame) {
            const uint32_t x0 = (frame % kFlipbookColumns) * kFlipbookFrameSize;
            const uint32_t y0 = (frame / kFlipbookColumns) * kFlipbookFrameSize;
            uint32_t border_max = 0;
            uint32_t opaque_pixels = 0;
            for (uint32_t y = 0; y < kFlipbookFrameSize; ++y) {
                for (uint32_t x = 0; x < kFlipbookFrameSize; ++x) {
                    const uint8_t a = alphaAt(atlas, x0 + x, y0 + y);
                    const bool border = x == 0 || y == 0 || x == kFlipbookFrameSize - 1 ||
                                        y == kFlipbookFrameSize - 1;
                    if (border) border_max = std::max<uint32_t>(border_max, a);
                    if (a > 128) ++opaque_pixels;
                }
            }
            EXPECT_EQ(border_max, 0u) << "frame " << frame;
            EXPECT_GT(opaque_pixels, 200u) << "frame " << frame;
        }
    }
}

// Premultiplied textures never have a colour channel above alpha (times the brightest colour,
// which is at most 1), so additive and premultiplied blending both work.
TEST(TextureGenerators, PremultipliedTexturesKeepColourWithinAlpha) {
    for (const Image& image : {generateFlameAtlas(), generateSpark(), generateGlow()}) {
        for (size_t i = 0; i < image.rgba8.size(); i += 4) {
            const uint8_t a = image.rgba8[i + 3];
            ASSERT_LE(image.rgba8[i + 0], a) << i;
            ASSERT_LE(image.rgba8[i + 1], a) << i;
            ASSERT_LE(image.rgba8[i + 2], a) << i;
        }
    }
}

TEST(TextureGenerators, GlowAndSparkPeakAtTheCentreAndVanishAtTheCorners) {
    for (const Image& image : {generateGlow(), generateSpark()}) {
        const uint32_t mid = image.width / 2;
        EXPECT_GT(alphaAt(image, mid, mid), 240);
        EXPECT_EQ(alphaAt(image, 0, 0), 0);
        EXPECT_EQ(alphaAt(image, image.width - 1, image.height - 1), 0);
    }
}

// The flame is white-hot low in the middle and darker towards its tip.
TEST(TextureGenerators, FlameCoreIsWhiteHotAndTipsAreRedder) {
    const Image flame = generateFlameAtlas();
    uint32_t white_low = 0;
    uint32_t white_high = 0;
    for (uint32_t y = 0; y < flame.height; ++y) {
        for (uint32_t x = 0; x < flame.width; ++x) {
            const uint8_t* p = &flame.rgba8[(size_t{y} * flame.width + x) * 4];
            const bool white = p[0] > 240 && p[1] > 230 && p[2] > 180;
            const bool low = (y % kFlipbookFrameSize) > kFlipbookFrameSize / 2;
            if (white) ++(low ? white_low : white_high);
        }
    }
    EXPECT_GT(white_low, 16u * 20u);
    EXPECT_LT(white_high * 4, white_low);
}

} // namespace
} // namespace spindrift::texgen
