// The GPU backend (issue 5, first slice): one effect instance simulated in Vulkan compute over
// the same CompiledEffect records as the CPU backend (docs/gpu-backend.md).
//
// The driver (src/driver/driver.h) runs on the CPU exactly as for the CPU backend: fixed steps,
// spawn plan, ordinals, bursts, looping. Only per-particle work runs on the GPU, in passes per
// step: counters (begin), update + compaction, spawn, counters (finish); a draw-record pass on
// request. Each pass runs the shared kernels (src/kernels/), so a particle is born with the same
// values as on the CPU and moves by the same maths. Dispatches are sized from a conservative live
// bound kept on the CPU (live_bound.h), never from the pool capacity.
//
// Each frame's steps go into one submission (more when a frame has more steps than a submission
// holds). By default the host waits for it and the statistics are current; with
// GpuConfig::async_statistics it does not wait: up to kGpuSubmissionsInFlight submissions run
// while the host goes on, and the statistics (GPU counters copied into a host-visible ring) are
// those of the newest finished submission, a frame or two late. No particle is read back:
// submitDrawOutput writes the draw records (and sorted orders) the renderer draws from the
// device. Not thread-safe; distinct instances are independent.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"
#include "driver/driver.h"
#include "driver/placement.h"
#include "driver/step_uniforms.h"
#include "gpu/draw_output.h"
#include "gpu/gameplay_capture.h"
#include "gpu/gpu_context.h"
#include "gpu/gpu_trails.h"
#include "gpu/live_bound.h"
#include "gpu/pool_layout.h"
#include "kernels/draw_record.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"

