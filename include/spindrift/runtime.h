// The public runtime: what a game or a tool links to play effects. Three things:
//
//   EffectLibrary — the effect files a host uses, each compiled once (on first use) and shared by
//                   every instance of it; hot reload of changed files.
//   World         — the running instances. The host calls update(frame_dt_s) once per frame;
//                   every instance advances through the one driver clock (fixed steps, catch-up
//                   capped) and the call returns a receipt of what happened.
//   InstanceHandle — names one instance: 64 bits, slot index + generation. A handle whose
//                   instance is gone is *stale*: every call reports it (RuntimeError::
//                   stale_handle) and none ever reaches another instance.
//
// Minimal use (docs/runtime-api.md has the whole example, examples/embed/minimal.cpp):
//
//     spindrift::EffectLibrary library;
//     spindrift::EffectId fire = library.add("effects/campfire.json");
//     spindrift::World world(library);
//     spindrift::InstanceDesc desc;
//     desc.effect = fire;
//     desc.transform.position = {4, 0, -2};
//     spindrift::InstanceHandle h;
//     if (world.create(desc, h) != spindrift::RuntimeError::none) puts(world.lastErrorMessage());
//     each frame:  world.update(frame_dt_s);  world.readParticles(h, particles);
//
// Errors are values. Every call that can fail returns a RuntimeError and leaves the world as it
// was; lastErrorMessage() then says what was wrong in words (the emitter name that was not found
// and the names that exist, the value that was not finite). Nothing a host passes crashes the
// runtime: stale or forged handles, unknown names, NaN transforms, negative, NaN or enormous
// frame times, millions of create/destroy calls.
//
// Threads: a World and an EffectLibrary are used from one thread at a time (the host's update
// thread); distinct worlds are independent. The library must outlive every world that uses it.
// Inside update, the world spreads its CPU work over WorldConfig::threads threads of its own or
// over the host's JobRunner; the results are the same whichever.
//
// This header is self-contained: it needs only the standard library and spindrift/diagnostic.h,
// and exposes no Vulkan or internal type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "spindrift/diagnostic.h"
#include "spindrift/export.h"

namespace spindrift {

// ---------------------------------------------------------------------------------------------
// Vocabulary

struct Vec3 {
    float x = 0, y = 0, z = 0;
};

// A rotation as a unit quaternion (x, y, z, w). Any finite non-zero quaternion is accepted and
// normalised; a zero or non-finite one is refused.
struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};

// Linear RGBA.
struct Color {
    float r = 1, g = 1, b = 1, a = 1;
};

// Where an instance is: world_from_effect = translate(position) * rotate(rotation) * scale(scale).
// Scale is per axis, each component finite and in [1e-6, 1e6] in magnitude (negative mirrors); it
// scales emitter shapes and placement, birth positions and initial velocities. A local-space
// effect takes only scale (1, 1, 1) (its forces are carried by the inverse of a rigid transform):
// anything else is refused with RuntimeError::unsupported.
struct InstanceTransform {
    Vec3 position;
    Quat rotation;
    Vec3 scale = {1, 1, 1};
};

enum class RuntimeError : uint8_t {
    none = 0,
    invalid_handle,      // the null handle, or one this world never made
    stale_handle,        // the instance was destroyed (or finished with destroy_on_finish)
    unknown_effect,      // an EffectId the library does not hold
    effect_failed,       // the effect's file does not load or compile (library diagnostics)
    unknown_emitter,     // no emitter of that name in the instance's effect
    invalid_argument,    // a non-finite, negative or out-of-range value
    unsupported,         // asked of an instance that cannot do it (the message says why)
    not_running,         // emit on an instance that has finished or was cleared: restart it
    capacity_exceeded,   // WorldConfig::max_instances, or pending bursts past kMaxPendingBursts
    backend_unavailable, // the requested backend cannot run this effect here
    unknown_parameter,   // no user parameter of that name in the instance's effect
};

// A short fixed text for an error ("stale instance handle").
SPINDRIFT_API const char* describe(RuntimeError error);

// ---------------------------------------------------------------------------------------------
// Effect library

// Names one effect file in an EffectLibrary. 0 is the invalid id.
struct EffectId {
    uint32_t value = 0;
    friend bool operator==(EffectId, EffectId) = default;
};

struct ReloadReport {
    uint32_t files_checked = 0;  // compiled entries whose file was examined
    uint32_t files_changed = 0;  // whose contents changed since they were compiled
    uint32_t files_reloaded = 0; // recompiled successfully: instances switch at their next step
    uint32_t files_rejected = 0; // changed but no longer valid: the old version stays in use
    std::vector<EffectId> reloaded;
    std::vector<EffectId> rejected;
    std::vector<Diagnostic> diagnostics; // of the rejected files (and warnings of the reloaded)
};

// One user parameter of an effect (docs/effect-format.md, "Parameters"): a value the host sets
// per instance with World::setParameter. Components past the type's width are 0.
enum class ParameterKind : uint8_t { float_value = 0, float3 = 1, color = 2 };
struct ParameterInfo {
    std::string name;
    ParameterKind kind = ParameterKind::float_value;
    Color default_value; // r = x, g = y, b = z, a = w
    Color min;           // per component, inclusive
    Color max;
};

// What the library knows of one effect.
struct EffectInfo {
    std::string path;                  // as given to add()
    bool compiled = false;             // compiled at least once
    bool failed = false;               // the last compile failed (see diagnostics)
    uint32_t version = 0;              // 1 after the first compile, +1 per successful reload
    std::vector<std::string> emitters; // compiled emitter names, in compiled order
    // Per emitter (compiled order): its texture / mesh file, resolved against the effect file's
    // folder as the renderer opens it; empty when it has none (spindrift/draw_list.h).
    std::vector<std::string> textures;
    std::vector<std::string> meshes;
    std::vector<Diagnostic> diagnostics;   // of the last compile or reload attempt
    std::vector<ParameterInfo> parameters; // compiled user parameters, in authored order
};

