// A fixed set of worker threads that run numbered jobs. The CPU backend splits every pass into
// jobs of fixed-size chunks, so which thread runs a job never changes a result: the output is
// bit-identical for 1, 2 or N threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace spindrift::cpu {

// Where a pass's numbered jobs run: a ThreadPool, or (CpuEffect::jobs) a queue the host of the
// backend supplies, such as the runtime's world running a game's job system. Whoever runs them,
// each job's work is fixed by its number, so results never depend on it.
class JobQueue {
public:
    using JobFn = void (*)(void* context, uint32_t job);
    virtual ~JobQueue() = default;

    // Runs fn(context, job) for every job in [0, job_count), on any threads, and returns when
    // all have finished.
    virtual void runErased(uint32_t job_count, JobFn fn, void* context) = 0;

    // The same for a callable: fn(job).
    template <typename Fn> void run(uint32_t job_count, Fn& fn) {
        runErased(
            job_count, [](void* context, uint32_t job) { (*static_cast<Fn*>(context))(job); }, &fn);
    }
};

class ThreadPool final : public JobQueue {
public:
    // thread_count >= 1; the calling thread is one of them, so 1 means no worker threads.
    explicit ThreadPool(uint32_t thread_count);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    uint32_t threadCount() const { return static_cast<uint32_t>(workers_.size()) + 1; }

    // Runs fn(context, job) for every job in [0, job_count) and returns when all have finished.
    // Jobs are taken in increasing order by whichever thread is free. Allocates nothing. Not
    // reentrant: a job must not call run on the same pool. Between batches a worker spins for a
    // short while (kSpinMicroseconds in thread_pool.cpp) before it sleeps, and so does the caller
    // waiting for the last job: a frame runs a few batches back to back, and a sleeping thread
    // takes tens of microseconds to wake.
    void runErased(uint32_t job_count, JobFn fn, void* context) override;

private:
    void workerLoop();
    void drainJobs(); // takes jobs until none is left

    std::vector<std::thread> workers_;
    // A batch: published under mutex_ (generation_ moves on, open_ set), its jobs then taken
    // with one atomic add each. A worker joins a batch only under mutex_ while it is open, and
    // runErased closes it and waits for every joined worker before returning, so no worker ever
    // reads a batch that has ended.
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stopping_{false};
    bool open_ = false;
    JobFn fn_ = nullptr;
    void* context_ = nullptr;
    uint32_t job_count_ = 0;
    std::atomic<uint32_t> next_job_{0};
    std::atomic<uint32_t> busy_workers_{0};
};

} // namespace spindrift::cpu