namespace spindrift::gpu {

struct GpuStepTimer;   // gpu/gpu_timing.h
struct GpuStageTiming; // gpu/gpu_stage_timing.h

struct GpuConfig {
    // The device to run on: a shared one (the renderer's, render::rendererContext), so the
    // renderer draws straight from this instance's buffers; or, when null, a device of its own
    // chosen by `device` (RendererConfig::device rules) with the validation layer on request.
    std::shared_ptr<vk::Context> shared_device;
    std::string device;      // as RendererConfig::device; "" picks the first discrete GPU
    bool validation = false; // Vulkan validation layer (tests turn it on)
    // false: advanceFrame waits for its submission, so stats, liveCount and finished are those
    // of the frame just run (tests, `simulate`). true: it does not wait; they are those of the
    // newest finished submission (a frame or two late) and `finished` latches as late — the
    // steady state of a host that draws from the device.
    bool async_statistics = false;
    DriverConfig driver;
    // Each pool buffer and draw-record chunk at most this many bytes (and at most the device's
    // allocation limit); tests force tiny buffers so columns and draw records split.
    uint64_t max_buffer_bytes = kGpuMaxBufferBytes;
    // Pool and draw records together at most this many bytes; 0: the device's largest
    // device-local heap. An effect past it is refused at creation, naming the emitter.
    uint64_t max_pool_bytes = 0;
    // Compaction through shared memory even where subgroup ballot exists (tests run both).
    bool force_portable_append = false;
    // Ribbon strips with one invocation per ribbon even where subgroup arithmetic exists (tests
    // run both).
    bool force_portable_strips = false;
    // Birth-order emitters without trails move their survivors so slot order is birth order
    // (birth_order.h, gpuRelocatesParticles), at the cost of a second copy of their state
    // columns. Off: their slots never move (tests and benchmarks compare both).
    bool relocate_birth_order = true;
    // The serial walker completes the event queue and takes the children's ordinals even where
    // it is not needed (sub_emitters.h, assignsInParallel): tests and benchmarks compare the two.
    bool force_serial_event_assign = false;
    // Emitters of at least this capacity that do not keep birth order have their alive list
    // sorted by slot after steps with births (alive_list_order.h); 0 sorts every such emitter
    // (tests), UINT32_MAX none.
    uint32_t min_sorted_list = 4096;
    // Workgroups of the update pass at most; 0: by the emitter's live bound
    // (updateWorkgroupCap). Tests lower it so each invocation loops over many particles and the
    // staged compaction flushes many times; benchmarks sweep it.
    uint32_t update_max_workgroups = 0;
    // Workgroups of the ordered compaction's chunk passes at most (ordered_list.h): tests lower
    // it so one workgroup loops over many chunks.
    uint32_t ordered_max_workgroups = kGpuMaxWorkgroups;
    // Makes a device strip buffer per ribbon and beam emitter, which submitDrawOutput fills with
    // every live particle's strip polyline for a renderer that draws strips from the device
    // (ribbon_strips.h, deviceStripSource). Off: ribbon trails and beam records are read back
    // (readBackDrawRecords).
    bool device_strips = false;
};

// Per emitter, as of the end of the last frame (GPU counters).
struct GpuEmitterStats {
    uint64_t live = 0;
    uint64_t births = 0;
    uint64_t deaths = 0;
    uint64_t overflow_dropped = 0;  // births refused because the pool was full (drop_new)
    uint64_t overflow_replaced = 0; // oldest particles replaced by births (replace_oldest)
    uint64_t contacts = 0;          // collider contacts
    uint64_t events_dropped = 0;    // sub-emitter events past kMaxEventsPerStep
    // Work, not state: event children the assignment placed or evaluated, all steps. At most the
    // emitter's capacity per step, plus (a child with birth links) the children evaluated for
    // their birth events, at most the event queue per step (docs/gpu-backend.md, "Bounded work").
    uint64_t event_children_examined = 0;
};

struct GpuBuffers {
    vk::Buffer records;           // tables, emitter and op records, LUT atlas, mesh points
    std::vector<vk::Buffer> pool; // the columns and lists, PoolLayout::buffer_bytes (pool_layout.h)
    vk::Buffer counters; // GpuEmitterCounters per emitter, then GpuEventCounters per emitter
    vk::Buffer events;   // sub-emitter event queue (sub_emitters.h); none without sub-emitters
    vk::Buffer ordered;  // the ordered compaction's scratch (ordered_list.h); none without
                         // birth-order emitters
    std::vector<vk::Buffer> draw_record_chunks; // DrawRecord per slot, PoolLayout::chunk_records
    VkDeviceAddress draw_chunk_table = 0;       // the chunks' addresses (uint64 each) in `records`
    vk::Buffer steps;                      // per-step uniforms, one slot per step of a submission
    vk::Buffer counters_readback;          // a copy of the counters per submission in flight
    std::vector<vk::Buffer> draw_readback; // per chunk, made by the first readBackDrawRecords
    std::vector<vk::Buffer> trails;        // per emitter: ribbon trail rings (gpu_trails.h)
    std::vector<vk::Buffer> trail_gather;  // per emitter: the gather pass's host-visible output
    std::vector<vk::Buffer> strips;        // per emitter: device ribbon/beam strips (device_strips)
    vk::Buffer beam_frames; // a BeamFrame per emitter per ring entry (device beam strips only)
    vk::Buffer gameplay;    // events to gameplay: the device capture (gameplay_capture.h)
    vk::Buffer gameplay_readback; // and its host-visible copy per submission in flight
    VkDeviceAddress tables_address = 0;
    uint64_t step_slot_bytes = 0;
    uint32_t step_slots = 0; // slots per submission: its steps, the last slot the draw pass's;
                             // kGpuSubmissionsInFlight sets of them
};

// A ring entry's last submission: what its counter copy describes.
struct GpuSubmission {
    uint64_t sequence = 0; // 0: nothing submitted yet
    uint32_t list_in = 0;  // the alive list current after it
};

struct GpuEffect {
    GpuEffect() = default;
    // Waits for the instance's submissions still in flight (asynchronous statistics) before its
    // buffers go: on a shared device nothing else would, and the device would still read them.
    ~GpuEffect();
    GpuEffect(const GpuEffect&) = delete;
    GpuEffect& operator=(const GpuEffect&) = delete;