class SPINDRIFT_API EffectLibrary {
public:
    EffectLibrary();
    ~EffectLibrary();
    EffectLibrary(const EffectLibrary&) = delete;
    EffectLibrary& operator=(const EffectLibrary&) = delete;

    // Registers the file at `path` (.sfx: cooked; anything else: JSON) and returns its id. Adding
    // the same path again returns the same id. Nothing is read yet: the file is loaded and
    // compiled when the first instance needs it (or by compile()). An empty path returns the
    // invalid id.
    EffectId add(std::string_view path);

    // Registers an effect held in memory: JSON text (copied) under `name`, which its diagnostics
    // call the file and against whose folder the textures and meshes it names are resolved;
    // nothing is read from disk for it. The same name with the same text returns the same id;
    // with other text the text is replaced, and the next pollChanges() reloads it like a changed
    // file (an editor's unsaved buffer). An empty name, or one registered by add(), returns the
    // invalid id.
    EffectId addText(std::string_view name, std::string_view json_text);

    // The id of a path given to add() (or a name given to addText()), or the invalid id.
    EffectId find(std::string_view path) const;

    // Loads and compiles the effect now if it has not been (a host that prefers to pay at level
    // load). Returns none, unknown_effect, or effect_failed with the diagnostics in info(id).
    RuntimeError compile(EffectId id);

    // Compares every compiled file with what it was compiled from (modification time and size,
    // then the bytes) and recompiles the ones that changed. A file that no longer loads or
    // validates keeps its previous compiled version; its diagnostics are in the report and in
    // info(id). Live instances of a reloaded effect switch to it at their next World::update:
    // an instance (CPU or GPU) whose emitters match by name and layout keeps its particles,
    // trails and clock, any other restarts and says why (InstanceInfo::reload_restart_reason;
    // docs/runtime-api.md, "Hot reload", defines the match; the update's receipt counts both).
    ReloadReport pollChanges();

    // Recompiles one effect from its file now, whether or not it changed.
    ReloadReport reload(EffectId id);

    // A copy of what the library knows of the effect; false for an unknown id.
    bool info(EffectId id, EffectInfo& out) const;

