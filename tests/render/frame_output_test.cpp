// Output paths (kinds, frame-number patterns) and contact sheets.
#include <gtest/gtest.h>

#include "render/contact_sheet.h"
#include "render/frame_output.h"

namespace spindrift::render {
namespace {

Image solid(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b) {
    Image image;
    image.width = w;
    image.height = h;
    image.rgba8.resize(size_t(w) * h * 4);
    for (size_t i = 0; i < image.rgba8.size(); i += 4) {
        image.rgba8[i] = r;
        image.rgba8[i + 1] = g;
        image.rgba8[i + 2] = b;
        image.rgba8[i + 3] = 255;
    }
    return image;
}

const uint8_t* pixel(const Image& image, uint32_t x, uint32_t y) {
    return &image.rgba8[(size_t(y) * image.width + x) * 4];
}

TEST(FrameOutput, PicksTheKindByExtensionIgnoringCase) {
    EXPECT_EQ(outputKindOf("out/a.png"), OutputKind::png);
    EXPECT_EQ(outputKindOf("A.PNG"), OutputKind::png);
    EXPECT_EQ(outputKindOf("clip.Mp4"), OutputKind::mp4);
    EXPECT_EQ(outputKindOf("frames_%04d.png"), OutputKind::png);
    EXPECT_EQ(outputKindOf("a.gif"), OutputKind::unknown);
    EXPECT_EQ(outputKindOf("noext"), OutputKind::unknown);
    EXPECT_EQ(outputKindOf("dir.png/"), OutputKind::unknown);
}

TEST(FrameOutput, ExpandsFrameNumberPlaceholders) {
    FramePattern p;
    std::string error;
    ASSERT_TRUE(parseFramePattern("out/f_%04d.png", p, error)) << error;
    EXPECT_TRUE(p.has_placeholder);
    EXPECT_EQ(frameFileName(p, 7), "out/f_0007.png");
    EXPECT_EQ(frameFileName(p, 123456), "out/f_123456.png");
    ASSERT_TRUE(parseFramePattern("%d.png", p, error));
    EXPECT_EQ(frameFileName(p, 42), "42.png");
    ASSERT_TRUE(parseFramePattern("100%%_%02d.png", p, error));
    EXPECT_EQ(frameFileName(p, 3), "100%_03.png");
    ASSERT_TRUE(parseFramePattern("plain.png", p, error));
    EXPECT_FALSE(p.has_placeholder);
    EXPECT_EQ(frameFileName(p, 9), "plain.png");
}

TEST(FrameOutput, RejectsPlaceholdersPrintfWouldMisread) {
    FramePattern p;
    for (const char* bad : {"a_%s.png", "a_%n.png", "a_%x.png", "a_%5d.png", "a_%0d.png",
                            "a_%010d.png", "a_%d_%d.png", "a_%.png", "a%"}) {
        std::string error;
        EXPECT_FALSE(parseFramePattern(bad, p, error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
}

TEST(FrameOutput, DefaultSequencePatternNumbersBeforeTheExtension) {
    EXPECT_EQ(defaultSequencePattern("out/fire.png"), "out/fire_%04d.png");
    EXPECT_EQ(defaultSequencePattern("fire.png"), "fire_%04d.png");
    FramePattern p;
    std::string error;
    ASSERT_TRUE(parseFramePattern(defaultSequencePattern("50%/a%b.png"), p, error)) << error;
    EXPECT_EQ(frameFileName(p, 1), "50%/a%b_0001.png");
}

TEST(ContactSheet, LaysOutAGridWithGapsAtFullSizeWhenItFits) {
    const ContactSheetLayout l = contactSheetLayout(5, 100, 60);
    EXPECT_EQ(l.columns, 3u);
    EXPECT_EQ(l.rows, 2u);
    EXPECT_EQ(l.cell_width, 100u);
    EXPECT_EQ(l.cell_height, 60u);
    EXPECT_EQ(l.width, 3 * 100 + 4 * kContactSheetGap);
    EXPECT_EQ(l.height, 2 * 60 + 3 * kContactSheetGap);
    const ContactSheetLayout one = contactSheetLayout(1, 64, 32);
    EXPECT_EQ(one.columns, 1u);
    EXPECT_EQ(one.rows, 1u);
    EXPECT_EQ(one.width, 64 + 2 * kContactSheetGap);
}

TEST(ContactSheet, ShrinksCellsToStayWithinTheMaximumSize) {
    const ContactSheetLayout l = contactSheetLayout(16, 1920, 1080);
    EXPECT_EQ(l.columns, 4u);
    EXPECT_EQ(l.rows, 4u);
    EXPECT_LE(l.width, kMaxContactSheetSize);
    EXPECT_LE(l.height, kMaxContactSheetSize);
    EXPECT_GT(l.width, kMaxContactSheetSize - 8); // the width is the binding side
    // The aspect ratio is kept to within a pixel.
    EXPECT_NEAR(double(l.cell_width) / l.cell_height, 1920.0 / 1080.0, 0.01);
    const ContactSheetLayout tall = contactSheetLayout(2, 100, 5000);
    EXPECT_LE(tall.height, kMaxContactSheetSize);
    EXPECT_GE(tall.cell_width, 1u);
}

TEST(ContactSheet, SpacesTimesEvenlyAtSliceMidpoints) {
    const std::vector<float> t = contactSheetTimes(4, 2.0f);
    ASSERT_EQ(t.size(), 4u);
    EXPECT_FLOAT_EQ(t[0], 0.25f);
    EXPECT_FLOAT_EQ(t[1], 0.75f);
    EXPECT_FLOAT_EQ(t[2], 1.25f);
    EXPECT_FLOAT_EQ(t[3], 1.75f);
}

TEST(ContactSheet, PlacesFramesRowMajorAndLeavesGapsBackground) {
    const ContactSheetLayout l = contactSheetLayout(3, 8, 6); // 2 x 2 grid, one cell empty
    Image sheet = makeContactSheet(l);
    ASSERT_EQ(sheet.rgba8.size(), size_t(l.width) * l.height * 4);
    placeInContactSheet(sheet, l, 0, solid(8, 6, 255, 0, 0));
    placeInContactSheet(sheet, l, 1, solid(8, 6, 0, 255, 0));
    placeInContactSheet(sheet, l, 2, solid(8, 6, 0, 0, 255));
    const uint32_t g = kContactSheetGap;
    // Cell corners.
    EXPECT_EQ(pixel(sheet, g, g)[0], 255);
    EXPECT_EQ(pixel(sheet, g + 7, g + 5)[0], 255);
    EXPECT_EQ(pixel(sheet, 2 * g + 8, g)[1], 255);
    EXPECT_EQ(pixel(sheet, g, 2 * g + 6)[2], 255);
    // Gaps, the border and the empty fourth cell stay background.
    for (const auto& [x, y] : {std::pair<uint32_t, uint32_t>{0, 0},
                               {g + 8, g},
                               {g, g + 6},
                               {2 * g + 8 + 3, 2 * g + 6 + 3},
                               {l.width - 1, l.height - 1}}) {
        const uint8_t* p = pixel(sheet, x, y);
        EXPECT_EQ(p[0], kContactSheetBackground) << x << "," << y;
        EXPECT_EQ(p[1], kContactSheetBackground) << x << "," << y;
        EXPECT_EQ(p[3], 255);
    }
}

TEST(ContactSheet, DownscalesByAveraging) {
    // A 4x2 frame of alternating black and white columns into a 2x1 cell averages to grey.
    Image frame = solid(4, 2, 0, 0, 0);
    for (uint32_t y = 0; y < 2; ++y) {
        for (uint32_t x = 1; x < 4; x += 2) {
            uint8_t* p = &frame.rgba8[(size_t(y) * 4 + x) * 4];
            p[0] = p[1] = p[2] = 255;
        }
    }
    ContactSheetLayout l;
    l.frames = 1;
    l.columns = l.rows = 1;
    l.cell_width = 2;
    l.cell_height = 1;
    l.width = 2 + 2 * kContactSheetGap;
    l.height = 1 + 2 * kContactSheetGap;
    Image sheet = makeContactSheet(l);
    placeInContactSheet(sheet, l, 0, frame);
    const uint8_t* p = pixel(sheet, kContactSheetGap, kContactSheetGap);
    EXPECT_EQ(p[0], 128);
    EXPECT_EQ(p[3], 255);
}

} // namespace
} // namespace spindrift::render
