// Exact seek from checkpoints (issue 18; include/spindrift/runtime.h, World::seek and
// World::advanceTo; docs/runtime-api.md, "Seek"). A CPU instance of a world keeps snapshots of its
// state (cpu/snapshot.h) taken during the replays seek and advanceTo run; a later seek restores the
// latest one at or before its target and replays only the steps after it.
//
// The contract is "seeks exactly": a state restored from a checkpoint and replayed on must be the
// same bits as the replay from time 0 under the instance's current inputs. Two rules keep it:
// - Key. Everything a replay from 0 reads besides the step count is summed up in a SeekKey: the
//   instance's inputs generation (bumped by every World call that changes an input: parameters,
//   overrides, enabled emitters, seed, transform, path, emit, reload), the world's inputs
//   (colliders, distance field, the attractors chosen), the compiled records' identity, the
//   driver settings the replay runs with (spawn scale with the world's and the fade, enabled
//   emitters with the quality tier and a stopping state), the start placement and whether the run
//   follows a path. A checkpoint set holds one key; a replay under another key drops the set.
// - History. A checkpoint is recorded only from a state whose whole history since its (virtual)
//   restart ran under the set's key through runSteps: a replay from 0, or one from a checkpoint of
//   the same key. Anything else (update()'s frames, which sweep between transforms and keep a
//   fractional clock; a forward advanceTo after an input changed) makes the history unclean until
//   the next replay.
// Statistics are counters since creation that a restart keeps: a checkpoint holds their growth
// since its history's restart, added on restore to the counters as they are then, which is what
// a replay from 0 would leave.
//
// Bounded: a checkpoint every `interval` steps (a multiple of it), at most `max_bytes` per
// instance; past the bound every other checkpoint goes and the spacing doubles (coverage stays
// even). A checkpoint alone larger than the bound is not kept. GPU instances (and split ones)
// keep none: they replay from 0.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/cpu_effect.h"
#include "runtime/effect_instance.h"

namespace spindrift {

struct SeekKey {
    uint64_t inputs_generation = 0;
    uint64_t world_hash = 0;      // colliders and distance field generation, attractors chosen
    uint64_t effect_identity = 0; // the CPU part's records (parameters and seed included)
    const EffectInstance* instance = nullptr;
    const void* path = nullptr;
    uint64_t driver_hash = 0; // spawn scale and enabled mask the replay runs with
    uint64_t start_hash = 0;  // placement at step 0
    bool motion = false;      // steps follow the path (advanceTo) or stand at the start (seek)
    friend bool operator==(const SeekKey&, const SeekKey&) = default;
};

struct SeekCheckpoint {
    uint64_t step = 0;                         // EffectInstance::steps_run when taken
    std::vector<uint8_t> bytes;                // cpu::snapshotState
    std::vector<cpu::EmitterStats> stats_gain; // statistics gained since the history's restart
};

class SeekCheckpoints {
public:
    // interval 0 or max_bytes 0: nothing is ever recorded.
    void configure(uint32_t interval_steps, uint64_t max_bytes);
    bool enabled() const { return interval_ != 0 && max_bytes_ != 0; }

    // Adopts `key`, dropping every checkpoint taken under another.
    void rekey(const SeekKey& key);
    const SeekKey& key() const { return key_; }
    void clear();

    // The latest checkpoint at or before `step`, or null.
    const SeekCheckpoint* latestAtOrBefore(uint64_t step) const;
    // Whether a checkpoint is due at steps_run (a multiple of the spacing not yet held).
    bool due(uint64_t steps_run) const;
    // The spacing of the next checkpoints (interval x 2^thinnings); 0 when disabled.
    uint64_t spacing() const { return enabled() ? spacing_ : 0; }
    // Snapshots fx (CPU part only) at its steps_run; history_base is its statistics at the
    // history's restart. Thins the set out past the bound.
    void record(const EffectInstance& fx, const std::vector<cpu::EmitterStats>& history_base);

    size_t count() const { return checkpoints_.size(); }
    uint64_t bytes() const { return bytes_; }

private:
    uint64_t checkpointBytes(const SeekCheckpoint& c) const;
    void thinOut();

    uint32_t interval_ = 0;
    uint64_t max_bytes_ = 0;
    uint64_t spacing_ = 0;
    SeekKey key_;
    std::vector<SeekCheckpoint> checkpoints_; // increasing step
    uint64_t bytes_ = 0;
};

// Restores checkpoint c into fx's CPU part: the state at c.step as a replay from 0 that started
// with statistics history_base leaves it (history_base plus c's gain). False (fx unchanged) when
// the snapshot is refused, which a checkpoint of the same key never is.
bool restoreCheckpoint(EffectInstance& fx, const SeekCheckpoint& c,
                       const std::vector<cpu::EmitterStats>& history_base);

// A seek that goes on from the state it is at counts that state's steps again, as the replay from
// 0 it stands for would: per emitter stats += stats - base, and base becomes the old stats (the
// replay's restart is now). Allocates nothing.
void countAgain(std::vector<cpu::EmitterStats>& stats, std::vector<cpu::EmitterStats>& base);

// runSteps of `count` steps, cut at the checkpoints due on the way and recording each (when
// checkpoints is not null). The same state as one runSteps call: a run's steps depend only on the
// instance's step index.
void runStepsRecording(EffectInstance& fx, uint64_t count, const StepRun& run,
                       SeekCheckpoints* checkpoints,
                       const std::vector<cpu::EmitterStats>& history_base);

} // namespace spindrift