    // The runtime's own access (Impl is defined in src/runtime, not in a public header).
    struct Impl;
    Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

// ---------------------------------------------------------------------------------------------
// World and instances

// Names one instance of a World: bits 0-31 the slot index, bits 32-63 the generation (never 0
// for a live instance). 0 is the null handle. Plain 64-bit value: store it, compare it, hash it.
struct InstanceHandle {
    uint64_t value = 0;
    friend bool operator==(InstanceHandle, InstanceHandle) = default;
};

enum class SimulationBackend : uint8_t {
    cpu = 0,       // the deterministic CPU backend (every feature)
    gpu = 1,       // Vulkan compute; refused when there is no device or a feature is missing
    automatic = 2, // the GPU when it can run the effect, else the CPU (the reason is reported)
};

// ---------------------------------------------------------------------------------------------
// Threads: the host's job runner

// A parallel-for the world runs its CPU work through, so that a game can run the particles on its
// own job system instead of threads the world makes (WorldConfig::job_runner). Implement
// parallelFor over whatever the game has: a fork-join pool, a task graph's "run these N tasks
// and wait", or a plain loop (one thread).
//
// What the world asks of it:
// - parallelFor(count, job, context) calls job(context, i) exactly once for every i in
//   [0, count), on any threads (the calling thread included) and in any order, and returns only
//   when every call has returned. The calls of one batch are independent: they touch disjoint
//   instances or particles and never wait for each other.
// - It is called only from the thread that called World::update (or another World call), never
//   from inside a job: no nesting, so a simple pool cannot deadlock.
// - The jobs allocate nothing, take no lock and throw nothing.
//
// What it gets: the same particles, bit for bit, whatever the runner and however many threads it
// has (each job's work is fixed by its index, never by the thread that runs it).
class SPINDRIFT_API JobRunner {
public:
    using JobFunction = void (*)(void* context, uint32_t index);
    virtual ~JobRunner() = default;
    virtual void parallelFor(uint32_t count, JobFunction job, void* context) = 0;
};

// How a world waits for its GPU instances (docs/runtime-api.md, "Events", "Backends").
enum class GpuReadback : uint8_t {
    // update never waits for the GPU: up to two frames of each instance run on the device while
    // the host goes on. Live counts, `finished` and the events to gameplay come back through a
    // ring of host-visible buffers, 1 or 2 updates late (GameplayEvent::latency_frames says by
    // how much); drawList and readParticles still read the particles of the frame just run.
    asynchronous = 0,
    // update waits for each GPU instance's frame: statistics and events are those of the steps
    // just run (latency 0). For offline tools and tests that compare a frame's counts at once.
    synchronous = 1,
};

struct WorldConfig {
    SimulationBackend backend = SimulationBackend::cpu;
    // GPU instances on a device of the world's own; those on a renderer's device are always
    // asynchronous.
    GpuReadback gpu_readback = GpuReadback::asynchronous;
    // Threads of the world's own job runner, the calling thread included (1: everything runs on
    // the thread that calls update). Unused when job_runner is set. Instances are stepped in
    // parallel across the world; an instance with many particles also splits its own step over
    // them. Results do not depend on it.
    uint32_t threads = 1;
    // The host's job runner (see JobRunner); null: the world's own pool of `threads` threads.
    // Not owned: it must outlive the world.
    JobRunner* job_runner = nullptr;
    uint32_t max_steps_per_frame = 8;  // catch-up cap; frame time past it is dropped, reported
    uint32_t max_instances = 1u << 20; // live instances at once; create past it fails
    // seek() and advanceTo() refuse a target past this many steps.
    uint64_t max_seek_steps = 60 * 60 * 60; // an hour at 60 Hz
    // Exact seek from checkpoints (World::seek, "Seek checkpoints" below): a CPU instance keeps a
    // snapshot of its state every this many steps of the replays seek() and advanceTo() run, so a
    // later seek replays at most about this many steps. 0: none kept (every seek backwards
    // replays from time 0). Values past kMaxSeekCheckpointIntervalSteps are taken as it.
    uint32_t seek_checkpoint_interval_steps = 60;
    // The most bytes of checkpoints one instance keeps (its particles' state, 80 bytes a
    // live particle, and ribbon trails); past it every other checkpoint is dropped and the
    // spacing doubles, so coverage stays even. 0: none kept. Values past kMaxSeekCheckpointBytes
    // are taken as it.
    uint64_t max_seek_checkpoint_bytes = uint64_t{8} << 20;
    // Destroyed instances kept per effect, their memory reused by the next create of that effect
    // (a create/destroy cycle then allocates nothing).
    uint32_t recycled_per_effect = 16;
};

inline constexpr uint32_t kMaxSeekCheckpointIntervalSteps = 1u << 20;
inline constexpr uint64_t kMaxSeekCheckpointBytes = uint64_t{1} << 34; // 16 GiB

// InstanceDesc::flags bits.
inline constexpr uint32_t kPlayOnCreate = 1u;    // starts playing at create (else idle)
inline constexpr uint32_t kDestroyOnFinish = 2u; // destroyed by the update in which it finishes
// Budgets never put it to sleep (the player's own effects, a scripted moment). Distance sleep
// and culling still apply as its effect says (World::setImportant changes it later).
inline constexpr uint32_t kImportant = 4u;

// Pending emit() bursts per instance not yet taken by a step.
inline constexpr uint32_t kMaxPendingBursts = 64;
// Most particles one emit() may ask for.
inline constexpr uint32_t kMaxEmitCount = 1u << 24;

struct InstanceDesc {
    EffectId effect;
    InstanceTransform
        transform; // the instance starts here: its first frame sweeps from nowhere else
    uint32_t flags = kPlayOnCreate;
    float time_scale = 1; // multiplies the frame time; [0, 1000]
    Color tint;           // multiplies every particle's colour (readParticles, drawList); >= 0
    float size_scale = 1; // multiplies every particle's size (readParticles, drawList); [0, 1e6]
    float spawn_rate_scale = 1; // multiplies rate, distance and burst births; [0, 1e6]
    bool override_seed = false; // true: the effect's random seed is replaced by `seed`
    uint32_t seed = 0;
};

enum class InstanceState : uint8_t {
    idle = 0,     // created without kPlayOnCreate, or after seek on an idle instance
    playing = 1,  // advancing with update()
    paused = 2,   // kept as it is; resume() continues
    stopping = 3, // stop(): no more births, the live particles finish their lives
    finished = 4, // nothing alive and nothing to come (or clear()); restart() or play() replays
};

struct InstanceInfo {
    InstanceState state = InstanceState::idle;
    EffectId effect;
    uint32_t effect_version = 0;                        // the library version the instance runs
    SimulationBackend backend = SimulationBackend::cpu; // cpu or gpu (a split instance: gpu)
    double time_s = 0;  // simulation seconds since its (re)start: whole steps
    uint64_t steps = 0; // fixed steps since its (re)start
    uint64_t live_particles = 0;
    uint64_t discarded_steps = 0;    // dropped by the catch-up cap since creation
    uint32_t restarts_by_reload = 0; // reloads that restarted it (particles could not be kept)
    // Why the last reload restarted it ("emitter 'sparks': capacity 512 -> 300"); empty when the
    // last reload kept its particles or none happened (docs/runtime-api.md, "Hot reload").
    std::string reload_restart_reason;
    InstanceTransform transform;
    // Scalability (World's "Scalability"), as the last update decided.
    bool asleep = false;    // not stepped, not drawn (distance, cull view or budget)
    bool culled = false;    // out of the cull view (hidden; asleep too if its effect says so)
    bool important = false; // kImportant: budgets never put it to sleep
    float birth_fade = 1;   // the distance fade on its births, [0, 1]
};

// One particle as readParticles gives it: world space, overrides applied.
struct Particle {
    Vec3 position;
    float size_m = 0;
    Color color;
    Vec3 velocity_m_per_s;
    float rotation_rad = 0;
    float normalized_age = 0;   // age / lifetime in [0, 1]
    float flipbook_frame = 0;   // [0, frames): whole part the frame, fraction the blend
    uint32_t emitter_index = 0; // compiled order (EffectInfo::emitters)
    uint32_t key = 0;           // the particle's stable random key
};

// Where the last seek() or advanceTo() of an instance started its steps (World::lastSeekCost).
enum class SeekOrigin : uint8_t {
    start = 0,      // time 0: a replay from the start
    checkpoint = 1, // a seek checkpoint restored (a copy of the state, no steps)
    current = 2,    // the instance's state as it was (forward)
};

// What the last seek() or advanceTo() of an instance cost (World::lastSeekCost).
struct SeekCost {
    SeekOrigin origin = SeekOrigin::start;
    uint64_t target_step = 0;       // the step the instance reached
    uint64_t resumed_from_step = 0; // the step it ran from: 0 from the start
    uint64_t steps_replayed = 0;    // fixed steps run: target_step - resumed_from_step
    // The instance's checkpoints now: false for a GPU (or split) instance, which replays from
    // time 0 (its cost is steps_replayed), and when WorldConfig turns them off.
    bool checkpoints_kept = false;
    uint32_t checkpoint_count = 0;
    uint64_t checkpoint_bytes = 0;         // at most WorldConfig::max_seek_checkpoint_bytes
    uint64_t checkpoint_spacing_steps = 0; // the interval, doubled by each thinning
};

// Time of an instance's fixed steps, stage by stage (World::setStepTiming, World::takeStepTimes):
// summed over every step run since the last take (update, advanceTo, seek and their replays
// alike). Timing changes no result: a timed instance steps to the same bits as an untimed one.
//
// Emitters on the CPU backend: wall time. Each stage is within step_ms; step_ms less the stages
// is the step's bookkeeping (gameplay events).
//
// Emitters on the GPU backend (the gpu_ fields): device time between timestamps written around
// the passes of each step, and host time for the step's plan. A GPU submission's times are added
// when it has finished, never waited for: with a renderer's device (asynchronous frames) they
// come a frame or two after their steps, and gpu_pending_submissions counts those not in yet.
// Each gpu_ stage is within gpu_step_ms (the gaps are the barriers between passes); gpu_plan_ms
// and gpu_draw_records_ms are outside it.
struct StepTimes {
    // false: timing is off, or the instance runs no emitter on the CPU (every CPU field is 0).
    bool timed = false;
    // The instance runs emitters on the GPU backend and they are not timed: timing is off, or
    // the device writes no timestamps (every gpu_ field is then 0).
    bool gpu_untimed = false;
    uint64_t steps = 0;      // steps timed
    double step_ms = 0;      // the whole steps
    double plan_ms = 0;      // the birth plan and the step's uniforms (ops resolved to sim space)
    double update_ms = 0;    // velocity ops, integration, death test, ribbon trail points
    double collision_ms = 0; // collision ops (on several threads: the update's wall time in the
                             // share the collision ops took of the threads' time)
    double deaths_ms = 0;    // sub-emitter events of the step collected, the dead removed
    double births_ms = 0;    // planned births and sub-emitter births
    // Draw records written for drawing (once per state, not per step: by update() after the
    // instance's steps, or by drawList for a state advanceTo or seek reached): not in step_ms.
    double draw_records_ms = 0;

