#include "cpu/thread_pool.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace spindrift::cpu {

namespace {

// How long a thread spins on a condition before it sleeps on a condition variable. Long enough
// to bridge the serial work between a frame's batches, short enough that an idle pool costs
// nothing measurable.
constexpr auto kSpinMicroseconds = std::chrono::microseconds(50);

void relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

// Spins until done() or the spin time is over; true when done() held.
template <typename Done> bool spinUntil(Done done) {
    const auto until = std::chrono::steady_clock::now() + kSpinMicroseconds;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (done()) return true;
            relax();
        }
        if (std::chrono::steady_clock::now() >= until) return done();
    }
}

} // namespace

ThreadPool::ThreadPool(uint32_t thread_count) {
    for (uint32_t i = 1; i < thread_count; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_.store(true, std::memory_order_relaxed);
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::drainJobs() {
    for (;;) {
        const uint32_t job = next_job_.fetch_add(1, std::memory_order_relaxed);
        if (job >= job_count_) return;
        fn_(context_, job);
    }
}

void ThreadPool::workerLoop() {
    uint64_t seen = 0;
    for (;;) {
        spinUntil([&] {
            return generation_.load(std::memory_order_acquire) != seen ||
                   stopping_.load(std::memory_order_relaxed);
        });
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] {
            return stopping_.load(std::memory_order_relaxed) ||
                   generation_.load(std::memory_order_relaxed) != seen;
        });
        if (stopping_.load(std::memory_order_relaxed)) return;
        seen = generation_.load(std::memory_order_relaxed);
        if (!open_) continue; // the batch ended before this worker got to it
        busy_workers_.fetch_add(1, std::memory_order_relaxed);
        lock.unlock();
        drainJobs();
        if (busy_workers_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            lock.lock(); // so the notify cannot fall between the caller's test and its wait
            lock.unlock();
            done_.notify_all();
        }
    }
}

void ThreadPool::runErased(uint32_t job_count, JobFn fn, void* context) {
    if (job_count == 0) return;
    if (workers_.empty() || job_count == 1) {
        for (uint32_t job = 0; job < job_count; ++job) fn(context, job);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        fn_ = fn;
        context_ = context;
        job_count_ = job_count;
        next_job_.store(0, std::memory_order_relaxed);
        open_ = true;
        generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    drainJobs();
    // Every job is taken; no worker may join any more, and those that joined finish theirs.
    {
        std::lock_guard lock(mutex_);
        open_ = false;
    }
    if (!spinUntil([&] { return busy_workers_.load(std::memory_order_acquire) == 0; })) {
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return busy_workers_.load(std::memory_order_acquire) == 0; });
    }
    fn_ = nullptr;
    context_ = nullptr;
    job_count_ = 0;
}

} // namespace spindrift::cpu
