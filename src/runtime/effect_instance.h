// The effect instance: one placed, running copy of a compiled effect, the one object every host
// drives (DESIGN: "Runtime: World ─ EffectInstance ─ Driver"). The scene player, `spindrift
// simulate` and the tests create, step, move and read instances through this header and never
// step a backend by hand; the world of the public runtime (issue 15) holds a list of them.
//
// An instance owns:
// - the compiled effect (shared: instances of one file share one CompiledEffect);
// - the backend it runs on and why (chooseBackend, runtime/backend_choice.h): the CPU backend
//   (src/cpu), the GPU backend (src/gpu), or both when the choice splits the effect, each part
//   running the same compiled effect with the other part's emitters switched off (runOnly);
// - the driver clock (src/driver/driver.h: fixed step, catch-up cap, spawn plan, receipts), held
//   by each part and run identically by both, so a split instance's parts stay in step;
// - its placement: world_from_effect, the transform every emitter is placed from
//   (driver/placement.h);
// - per-emitter statistics in one form whichever part runs the emitter (EmitterStatistics);
// - the host copy of its draw records, for hosts that draw or dump on the host.
// The backends know nothing of it: it sits above both (library spindrift_runtime, linking the
// CPU and GPU backends) and below the renderer and every host (docs/architecture.md).
//
// Use:
//     std::unique_ptr<EffectInstance> fx =
//         createEffectInstance(effect, config, probeSimulationDevice(""), "fire.json", diags);
//     each host frame:
//         setTransform(*fx, world_from_effect);  // where the effect is at the end of the frame
//         step(*fx, frame_dt_s);                 // whole fixed steps, catch-up capped
//         emitterStatistics(*fx, stats);         // counters, the same on either backend
//         writeHostDrawRecords(*fx, diags);      // then hostDrawRecords(*fx, e) per emitter
// A host that replays an exact timeline (a scene's motion path, `simulate --time`) runs whole
// steps instead: runSteps(*fx, count, run).
//
// Not thread-safe per instance; distinct instances are independent. Stepping a CPU part
// allocates nothing; a GPU part's Vulkan submissions are the driver's business.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "cpu/cpu_effect.h"
#include "driver/driver.h"
#include "driver/placement.h"
#include "gpu/gpu_effect.h"
#include "kernels/draw_record.h"
#include "kernels/strip.h"
#include "runtime/backend_choice.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

struct InstanceConfig {
    BackendRequest backend = BackendRequest::cpu; // chooseBackend's request
    // An effect `auto` would split runs wholly on the CPU instead (the reason says so): a host
    // that reports one backend's run (`simulate`, whose state hash is the CPU's).
    bool allow_split = true;
    uint32_t threads = 1; // CPU part: worker threads (results do not depend on it)
    // Both parts' clock settings (catch-up cap, spawn scale, enabled emitters). A GPU part holds
    // a per-step uniform slot for each step a frame may run: the cap sizes it.
    DriverConfig driver;
    // GPU part: its own device as RendererConfig::device names it, with the validation layer on
    // request; or, when shared_device is set (the renderer's), that device, and its draw output
    // stays there (draws_from_device: statistics asynchronous, ribbons and beams as device strips).
    std::string device;
    bool validation = false;
    std::shared_ptr<vk::Context> shared_device;
    // Without shared_device: a device shared by the GPU parts of every instance that names the
    // same slot (a World's, so that its GPU instances share one device and its pipelines,
    // gpu/pass_pipelines.h). The first GPU part makes it (device, validation); the slot's owner
    // keeps it and reports its validation messages. Null: the GPU part makes a device of its own.
    std::shared_ptr<vk::Context>* device_slot = nullptr;
    // GPU part on a device of its own: its frames are not waited for (gpu::GpuConfig::
    // async_statistics), so statistics, `finished` and events to gameplay come a frame or two
    // late; drawing and readParticles still read the particles back. A shared device always
    // runs asynchronously.
    bool async_gpu = false;
    // The host's world colliders and distance field (World); null: none. Must outlive the
    // instance; both parts read it at each step.
    const WorldInputs* world = nullptr;
};

// One emitter's counters since the instance was created (a restart keeps them), filled the same
// way from either backend, so hosts print, compare and test one form.
struct EmitterStatistics {
    uint64_t live = 0;              // particles alive now
    uint64_t births = 0;            // particles added: planned and from sub-emitter events
    uint64_t deaths = 0;            // particles that died (age, attractor, collision)
    uint64_t overflow_dropped = 0;  // births refused because the pool was full (drop_new)
    uint64_t overflow_replaced = 0; // oldest particles replaced by births (replace_oldest)
    uint64_t events_dropped = 0;    // sub-emitter events past the per-step event queue
    uint64_t contacts = 0;          // collider contacts
};

// Births that did not add to the pool as a new particle would: dropped plus replacing.
inline uint64_t overflows(const EmitterStatistics& s) {
    return s.overflow_dropped + s.overflow_replaced;
}