    // The GPU part's steps (gpu_timed: timing is on and its device writes timestamps).
    bool gpu_timed = false;
    uint64_t gpu_steps = 0;               // steps whose device times are in (steps with no particle
                                          // and no birth dispatch nothing and are not counted)
    uint64_t gpu_steps_untimed = 0;       // steps past the 64 a submission stamps (a long catch-up)
    uint32_t gpu_pending_submissions = 0; // stamped submissions still in flight
    double gpu_plan_ms = 0;   // host: birth plan, uniforms and the step's slot, every step
    double gpu_step_ms = 0;   // device: the first update dispatch to the end of the slot sorts
    double gpu_update_ms = 0; // device: velocity ops, collision, integration, death test and
                              // compaction (one pass on the GPU: collision is inside it)
    double gpu_events_ms = 0; // device: sub-emitter events gathered (deaths, collisions)
    double gpu_births_ms = 0; // device: planned births, the counters, sub-emitter births
    double gpu_order_ms = 0;  // device: alive lists sorted by slot (large emitters after births)
    uint64_t gpu_draw_outputs = 0;  // draw-record passes timed (once per drawn state)
    double gpu_draw_records_ms = 0; // device: draw records, their sorts and the strips; not in
                                    // gpu_step_ms
};

// What one World::update did. Counts are of this update only.
struct WorldUpdateReceipt {
    uint32_t instances = 0;         // live instances after the update
    uint32_t instances_stepped = 0; // playing or stopping instances that were advanced
    uint64_t steps = 0;             // fixed steps run, all instances
    uint64_t discarded_steps = 0;   // steps dropped by the catch-up cap, all instances
    double discarded_s = 0;         // their simulation time (summed over instances)
    uint64_t live_particles = 0;    // after the update, all instances
    uint32_t finished = 0;          // instances that finished in this update
    uint32_t destroyed_on_finish = 0;
    uint32_t reloaded_kept = 0;      // instances switched to a reloaded effect, particles kept
    uint32_t reloaded_restarted = 0; // instances switched to a reloaded effect and restarted
    uint32_t reload_failures = 0;    // instances left on their old version (instance creation
                                     // failed for the new one; lastErrorMessage says why)
    bool frame_rejected = false;     // frame_dt_s was negative or not finite: taken as 0
    uint64_t events = 0;             // gameplay events delivered by this update (World::events)
    uint64_t events_dropped = 0;     // gameplay events past an emitter's events.max_per_step
    // The largest GameplayEvent::latency_frames of this update's events: how many updates
    // earlier the steps of the latest-delivered ones ran (an asynchronous GPU readback: 1 or
    // 2); 0 when every event is of this update's steps.
    uint32_t events_latency_frames = 0;
    uint32_t attractors_active = 0;  // host attractors that acted (nearest the camera)
    uint32_t attractors_dropped = 0; // host attractors past kActiveAttractors: not applied
    // Scalability (see "Scalability" below).
    uint32_t instances_asleep = 0;   // playing instances not stepped (distance, culling, budget)
    uint32_t instances_culled = 0;   // playing instances out of the cull view
    uint32_t asleep_by_budget = 0;   // of instances_asleep: put to sleep by a budget
    uint32_t instances_examined = 0; // distance sleepers near the camera (the buckets looked at)
    uint32_t instances_woken = 0;    // woke this update (fast-forwarded or restarted)
    uint64_t fast_forward_steps = 0; // steps run to bring waking instances up to date
    uint32_t retained_instances = 0; // destroyed world-space instances still finishing
    uint64_t retained_particles = 0; // their live particles (also in live_particles)
    // Stepped instances with a depth_buffer collision op that had no scene depth for their
    // backend this update (never given, cleared, or a GPU instance not on a renderer's device):
    // they met the world's colliders only.
    uint32_t depth_collisions_unfed = 0;
};

// Totals since the world was made.
struct WorldStats {
    uint64_t updates = 0;
    uint64_t instances_created = 0;
    uint64_t instances_destroyed = 0;
    uint64_t instances_recycled = 0; // creates served from a recycled instance
    uint64_t stale_handle_uses = 0;  // calls made with a stale or invalid handle
    uint64_t rejected_frames = 0;
    uint64_t discarded_steps = 0;
    uint64_t rejected_path_transforms = 0; // non-finite TransformPath matrices replaced
    uint64_t instances_retained = 0;       // destroyed with live world-space particles kept
};

// ---------------------------------------------------------------------------------------------
// Scalability (docs/runtime-api.md, "Scalability"; the effect's side: docs/effect-format.md,
// "scalability")

// The world's quality tier: at `low`, emitters marked `cosmetic` do not spawn.
enum class QualityTier : uint8_t { low = 0, medium = 1, high = 2 };

// Per-world budgets; 0 means none. Past one, the farthest awake instances that are not
// important sleep first (WorldUpdateReceipt::asleep_by_budget); an important one never does.
struct WorldBudgets {
    uint64_t max_live_particles = 0;  // live particles of awake instances
    uint32_t max_awake_instances = 0; // playing instances stepped per update
};

// The side of a spatial bucket: instances that sleep by distance are kept in cells of this size
// on the ground plane (x, z), and an update looks only at the cells within reach of the camera.
inline constexpr float kSpatialCellMetres = 32.0f;

// ---------------------------------------------------------------------------------------------
// Timelines and drawing (docs/runtime-api.md, "Timelines" and "Drawing")

struct DrawView; // spindrift/draw_list.h
class DrawList;

// world_from_effect as a 3x4 matrix: rows[i] = (row i of the linear part, translation i).
struct Matrix3x4 {
    float rows[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
};

// A moving transform an instance follows (World::followPath): a cutscene track, a bone, a
// projectile's flight. Called with the instance's own simulation time (seconds since its
// (re)start, whole fixed steps and the instant asked of advanceTo), possibly many times per frame;
// it must be a pure function of time_s. Each matrix must be finite (a non-finite one is replaced
// by the instance's transform and counted in WorldStats::rejected_path_transforms) and, for a
// local-space effect, rigid.
class SPINDRIFT_API TransformPath {
public:
    virtual ~TransformPath() = default;
    virtual Matrix3x4 worldFromEffectAt(double time_s) const = 0;
};

// ---------------------------------------------------------------------------------------------
// Events to gameplay (docs/runtime-api.md, "Events")
//
// An emitter whose effect file has an `events` block (docs/effect-format.md) reports its
// particles' births, deaths, collider contacts and threshold crossings to the host. Each
// World::update gathers the events of the steps it ran; World::events() holds them until the next
// update. Per emitter and step at most the block's max_per_step are kept, the rest counted in
// WorldUpdateReceipt::events_dropped (never dropped silently).
//
// Order (canonical, the same on every run and thread count): instances in slot order (the order of
// World::instances), then per instance by (step, emitter_index, kind, particle_key, collision_op),
// then by the bits of position, velocity and normal. When an emitter has more than max_per_step
// events in a step, the ones kept are its first in this order.
//
// Backends: a CPU instance delivers the events of an update's steps in that update. A GPU instance
// captures them on the device and reads them back without waiting (WorldConfig::gpu_readback,
// asynchronous by default): they arrive 1 or 2 updates late, each carrying its step and its
// latency_frames (WorldUpdateReceipt::events_latency_frames: the largest). The same steps give
// the same events in the same order on both backends, once the late ones have arrived.
//
// Nothing is lost to control calls: restart, clear, seek, setSeed, play of a finished instance
// and a hot reload's switch first take the instance's events of steps already run (waiting for
// its GPU frames in flight, as resetting its pool waits anyway) and deliver them at the head of
// the next update's events; a destroyed instance (destroy, kDestroyOnFinish) is not waited for:
// its GPU frames in flight deliver their events in the next updates, under its now stale
// handle. seek's replayed steps deliver none. Sub-emitter links on threshold crossings run on
// the CPU backend only.

// Frozen numbering.
enum class EventKind : uint8_t {
    birth = 0,     // a particle was born (position and velocity at birth)
    death = 1,     // a particle died this step (age, attractor, a kill collision)
    collision = 2, // a particle touched a collider (one event per collision module that touched)
    threshold = 3, // a particle crossed its emitter's threshold (speed, height or age fraction)
};

struct GameplayEvent {
    EventKind kind = EventKind::birth;
    InstanceHandle instance;    // may be stale by the time the host reads it (destroy_on_finish)
    uint32_t emitter_index = 0; // compiled order (EffectInfo::emitters); World::emitterName
    uint32_t particle_key = 0;  // the particle's stable key (Particle::key): the same particle
                                // has the same key in every event and in readParticles
    uint64_t step = 0;          // the instance's fixed step (0 = the first after a (re)start)
    // How many updates after the one that ran its step this event is delivered: 0 for a CPU
    // instance (and a GPU one with GpuReadback::synchronous); 1 or 2 for a GPU instance read back
    // asynchronously; one more for events a control call held back (see "Instances that go
    // away" in docs/runtime-api.md).
    uint32_t latency_frames = 0;
    Vec3 position;             // world space, at the end of the step (birth: where it was born)
    Vec3 velocity;             // world space, m/s, at the same moment
    Vec3 normal;               // collision: the contact normal, world space, unit; else 0
    uint32_t collision_op = 0; // collision: which of the emitter's collision modules, 0-based
};

// ---------------------------------------------------------------------------------------------
// Host-fed world: the level's colliders and a distance field

// Collision groups are bits 0..23. An effect's collision module with world_colliders (or
// depth_buffer, on the CPU) meets a world collider when its collision_mask shares a bit with the
// collider's groups (docs/effect-format.md, "collision").
inline constexpr uint32_t kAllCollisionGroups = (1u << 24) - 1u;
inline constexpr uint32_t kMaxWorldColliders = 64;
// Heightfield samples per axis; a world holds at most 4096 samples in all.
inline constexpr uint32_t kMaxHeightfieldSide = 64;

enum class ColliderShape : uint8_t {
    plane = 0,      // position on it; normal = rotation * +Y; particles live on that side
    sphere = 1,     // centre position, radius; inside = true keeps particles in the ball
    box = 2,        // centre position, half_extents along rotation's axes
    capsule = 3,    // centre position; segment of half length half_height along rotation * +Y
    cylinder = 4,   // centre position, radius, half_height along rotation * +Y, capped
    heightfield = 5 // corner position (sample 0, 0); heights along rotation * +Y (below: solid)
};

// One collider of the host's level, in world space. Particles are spheres (size x radius_scale of
// their collision module) kept out of the collider (in, for an inside sphere).
struct WorldCollider {
    ColliderShape shape = ColliderShape::plane;
    uint32_t groups = 1; // its collision groups, a non-zero subset of kAllCollisionGroups
    Vec3 position;
    Quat rotation;                          // any finite non-zero quaternion (normalised)
    Vec3 half_extents = {0.5f, 0.5f, 0.5f}; // box: each > 0
    float radius = 0.5f;                    // sphere, capsule, cylinder: > 0
    float half_height = 0.5f;               // capsule: >= 0; cylinder: > 0
    bool inside = false;                    // sphere only
    // heightfield: columns x rows samples (2..kMaxHeightfieldSide each), row after row along
    // rotation * +Z, x (rotation * +X) fastest, cell_size metres apart; copied by setColliders.
    const float* heights = nullptr;
    uint32_t columns = 0;
    uint32_t rows = 0;
    float cell_size_x = 1; // > 0
    float cell_size_z = 1; // > 0
};

// Attractors the host may give a world, and how many of them (the nearest to the camera,
// setCameraPosition) act at once.
inline constexpr uint32_t kMaxWorldAttractorsGiven = 1024;
inline constexpr uint32_t kActiveAttractors = 16;

// A point the host pulls particles toward (or pushes away with a negative strength): a point
// force field in world space (docs/effect-format.md, "force_field"), acting on emitters with a
// world_attractors module whose attractor_mask shares a bit with its groups.
struct WorldAttractor {
    Vec3 position;
    float strength = 1; // m/s^2 at the centre, fading to 0 at the radius; finite
    float radius = 1;   // > 0
    float falloff = 1;  // >= 0: (1 - d / radius)^falloff
    uint32_t groups = 1;
};

// The host's signed distance at a world-space point (negative inside matter), writing the field's
// gradient (pointing out of the matter; any non-zero length) to *gradient. The CPU backend calls it
// for every particle of an emitter that collides with the world, from its worker threads at once:
// it must be thread-safe, and pure (the same point gives the same answer) for results to repeat.
using DistanceFieldFn = float (*)(Vec3 position, Vec3* gradient, void* user);

// What a camera saw of the opaque scene, for depth_buffer collision (docs/runtime-api.md, "Scene
// depth"): linear depth, metres along `forward` from `eye` to the nearest opaque surface, per
// pixel, row by row from the top of the image; kNoSceneDepth (or any value at least half of it)
// where the camera saw none. A symmetric perspective camera with square pixels: its horizontal
// field of view follows from the vertical one and width / height.
inline constexpr float kNoSceneDepth = 1.0e30f;
inline constexpr uint32_t kMaxSceneDepthSide = 8192;                 // width and height, each
inline constexpr uint64_t kMaxSceneDepthSamples = uint64_t{1} << 24; // width x height (64 MiB)
struct SceneDepth {
    const float* samples = nullptr; // width x height; copied by setSceneDepth
    uint32_t width = 0;             // 1..kMaxSceneDepthSide
    uint32_t height = 0;
    Vec3 eye;
    Vec3 forward{0, 0, -1};          // unit length
    Vec3 up{0, 1, 0};                // unit length, perpendicular to forward: the image's up
    float vertical_fov_rad = 0.785f; // (0, pi)
    float near_m = 0.1f;             // > 0: nothing nearer the camera collides
};

class SPINDRIFT_API World {
public:
    // The library must outlive the world.
    explicit World(EffectLibrary& library, const WorldConfig& config = {});
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // Creates an instance of desc.effect (compiling the effect on first use) placed at
    // desc.transform. On success out is its handle; on failure out is the null handle.
    RuntimeError create(const InstanceDesc& desc, InstanceHandle& out);
    // Removes the instance; the handle becomes stale at once. Retention: the live particles of a
    // world-space effect are kept until they die (no more births, still drawn, their events
    // carry the old handle; WorldUpdateReceipt::retained_instances), since they no longer belong
    // to the instance's place; a local-space effect's particles go now. clear() first to drop
    // world-space particles at once too.
    RuntimeError destroy(InstanceHandle h);

