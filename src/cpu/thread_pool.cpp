#include "cpu/thread_pool.h"

namespace spindrift::cpu {

ThreadPool::ThreadPool(uint32_t thread_count) {
    for (uint32_t i = 1; i < thread_count; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::drainJobs(std::unique_lock<std::mutex>& lock) {
    while (next_job_ < job_count_) {
        const uint32_t job = next_job_++;
        const JobFn fn = fn_;
        void* const context = context_;
        lock.unlock();
        fn(context, job);
        lock.lock();
    }
}

void ThreadPool::workerLoop() {
    uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        ++busy_workers_;
        drainJobs(lock);
        if (--busy_workers_ == 0) done_.notify_all();
    }
}

void ThreadPool::runErased(uint32_t job_count, JobFn fn, void* context) {
    if (job_count == 0) return;
    if (workers_.empty() || job_count == 1) {
        for (uint32_t job = 0; job < job_count; ++job) fn(context, job);
        return;
    }
    std::unique_lock lock(mutex_);
    fn_ = fn;
    context_ = context;
    job_count_ = job_count;
    next_job_ = 0;
    ++generation_;
    wake_.notify_all();
    drainJobs(lock);
    done_.wait(lock, [&] { return busy_workers_ == 0; });
    fn_ = nullptr;
    context_ = nullptr;
    job_count_ = 0;
}

} // namespace spindrift::cpu