struct EffectInstance {
    std::shared_ptr<const CompiledEffect> effect;
    std::string source;    // the effect's file (or a name): diagnostics without a file get it
    BackendChoice backend; // which backend runs each emitter, and why
    // The parts: the CPU part runs the emitters backend.emitters gives the CPU, the GPU part the
    // others; both are set only when the choice splits the effect. Drive them through this
    // header; tests and benchmarks may read them.
    std::unique_ptr<cpu::CpuEffect> cpu;
    std::unique_ptr<gpu::GpuEffect> gpu;
    // The GPU part runs on a shared device and its draw output stays there (submitDeviceDraw);
    // its statistics are those of the newest finished submission (a frame or two late), as they
    // are for any GPU part with InstanceConfig::async_gpu.
    bool draws_from_device = false;
    bool uses_scene_depth = false; // a collision op meets the scene depth (depth_buffer)
    bool failed = false;       // a GPU part's Vulkan failure stopped the instance (reported once)
    uint64_t steps_run = 0;    // fixed steps asked of the instance since it (re)started
    Rows3x4 world_from_effect; // placement at the end of the last frame or run

    // Host draw records of the last writeHostDrawRecords, per part, each packed in compiled
    // emitter order (an emitter the part does not run counts 0). Sized at creation.
    std::vector<DrawRecord> cpu_records;
    // Which state cpu_records hold: state_serial moves on with every change of the particles or
    // the placement (step, runSteps, restart, placeInstance, a parameter change); records whose
    // serial matches are current, and writeHostDrawRecords leaves them (a world writes them in
    // the step's job, while its columns are in cache, and every view then reads them).
    uint64_t state_serial = 1;
    uint64_t records_serial = 0;
    uint64_t gpu_records_serial = 0; // the same for gpu_records (read back once per state)
    std::vector<uint32_t> cpu_counts;
    std::vector<DrawRecord> gpu_records;
    std::vector<uint32_t> gpu_counts;
    bool gpu_records_read = false;      // the last writeHostDrawRecords read the GPU part's back
    std::vector<uint32_t> record_first; // per emitter: its first record in its part's array
    // User parameter values, one per parameter of `effect` (defaults at creation); written into
    // the parts' records by setParameterValues (runtime/instance_parameters.h).
    std::vector<vec4> parameter_values;
    // Each part's own copy of its records once a value was set (the part's `effect` then points
    // at it): later sets patch it in place, with no allocation.
    std::shared_ptr<CompiledEffect> cpu_patched;
    std::shared_ptr<CompiledEffect> gpu_patched;
    // The CPU part's effect identity before its first set: a patched part's identity is this
    // combined with the values, so snapshots tell values apart without rehashing the records.
    uint64_t cpu_base_identity = 0;
};

// Creates an instance of `effect` on the backend chooseBackend(effect, config.backend, device)
// picks, placed at the identity. Returns nullptr after appending an error when the request cannot
// be met (an explicit gpu request without a device or with a feature the GPU backend lacks), the
// effect exceeds a backend's limits, or a requested GPU part fails to start. An `auto` choice of
// the GPU whose device then fails to start falls back to the CPU: its errors become warnings and
// the reason says so. Diagnostics without a file are given `source`.
std::unique_ptr<EffectInstance> createEffectInstance(std::shared_ptr<const CompiledEffect> effect,
                                                     const InstanceConfig& config,
                                                     const SimulationDevice& device,
                                                     const std::string& source,
                                                     std::vector<Diagnostic>& diagnostics);

// Where the effect is at the end of the coming frame: step() interpolates the births of its steps
// from the previous placement to this one. Particles of a world-space effect stay where they were
// born; those of a local-space effect follow. Transforms are rigid (driver/placement.h).
void setTransform(EffectInstance& instance, const Rows3x4& world_from_effect);

// Moves the instance there at once, with no interpolation from where it was (a restart, a jump).
void placeInstance(EffectInstance& instance, const Rows3x4& world_from_effect);

// Advances by one host frame of frame_dt_s seconds: the driver turns it into whole fixed steps,
// at most config.driver.max_steps_per_frame (the excess dropped and reported, DriverStats), and
// each part runs them. Returns the frame's report. A GPU part's Vulkan failure stops it; the next
// writeHostDrawRecords or submitDeviceDraw reports it.
FrameReport step(EffectInstance& instance, double frame_dt_s);

// Lets frame_dt_s of host time pass without running anything: each part's clock takes it as
// step() would, but with no catch-up cap, and the whole steps it makes are returned. Running them
// later (runSteps at an unchanged placement and driver config) gives exactly the state step()
// would have given: a world instance asleep far from the camera fast-forwards so on waking.
uint64_t accrueSteps(EffectInstance& instance, double frame_dt_s);