    // Advances every playing or stopping instance by frame_dt_s x its time scale, in whole fixed
    // steps of its effect (catch-up capped), after switching instances whose effect was reloaded.
    // A negative or non-finite frame time counts as 0 and is reported. Finished instances with
    // kDestroyOnFinish are destroyed here.
    WorldUpdateReceipt update(double frame_dt_s);

    // Control. Each returns none, or the error and changes nothing.
    RuntimeError play(InstanceHandle h);    // idle or paused: play on; finished: restart and play
    RuntimeError pause(InstanceHandle h);   // keep everything as it is
    RuntimeError resume(InstanceHandle h);  // a paused instance plays on (others: no change)
    RuntimeError stop(InstanceHandle h);    // no more births; the live particles finish
    RuntimeError clear(InstanceHandle h);   // remove every particle now; the instance finishes
    RuntimeError restart(InstanceHandle h); // back to time 0, no particles, playing
    // Adds `count` particles to the named emitter in the instance's next step (not scaled by
    // spawn_rate_scale; clamped by the emitter's capacity like any birth, counted if dropped).
    RuntimeError emit(InstanceHandle h, std::string_view emitter, uint32_t count);
    // Where the instance is at the end of the coming update; births of that update are spread
    // along the way from where it was. An instance that has not yet run a step (just created or
    // restarted) jumps there instead. teleport: jump now, no sweep.
    RuntimeError setTransform(InstanceHandle h, const InstanceTransform& transform,
                              bool teleport = false);
    RuntimeError setTimeScale(InstanceHandle h, float time_scale);
    // Moves the instance to the whole step nearest time_s: bit for bit the state of a replay
    // from time 0 at its current transform (its path's at time 0 when it follows one) with its
    // current inputs, the same particles as having played there. Cost (see "Seek checkpoints"
    // below): a CPU instance restores its latest valid checkpoint at or before the target (or
    // goes on from its own state when that is a replay's and not past it) and replays the steps
    // after it, at most about WorldConfig::seek_checkpoint_interval_steps; a GPU instance
    // replays from time 0, one step per step of time. Bounded by WorldConfig::max_seek_steps
    // (past it: invalid_argument). The state is kept (a playing instance plays on from there).
    // lastSeekCost says what it cost.
    RuntimeError seek(InstanceHandle h, double time_s);

