// The progress bar: its text, in-place redraw on a terminal, a line per 10 % otherwise, silence
// when quiet.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "render/progress.h"

namespace spindrift::render {
namespace {

std::string contents(FILE* f) {
    std::fflush(f);
    std::rewind(f);
    std::string text;
    int c = 0;
    while ((c = std::fgetc(f)) != EOF) text += static_cast<char>(c);
    return text;
}

size_t count(const std::string& text, char c) {
    size_t n = 0;
    for (char x : text) n += x == c ? 1 : 0;
    return n;
}

TEST(Progress, FormatsFramesPercentElapsedAndTimeLeft) {
    EXPECT_EQ(formatProgress(0, 120, 0), "frame 0/120  0%  elapsed 0:00");
    EXPECT_EQ(formatProgress(12, 120, 3), "frame 12/120  10%  elapsed 0:03  left 0:27");
    EXPECT_EQ(formatProgress(120, 120, 61.4), "frame 120/120  100%  elapsed 1:01  left 0:00");
    EXPECT_EQ(formatProgress(1, 2, 3700), "frame 1/2  50%  elapsed 1:01:40  left 1:01:40");
}

TEST(Progress, LinesModePrintsOneLinePerTenthDone) {
    FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    {
        ProgressBar bar(200, ProgressBar::Mode::lines, f);
        for (uint32_t i = 1; i <= 200; ++i) bar.update(i);
        bar.finish();
    }
    const std::string text = contents(f);
    std::fclose(f);
    EXPECT_EQ(count(text, '\n'), 10u) << text;
    EXPECT_EQ(count(text, '\r'), 0u);
    EXPECT_NE(text.find("frame 20/200  10%"), std::string::npos) << text;
    EXPECT_NE(text.find("frame 200/200  100%"), std::string::npos) << text;
}

TEST(Progress, TerminalModeRedrawsInPlaceAndEndsTheLine) {
    FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    ProgressBar bar(5, ProgressBar::Mode::terminal, f);
    for (uint32_t i = 1; i <= 5; ++i) bar.update(i);
    bar.finish();
    const std::string text = contents(f);
    std::fclose(f);
    EXPECT_EQ(count(text, '\r'), 5u);
    EXPECT_EQ(count(text, '\n'), 1u);
    EXPECT_EQ(text.back(), '\n');
}

TEST(Progress, QuietPrintsNothingAndAFileIsNotATerminal) {
    FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    ProgressBar quiet(10, true, f);
    EXPECT_EQ(quiet.mode(), ProgressBar::Mode::quiet);
    for (uint32_t i = 1; i <= 10; ++i) quiet.update(i);
    quiet.finish();
    EXPECT_EQ(contents(f), "");
    ProgressBar auto_mode(10, false, f);
    EXPECT_EQ(auto_mode.mode(), ProgressBar::Mode::lines);
    std::fclose(f);
}

TEST(Progress, NamesWhatItCounts) {
    EXPECT_EQ(formatProgress(12, 120, 3, "step"), "step 12/120  10%  elapsed 0:03  left 0:27");
}

// A long run of steps into a file: nothing before kStepProgressDelay_s, then a line per 10 %
// that has passed; a run too short to log prints nothing at all.
TEST(Progress, StepProgressWaitsASecondAndLogsOnlyLongRuns) {
    FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    const uint64_t steps = kStepProgressMinLoggedSteps * 2;
    {
        StepProgress progress(steps, false, "instance smoke: step", f);
        StepProgress short_run(kStepProgressMinLoggedSteps - 1, false, "short", f);
        for (uint64_t i = 1; i <= steps / 2; ++i) progress.update(i);
        EXPECT_EQ(contents(f), "") << "under a second: nothing yet";
        std::this_thread::sleep_for(std::chrono::duration<double>(kStepProgressDelay_s * 1.1));
        for (uint64_t i = steps / 2 + 1; i <= steps; ++i) progress.update(i);
        for (uint64_t i = 1; i < kStepProgressMinLoggedSteps; ++i) short_run.update(i);
    }
    const std::string text = contents(f);
    std::fclose(f);
    EXPECT_EQ(text.find("short"), std::string::npos) << text;
    EXPECT_EQ(count(text, '\r'), 0u) << text;
    EXPECT_GE(count(text, '\n'), 1u) << text;
    EXPECT_LE(count(text, '\n'), 10u) << text;
    EXPECT_NE(text.find("instance smoke: step 200000/200000  100%"), std::string::npos) << text;
}

TEST(Progress, QuietStepProgressPrintsNothing) {
    FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    {
        StepProgress progress(1'000'000, true, "step", f);
        std::this_thread::sleep_for(std::chrono::duration<double>(kStepProgressDelay_s * 1.1));
        for (uint64_t i = 1; i <= 1'000'000; ++i) progress.update(i);
    }
    EXPECT_EQ(contents(f), "");
    std::fclose(f);
}

} // namespace
} // namespace spindrift::render
