// Snapshot / restore of a CpuEffect's whole state as bytes, and exact seek by replay from
// periodic checkpoints.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cpu/cpu_effect.h"

namespace spindrift::cpu {

// The state as bytes: a header (magic, version, the compiled effect's structural hash and
// content checksum, emitter count), the driver state, the statistics, the transforms, and for
// each emitter its live particles, column by column, then (ribbon emitters) each live particle's
// trail: its point count and points, oldest to newest. Restoring into an instance of the same
// compiled effect reproduces the state exactly; bytes are little-endian and only meant for the
// same build of the engine.
std::vector<uint8_t> snapshotState(const CpuEffect& fx);

// Restores bytes taken by snapshotState. Every size, count and the effect identity are checked
// first; on any mismatch fx is unchanged, error says what is wrong, and false is returned.
bool restoreState(CpuEffect& fx, std::span<const uint8_t> bytes, std::string& error);

struct SeekConfig {
    uint32_t checkpoint_interval_steps = 60; // a snapshot every this many steps
    uint32_t max_checkpoints = 64;           // older ones are thinned out past this
    uint64_t replay_budget_steps = 36000;    // at most this many steps replayed per seek
};

struct SeekResult {
    uint64_t target_step = 0;
    uint64_t reached_step = 0; // == target_step unless limited
    uint64_t replayed_steps = 0;
    bool limited = false; // the replay budget stopped short of the target
};

// Keeps checkpoints of one instance while it runs forward and seeks by restoring the latest
// checkpoint at or before the target and replaying fixed steps. The instance must not move
// (seeking replays with its current transform).
class SeekCache {
public:
    explicit SeekCache(const SeekConfig& config = {}) : config_(config) {}

    // Call after each step of the instance (records a checkpoint on interval boundaries).
    void record(const CpuEffect& fx);
    // Moves fx to the first step at or after time_s.
    SeekResult seek(CpuEffect& fx, double time_s);
    size_t checkpointCount() const { return checkpoints_.size(); }

private:
    struct Checkpoint {
        uint64_t step = 0;
        std::vector<uint8_t> bytes;
    };
    SeekConfig config_;
    std::vector<Checkpoint> checkpoints_; // increasing step
};

} // namespace spindrift::cpu
