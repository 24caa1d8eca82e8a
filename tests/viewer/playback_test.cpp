#include "viewer/playback.h"

#include <gtest/gtest.h>

namespace spindrift::viewer {
namespace {

TEST(ViewerPlayback, PlayingFollowsTheWallClockTimesTheScale) {
    Playback p;
    p.time_scale = 0.5f;
    advance(p, 0.2, 5);
    EXPECT_DOUBLE_EQ(p.time_s, 0.1);
}

TEST(ViewerPlayback, PausedStays) {
    Playback p;
    p.playing = false;
    p.time_s = 1.25;
    advance(p, 0.5, 5);
    EXPECT_DOUBLE_EQ(p.time_s, 1.25);
}

TEST(ViewerPlayback, LoopsPastTheEndOrStopsThere) {
    Playback p;
    p.time_s = 4.9;
    advance(p, 0.2, 5);
    EXPECT_EQ(p.time_s, 0);
    EXPECT_TRUE(p.playing);
    p.loop = false;
    p.time_s = 4.9;
    advance(p, 0.2, 5);
    EXPECT_EQ(p.time_s, 5);
    EXPECT_FALSE(p.playing);
}

TEST(ViewerPlayback, RejectsANegativeOrNonFiniteWallStep) {
    Playback p;
    p.time_s = 1;
    advance(p, -0.1, 5);
    advance(p, 1.0 / 0.0, 5);
    EXPECT_EQ(p.time_s, 1);
}

TEST(ViewerPlayback, StepMovesOneSceneFrameAndPauses) {
    Playback p;
    p.time_s = 0.5;
    stepFrame(p, 30, 5);
    EXPECT_DOUBLE_EQ(p.time_s, 0.5 + 1.0 / 30);
    EXPECT_FALSE(p.playing);
    p.time_s = 4.99;
    stepFrame(p, 30, 5);
    EXPECT_EQ(p.time_s, 5);
}

TEST(ViewerPlayback, RestartGoesToZeroAndPlays) {
    Playback p;
    p.time_s = 3;
    p.playing = false;
    restart(p);
    EXPECT_EQ(p.time_s, 0);
    EXPECT_TRUE(p.playing);
}

TEST(ViewerPlayback, SeekClampsToTheScene) {
    Playback p;
    seekTo(p, 2.5, 5);
    EXPECT_EQ(p.time_s, 2.5);
    seekTo(p, -1, 5);
    EXPECT_EQ(p.time_s, 0);
    seekTo(p, 7, 5);
    EXPECT_EQ(p.time_s, 5);
    seekTo(p, 0.0 / 0.0, 5);
    EXPECT_EQ(p.time_s, 5);
}

TEST(ViewerPlayback, TimeScaleIsClamped) {
    Playback p;
    setTimeScale(p, 100);
    EXPECT_EQ(p.time_scale, kMaxTimeScale);
    setTimeScale(p, -1);
    EXPECT_EQ(p.time_scale, kMinTimeScale);
}

} // namespace
} // namespace spindrift::viewer
