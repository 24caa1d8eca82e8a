#include "render/frame_write_queue.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace spindrift::render {
namespace {

Image frameNumbered(uint32_t index) {
    Image image;
    image.width = 2;
    image.height = 1;
    image.rgba8.assign(8, static_cast<uint8_t>(index));
    return image;
}

Diagnostic errorFor(const std::string& file, const std::string& message) {
    return {Severity::error, file, 0, 0, 0, "", message};
}

TEST(FrameWriteQueue, WritesEveryFrameOnceWithItsOwnPixels) {
    std::mutex mutex;
    std::multiset<uint32_t> written;
    bool pixels_match = true;
    FrameWriteQueue queue(
        [&](uint32_t index, const Image& frame, std::vector<Diagnostic>&) {
            std::lock_guard lock(mutex);
            written.insert(index);
            pixels_match = pixels_match && frame.rgba8 == frameNumbered(index).rgba8;
            return true;
        },
        4, 3);
    Image frame;
    for (uint32_t i = 0; i < 50; ++i) {
        frame = frameNumbered(i);
        ASSERT_TRUE(queue.push(i, frame));
    }
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(queue.finish(diagnostics));
    EXPECT_TRUE(diagnostics.empty());
    EXPECT_EQ(written.size(), 50u);
    for (uint32_t i = 0; i < 50; ++i) EXPECT_EQ(written.count(i), 1u) << i;
    EXPECT_TRUE(pixels_match);
}

TEST(FrameWriteQueue, OneWriterWritesInOrder) {
    std::vector<uint32_t> order; // touched by the one writer thread only
    FrameWriteQueue queue(
        [&](uint32_t index, const Image&, std::vector<Diagnostic>&) {
            order.push_back(index);
            return true;
        },
        1, 2);
    for (uint32_t i = 0; i < 40; ++i) {
        Image frame = frameNumbered(i);
        ASSERT_TRUE(queue.push(i, frame));
    }
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(queue.finish(diagnostics));
    ASSERT_EQ(order.size(), 40u);
    for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(order[i], i);
}

TEST(FrameWriteQueue, HoldsAtMostMaxInFlightFramesAndBlocksThePusher) {
    constexpr uint32_t kMaxInFlight = 3;
    std::atomic<bool> release{false};
    std::atomic<uint32_t> started{0};
    FrameWriteQueue queue(
        [&](uint32_t, const Image&, std::vector<Diagnostic>&) {
            ++started;
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return true;
        },
        2, kMaxInFlight);
    std::atomic<uint32_t> pushed{0};
    std::thread pusher([&] {
        for (uint32_t i = 0; i < 10; ++i) {
            Image frame = frameNumbered(i);
            if (!queue.push(i, frame)) return;
            ++pushed;
        }
    });
    // The writers are held: the pusher gets max_in_flight frames in and then waits.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(pushed.load(), kMaxInFlight);
    EXPECT_EQ(started.load(), 2u);
    release = true;
    pusher.join();
    EXPECT_EQ(pushed.load(), 10u);
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(queue.finish(diagnostics));
    EXPECT_EQ(started.load(), 10u);
}

TEST(FrameWriteQueue, HandsBackSpentBuffers) {
    FrameWriteQueue queue([](uint32_t, const Image&, std::vector<Diagnostic>&) { return true; }, 1,
                          1);
    Image frame = frameNumbered(1);
    ASSERT_TRUE(queue.push(1, frame));
    // The second push waits for the first write and gets its buffer back to draw into.
    frame = frameNumbered(2);
    ASSERT_TRUE(queue.push(2, frame));
    EXPECT_EQ(frame.rgba8, frameNumbered(1).rgba8);
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(queue.finish(diagnostics));
}

TEST(FrameWriteQueue, AFailureStopsThePushesAndEveryErrorIsReportedInFrameOrder) {
    std::atomic<uint32_t> written{0};
    FrameWriteQueue queue(
        [&](uint32_t index, const Image&, std::vector<Diagnostic>& d) {
            if (index == 3 || index == 4) {
                d.push_back(errorFor("f_" + std::to_string(index) + ".png", "disk full"));
                return false;
            }
            ++written;
            return true;
        },
        2, 2);
    uint32_t accepted = 0;
    for (uint32_t i = 0; i < 100; ++i) {
        Image frame = frameNumbered(i);
        if (!queue.push(i, frame)) {
            EXPECT_EQ(frame.rgba8, frameNumbered(i).rgba8) << "a refused frame is left alone";
            break;
        }
        ++accepted;
    }
    // The failure stopped the render within the frames in flight.
    EXPECT_GE(accepted, 4u);
    EXPECT_LT(accepted, 100u);
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(queue.finish(diagnostics));
    ASSERT_GE(diagnostics.size(), 1u);
    EXPECT_LE(diagnostics.size(), 2u);
    // Frame 3 is always tried (frames are taken in order, and nothing failed before it); frame 4
    // too when the other writer took it before frame 3 failed.
    EXPECT_EQ(diagnostics[0].file, "f_3.png");
    if (diagnostics.size() == 2) {
        EXPECT_EQ(diagnostics[1].file, "f_4.png");
    }
    for (const Diagnostic& d : diagnostics) EXPECT_EQ(d.message, "disk full");
    EXPECT_LE(written.load(), accepted);
    // After finish, pushes are refused.
    Image late = frameNumbered(7);
    EXPECT_FALSE(queue.push(200, late));
}

TEST(FrameWriteQueue, AWriterThatThrowsOrGivesNoMessageStillReportsAnError) {
    for (const bool throws : {true, false}) {
        FrameWriteQueue queue(
            [&](uint32_t, const Image&, std::vector<Diagnostic>&) -> bool {
                if (throws) throw std::runtime_error("boom");
                return false;
            },
            1, 1);
        Image frame = frameNumbered(0);
        ASSERT_TRUE(queue.push(0, frame));
        std::vector<Diagnostic> diagnostics;
        EXPECT_FALSE(queue.finish(diagnostics));
        ASSERT_EQ(diagnostics.size(), 1u);
        EXPECT_EQ(diagnostics[0].severity, Severity::error);
        EXPECT_NE(diagnostics[0].message.find(throws ? "boom" : "frame 0"), std::string::npos)
            << diagnostics[0].message;
    }
}

TEST(FrameWriteQueue, DepthIsSmallAndBoundedByMemory) {
    EXPECT_EQ(frameQueueDepth(1, 1920 * 1080 * 4), 2u);
    EXPECT_EQ(frameQueueDepth(8, 1920 * 1080 * 4), 16u);
    // 8192x8192 frames are 256 MiB: four fit in kFrameQueueBytes.
    EXPECT_EQ(frameQueueDepth(16, uint64_t{8192} * 8192 * 4), 4u);
    // Never fewer than 2, however large.
    EXPECT_EQ(frameQueueDepth(16, kFrameQueueBytes * 2), 2u);
    EXPECT_EQ(frameQueueDepth(0, 0), 2u);
}

} // namespace
} // namespace spindrift::render