// Where a run of whole steps places the instance: world_from_effect at instance time time_s
// (seconds of simulation since the start). A scene's motion path.
class InstanceMotion {
public:
    virtual ~InstanceMotion() = default;
    virtual Rows3x4 worldFromEffectAt(double time_s) const = 0;
};

// Told how many steps of a run have been done (progress of a long run).
class StepListener {
public:
    virtual ~StepListener() = default;
    virtual void stepsDone(uint64_t steps) = 0;
};

struct StepRun {
    // null: every step at the current placement. Set: step k runs from the placement at
    // k x fixed_timestep_s to that at (k + 1) x fixed_timestep_s (instance steps, counted from
    // the last restart), and the instance ends placed at the run's end.
    const InstanceMotion* motion = nullptr;
    StepListener* listener = nullptr; // may be null
    // true: a part stops once the effect has finished (no particles, no births to come); the
    // steps left would change nothing but its step counter. false: the CPU part runs every step,
    // so its state (and state hash) is the one after exactly `count` steps. A GPU part always
    // stops (its driver runs no step once finished).
    bool stop_when_finished = true;
};

// Runs exactly `count` fixed steps, independent of frame pacing and never capped: the way to
// replay a timeline (a scene at time t, `simulate --time`). Returns the instance's steps_run.
uint64_t runSteps(EffectInstance& instance, uint64_t count, const StepRun& run = {});

// Back to time 0 with no particles, placed at world_from_effect; statistics are kept.
void restart(EffectInstance& instance, const Rows3x4& world_from_effect);

// The backend running emitter e.
Backend emitterBackend(const EffectInstance& instance, uint32_t emitter);

// Per emitter (compiled order), each from the part that runs it; `out` is resized to the emitter
// count (allocation only the first time).
void emitterStatistics(const EffectInstance& instance, std::vector<EmitterStatistics>& out);
// One emitter's live particles, from the part that runs it.
uint64_t emitterLive(const EffectInstance& instance, uint32_t emitter);
uint64_t liveCount(const EffectInstance& instance);
// The clock's receipts (discarded catch-up steps, skipped burst cycles, dropped births), from the
// GPU part when there is one, else the CPU part: both run the same clock.
const DriverStats& driverStatistics(const EffectInstance& instance);
// The effect has ended (not looping, every birth planned, nothing alive) on every part.
bool finished(const EffectInstance& instance);
// The index of the step the instance runs next (its driver's clock).
uint64_t nextStepIndex(const EffectInstance& instance);
// Seconds of simulation at the state drawn: steps_run x fixed_timestep_s.
double simulationTime(const EffectInstance& instance);

// Per-stage step timing of every part on or off, the sums zeroed: the CPU part's
// (cpu/step_timing.h) and the GPU part's (gpu/gpu_stage_timing.h; a device that writes no
// timestamps leaves it untimed). instanceStepTiming: whether a part is timed.
void setInstanceStepTiming(EffectInstance& instance, bool on);
bool instanceStepTiming(const EffectInstance& instance);

// Fills cpu_records / cpu_counts from the CPU part and, for a GPU part not drawn from the device
// (or any GPU part with read_device: World::readParticles, the scene player's particle lights),
// gpu_records / gpu_counts by reading its draw records back (and its ribbon trails, for
// writeRibbonStrips). False when the GPU part failed, now or before, with the errors appended
// once (the instance is then `failed` and draws nothing).
bool writeHostDrawRecords(EffectInstance& instance, std::vector<Diagnostic>& diagnostics,
                          bool read_device = false);

// Emitter e's records of the last writeHostDrawRecords (empty for a GPU emitter drawn from the
// device unless that call read it back). The CPU part's are in slot order; a GPU part's in
// alive-list order.
std::span<DrawRecord> hostDrawRecords(EffectInstance& instance, uint32_t emitter);

// Appends ribbon emitter e's trails as strip polylines built on the host (one StripBatch's worth,
// as cpu::writeRibbonStrips, velocities as there) from the last writeHostDrawRecords. Returns the
// points written.
uint64_t writeRibbonStrips(EffectInstance& instance, uint32_t emitter,
                           std::vector<StripPoint>& points, std::vector<uint32_t>& segments,
                           std::vector<vec4>* velocities = nullptr);
// The most points writeRibbonStrips can write for emitter e (segments: fewer).
uint64_t maxRibbonPoints(const EffectInstance& instance, uint32_t emitter);

// A GPU part drawn from the device: submits its draw records, the sorted orders and strips
// `request` asks for (gpu::submitDrawOutput). False when it failed, now or before, with the
// errors appended once.
bool submitDeviceDraw(EffectInstance& instance, const gpu::GpuDrawRequest& request,
                      std::vector<Diagnostic>& diagnostics);

// The GPU part's validation-layer messages so far (none on a shared device: those are the
// device owner's), appended to out.
void appendValidationMessages(const EffectInstance& instance, std::vector<std::string>& out);

} // namespace spindrift