    std::shared_ptr<const CompiledEffect> effect;
    GpuConfig config;
    DriverState driver;
    std::vector<GpuEmitterStats> stats;
    Rows3x4 world_from_effect;      // at the end of the last frame
    Rows3x4 next_world_from_effect; // set by the host for the coming frame
    Rows3x4 step_start;             // world_from_effect at the start and end of the step
    Rows3x4 step_end;
    std::vector<LiveWindow> live_windows;   // per emitter
    uint32_t list_in = 0;                   // the alive list the next step reads (0 or 1)
    uint64_t dispatches_last_frame = 0;     // compute dispatches the last frame recorded
    std::vector<Diagnostic> errors;         // Vulkan failures while stepping; the instance stops
    GpuStepTimer* step_timer = nullptr;     // benchmarks: step and output stamps (gpu_timing.h)
    GpuDrawRequest draw;                    // of the last submitDrawOutput
    std::vector<GpuSubmission> submissions; // per entry of the command ring
    uint64_t last_sequence = 0;             // of the newest submission
    uint64_t stats_sequence = 0;            // of the submission fx.stats describe
    GpuGameplayState gameplay;              // events to gameplay (gameplay_capture.h)

    // Work space, sized once.
    StepScratch scratch;
    const WorldInputs* world = nullptr; // the host's colliders (may be null)
    SpawnPlan plan;
    std::vector<float> travel_m;
    std::vector<uint64_t> event_births; // per emitter: this step's bound (boundEventBirths)
    uint64_t step_events = 0;           // this step's bound on sub-emitter events
    uint32_t event_walk_budget = 0;     // work units per walker dispatch (sub_emitters.h)
    PoolLayout layout;
    std::vector<TrailRegion> trail_layout; // per emitter (gpu_trails.h)

