#include "render/progress.h"

#include <algorithm>
#include <cmath>
#include <unistd.h>
#include <utility>

namespace spindrift::render {

namespace {

std::string formatDuration(double seconds) {
    const auto total = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
    const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
    char text[32];
    if (h > 0)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", h, m, s);
    else
        std::snprintf(text, sizeof text, "%lld:%02lld", m, s);
    return text;
}

} // namespace

std::string formatProgress(uint32_t done, uint32_t total, double elapsed_s, const char* unit) {
    const uint32_t shown_total = total == 0 ? 1 : total;
    const uint32_t percent = static_cast<uint32_t>(uint64_t(done) * 100 / shown_total);
    std::string text = std::string(unit) + " " + std::to_string(done) + "/" +
                       std::to_string(total) + "  " + std::to_string(percent) + "%  elapsed " +
                       formatDuration(elapsed_s);
    if (done > 0 && done <= total)
        text += "  left " + formatDuration(elapsed_s / done * (total - done));
    return text;
}

ProgressBar::Mode ProgressBar::modeFor(FILE* out, bool quiet) {
    if (quiet) return Mode::quiet;
    return ::isatty(::fileno(out)) ? Mode::terminal : Mode::lines;
}

ProgressBar::ProgressBar(uint32_t total, bool quiet, FILE* out)
    : ProgressBar(total, modeFor(out, quiet), out) {}

ProgressBar::ProgressBar(uint32_t total, Mode mode, FILE* out, const char* unit)
    : total_(total), mode_(mode), unit_(unit), out_(out), start_(std::chrono::steady_clock::now()) {
}

double ProgressBar::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressBar::update(uint32_t done) {
    if (mode_ == Mode::quiet) return;
    if (mode_ == Mode::terminal) {
        // Trailing spaces clear what a longer previous line left behind.
        std::fprintf(out_, "\r%s   ", formatProgress(done, total_, elapsed(), unit_).c_str());
        std::fflush(out_);
        drawn_ = true;
        return;
    }
    const uint32_t decile = total_ == 0 ? 10 : static_cast<uint32_t>(uint64_t(done) * 10 / total_);
    if (decile > last_decile_) {
        last_decile_ = decile;
        std::fprintf(out_, "%s\n", formatProgress(done, total_, elapsed(), unit_).c_str());
        std::fflush(out_);
    }
}

void ProgressBar::finish() {
    if (mode_ == Mode::terminal && drawn_) {
        std::fprintf(out_, "\n");
        std::fflush(out_);
        drawn_ = false;
    }
}

namespace {

ProgressBar::Mode stepProgressMode(uint64_t steps, bool quiet, FILE* out) {
    const ProgressBar::Mode mode = ProgressBar::modeFor(out, quiet);
    if (mode == ProgressBar::Mode::lines && steps < kStepProgressMinLoggedSteps)
        return ProgressBar::Mode::quiet;
    return mode;
}

} // namespace

StepProgress::StepProgress(uint64_t steps, bool quiet, std::string label, FILE* out)
    : label_(std::move(label)), bar_(static_cast<uint32_t>(std::min<uint64_t>(steps, UINT32_MAX)),
                                     stepProgressMode(steps, quiet, out), out, label_.c_str()),
      steps_(steps), start_(std::chrono::steady_clock::now()), last_(start_) {}

void StepProgress::update(uint64_t done) {
    if (bar_.mode() == ProgressBar::Mode::quiet) return;
    if (done != steps_ && (done & 1023) != 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::duration<double>(kStepProgressDelay_s)) return;
    if (done != steps_ && now - last_ < std::chrono::duration<double>(kStepProgressInterval_s))
        return;
    last_ = now;
    bar_.update(static_cast<uint32_t>(std::min<uint64_t>(done, UINT32_MAX)));
}

} // namespace spindrift::render
