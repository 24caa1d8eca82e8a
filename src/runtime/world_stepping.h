// How a World spreads its CPU work over threads (WorldConfig::threads or the host's JobRunner),
// and the runtime's own access to a World beyond the public API. Not a public header.
//
// One world update steps every playing instance. Instances are independent (each has its own
// pools, clock and scratch), so they are stepped in parallel, one job per instance; within such
// a job the instance's chunk jobs run on that thread. An instance with many live particles
// (kParallelInstanceParticles) is instead stepped on its own with its chunk jobs spread over the
// runner, so one large instance still uses every thread. Instances with a GPU part are stepped on
// the calling thread (Vulkan submissions are not spread). Every job's work is fixed by which
// instance or chunk it is, so the particles are bit-identical whatever the runner and threads.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "cpu/thread_pool.h"
#include "driver/driver.h"
#include "spindrift/runtime.h"

namespace spindrift {

struct EffectInstance;

// Live particles from which an instance is stepped alone with its chunks spread over the runner.
inline constexpr uint64_t kParallelInstanceParticles = 8192;

// The world's runner: the host's, or a pool of its own.
class WorldJobs {
public:
    explicit WorldJobs(const WorldConfig& config);
    ~WorldJobs();
    WorldJobs(const WorldJobs&) = delete;
    WorldJobs& operator=(const WorldJobs&) = delete;

    JobRunner& runner() { return *runner_; }
    // The runner as the CPU backend's chunk queue (cpu::CpuEffect::jobs).
    cpu::JobQueue& chunkQueue() { return *chunk_queue_; }

private:
    std::unique_ptr<JobRunner> own_runner_;
    JobRunner* runner_ = nullptr;
    std::unique_ptr<cpu::JobQueue> chunk_queue_;
};

// One instance to advance by one host frame, and what the step reported.
struct InstanceStepJob {
    EffectInstance* instance = nullptr;
    double frame_dt_s = 0;
    FrameReport report;
    bool stepped = false; // set by stepInstances once the instance was stepped
    // Also write its host draw records in the same job, right after the step while its columns
    // are in cache (a CPU-only instance that will be drawn); drawList then finds them current.
    bool write_records = false;
    // Its live count as last known (the world's cache): picks whether it is stepped alone
    // (kParallelInstanceParticles). Scheduling only: no result depends on it.
    uint64_t live_hint = 0;
    // After the step, asked in the job rather than by a serial pass over the instances after it:
    uint64_t live_after = 0;      // liveCount
    uint64_t next_step_index = 0; // nextStepIndex
    bool finished_after = false;  // finished
};

// Steps every job's instance by its frame time (spindrift::step), spread over jobs as the header
// comment says, writing the draw records of those that ask. Each report lands in its job.
void stepInstances(WorldJobs& jobs, std::span<InstanceStepJob> steps);

// Writes the host draw records of every instance listed (writeHostDrawRecords), CPU-only
// instances in parallel; returns the records written. Instances whose GPU part failed write none.
uint64_t writeDrawRecordsOf(WorldJobs& jobs, std::span<EffectInstance* const> instances);

// Writes the host draw records of every live instance of the world (writeDrawRecordsOf: the CPU
// draw-record write the renderer uses) and returns how many records were written in all.
uint64_t writeWorldDrawRecords(World& world);

} // namespace spindrift
