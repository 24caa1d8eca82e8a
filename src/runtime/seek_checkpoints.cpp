#include "runtime/seek_checkpoints.h"

#include <algorithm>
#include <string>

#include "cpu/snapshot.h"

namespace spindrift {

namespace {

cpu::EmitterStats operator+(const cpu::EmitterStats& a, const cpu::EmitterStats& b) {
    cpu::EmitterStats s;
    s.births = a.births + b.births;
    s.deaths = a.deaths + b.deaths;
    s.overflow_dropped = a.overflow_dropped + b.overflow_dropped;
    s.overflow_replaced = a.overflow_replaced + b.overflow_replaced;
    s.events_dropped = a.events_dropped + b.events_dropped;
    s.contacts = a.contacts + b.contacts;
    return s;
}

// Counters only grow inside one history, so the differences are exact.
cpu::EmitterStats operator-(const cpu::EmitterStats& a, const cpu::EmitterStats& b) {
    cpu::EmitterStats s;
    s.births = a.births - b.births;
    s.deaths = a.deaths - b.deaths;
    s.overflow_dropped = a.overflow_dropped - b.overflow_dropped;
    s.overflow_replaced = a.overflow_replaced - b.overflow_replaced;
    s.events_dropped = a.events_dropped - b.events_dropped;
    s.contacts = a.contacts - b.contacts;
    return s;
}

// Steps done by the pieces of one cut run, told to the run's listener as one count.
class OffsetListener final : public StepListener {
public:
    explicit OffsetListener(StepListener* to) : to_(to) {}
    void stepsDone(uint64_t steps) override { to_->stepsDone(offset_ + steps); }
    void advance(uint64_t steps) { offset_ += steps; }

private:
    StepListener* to_;
    uint64_t offset_ = 0;
};

} // namespace

void countAgain(std::vector<cpu::EmitterStats>& stats, std::vector<cpu::EmitterStats>& base) {
    for (size_t e = 0; e < stats.size(); ++e) {
        const cpu::EmitterStats now = stats[e];
        stats[e] = now + (now - base[e]);
        base[e] = now;
    }
}

void SeekCheckpoints::configure(uint32_t interval_steps, uint64_t max_bytes) {
    interval_ = interval_steps;
    max_bytes_ = max_bytes;
    clear();
}

void SeekCheckpoints::clear() {
    checkpoints_.clear();
    bytes_ = 0;
    spacing_ = interval_;
}

void SeekCheckpoints::rekey(const SeekKey& key) {
    if (key == key_) return;
    key_ = key;
    clear();
}

const SeekCheckpoint* SeekCheckpoints::latestAtOrBefore(uint64_t step) const {
    const SeekCheckpoint* best = nullptr;
    for (const SeekCheckpoint& c : checkpoints_) {
        if (c.step > step) break;
        best = &c;
    }
    return best;
}

bool SeekCheckpoints::due(uint64_t steps_run) const {
    if (!enabled() || steps_run == 0 || steps_run % spacing_ != 0) return false;
    // Replays only move forward from the latest checkpoint at or before them, so a due step is
    // new unless the set already holds it.
    const SeekCheckpoint* at = latestAtOrBefore(steps_run);
    return at == nullptr || at->step != steps_run;
}

uint64_t SeekCheckpoints::checkpointBytes(const SeekCheckpoint& c) const {
    return c.bytes.size() + c.stats_gain.size() * sizeof(cpu::EmitterStats);
}

void SeekCheckpoints::thinOut() {
    // Keep the checkpoints on multiples of the doubled spacing: every other one of an even set.
    spacing_ *= 2;
    size_t kept = 0;
    bytes_ = 0;
    for (size_t i = 0; i < checkpoints_.size(); ++i) {
        if (checkpoints_[i].step % spacing_ != 0) continue;
        bytes_ += checkpointBytes(checkpoints_[i]);
        if (kept != i) checkpoints_[kept] = std::move(checkpoints_[i]);
        ++kept;
    }
    checkpoints_.resize(kept);
}

void SeekCheckpoints::record(const EffectInstance& fx,
                             const std::vector<cpu::EmitterStats>& history_base) {
    if (!fx.cpu || fx.gpu || !due(fx.steps_run)) return;
    SeekCheckpoint c;
    c.step = fx.steps_run;
    c.bytes = cpu::snapshotState(*fx.cpu);
    c.stats_gain.resize(fx.cpu->stats.size());
    for (size_t e = 0; e < c.stats_gain.size(); ++e)
        c.stats_gain[e] = fx.cpu->stats[e] - history_base[e];
    const uint64_t size = checkpointBytes(c);
    if (size > max_bytes_) return; // one alone is past the bound: keep none of this size
    while (bytes_ + size > max_bytes_ && !checkpoints_.empty()) {
        thinOut();
        if (c.step % spacing_ != 0) return; // not on the thinned spacing
    }
    // In step order: a replay records past every checkpoint at or before its start.
    const auto at = std::upper_bound(
        checkpoints_.begin(), checkpoints_.end(), c.step,
        [](uint64_t step, const SeekCheckpoint& other) { return step < other.step; });
    bytes_ += size;
    checkpoints_.insert(at, std::move(c));
}

bool restoreCheckpoint(EffectInstance& fx, const SeekCheckpoint& c,
                       const std::vector<cpu::EmitterStats>& history_base) {
    if (!fx.cpu || fx.gpu) return false;
    cpu::CpuEffect& cpu = *fx.cpu;
    std::string error;
    if (!cpu::restoreState(cpu, c.bytes, error)) return false;
    for (size_t e = 0; e < cpu.stats.size(); ++e) cpu.stats[e] = history_base[e] + c.stats_gain[e];
    fx.steps_run = c.step;
    fx.world_from_effect = cpu.world_from_effect;
    fx.state_serial += 1;
    return true;
}

void runStepsRecording(EffectInstance& fx, uint64_t count, const StepRun& run,
                       SeekCheckpoints* checkpoints,
                       const std::vector<cpu::EmitterStats>& history_base) {
    const uint64_t spacing = checkpoints != nullptr ? checkpoints->spacing() : 0;
    if (spacing == 0 || !fx.cpu || fx.gpu) {
        runSteps(fx, count, run);
        return;
    }
    OffsetListener listener(run.listener);
    StepRun piece = run;
    if (run.listener != nullptr) piece.listener = &listener;
    uint64_t left = count;
    do {
        // Up to the next multiple of the spacing (the spacing may double while recording).
        const uint64_t s = checkpoints->spacing();
        const uint64_t to_boundary = s - fx.steps_run % s;
        const uint64_t n = std::min(left, to_boundary);
        runSteps(fx, n, piece);
        listener.advance(n);
        left -= n;
        checkpoints->record(fx, history_base);
    } while (left > 0);
}

} // namespace spindrift
