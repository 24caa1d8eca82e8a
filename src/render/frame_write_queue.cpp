#include "render/frame_write_queue.h"

#include <algorithm>
#include <utility>

namespace spindrift::render {

uint32_t frameQueueDepth(uint32_t writers, uint64_t frame_bytes) {
    const uint64_t wanted = uint64_t{2} * std::max(writers, 1u);
    const uint64_t by_memory = kFrameQueueBytes / std::max<uint64_t>(frame_bytes, 1);
    return static_cast<uint32_t>(std::max<uint64_t>(2, std::min(wanted, by_memory)));
}

FrameWriteQueue::FrameWriteQueue(WriteFrame write, uint32_t writers, uint32_t max_in_flight)
    : write_(std::move(write)), max_in_flight_(std::max(max_in_flight, 1u)) {
    writers = std::clamp(writers, 1u, kMaxFrameWriters);
    threads_.reserve(writers);
    for (uint32_t i = 0; i < writers; ++i) threads_.emplace_back([this] { work(); });
}

FrameWriteQueue::~FrameWriteQueue() {
    if (!finished_) {
        std::vector<Diagnostic> dropped;
        finish(dropped);
    }
}

bool FrameWriteQueue::push(uint32_t index, Image& frame) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return in_flight_ < max_in_flight_ || failed_ || stopping_; });
    if (failed_ || stopping_) return false;
    Job job{index, std::move(frame)};
    frame = Image{};
    if (!spent_.empty()) {
        frame = std::move(spent_.back());
        spent_.pop_back();
    }
    waiting_.push_back(std::move(job));
    ++in_flight_;
    changed_.notify_all();
    return true;
}

void FrameWriteQueue::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return !waiting_.empty() || stopping_; });
        if (waiting_.empty()) return; // stopping, nothing left
        Job job = std::move(waiting_.front());
        waiting_.pop_front();
        if (failed_) {
            // An earlier frame failed: the render stops, so later frames are not written.
            --in_flight_;
            changed_.notify_all();
            continue;
        }
        lock.unlock();
        std::vector<Diagnostic> diagnostics;
        bool ok = false;
        try {
            ok = write_(job.index, job.frame, diagnostics);
        } catch (const std::exception& e) {
            diagnostics.push_back(
                {Severity::error, "", 0, 0, 0, "", std::string("writing a frame: ") + e.what()});
        }
        if (!ok && diagnostics.empty()) {
            diagnostics.push_back({Severity::error, "", 0, 0, 0, "",
                                   "frame " + std::to_string(job.index) + " was not written"});
        }
        lock.lock();
        if (!ok) {
            failed_ = true;
            failures_.push_back({job.index, std::move(diagnostics)});
        }
        spent_.push_back(std::move(job.frame));
        --in_flight_;
        changed_.notify_all();
    }
}

bool FrameWriteQueue::finish(std::vector<Diagnostic>& diagnostics) {
    {
        std::lock_guard lock(mutex_);
        if (finished_) return !failed_;
        finished_ = true;
        stopping_ = true;
        changed_.notify_all();
    }
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    std::sort(failures_.begin(), failures_.end(),
              [](const Failure& a, const Failure& b) { return a.index < b.index; });
    for (Failure& f : failures_) {
        for (Diagnostic& d : f.diagnostics) diagnostics.push_back(std::move(d));
    }
    failures_.clear();
    return !failed_;
}

} // namespace spindrift::render
