// Frames written beside the render thread: the render thread hands each finished frame to a
// small pool of writer threads (PNG compression and the file write, or the pipe to ffmpeg) and
// goes on simulating and drawing the next frame while they work.
//
// Bounded: at most max_in_flight frames are held at once (waiting or being written); push blocks
// the render thread while that many are, so memory never grows with the length of a render.
// Frames are taken from the queue in push order, so a queue of one thread writes them in order
// (what an MP4 needs); with more threads each frame must go to its own file.
//
// Errors are never lost: a write that fails keeps its diagnostics (which name its file), later
// pushes return false so the caller stops rendering, frames not yet started are dropped, and
// finish() returns every failure's diagnostics in frame order. What a failed write leaves on
// disk is the writer's business (writePng leaves nothing: io/output_file.h).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "image/image.h"
#include "spindrift/diagnostic.h"

namespace spindrift::render {

// The most writer threads a queue runs (and the most `--jobs` accepts).
inline constexpr uint32_t kMaxFrameWriters = 64;

// Frames held at once by a queue of `writers` threads for frames of frame_bytes bytes: one
// waiting per writer beside the one it writes, but no more than kFrameQueueBytes in all (at
// least 2, so the render thread can draw while one frame is written).
inline constexpr uint64_t kFrameQueueBytes = uint64_t{1} << 30;
uint32_t frameQueueDepth(uint32_t writers, uint64_t frame_bytes);

class FrameWriteQueue {
public:
    // Writes frame `index`; returns false with at least one error in diagnostics on failure.
    // Called on the queue's threads, several at once when writers > 1.
    using WriteFrame =
        std::function<bool(uint32_t index, const Image& frame, std::vector<Diagnostic>&)>;

    // writers: 1..kMaxFrameWriters threads; max_in_flight >= 1 frames held at once.
    FrameWriteQueue(WriteFrame write, uint32_t writers, uint32_t max_in_flight);
    ~FrameWriteQueue(); // finish() if it was not called, dropping its diagnostics

    FrameWriteQueue(const FrameWriteQueue&) = delete;
    FrameWriteQueue& operator=(const FrameWriteQueue&) = delete;

    // Queues frame `index`, taking frame's pixels and leaving in frame a spent frame's buffer to
    // draw into (or an empty image), so a long render allocates nothing per frame. Blocks while
    // max_in_flight frames are held. False (frame untouched) once a write has failed or finish()
    // was called: stop rendering and call finish() for the errors.
    bool push(uint32_t index, Image& frame);

    // Waits for every queued frame to be written, stops the threads and appends the diagnostics
    // of every failed write, in frame order. False when any write failed. Call once.
    bool finish(std::vector<Diagnostic>& diagnostics);

private:
    struct Job {
        uint32_t index = 0;
        Image frame;
    };
    struct Failure {
        uint32_t index = 0;
        std::vector<Diagnostic> diagnostics;
    };
    void work();

    WriteFrame write_;
    uint32_t max_in_flight_;
    std::mutex mutex_;
    std::condition_variable changed_; // a job queued or finished, or the queue stopping
    std::deque<Job> waiting_;
    std::vector<Image> spent_; // buffers of written frames, handed back by push
    uint32_t in_flight_ = 0;   // waiting + being written
    bool stopping_ = false;
    bool failed_ = false;
    bool finished_ = false;
    std::vector<Failure> failures_;
    std::vector<std::thread> threads_;
};

} // namespace spindrift::render
