#include "runtime/world_stepping.h"

#include <algorithm>
#include <vector>

#include "runtime/effect_instance.h"

namespace spindrift {

namespace {

// The world's own runner: the CPU backend's fixed pool (the calling thread is one of its
// threads).
class PoolRunner final : public JobRunner {
public:
    explicit PoolRunner(uint32_t threads) : pool_(std::max(threads, 1u)) {}
    void parallelFor(uint32_t count, JobFunction job, void* context) override {
        pool_.runErased(count, job, context);
    }

private:
    cpu::ThreadPool pool_;
};

// The runner as a chunk queue.
class RunnerQueue final : public cpu::JobQueue {
public:
    explicit RunnerQueue(JobRunner& runner) : runner_(runner) {}
    void runErased(uint32_t job_count, JobFn fn, void* context) override {
        if (job_count == 0) return;
        if (job_count == 1) {
            fn(context, 0); // not worth a round trip through the host's scheduler
            return;
        }
        runner_.parallelFor(job_count, fn, context);
    }

private:
    JobRunner& runner_;
};

bool cpuOnly(const EffectInstance& fx) {
    return fx.cpu != nullptr && fx.gpu == nullptr;
}

// Stepped alone, on the calling thread, with its chunk jobs on the runner (large CPU instances)
// or as they are (a GPU part).
bool steppedAlone(const InstanceStepJob& job) {
    return !cpuOnly(*job.instance) || job.live_hint >= kParallelInstanceParticles;
}

// Runs fn(i) for i in [0, count) through the runner (nothing for 0, inline for 1).
template <typename Fn> void runJobs(JobRunner& runner, uint32_t count, Fn& fn) {
    if (count == 0) return;
    if (count == 1) {
        fn(0);
        return;
    }
    runner.parallelFor(
        count, [](void* context, uint32_t index) { (*static_cast<Fn*>(context))(index); }, &fn);
}

// The job's draw records, when it asks and its instance is CPU-only (a CPU part reports
// nothing; a GPU part's records are read back by drawList on the calling thread).
void writeRecordsOf(InstanceStepJob& job) {
    if (!job.write_records || !cpuOnly(*job.instance)) return;
    std::vector<Diagnostic> none;
    writeHostDrawRecords(*job.instance, none);
}

// The step and what follows it in the same job.
void runStepJob(InstanceStepJob& job) {
    EffectInstance& fx = *job.instance;
    job.report = step(fx, job.frame_dt_s);
    writeRecordsOf(job);
    job.live_after = liveCount(fx);
    job.next_step_index = nextStepIndex(fx);
    job.finished_after = finished(fx);
    job.stepped = true;
}

} // namespace

WorldJobs::WorldJobs(const WorldConfig& config) {
    if (config.job_runner != nullptr) {
        runner_ = config.job_runner;
    } else {
        own_runner_ = std::make_unique<PoolRunner>(config.threads);
        runner_ = own_runner_.get();
    }
    chunk_queue_ = std::make_unique<RunnerQueue>(*runner_);
}

WorldJobs::~WorldJobs() = default;

void stepInstances(WorldJobs& jobs, std::span<InstanceStepJob> steps) {
    // Large and GPU instances first, one at a time; the others in one parallel batch. Their order
    // changes nothing: instances share no state.
    uint32_t small = 0;
    for (InstanceStepJob& job : steps) {
        EffectInstance& fx = *job.instance;
        job.stepped = false;
        if (!steppedAlone(job)) {
            ++small;
            continue;
        }
        if (fx.cpu) fx.cpu->jobs = &jobs.chunkQueue();
        runStepJob(job);
        if (fx.cpu) fx.cpu->jobs = nullptr;
    }
    if (small == 0) return;
    auto stepSmall = [&](uint32_t index) {
        InstanceStepJob& job = steps[index];
        if (!job.stepped) runStepJob(job);
    };
    runJobs(jobs.runner(), static_cast<uint32_t>(steps.size()), stepSmall);
}

uint64_t writeDrawRecordsOf(WorldJobs& jobs, std::span<EffectInstance* const> instances) {
    uint64_t written = 0;
    std::vector<Diagnostic> diagnostics;
    for (EffectInstance* fx : instances) {
        if (cpuOnly(*fx)) continue;
        diagnostics.clear();
        writeHostDrawRecords(*fx, diagnostics);
    }
    auto writeOne = [&](uint32_t index) {
        EffectInstance& fx = *instances[index];
        if (!cpuOnly(fx)) return;
        std::vector<Diagnostic> none; // a CPU part reports nothing
        writeHostDrawRecords(fx, none);
    };
    runJobs(jobs.runner(), static_cast<uint32_t>(instances.size()), writeOne);
    for (EffectInstance* fx : instances) {
        if (fx->failed) continue;
        for (uint32_t count : fx->cpu_counts) written += count;
        if (fx->draws_from_device) continue;
        for (uint32_t count : fx->gpu_counts) written += count;
    }
    return written;
}

} // namespace spindrift
