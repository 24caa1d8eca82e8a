#include "viewer/presenter.h"

#include <gtest/gtest.h>

namespace spindrift::viewer {
namespace {

TEST(ViewerFitFrame, SameSizeIsPixelForPixel) {
    const FitRect r = fitFrame(96, 64, 96, 64);
    EXPECT_EQ(r.x, 0);
    EXPECT_EQ(r.y, 0);
    EXPECT_EQ(r.width, 96u);
    EXPECT_EQ(r.height, 64u);
}

TEST(ViewerFitFrame, WiderWindowGetsBarsLeftAndRight) {
    const FitRect r = fitFrame(160, 90, 400, 90);
    EXPECT_EQ(r.width, 160u);
    EXPECT_EQ(r.height, 90u);
    EXPECT_EQ(r.x, 120);
    EXPECT_EQ(r.y, 0);
}

TEST(ViewerFitFrame, TallerWindowGetsBarsAboveAndBelow) {
    const FitRect r = fitFrame(160, 90, 320, 400);
    EXPECT_EQ(r.width, 320u);
    EXPECT_EQ(r.height, 180u);
    EXPECT_EQ(r.x, 0);
    EXPECT_EQ(r.y, 110);
}

TEST(ViewerFitFrame, AnEmptyWindowOrFrameGivesOnePixel) {
    const FitRect r = fitFrame(0, 90, 320, 400);
    EXPECT_EQ(r.width, 1u);
    EXPECT_EQ(r.height, 1u);
}

} // namespace
} // namespace spindrift::viewer