    // Overrides (InstanceDesc has the ranges).
    RuntimeError setTint(InstanceHandle h, const Color& tint);
    RuntimeError setSizeScale(InstanceHandle h, float size_scale);
    RuntimeError setSpawnRateScale(InstanceHandle h, float spawn_rate_scale);
    // Switches the named emitter's births on or off (its live particles live on).
    RuntimeError setEmitterEnabled(InstanceHandle h, std::string_view emitter, bool enabled);
    // Replaces the random seed and restarts the instance (a seed changes every particle).
    RuntimeError setSeed(InstanceHandle h, uint32_t seed);

    // User parameters (docs/runtime-api.md, "Parameters"). Sets the named parameter of the
    // instance's effect; its next step runs with the value (no recompile; a GPU instance waits
    // for its work in flight and re-uploads a few records). The type must be the parameter's
    // (float, float3 as Vec3, color as Color: invalid_argument otherwise), every component finite
    // and inside the parameter's range (invalid_argument: values are refused, never clamped).
    // An unknown name is unknown_parameter, and the message lists the names that exist. Values
    // are kept by restart, seek (which replays with the current values) and hot reload (a
    // parameter of the same name and type whose new range holds the value keeps it).
    RuntimeError setParameter(InstanceHandle h, std::string_view name, float value);
    RuntimeError setParameter(InstanceHandle h, std::string_view name, const Vec3& value);
    RuntimeError setParameter(InstanceHandle h, std::string_view name, const Color& value);
    // The instance's current value (its default until set); same errors as setParameter.
    RuntimeError getParameter(InstanceHandle h, std::string_view name, float& out) const;
    RuntimeError getParameter(InstanceHandle h, std::string_view name, Vec3& out) const;
    RuntimeError getParameter(InstanceHandle h, std::string_view name, Color& out) const;

