// The host-built mip chain (image/mip_chain.h): level sizes down to 1 x 1, a box filter in linear
// light with area weights for odd sizes, alpha averaged as stored.
#include <gtest/gtest.h>

#include "image/mip_chain.h"

namespace spindrift {
namespace {

Image solid(uint32_t width, uint32_t height, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    Image image;
    image.width = width;
    image.height = height;
    for (uint32_t i = 0; i < width * height; ++i)
        image.rgba8.insert(image.rgba8.end(), {r, g, b, a});
    return image;
}

TEST(MipChain, LevelsHalveDownToOneTexel) {
    EXPECT_EQ(mipLevelCount(0, 0), 0u);
    EXPECT_EQ(mipLevelCount(1, 1), 1u);
    EXPECT_EQ(mipLevelCount(256, 64), 9u);
    EXPECT_EQ(mipLevelCount(5, 3), 3u); // 5x3, 2x1, 1x1
    const std::vector<Image> chain = buildMipChain(solid(5, 3, 10, 20, 30, 40));
    ASSERT_EQ(chain.size(), 2u);
    EXPECT_EQ(chain[0].width, 2u);
    EXPECT_EQ(chain[0].height, 1u);
    EXPECT_EQ(chain[1].width, 1u);
    EXPECT_EQ(chain[1].height, 1u);
    for (const Image& level : chain) {
        ASSERT_EQ(level.rgba8.size(), size_t{level.width} * level.height * 4);
        // A flat image stays flat at every level (the weights sum to 1).
        EXPECT_EQ(level.rgba8[0], 10);
        EXPECT_EQ(level.rgba8[1], 20);
        EXPECT_EQ(level.rgba8[2], 30);
        EXPECT_EQ(level.rgba8[3], 40);
    }
    EXPECT_TRUE(buildMipChain(solid(1, 1, 1, 2, 3, 4)).empty());
}

// Black and white average to half the light, which sRGB encodes as 188, not 128; alpha (not
// sRGB-encoded) averages to 128 of 255.
TEST(MipChain, AveragesColourInLinearLightAndAlphaAsStored) {
    Image image = solid(2, 1, 0, 0, 0, 0);
    for (int c = 0; c < 4; ++c) image.rgba8[4 + c] = 255;
    const std::vector<Image> chain = buildMipChain(image);
    ASSERT_EQ(chain.size(), 1u);
    EXPECT_EQ(chain[0].rgba8[0], 188);
    EXPECT_EQ(chain[0].rgba8[3], 128);
}

// Three texels into one: each counts a third, so the odd one out is not dropped.
TEST(MipChain, OddSizesWeighEveryTexelByTheAreaItCovers) {
    Image image = solid(3, 1, 0, 0, 0, 0);
    image.rgba8[2 * 4 + 3] = 255; // the last texel's alpha only
    const std::vector<Image> chain = buildMipChain(image);
    ASSERT_EQ(chain.size(), 1u);
    EXPECT_EQ(chain[0].rgba8[3], 85); // 255 / 3
}

} // namespace
} // namespace spindrift
