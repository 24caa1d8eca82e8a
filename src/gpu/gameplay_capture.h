// Events to gameplay on the GPU backend (docs/runtime-api.md, "Events"; docs/gpu-backend.md,
// "Events to gameplay"): the update and spawn passes append the events of the emitters that
// report them to a device capture buffer (shaders/gpu_gameplay.glsl); every submission ends with
// a copy of it into that submission's entry of a host-visible ring (one entry per submission in
// flight, as the counters' copy) and empties it. When a submission is known to have finished —
// the host never waits for it for this — its entry's events are sorted into the canonical order,
// each emitter's first max_per_step per step kept (src/driver/gameplay_event.h), and they join
// the frame's events. So the host receives a submission's events when it takes its statistics:
// at once for a waiting instance, a frame or two late with asynchronous statistics (or when it
// polls: pollStatistics); each event carries its step and how many host frames late it is
// handed over (GameplayEventRecord::latency_frames).
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "driver/gameplay_event.h"
#include "spindrift/diagnostic.h"

namespace spindrift::gpu {

struct GpuEffect;

// Host-side state of the capture (the buffers are GpuBuffers::gameplay and gameplay_readback).
struct GpuGameplayState {
    uint32_t capacity = 0; // events per submission; 0: the effect reports none
    // Per ring entry: the submission whose copy it holds (0: none or taken), the step index of
    // its first step (the device writes the low word only), and the host frame it was submitted
    // in.
    std::vector<uint64_t> sequence;
    std::vector<uint64_t> first_step;
    std::vector<uint64_t> frame;
    // The host's frame clock, which latencies are counted in: advanceFrame adds 1 to it, unless
    // a host keeps it (setGameplayFrame: the world sets its update count, so a latency is in
    // updates whatever steps, polls or control calls ran between them).
    uint64_t frames = 0;
    bool host_clock = false;
    uint64_t frame_step = 0; // the first step of the submission being recorded
    // Taken but not yet handed to the host, canonical order per submission, with the frame of
    // the submission each came from; bounded by the capture's capacity per submission in flight
    // (past it: dropped and counted).
    std::vector<GameplayEventRecord> events;
    std::vector<uint64_t> event_frames;
    uint64_t dropped = 0; // since the last hand-over: device overflow and max_per_step
};

// Creates the device buffer and the readback ring when the effect has emitters reporting events
// (sized by capacityOf). False with an error on a Vulkan failure.
bool createGameplayCapture(GpuEffect& fx, std::vector<Diagnostic>& diagnostics);

// The device address and capacity for GpuTables::gameplay (zero without a capture).
void gameplayTables(const GpuEffect& fx, uint32_t out[4]);

// At the end of a submission on ring entry `entry`: copies the capture into the entry and
// empties the device buffer (after the caller's compute-to-copy barrier).
void copyGameplayEvents(GpuEffect& fx, VkCommandBuffer cmd, uint32_t entry);

// Takes the entry's events once its submission has finished (the caller knows it has).
void takeGameplayEntry(GpuEffect& fx, uint32_t entry);

// Forgets events not yet handed over and those of submissions in flight (a restart).
void discardGameplayEvents(GpuEffect& fx);

// The host keeps the frame clock latencies are counted in (GpuGameplayState::frames): from now
// on advanceFrame leaves it, and it reads `frame`.
void setGameplayFrame(GpuEffect& fx, uint64_t frame);

// Whether events are still to come to the host: submissions in flight whose events are not
// taken, or events (or drops) taken and not yet handed over.
bool gameplayPending(const GpuEffect& fx);

// Moves the events taken so far to the end of out (canonical order per submission, submissions
// in order), each with latency_frames set to the frames between its submission and now (0: the
// frame that ran it), and returns the events dropped since the last call; latency_frames
// receives the largest of them (0 when none).
uint64_t takeGpuGameplayEvents(GpuEffect& fx, std::vector<GameplayEventRecord>& out,
                               uint32_t& latency_frames);

} // namespace spindrift::gpu