    // Queries: false for a stale or invalid handle.
    bool isAlive(InstanceHandle h) const;   // the handle names a live instance
    bool isPlaying(InstanceHandle h) const; // playing or stopping
    bool isFinished(InstanceHandle h) const;
    RuntimeError info(InstanceHandle h, InstanceInfo& out) const;

    // The instance's particles now, in world space with the tint and size scale applied; out is
    // resized (no allocation once it is large enough). A GPU instance reads its particles back.
    RuntimeError readParticles(InstanceHandle h, std::vector<Particle>& out);

    // The gameplay events of the last update(), in canonical order (see "Events to gameplay"
    // above). Valid until the next update(); no allocation once the vector is large enough.
    const std::vector<GameplayEvent>& events() const;
    // The name of the event's emitter, valid until the next update(); empty for an event this
    // world did not deliver in its last update.
    std::string_view emitterName(const GameplayEvent& event) const;
    // A sync point, never needed in the frame loop: waits until every GPU instance's frames in
    // flight have finished (destroyed ones still draining included) and takes their statistics
    // and events, so the next update delivers every event of the steps run so far and counts
    // are current. Nothing to do on the CPU backend or with GpuReadback::synchronous. False
    // (lastErrorMessage says which) when a GPU instance's device failed.
    bool waitForGpu();
    // The level's colliders, replacing the previous set (copied, heights included); every
    // instance collides with them from its next step. At most kMaxWorldColliders; invalid_argument
    // names the collider and the field that is wrong, and the previous set stays. count 0 clears.
    RuntimeError setColliders(const WorldCollider* colliders, uint32_t count);
    uint32_t colliderCount() const;
    // A distance field the CPU backend samples for emitters that collide with the world and share
    // a group with `groups`; null clears it. A GPU instance cannot call back into the host: it
    // collides with the colliders only (docs/runtime-api.md, "Host-fed world").
    RuntimeError setDistanceField(DistanceFieldFn field, void* user,
                                  uint32_t groups = kAllCollisionGroups);
    // The scene depth depth_buffer collision ops meet from every instance's next step, replacing
    // the previous one (the samples are copied; positive, non-NaN, a value >= kNoSceneDepth / 2
    // meaning no surface): typically the host's opaque depth of the frame just drawn, so
    // particles collide with it one frame late. invalid_argument names what is wrong and keeps
    // the previous depth. CPU instances read the copy; GPU instances read it on the device when
    // the world shares the engine's renderer device (the engine's own hosts: their renderer hands
    // its depth over without a copy), otherwise they collide with the colliders only and
    // WorldUpdateReceipt::depth_collisions_unfed counts them.
    RuntimeError setSceneDepth(const SceneDepth& depth);
    void clearSceneDepth(); // depth_buffer ops meet the world's colliders only again
    // The host's attractors, replacing the previous set (copied; at most
    // kMaxWorldAttractorsGiven). Each update keeps the kActiveAttractors nearest the camera
    // (ties: the earlier in the list) and counts the others in its receipt.
    RuntimeError setAttractors(const WorldAttractor* attractors, uint32_t count);
    // Where the camera is: which attractors act, and what sleeps by distance (Scalability).
    RuntimeError setCameraPosition(const Vec3& position);

