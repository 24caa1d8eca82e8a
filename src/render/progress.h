// A progress bar on stderr for long renders (frame i/N) and long simulations (step i/N): percent,
// elapsed time and an estimate of the time left. On a terminal it is one line redrawn in place
// (\r); into a file or a pipe (CI logs) it prints a line each time another 10 % is done, so logs
// stay short. Quiet prints nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace spindrift::render {

// "frame 12/120  10%  elapsed 0:03  left 0:27" (left is omitted until a frame is done); `unit`
// names what is counted. Times are m:ss, or h:mm:ss from an hour on.
std::string formatProgress(uint32_t done, uint32_t total, double elapsed_s,
                           const char* unit = "frame");

class ProgressBar {
public:
    enum class Mode { quiet, terminal, lines };

    // Mode from the stream: terminal when it is a TTY, else lines; quiet when quiet is set.
    ProgressBar(uint32_t total, bool quiet, FILE* out = stderr);
    // unit: a string literal (or one that outlives the bar) naming what is counted.
    ProgressBar(uint32_t total, Mode mode, FILE* out, const char* unit = "frame");

    static Mode modeFor(FILE* out, bool quiet);

    // done frames of total are finished (call after each frame).
    void update(uint32_t done);
    // Ends the line on a terminal (call once at the end, also after an error).
    void finish();

    Mode mode() const { return mode_; }

private:
    double elapsed() const;

    uint32_t total_;
    Mode mode_;
    const char* unit_;
    FILE* out_;
    std::chrono::steady_clock::time_point start_;
    uint32_t last_decile_ = 0;
    bool drawn_ = false;
};

// The progress of a long run of fixed steps (`simulate --time`, a scene instance's pre-roll): a
// ProgressBar counting steps, shown once the run has lasted kStepProgressDelay_s and updated at
// most every kStepProgressInterval_s, so a short run prints nothing and update() is cheap enough
// to call every step. On a terminal the line is redrawn in place; into a file or a pipe (logs,
// tests) a line per 10 %, and only for runs of at least kStepProgressMinLoggedSteps.
inline constexpr double kStepProgressDelay_s = 1;
inline constexpr double kStepProgressInterval_s = 0.25;
inline constexpr uint64_t kStepProgressMinLoggedSteps = 100'000;

class StepProgress {
public:
    // steps: the run's total, at most UINT32_MAX (kMaxSimulatedSteps is far below). label names
    // what is counted ("step", "instance 'smoke': pre-roll step").
    StepProgress(uint64_t steps, bool quiet, std::string label = "step", FILE* out = stderr);
    ~StepProgress() { bar_.finish(); }
    StepProgress(const StepProgress&) = delete;
    StepProgress& operator=(const StepProgress&) = delete;

    // done steps of the run are finished.
    void update(uint64_t done);

private:
    std::string label_; // before bar_, which points at it
    ProgressBar bar_;
    uint64_t steps_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_;
};

} // namespace spindrift::render