    // Declared last: destroyed first (buffers before the device they came from).
    std::unique_ptr<GpuContext> gpu;
    GpuBuffers buffers;
    GpuDrawSorting sorting;                       // made by submitDrawOutput on first need
    std::optional<GpuRadixSort> list_sort;        // alive lists by slot (alive_list_order.h)
    std::unique_ptr<GpuStageTiming> stage_timing; // a host's stage timing (gpu_stage_timing.h)
};

// Appends an error per emitter needing a feature the GPU backend does not run yet
// (kGpuFeatures, src/compiler/capabilities.h; emitters of capacity 0 are switched off and
// skipped), e.g. "emitter 'sparks' uses sub_emitters: not
// supported by the GPU backend yet", with the JSON path of what needs it. False when any.
bool checkGpuSupport(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics);

// Builds an instance: checks support and the pool size, creates the Vulkan device and the
// buffers, uploads the records and empties the pool. nullptr with clear errors when the effect
// needs what the backend cannot run, or there is no usable Vulkan device.
std::unique_ptr<GpuEffect> createGpuEffect(std::shared_ptr<const CompiledEffect> effect,
                                           const GpuConfig& config,
                                           std::vector<Diagnostic>& diagnostics);

// One synchronous submission on the instance's command ring: `record` fills the command buffer
// (after a barrier that orders it behind everything submitted before), the counters are copied
// after it, and the host waits and takes the statistics. False with an error on a Vulkan failure.
bool runAndWait(GpuEffect& fx, std::string_view what,
                const std::function<void(VkCommandBuffer)>& record,
                std::vector<Diagnostic>& diagnostics);

// world_from_effect at the end of the next frame (as cpu::setTransform).
void setTransform(GpuEffect& fx, const Rows3x4& world_from_effect);

// Advances by one host frame: the driver turns frame_dt_s into fixed steps, which are recorded
// and submitted. A Vulkan failure is appended to fx.errors and stops the instance.
FrameReport advanceFrame(GpuEffect& fx, double frame_dt_s);

// Back to time 0 with no particles (statistics kept).
void restart(GpuEffect& fx);

uint64_t liveCount(const GpuEffect& fx); // from the counters stats come from
// Waits for every submission and takes the newest statistics (a host that reads them now).
bool waitForStatistics(GpuEffect& fx);
// Takes the statistics and events to gameplay of every submission that has finished, waiting
// for none (a host with asynchronous statistics whose instance did not step this frame: a paused
// or sleeping one still hands over what its last frames produced). False after a failure.
bool pollStatistics(GpuEffect& fx);
bool finished(const GpuEffect& fx);
double simulationTime(const GpuEffect& fx);
// The conservative live bound the next update dispatch of emitter e is sized from.
uint32_t liveBoundOf(const GpuEffect& fx, uint32_t emitter);

// Submits, after the frame's steps, the draw-record pass of every emitter, for each emitter
// with a sort mode in `request` its back-to-front order (keys of the live records, the GPU
// radix sort), and with device_strips every ribbon and beam emitter's strips (ribbon_strips.h;
// a beam emitter's curve from request.beams, an error when it is missing). Makes the
// sort's work space on first need (sized for the largest sorting emitter), so later frames allocate
// nothing. Waits only without async_statistics. False with an error (in diagnostics and fx.errors)
// on a Vulkan failure.
bool submitDrawOutput(GpuEffect& fx, const GpuDrawRequest& request,
                      std::vector<Diagnostic>& diagnostics);
// Where emitter e's records are after the last submitDrawOutput (on the instance's device), over
// all the draw-record chunks they lie in: the renderer draws min(*count, max_records) of them in
// one draw, in the sorted order when there is one. An empty source (max_records 0) for an emitter
// past the end or of capacity 0.
GpuDrawSource drawSource(const GpuEffect& fx, uint32_t emitter);

// The path for hosts on another device, and for beams the renderer builds on the host
// (docs/gpu-backend.md, "Choosing a backend"): runs the draw-record
// pass, waits, and copies every live particle's DrawRecord into out, emitters in compiled order,
// each emitter's records packed after the previous one's (inside an emitter, alive-list order:
// birth order for a stable-order emitter, as on the CPU; otherwise not the CPU's slot order).
// emitter_counts[e] receives emitter e's count. out must have room for Σ emitter capacity records
// and emitter_counts one entry per emitter, else an error. The same submission gathers every
// ribbon emitter's trails in record order for gpu::writeRibbonStrips (ribbon_strips.h).
// A synchronous readback, once per frame;
// after the first call it allocates nothing on the host. False with an error on a Vulkan failure
// (or after an earlier one: fx.errors).
bool readBackDrawRecords(GpuEffect& fx, std::span<DrawRecord> out,
                         std::span<uint32_t> emitter_counts, std::vector<Diagnostic>& diagnostics);

// FOR TESTS AND DEBUGGING ONLY: runs the draw-record pass, waits, and reads every live
// particle's DrawRecord back (emitters in compiled order; inside an emitter, alive-list order,
// which is not the CPU's slot order). A synchronous read of the whole particle state: never call
// it in a frame loop. False with an error on a Vulkan failure.
bool readBackDrawRecordsForTest(GpuEffect& fx, std::vector<DrawRecord>& out,
                                std::vector<Diagnostic>& diagnostics);

// Records the draw-record pass of every emitter (one DrawRecord per live particle: its alive-list
// index i is the emitter's record i; drawRecordRanges and drawRecordAddress say where) into the
// caller's command buffer, for a host that chains its own work after it (the benchmark's sort).
// Uses the last step slot; the caller barriers before reading the records.
void recordDrawRecordsPass(GpuEffect& fx, VkCommandBuffer cmd);

// Validation-layer messages so far (empty without config.validation).
const std::vector<std::string>& validationMessages(const GpuEffect& fx);

} // namespace spindrift::gpu