    // Scalability (docs/runtime-api.md, "Scalability"). Each update decides, per playing
    // instance: asleep past its effect's scalability.sleep_distance_m from the camera (births
    // fading across its fade band before that), culled when its bounds are out of the cull view
    // (hidden; asleep if its effect's when_culled says so), and asleep by the budgets. A sleeping
    // instance is neither stepped nor drawn and costs next to nothing; it wakes by its effect's
    // `wake`: fast_forward runs the steps it missed (as if it had never slept, up to
    // max_fast_forward_s; a longer sleep restarts it and runs that much), restart starts over.
    //
    // Every birth count is multiplied by `scale` (with each instance's spawn_rate_scale and its
    // fade): a global knob for a slower machine. [0, 1e6], finite.
    RuntimeError setSpawnScale(float scale);
    float spawnScale() const;
    // At QualityTier::low the effects' cosmetic emitters do not spawn (their live particles
    // finish); at medium and high they do. Default high.
    RuntimeError setQualityTier(QualityTier tier);
    QualityTier qualityTier() const;
    // The view instances are culled against (its frustum; checked as drawList checks a view);
    // null: no culling (the default).
    RuntimeError setCullView(const DrawView* view);
    RuntimeError setBudgets(const WorldBudgets& budgets);
    RuntimeError setImportant(InstanceHandle h, bool important);

    // Live instances' handles, in slot order (allocation only when out grows).
    void instances(std::vector<InstanceHandle>& out) const;
    uint32_t instanceCount() const;
    const WorldStats& stats() const;

    // What was wrong with the last call that returned an error, in words; empty when it succeeded.
    const std::string& lastErrorMessage() const;

    // Timelines. The instance follows `path` (null: it stops following and keeps its transform):
    // advanceTo runs each step from the path's transform at the step's start to that at its end,
    // update() moves it to the path's transform at the end of the frame's time, and a restart
    // places it at the path's transform at time 0. seek() replays at that start placement, not
    // along the path: replay along it with advanceTo. The path must outlive the instance or the
    // next followPath call. An instance that has not yet run a step is placed there at once.
    RuntimeError followPath(InstanceHandle h, const TransformPath* path);
    // Runs the instance's fixed steps until its time is the whole steps that fit in time_s (with
    // 1/1000 of a step of slack against rounding): the state a scene, a sequencer or an editor
    // timeline wants at that instant, whatever the frame times that led there. Forward from the
    // current state when time_s is not earlier, else from time 0 again (a seek); never capped by
    // max_steps_per_frame, bounded by WorldConfig::max_seek_steps (past it: invalid_argument).
    // The play state is kept (a finished instance sent back in time becomes idle); a playing,
    // paused or stopping one becomes finished when the effect ends. Going back in time (or
    // forward past a checkpoint, when the current state is a replay's and its effect reports no
    // events) a CPU instance starts from its latest valid checkpoint instead of time 0, with the
    // same bits ("Seek checkpoints"); lastSeekCost says what it cost.
    RuntimeError advanceTo(InstanceHandle h, double time_s);
    // Seek checkpoints. While seek() and advanceTo() replay a CPU instance they keep a snapshot
    // of it every WorldConfig::seek_checkpoint_interval_steps (bounded by
    // max_seek_checkpoint_bytes per instance; update()'s frames keep none). A checkpoint is used
    // only while the instance's inputs are those it was taken with: every call that may change
    // what a replay from 0 gives discards the instance's checkpoints at its next seek -
    // setParameter, setTint, setSizeScale, setSpawnRateScale, setEmitterEnabled, setSeed,
    // setTransform, setTimeScale, followPath, emit and a hot reload; so do the world's
    // setColliders and setDistanceField, a change in the attractors chosen, setSpawnScale,
    // setQualityTier, a birth fade and stop() (their values are compared). restart(), clear()
    // and pause() change no input and keep them. GPU instances keep none. A host may rely on
    // the result alone: with or without checkpoints it is the same bits.
    // The cost of the instance's last seek() or advanceTo(), and its checkpoints now.
    RuntimeError lastSeekCost(InstanceHandle h, SeekCost& out) const;
    // Per-stage step timing of the instance (StepTimes), off by default: when off a step reads no
    // clock. Turning it on or off zeroes the sums. A hot reload or setSeed keeps it on (the sums
    // start again).
    RuntimeError setStepTiming(InstanceHandle h, bool on);
    // The sums since the last take (or since timing was turned on), then zeroes them.
    RuntimeError takeStepTimes(InstanceHandle h, StepTimes& out);
    // A hidden instance simulates as usual but draws nothing (drawList leaves it out).
    RuntimeError setVisible(InstanceHandle h, bool visible);

    // Drawing: the batches of every visible instance, in draw order for `view`, into out
    // (spindrift/draw_list.h). Simulates nothing; call it once per view. Returns
    // invalid_argument (out emptied) for a view that is not finite, a zero forward, an up
    // parallel to forward, a field of view outside (0, 180), aspect <= 0, near/far not
    // 0 < near < far, or a zero viewport.
    RuntimeError drawList(const DrawView& view, DrawList& out);

    // The runtime's own access (Impl is defined in src/runtime, not in a public header).
    struct Impl;
    Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace spindrift
