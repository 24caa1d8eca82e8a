// The world (include/spindrift/runtime.h): a slot table of instances, each an EffectInstance
// (runtime/effect_instance.h) driven through the one driver clock, plus the per-instance state the
// public API promises: play state, time scale, overrides, pending bursts, the library version it
// runs.
//
// Rules kept here:
// - An instance is placed at its transform when it is made and whenever it has not yet run a
//   step (created, restarted, sought), so its first frame never sweeps from the origin.
// - Overrides that the driver supports (spawn-rate scale, emitter enable, host bursts, seed) go
//   into the driver config of each part before each step; tint and size scale are applied to the
//   particles a host reads and draws (readParticles; the draw list, whose device-resident batches
//   hand them to the renderer). Nothing here touches the per-particle kernels.
// - Reload: an instance whose library entry moved to a new version is rebuilt on the new compiled
//   effect before its next step; one whose emitters match by name and layout (matchForReload)
//   keeps its particles, trails and clock on either backend (carryParticles), any other restarts
//   and says why (InstanceInfo::reload_restart_reason). The receipt counts both.
// - Destroyed instances go to a small per-effect pool and are restarted for the next create of
//   the same compiled effect, so create/destroy churn allocates nothing.
// - Events to gameplay are never lost to a control call: one that throws an instance's state
//   away (restartLive, a reseed, a reload's switch) first holds its events for the next update;
//   a destroyed instance with events still to come (GPU frames in flight) drains: it is kept,
//   unstepped, until they have arrived under its stale handle, then recycled. GPU instances
//   count their events' latency in this world's updates (gpu::setGameplayFrame).
// - Seek (runtime/seek_checkpoints.h): seek and advanceTo go through moveTo, which starts from
//   the current state, a CPU instance's latest valid checkpoint, or time 0, whichever gives the
//   replay's bits at the least cost. Every setter that changes an input of the replay moves the
//   instance's inputs_generation on; update() marks a stepped instance's history unclean.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "compiler/reload_match.h"
#include "compiler/structural_hash.h"
#include "cpu/state_carry.h"
#include "driver/placement.h"
#include "gpu/gpu_stage_timing.h"
#include "gpu/state_carry.h"
#include "runtime/draw_list.h"
#include "runtime/effect_instance.h"
#include "runtime/effect_library_impl.h"
#include "runtime/gameplay_events.h"
#include "runtime/instance_parameters.h"
#include "runtime/instance_table.h"
#include "runtime/seek_checkpoints.h"
#include "runtime/simulation_device.h"
#include "runtime/transform_rows.h"
#include "runtime/world_access.h"
#include "runtime/world_colliders.h"
#include "runtime/world_scalability.h"
#include "runtime/world_scene_depth.h"
#include "runtime/world_stepping.h"
#include "spindrift/draw_list.h"

namespace spindrift {

namespace {

// Frame times past this (after the time scale) count as this: the catch-up cap drops all but a
// few steps anyway, and it keeps every product and sum finite.
constexpr double kMaxFrameSeconds = 1e9;
constexpr float kMaxTimeScale = 1000;
constexpr float kMaxScaleOverride = 1e6f;
constexpr float kMinAxisScale = 1e-6f;
constexpr float kMaxAxisScale = 1e6f;

struct LiveInstance {
    std::unique_ptr<EffectInstance> fx;
    std::shared_ptr<const CompiledEffect> base; // the library's version fx was made from
    EffectId effect;
    uint32_t version = 0;
    InstanceState state = InstanceState::idle;
    uint32_t flags = 0;
    float time_scale = 1;
    Color tint;
    float size_scale = 1;
    float spawn_rate_scale = 1;
    bool override_seed = false;
    uint32_t seed = 0;
    std::vector<std::string> disabled_emitters; // by name: kept across reloads
    uint64_t enabled_mask = ~0ull;
    InstanceTransform transform;
    bool placed_only = true;      // no step since it was placed (create, restart, seek to 0)
    bool finish_reported = false; // counted in a receipt's `finished`
    std::vector<HostBurst> bursts;
    uint32_t restarts_by_reload = 0;
    std::string reload_restart_reason; // why the last reload restarted it (empty: it kept)
    uint64_t discarded_steps = 0;
    // Timelines and drawing (followPath, advanceTo, setVisible).
    const TransformPath* path = nullptr;
    double path_time_s = 0; // the instance time the path was last asked for (the draw origin's)
    bool visible = true;
    // Scalability (runtime/world_scalability.h).
    bool important = false;
    bool sleeping = false;       // not stepped since it fell asleep
    bool decided_asleep = false; // this update's decision (distance, cull, budget)
    bool by_budget = false;
    bool culled = false;
    float fade = 1;             // birth fade across its effect's fade band
    float distance = 0;         // from the camera, this update (infinite: not looked at)
    float sleep_distance_m = 0; // its effect's (cached: far sleepers are not looked at)
    double asleep_since_s = 0;  // world clock when it fell asleep (or last settled)
    double slept_s = 0;         // asleep time folded in by a pause or time-scale change
    uint64_t live_cached = 0;   // live particles after its last step (what a sleeper holds)
    // Exact seek (runtime/seek_checkpoints.h). inputs_generation moves on with every call that
    // changes what a replay from 0 gives; history_clean: every step since the last restart ran
    // through a replay under history_key (when history_keyed; none yet otherwise), from
    // statistics history_base.
    uint64_t inputs_generation = 0;
    SeekCheckpoints checkpoints;
    bool history_clean = true;
    bool history_keyed = false;
    SeekKey history_key;
    std::vector<cpu::EmitterStats> history_base;
    std::vector<cpu::EmitterStats> restore_base; // moveTo's scratch (no allocation once sized)
    SeekCost last_seek;
};

// A destroyed world-space instance whose particles finish their lives (World::destroy).
struct RetainedInstance {
    std::unique_ptr<EffectInstance> fx;
    std::shared_ptr<const CompiledEffect> base;
    EffectId effect;
    InstanceHandle handle; // the stale handle its events carry
    Vec3 origin;
    float time_scale = 1;
    Color tint;
    float size_scale = 1;
};

// A destroyed instance whose events to gameplay are still to come (GPU frames in flight): update
// polls it, delivers them under its stale handle, and recycles it once none is left.
struct DrainingInstance {
    std::unique_ptr<EffectInstance> fx;
    std::shared_ptr<const CompiledEffect> base;
    EffectId effect;
    InstanceHandle handle;
};

// The effect's scalability record, or null when it has none (all default).
const ScalabilityRecord* scalabilityOf(const CompiledEffect& effect) {
    return effect.scalability.empty() ? nullptr : &effect.scalability[0];
}

uint64_t cosmeticMask(const CompiledEffect& effect) {
    const ScalabilityRecord* r = scalabilityOf(effect);
    return r == nullptr ? 0 : (uint64_t{r->cosmetic_hi} << 32) | r->cosmetic_lo;
}

using Table = InstanceTable<LiveInstance>;

bool finite(float v) {
    return std::isfinite(v);
}

std::string handleText(InstanceHandle h) {
    char text[64];
    std::snprintf(text, sizeof text, "handle 0x%016llx (slot %u, generation %u)",
                  static_cast<unsigned long long>(h.value), Table::indexOf(h),
                  Table::generationOf(h));
    return text;
}

bool unitScale(const Vec3& s) {
    return s.x == 1 && s.y == 1 && s.z == 1;
}

// Empty when the transform is usable; else what is wrong with it.
std::string transformProblem(const InstanceTransform& t) {
    if (!finite(t.position)) return "transform position is not finite";
    if (std::string problem = rotationProblem(t.rotation); !problem.empty()) {
        return "transform " + problem;
    }
    for (float s : {t.scale.x, t.scale.y, t.scale.z}) {
        const float a = std::fabs(s);
        if (!finite(s) || a < kMinAxisScale || a > kMaxAxisScale)
            return "transform scale components must be finite with magnitude in [1e-6, 1e6]";
    }
    return {};
}

// The checks a value passes both when an instance is created with it and when it is set later:
// one text each, so create and the setters refuse the same values with the same words.
std::string timeScaleProblem(float time_scale) {
    if (time_scale >= 0 && time_scale <= kMaxTimeScale) return {};
    return "time_scale must be in [0, 1000]";
}

std::string scaleProblem(const char* name, float scale) {
    if (scale >= 0 && scale <= kMaxScaleOverride) return {};
    return std::string(name) + " must be in [0, 1e6]";
}

std::string tintProblem(const Color& t) {
    if (t.r >= 0 && t.g >= 0 && t.b >= 0 && t.a >= 0 && finite(t.r) && finite(t.g) && finite(t.b) &&
        finite(t.a)) {
        return {};
    }
    return "tint components must be finite and >= 0";
}

BackendRequest requestOf(SimulationBackend b) {
    switch (b) {
    case SimulationBackend::gpu:
        return BackendRequest::gpu;
    case SimulationBackend::automatic:
        return BackendRequest::automatic;
    case SimulationBackend::cpu:
        break;
    }
    return BackendRequest::cpu;
}

// Hot reload (docs/runtime-api.md, "Hot reload"): moves the state of `from` into `to`, a fresh
// instance of a reloaded version of the same effect, when the emitters match by name and layout
// (matchForReload, the one rule both backends keep by) and each matched emitter runs on the same
// part. Each part carries its own: the CPU part's pools, trails and clock (cpu/state_carry.h),
// the GPU part's device ranges, live bounds and clock (gpu/state_carry.h). Matched emitters go
// on; new emitters start empty; emitters the new version lacks are dropped. Empty on success;
// otherwise why not, and `to` is as fresh as it came (the caller restarts the instance).
std::string carryParticles(EffectInstance& from, EffectInstance& to) {
    if (from.failed) return "the old instance had failed";
    const ReloadMatch match = matchForReload(*from.effect, *to.effect);
    if (!match.keeps) return match.reason;
    if ((from.cpu != nullptr) != (to.cpu != nullptr) ||
        (from.gpu != nullptr) != (to.gpu != nullptr)) {
        return "the backend choice changed";
    }
    for (uint32_t e = 0; e < match.old_emitter.size(); ++e) {
        const int32_t o = match.old_emitter[e];
        if (o < 0 || emitterBackend(from, static_cast<uint32_t>(o)) == emitterBackend(to, e))
            continue;
        return "emitter '" + emitterName(*to.effect, e) + "' moved to the other backend";
    }
    if (to.gpu) {
        std::vector<Diagnostic> diagnostics;
        if (!gpu::carryGpuState(*from.gpu, *to.gpu, match.old_emitter, diagnostics)) {
            spindrift::restart(to, to.world_from_effect); // a failed copy may have left a part
            return diagnostics.empty() ? "the GPU state could not be copied"
                                       : diagnostics.back().message;
        }
    }
    if (to.cpu) cpu::carryCpuState(*from.cpu, *to.cpu, match.old_emitter);
    to.steps_run = from.steps_run;
    return {};
}
} // namespace

const char* describe(RuntimeError error) {
    switch (error) {
    case RuntimeError::none:
        return "no error";
    case RuntimeError::invalid_handle:
        return "invalid instance handle";
    case RuntimeError::stale_handle:
        return "stale instance handle";
    case RuntimeError::unknown_effect:
        return "unknown effect id";
    case RuntimeError::effect_failed:
        return "the effect does not load";
    case RuntimeError::unknown_emitter:
        return "unknown emitter name";
    case RuntimeError::invalid_argument:
        return "invalid argument";
    case RuntimeError::unsupported:
        return "not supported for this instance";
    case RuntimeError::not_running:
        return "the instance is not running";
    case RuntimeError::capacity_exceeded:
        return "capacity exceeded";
    case RuntimeError::backend_unavailable:
        return "backend unavailable";
    case RuntimeError::unknown_parameter:
        return "unknown parameter";
    }
    return "unknown error";
}

struct World::Impl {
    EffectLibrary::Impl& library;
    WorldConfig config;
    Table table;
    WorldStats stats;
    std::string message;
    bool device_probed = false;
    SimulationDevice device;
    // Per effect id (value - 1): destroyed instances kept for reuse.
    std::vector<std::vector<std::unique_ptr<EffectInstance>>> recycled;
    std::vector<Diagnostic> scratch_diagnostics;
    // Parallel stepping (world_stepping.h): the runner and the update's work lists, kept so an
    // update allocates only when the world grows.
    WorldJobs jobs{config};
    std::vector<InstanceStepJob> step_jobs;
    std::vector<uint32_t> step_slots; // slot index of each step job
    std::vector<EffectInstance*> draw_instances;
    // The GPU part's device when a host (the scene player) sets it: setWorldDevice.
    std::string device_name;
    bool device_validation = false;
    std::shared_ptr<vk::Context> shared_device;
    // Without a shared device: the device the world's GPU instances share, made by the first
    // (InstanceConfig::device_slot), so a world of GPU instances opens one device and compiles
    // each pass once.
    std::shared_ptr<vk::Context> own_device;
    std::vector<DrawInstance> draw_list_instances; // drawList's work space
    GameplayEventStream events;                    // the last update's events to gameplay
    // The host's colliders and distance field, read by every instance at each step.
    WorldInputs world_inputs;
    DistanceFieldTarget distance_field;     // the host's callback behind world_inputs'
    std::vector<float> scene_depth_samples; // setSceneDepth's copy, behind world_inputs'
    std::vector<WorldAttractor> attractors; // as the host gave them; update selects
    Vec3 camera;
    // Scalability (runtime/world_scalability.h).
    double clock_s = 0; // host time summed over updates (sleep accrues against it)
    float spawn_scale = 1;
    QualityTier tier = QualityTier::high;
    bool cull_enabled = false;
    CullFrustum cull{};
    WorldBudgets budgets;
    SpatialBuckets buckets;
    float reach_m = 0;                // the largest sleep distance of a bucketed instance
    uint64_t update_serial = 0;       // which update near_mark refers to
    std::vector<uint32_t> near_slots; // this update's bucket gather
    std::vector<uint64_t> near_mark;  // per slot: the update that found it near the camera
    std::vector<BudgetCandidate> budget_candidates;
    std::vector<RetainedInstance> retained;
    std::vector<DrainingInstance> draining;
    // Moves on with setColliders and setDistanceField: seek checkpoints of every instance taken
    // before are of another world (the attractors chosen are compared by value: seekKey).
    uint64_t world_inputs_generation = 0;
    // Moves on with every scene depth set or cleared (a renderer's host sets one each frame):
    // only the checkpoints of instances that meet it (EffectInstance::uses_scene_depth) are of
    // another world; the others keep theirs.
    uint64_t scene_depth_generation = 0;

    Impl(EffectLibrary::Impl& lib, const WorldConfig& cfg) : library(lib), config(cfg) {
        config.seek_checkpoint_interval_steps =
            std::min(config.seek_checkpoint_interval_steps, kMaxSeekCheckpointIntervalSteps);
        config.max_seek_checkpoint_bytes =
            std::min(config.max_seek_checkpoint_bytes, kMaxSeekCheckpointBytes);
    }

    // The scene depth every step from now meets (a checked depth), with the samples at these
    // addresses for each backend; seek checkpoints taken before are of another world.
    void setSceneDepthInput(const SceneDepth& depth, uintptr_t host_address,
                            uint64_t device_address) {
        SceneDepthInput& in = world_inputs.scene_depth;
        in = sceneDepthCamera(depth);
        in.host_address = host_address;
        in.device_address = device_address;
        scene_depth_generation += 1;
    }

    RuntimeError fail(RuntimeError error, std::string text) {
        message = std::move(text);
        return error;
    }

    // A control call's common path: the live instance h names (or the handle's error), then act.
    template <typename Act> RuntimeError withInstance(InstanceHandle h, Act act) {
        RuntimeError error;
        LiveInstance* live = find(h, error);
        if (live == nullptr) return error;
        act(*live);
        return ok();
    }

    // A setter's common path: the instance, the value's check, then set.
    template <typename Set>
    RuntimeError setChecked(InstanceHandle h, const std::string& problem, Set set) {
        RuntimeError error;
        LiveInstance* live = find(h, error);
        if (live == nullptr) return error;
        if (!problem.empty()) return fail(RuntimeError::invalid_argument, problem);
        set(*live);
        return ok();
    }
    RuntimeError ok() {
        message.clear();
        return RuntimeError::none;
    }

    // The live instance of h, or null with the error (and message) set.
    LiveInstance* find(InstanceHandle h, RuntimeError& error) {
        switch (table.lookup(h)) {
        case SlotLookup::live:
            error = RuntimeError::none;
            return &table.at(h);
        case SlotLookup::stale:
            stats.stale_handle_uses += 1;
            error = fail(RuntimeError::stale_handle,
                         handleText(h) + " is stale: its instance was destroyed");
            return nullptr;
        case SlotLookup::invalid:
            break;
        }
        stats.stale_handle_uses += 1;
        error = fail(RuntimeError::invalid_handle,
                     handleText(h) + " was not made by this world (or is the null handle)");
        return nullptr;
    }

    const SimulationDevice& simulationDevice() {
        if (!device_probed && config.backend != SimulationBackend::cpu) {
            device = probeSimulationDevice("");
        }
        device_probed = true;
        return device;
    }

    InstanceConfig instanceConfig() {
        InstanceConfig c;
        c.backend = requestOf(config.backend);
        c.threads = 1; // the world's runner spreads the work (world_stepping.h)
        c.driver.max_steps_per_frame = std::max(config.max_steps_per_frame, 1u);
        c.device = device_name;
        c.validation = device_validation;
        c.shared_device = shared_device;
        c.device_slot = &own_device;
        c.async_gpu = config.gpu_readback == GpuReadback::asynchronous;
        c.world = &world_inputs;
        return c;
    }

    // The compiled effect an instance of `base` runs: base, or a copy with its own seed.
    static std::shared_ptr<const CompiledEffect>
    withSeed(std::shared_ptr<const CompiledEffect> base, bool override_seed, uint32_t seed) {
        if (!override_seed || base->effect.seed == seed) return base;
        auto copy = std::make_shared<CompiledEffect>(*base);
        copy->effect.seed = seed;
        return copy;
    }

    // A new (or recycled) EffectInstance of the effect; null with the message set on failure.
    std::unique_ptr<EffectInstance> makeInstance(EffectId id, const LibraryEntry& entry,
                                                 std::shared_ptr<const CompiledEffect> effect,
                                                 const Rows3x4& placement, RuntimeError& error) {
        auto& pool = recycled[id.value - 1];
        for (size_t i = pool.size(); i-- > 0;) {
            if (pool[i]->effect != effect) continue;
            std::unique_ptr<EffectInstance> fx = std::move(pool[i]);
            pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(i));
            spindrift::restart(*fx, placement);
            setInstanceStepTiming(*fx, false);
            // A recycled instance starts with the effect's defaults, as a new one does.
            scratch_diagnostics.clear();
            setParameterValues(*fx, defaultParameterValues(*fx->effect), scratch_diagnostics);
            stats.instances_recycled += 1;
            error = RuntimeError::none;
            return fx;
        }
        std::vector<Diagnostic>& diagnostics = scratch_diagnostics;
        diagnostics.clear();
        std::unique_ptr<EffectInstance> fx = createEffectInstance(
            std::move(effect), instanceConfig(), simulationDevice(), entry.path, diagnostics);
        if (!fx) {
            std::string text = "cannot create an instance of '" + entry.path + "'";
            for (const Diagnostic& d : diagnostics)
                if (d.severity == Severity::error) text += "\n" + formatDiagnostic(d);
            error = fail(RuntimeError::backend_unavailable, std::move(text));
            return nullptr;
        }
        placeInstance(*fx, placement);
        error = RuntimeError::none;
        return fx;
    }

    void recycle(LiveInstance& live) {
        recycleInstance(live.effect, live.base, std::move(live.fx));
        live.fx.reset();
        live.base.reset();
    }

    // Takes the instance's events of the steps already run for the next update, before its state
    // is thrown away (GameplayEventStream::hold: waits for its GPU frames in flight).
    void holdEvents(InstanceHandle h, EffectInstance& fx) {
        events.hold(h, fx, update_serial + 1, update_serial);
    }

    // A destroyed instance's EffectInstance: recycled, or drained first when events are still to
    // come from it (never waited for here).
    void retire(InstanceHandle h, LiveInstance& live) {
        if (live.fx && GameplayEventStream::pending(*live.fx)) {
            draining.push_back({std::move(live.fx), std::move(live.base), live.effect, h});
            live.fx.reset();
            live.base.reset();
            return;
        }
        recycle(live);
    }

    void recycleInstance(EffectId effect, const std::shared_ptr<const CompiledEffect>& base,
                         std::unique_ptr<EffectInstance> fx) {
        if (!fx) return;
        auto& pool = recycled[effect.value - 1];
        if (pool.size() < config.recycled_per_effect && fx->effect == base && !fx->failed) {
            pool.push_back(std::move(fx));
        }
    }

    // Keeps the instance's bucket and cached sleep distance in step with its effect and place.
    void placeInBuckets(LiveInstance& live, uint32_t index) {
        const ScalabilityRecord* r = scalabilityOf(*live.fx->effect);
        live.sleep_distance_m = r != nullptr ? r->sleep_distance_m : 0.0f;
        if (live.sleep_distance_m > 0) {
            const Rows3x4 rows = placementRows(live);
            buckets.place(index, Vec3{rows.rows[0].w, rows.rows[1].w, rows.rows[2].w});
            reach_m = std::max(reach_m, live.sleep_distance_m);
        } else {
            buckets.remove(index);
        }
    }

    // Folds the sleep so far into slept_s (before its time scale or play state changes).
    void settleSleep(LiveInstance& live) {
        if (!live.sleeping) return;
        if (live.state == InstanceState::playing || live.state == InstanceState::stopping)
            live.slept_s += (clock_s - live.asleep_since_s) * static_cast<double>(live.time_scale);
        live.asleep_since_s = clock_s;
    }

    // This update's scalability decision for a playing instance (world_scalability.h).
    void decide(LiveInstance& live, uint32_t index) {
        live.decided_asleep = false;
        live.by_budget = false;
        live.culled = false;
        live.fade = 1;
        const bool bucketed = live.sleep_distance_m > 0;
        if (bucketed && (index >= near_mark.size() || near_mark[index] != update_serial)) {
            live.decided_asleep = true; // in a cell out of reach: not looked at
            live.distance = std::numeric_limits<float>::infinity();
            return;
        }
        const CompiledEffect& effect = *live.fx->effect;
        const Rows3x4 rows = placementRows(live);
        const vec3 p(rows.rows[0].w, rows.rows[1].w, rows.rows[2].w);
        const float dx = p.x - camera.x, dy = p.y - camera.y, dz = p.z - camera.z;
        live.distance = std::sqrt(dx * dx + dy * dy + dz * dz);
        const ScalabilityRecord* r = scalabilityOf(effect);
        if (r != nullptr && r->sleep_distance_m > 0) {
            live.decided_asleep = live.distance > r->sleep_distance_m;
            live.fade = birthFade(live.distance, r->sleep_distance_m, r->fade_band_m);
        }
        if (cull_enabled) {
            const BoundingSphere sphere = instanceSphere(effect.effect.bounds_center,
                                                         effect.effect.bounds_half_extents, rows);
            live.culled = sphereOutside(cull, sphere.center, sphere.radius);
            if (live.culled && r != nullptr && (r->flags & kScalabilityCulledSleeps) != 0)
                live.decided_asleep = true;
        }
    }

    // A sleeping instance wakes: fast-forwarded over the time it slept, or restarted (its
    // effect's `wake`). Returns the steps run.
    uint64_t wake(InstanceHandle h, LiveInstance& live) {
        const double slept =
            live.slept_s + (clock_s - live.asleep_since_s) * static_cast<double>(live.time_scale);
        live.sleeping = false;
        live.slept_s = 0;
        const ScalabilityRecord* r = scalabilityOf(*live.fx->effect);
        const InstanceState state = live.state;
        if (r != nullptr && (r->flags & kScalabilityWakeRestart) != 0) {
            restartLive(h, live);
            live.state = state;
            return 0;
        }
        applyDriverConfig(live);
        // Any length: past the bound below the instance restarts whatever the count.
        uint64_t owed = accrueSteps(*live.fx, slept);
        const float dt = live.fx->effect->effect.fixed_timestep_s;
        // No record (asleep by a budget): the format's default bound.
        const float most_s =
            r != nullptr ? r->max_fast_forward_s : ScalabilityDesc{}.max_fast_forward_s;
        const auto cap = static_cast<uint64_t>(std::floor(most_s / dt + 1e-3));
        if (owed > cap) {
            // Too long a sleep to replay: start over and run the bounded part.
            restartLive(h, live);
            live.state = state;
            applyDriverConfig(live);
            owed = cap;
        }
        StepRun run;
        run.stop_when_finished = true;
        runSteps(*live.fx, owed, run);
        if (owed > 0) live.placed_only = false;
        return owed;
    }

    // The enable mask of the instance's disabled emitter names in its current effect.
    void updateEnabledMask(LiveInstance& live) {
        live.enabled_mask = ~0ull;
        const CompiledEffect& effect = *live.fx->effect;
        for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
            const std::string name = spindrift::emitterName(effect, e);
            if (std::find(live.disabled_emitters.begin(), live.disabled_emitters.end(), name) !=
                live.disabled_emitters.end()) {
                live.enabled_mask &= ~(1ull << e);
            }
        }
    }

    // The emitter index of `name`, or the error with the names there are.
    bool emitterIndex(const LiveInstance& live, std::string_view name, uint32_t& out,
                      RuntimeError& error) {
        const CompiledEffect& effect = *live.fx->effect;
        std::string names;
        for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
            const std::string n = spindrift::emitterName(effect, e);
            if (n == name) {
                out = e;
                return true;
            }
            names += (e == 0 ? "'" : ", '") + n + "'";
        }
        error = fail(RuntimeError::unknown_emitter, "no emitter '" + std::string(name) + "' in '" +
                                                        live.fx->source +
                                                        "' (its emitters: " + names + ")");
        return false;
    }

    void applyDriverConfig(LiveInstance& live) {
        DriverConfig c = replayDriverConfig(live);
        c.host_bursts = live.bursts;
        if (live.fx->cpu) live.fx->cpu->config.driver = c;
        if (live.fx->gpu) live.fx->gpu->config.driver = c;
    }

    // world_from_effect of the instance's path at instance time time_s; a non-finite matrix is
    // replaced by the instance's transform (and counted).
    Rows3x4 pathRows(const LiveInstance& live, double time_s) {
        const Matrix3x4 m = live.path->worldFromEffectAt(time_s);
        Rows3x4 rows;
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 4; ++j) {
                if (!std::isfinite(m.rows[i][j])) {
                    stats.rejected_path_transforms += 1;
                    return rowsOf(live.transform);
                }
            }
            rows.rows[i] = vec4(m.rows[i][0], m.rows[i][1], m.rows[i][2], m.rows[i][3]);
        }
        return rows;
    }

    // Where the instance is now: its path's point at the time it has reached, or its transform.
    // Distance, culling and buckets use it.
    Rows3x4 placementRows(const LiveInstance& live) {
        return live.path != nullptr ? pathRows(live, live.path_time_s) : rowsOf(live.transform);
    }

    // Where the instance starts: its path at time 0, or its transform.
    Rows3x4 startRows(const LiveInstance& live) {
        return live.path != nullptr ? pathRows(live, 0) : rowsOf(live.transform);
    }

    // Back to time 0 at the instance's transform, nothing pending (the events of its steps so far
    // held for the next update).
    void restartLive(InstanceHandle h, LiveInstance& live) {
        holdEvents(h, *live.fx);
        live.sleeping = false;
        live.slept_s = 0;
        live.path_time_s = 0;
        spindrift::restart(*live.fx, startRows(live));
        live.bursts.clear();
        live.placed_only = true;
        live.finish_reported = false;
        freshHistory(live);
    }

    // ------------------------------------------------------------------------------------------
    // Exact seek (runtime/seek_checkpoints.h)

    // The instance's state is at time 0: no step has run under any key yet.
    static void freshHistory(LiveInstance& live) {
        live.history_clean = true;
        live.history_keyed = false;
        if (live.fx && live.fx->cpu) live.history_base = live.fx->cpu->stats;
    }

    // The driver settings a replay runs with (applyDriverConfig's, without host bursts: a replay
    // from 0 has none, and emit() moves the inputs generation on).
    DriverConfig replayDriverConfig(const LiveInstance& live) const {
        DriverConfig c;
        c.max_steps_per_frame = std::max(config.max_steps_per_frame, 1u);
        // Exactly spawn_rate_scale when the world's scale and the fade are 1.
        c.spawn_scale = live.spawn_rate_scale * spawn_scale * live.fade;
        uint64_t enabled = live.enabled_mask;
        if (tier == QualityTier::low) enabled &= ~cosmeticMask(*live.fx->effect);
        c.enabled_mask = live.state == InstanceState::stopping ? 0 : enabled;
        return c;
    }

    // Everything a replay of the instance from time 0 reads besides the step count. motion: the
    // replay follows the instance's path (advanceTo), else it stands at the start (seek).
    SeekKey seekKey(const LiveInstance& live, bool motion) const {
        SeekKey k;
        k.inputs_generation = live.inputs_generation;
        uint64_t world = fnv1a64(&world_inputs_generation, sizeof world_inputs_generation);
        if (live.fx->uses_scene_depth) {
            world = fnv1a64(&scene_depth_generation, sizeof scene_depth_generation, world);
        }
        for (const WorldAttractorEntry& a : world_inputs.attractors) {
            world = fnv1a64(&a.field, sizeof a.field, world);
            world = fnv1a64(&a.groups, sizeof a.groups, world);
        }
        k.world_hash = world;
        k.effect_identity = live.fx->cpu ? live.fx->cpu->effect_identity : 0;
        k.instance = live.fx.get();
        k.path = live.path;
        k.motion = motion && live.path != nullptr;
        const DriverConfig c = replayDriverConfig(live);
        uint64_t driver = fnv1a64(&c.spawn_scale, sizeof c.spawn_scale);
        k.driver_hash = fnv1a64(&c.enabled_mask, sizeof c.enabled_mask, driver);
        // With a path the start is the path's at 0: a pure function of the path, in the key.
        const Rows3x4 start = rowsOf(live.transform);
        k.start_hash = fnv1a64(&start, sizeof start);
        return k;
    }

    bool checkpointed(const LiveInstance& live) const {
        return live.fx->cpu != nullptr && live.fx->gpu == nullptr && live.checkpoints.enabled();
    }

    enum class SeekMode : uint8_t {
        seek,    // World::seek: the replay from 0 at the start placement
        advance, // World::advanceTo: forward from the current state, else from 0 along the path
    };

    // Runs the instance to `target` steps as seek or advanceTo promise, from the cheapest state
    // that gives the same bits: the current one, the latest checkpoint at or before the target
    // (under the instance's current key), or time 0. The caller has set the play state.
    void moveTo(InstanceHandle h, LiveInstance& live, uint64_t target, SeekMode mode,
                const StepRun& run) {
        EffectInstance& fx = *live.fx;
        const uint64_t now = fx.steps_run;
        const bool motion = mode == SeekMode::advance && live.path != nullptr;
        const SeekKey key = seekKey(live, motion);
        const bool keep = checkpointed(live);
        if (keep) live.checkpoints.rekey(key);
        // The current state is the replay from 0 to `now` under this key.
        const bool current_exact =
            live.history_clean && (!live.history_keyed || live.history_key == key);
        const SeekCheckpoint* c = keep ? live.checkpoints.latestAtOrBefore(target) : nullptr;
        SeekOrigin origin = SeekOrigin::start;
        if (mode == SeekMode::advance && target >= now) {
            // advanceTo runs forward from the current state; a later checkpoint gives the same
            // bits only when that state is exact, and skips the events of the steps between (so
            // not for an effect that reports events).
            const bool jump = current_exact && c != nullptr && c->step > now && !fx.cpu->gameplay;
            origin = jump ? SeekOrigin::checkpoint : SeekOrigin::current;
        } else if (mode == SeekMode::seek && keep && current_exact && now > 0 && now <= target &&
                   (c == nullptr || c->step <= now)) {
            origin = SeekOrigin::current;
        } else if (c != nullptr) {
            origin = SeekOrigin::checkpoint;
        }

        const bool reported = live.finish_reported;
        const bool forward = mode == SeekMode::advance && target >= now;
        // Statistics are counters since creation that a restart keeps: a replay from 0 (a seek,
        // advanceTo backwards) leaves them at their values now plus the replay's; going on
        // forward, at the values its history started from plus the history's.
        if (origin == SeekOrigin::current) {
            if (mode == SeekMode::seek) {
                // What restartLive does for a seek, but the restart: the state is the replay's,
                // its statistics counted again from here as the replay from 0 would count them.
                countAgain(fx.cpu->stats, live.history_base);
                holdEvents(h, fx);
                live.sleeping = false;
                live.slept_s = 0;
                live.path_time_s = 0;
                live.bursts.clear();
                live.finish_reported = false;
            }
        } else {
            if (origin == SeekOrigin::checkpoint)
                live.restore_base = forward ? live.history_base : fx.cpu->stats;
            restartLive(h, live);
            if (origin == SeekOrigin::checkpoint) {
                if (restoreCheckpoint(fx, *c, live.restore_base)) {
                    live.history_base = live.restore_base;
                    live.history_keyed = true;
                    live.history_key = key;
                    live.placed_only = false;
                    if (forward) live.finish_reported = reported;
                } else {
                    origin = SeekOrigin::start; // never for a checkpoint of the same key
                }
            }
        }
        applyDriverConfig(live);

        const uint64_t from = fx.steps_run;
        const bool exact = live.history_clean && (!live.history_keyed || live.history_key == key);
        if (exact) {
            live.history_keyed = true;
            live.history_key = key;
        } else {
            live.history_clean = false;
        }
        runStepsRecording(fx, target - from, run, exact && keep ? &live.checkpoints : nullptr,
                          live.history_base);

        SeekCost& cost = live.last_seek;
        cost.origin = origin;
        cost.target_step = fx.steps_run;
        cost.resumed_from_step = from;
        cost.steps_replayed = target - from;
        fillCheckpointCounts(live, cost);
    }

    void fillCheckpointCounts(const LiveInstance& live, SeekCost& cost) const {
        cost.checkpoints_kept = checkpointed(live);
        cost.checkpoint_count = static_cast<uint32_t>(live.checkpoints.count());
        cost.checkpoint_bytes = live.checkpoints.bytes();
        cost.checkpoint_spacing_steps = checkpointed(live) ? live.checkpoints.spacing() : 0;
    }

    enum class Switch : uint8_t { kept, restarted, failed };

    // Rebuilds the instance on its library entry's newer version, keeping its particles when
    // carryParticles can, else restarting it; failed when the new version cannot be instanced
    // (the instance stays on its version and the message says why).
    Switch switchVersion(InstanceHandle h, LiveInstance& live, const LibraryEntry& entry) {
        // Recycled instances of older versions are never reused: drop them.
        std::erase_if(recycled[live.effect.value - 1],
                      [&](const auto& fx) { return fx->effect.get() != entry.effect.get(); });
        RuntimeError error;
        std::unique_ptr<EffectInstance> fx =
            makeInstance(live.effect, entry, withSeed(entry.effect, live.override_seed, live.seed),
                         rowsOf(live.transform), error);
        live.version = entry.version; // a failure is not retried every frame
        if (!fx) return Switch::failed;
        scratch_diagnostics.clear();
        setParameterValues(
            *fx, carryParameterValues(*live.fx->effect, live.fx->parameter_values, *fx->effect),
            scratch_diagnostics);
        // A finished instance has nothing to keep: it restarts (idle), as before any reload.
        live.reload_restart_reason = live.state == InstanceState::finished
                                         ? "the instance had finished"
                                         : carryParticles(*live.fx, *fx);
        const bool kept = live.reload_restart_reason.empty();
        holdEvents(h, *live.fx); // the old version's steps so far (its frames in flight too)
        setInstanceStepTiming(*fx, instanceStepTiming(*live.fx));
        live.fx = std::move(fx);
        live.base = entry.effect;
        live.bursts.clear();
        updateEnabledMask(live);
        live.inputs_generation += 1; // another effect: every checkpoint is of the old one
        freshHistory(live);
        live.history_clean = !kept; // kept particles come from the old version's steps
        if (kept) {
            placeInstance(*live.fx, rowsOf(live.transform));
            return Switch::kept;
        }
        live.placed_only = true;
        live.finish_reported = false;
        if (live.state == InstanceState::finished) live.state = InstanceState::idle;
        live.restarts_by_reload += 1;
        return Switch::restarted;
    }

    void destroyLive(InstanceHandle h) {
        buckets.remove(Table::indexOf(h));
        table.at(h).checkpoints.clear(); // their memory goes with the instance
        retire(h, table.at(h));
        table.release(h);
        stats.instances_destroyed += 1;
    }

    // update() on an instance that follows a path: it moves to the path's transform at the end
    // of the frame's time (births interpolated from where it was, as setTransform).
    void moveAlongPath(LiveInstance& live, double dt) {
        live.path_time_s += dt;
        const Rows3x4 rows = pathRows(live, live.path_time_s);
        if (live.placed_only) {
            placeInstance(*live.fx, rows);
        } else {
            spindrift::setTransform(*live.fx, rows);
        }
    }
};

World::World(EffectLibrary& library, const WorldConfig& config)
    : impl_(std::make_unique<Impl>(library.impl(), config)) {}
World::~World() = default;

RuntimeError World::create(const InstanceDesc& desc, InstanceHandle& out) {
    Impl& w = *impl_;
    out = {};
    LibraryEntry* entry = w.library.entry(desc.effect);
    if (entry == nullptr) {
        return w.fail(RuntimeError::unknown_effect,
                      "effect id " + std::to_string(desc.effect.value) + " is not in the library");
    }
    if (const std::string problem = transformProblem(desc.transform); !problem.empty())
        return w.fail(RuntimeError::invalid_argument, problem);
    for (const std::string& problem :
         {timeScaleProblem(desc.time_scale), scaleProblem("size_scale", desc.size_scale),
          scaleProblem("spawn_rate_scale", desc.spawn_rate_scale), tintProblem(desc.tint)}) {
        if (!problem.empty()) return w.fail(RuntimeError::invalid_argument, problem);
    }
    if (w.table.liveCount() >= w.config.max_instances || w.table.full()) {
        return w.fail(RuntimeError::capacity_exceeded,
                      "the world holds its maximum of " + std::to_string(w.config.max_instances) +
                          " instances (WorldConfig::max_instances)");
    }
    if (w.library.ensureCompiled(desc.effect) != RuntimeError::none) {
        std::string text = "effect '" + entry->path + "' does not load";
        for (const Diagnostic& d : entry->diagnostics)
            if (d.severity == Severity::error) text += "\n" + formatDiagnostic(d);
        return w.fail(RuntimeError::effect_failed, std::move(text));
    }
    if (entry->effect->effect.space == kSpaceLocal && !unitScale(desc.transform.scale)) {
        return w.fail(RuntimeError::unsupported,
                      "'" + entry->path +
                          "' is a local-space effect: its transform takes no "
                          "scale (only (1, 1, 1))");
    }
    if (w.recycled.size() < w.library.entries.size()) w.recycled.resize(w.library.entries.size());

    RuntimeError error;
    std::unique_ptr<EffectInstance> fx = w.makeInstance(
        desc.effect, *entry, Impl::withSeed(entry->effect, desc.override_seed, desc.seed),
        rowsOf(desc.transform), error);
    if (!fx) return error;

    const InstanceHandle h = w.table.acquire();
    LiveInstance& live = w.table.at(h);
    live.fx = std::move(fx);
    live.base = entry->effect;
    live.effect = desc.effect;
    live.version = entry->version;
    live.flags = desc.flags;
    live.state = (desc.flags & kPlayOnCreate) != 0 ? InstanceState::playing : InstanceState::idle;
    live.time_scale = desc.time_scale;
    live.tint = desc.tint;
    live.size_scale = desc.size_scale;
    live.spawn_rate_scale = desc.spawn_rate_scale;
    live.override_seed = desc.override_seed;
    live.seed = desc.seed;
    live.disabled_emitters.clear();
    live.enabled_mask = ~0ull;
    live.transform = desc.transform;
    live.placed_only = true;
    live.finish_reported = false;
    live.bursts.clear();
    live.restarts_by_reload = 0;
    live.reload_restart_reason.clear();
    live.discarded_steps = 0;
    live.path = nullptr;
    live.path_time_s = 0;
    live.visible = true;
    live.important = (desc.flags & kImportant) != 0;
    live.sleeping = false;
    live.decided_asleep = false;
    live.by_budget = false;
    live.culled = false;
    live.fade = 1;
    live.distance = 0;
    live.slept_s = 0;
    live.live_cached = 0;
    // The slot's earlier instances' checkpoints never match: the generation moves on.
    live.inputs_generation += 1;
    live.checkpoints.configure(w.config.seek_checkpoint_interval_steps,
                               w.config.max_seek_checkpoint_bytes);
    Impl::freshHistory(live);
    live.last_seek = SeekCost{};
    w.placeInBuckets(live, Table::indexOf(h));
    w.stats.instances_created += 1;
    out = h;
    return w.ok();
}

RuntimeError World::destroy(InstanceHandle h) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    // Retention: world-space particles no longer belong to the instance's place; they finish.
    if (live->fx && live->fx->effect->effect.space == kSpaceWorld && liveCount(*live->fx) > 0) {
        RetainedInstance r;
        r.fx = std::move(live->fx);
        r.base = live->base;
        r.effect = live->effect;
        r.handle = h;
        r.origin = live->transform.position;
        r.time_scale = live->time_scale;
        r.tint = live->tint;
        r.size_scale = live->size_scale;
        DriverConfig c;
        c.max_steps_per_frame = std::max(w.config.max_steps_per_frame, 1u);
        c.enabled_mask = 0; // no births; no host bursts (their array was the instance's)
        if (r.fx->cpu) r.fx->cpu->config.driver = c;
        if (r.fx->gpu) r.fx->gpu->config.driver = c;
        w.retained.push_back(std::move(r));
        w.stats.instances_retained += 1;
    }
    w.destroyLive(h);
    return w.ok();
}

WorldUpdateReceipt World::update(double frame_dt_s) {
    Impl& w = *impl_;
    WorldUpdateReceipt receipt;
    w.stats.updates += 1;
    if (!std::isfinite(frame_dt_s) || frame_dt_s < 0) {
        receipt.frame_rejected = true;
        w.stats.rejected_frames += 1;
        frame_dt_s = 0;
    }
    frame_dt_s = std::min(frame_dt_s, kMaxFrameSeconds);
    // Events held by control calls since the last update open the stream.
    w.events.begin(receipt.events_dropped, receipt.events_latency_frames);
    receipt.attractors_dropped = selectWorldAttractors(w.attractors, w.camera, w.world_inputs);
    receipt.attractors_active = static_cast<uint32_t>(w.world_inputs.attractors.size());
    auto& slots = w.table.slots();
    // 0. Scalability: the distance sleepers in buckets within reach of the camera are looked at;
    // every other one sleeps untouched (world_scalability.h).
    w.update_serial += 1;
    w.near_slots.clear();
    w.buckets.gather(w.camera, w.reach_m, w.near_slots);
    if (w.near_mark.size() < slots.size()) w.near_mark.resize(slots.size(), 0);
    for (uint32_t index : w.near_slots) w.near_mark[index] = w.update_serial;
    receipt.instances_examined = static_cast<uint32_t>(w.near_slots.size());
    const bool budgeted = w.budgets.max_awake_instances != 0 || w.budgets.max_live_particles != 0;
    // Only a world that may run GPU instances looks at each instance's parts (a sleeper's state
    // stays untouched in a CPU world: sleeping costs next to nothing).
    const bool gpu_world = w.config.backend != SimulationBackend::cpu;
    w.budget_candidates.clear();
    // 1. In slot order: switch reloaded instances, and decide who sleeps.
    for (uint32_t index = 0; index < slots.size(); ++index) {
        if (!slots[index].live) continue;
        LiveInstance& live = slots[index].value;
        const InstanceHandle h = Table::handleOf(index, slots[index].generation);

        const LibraryEntry& entry = *w.library.entry(live.effect);
        if (entry.version != live.version) {
            switch (w.switchVersion(h, live, entry)) {
            case Impl::Switch::kept:
                receipt.reloaded_kept += 1;
                break;
            case Impl::Switch::restarted:
                receipt.reloaded_restarted += 1;
                break;
            case Impl::Switch::failed:
                receipt.reload_failures += 1;
                break;
            }
            w.placeInBuckets(live, index);
        }
        // GPU latencies count in updates, whatever runs between them.
        if (gpu_world && live.fx->gpu) gpu::setGameplayFrame(*live.fx->gpu, w.update_serial);
        if (live.state != InstanceState::playing && live.state != InstanceState::stopping) continue;
        w.decide(live, index);
        if (budgeted && !live.decided_asleep) {
            BudgetCandidate c;
            c.slot = index;
            c.distance = live.distance;
            c.live = live.live_cached;
            c.important = live.important;
            w.budget_candidates.push_back(c);
        }
    }
    if (budgeted) {
        receipt.asleep_by_budget = applyBudgets(w.budget_candidates, w.budgets);
        for (const BudgetCandidate& c : w.budget_candidates) {
            if (!c.asleep) continue;
            LiveInstance& live = slots[c.slot].value;
            live.decided_asleep = true;
            live.by_budget = true;
        }
    }
    // 2. In slot order: fall asleep, wake, and list the ones to step with their frame.
    w.step_jobs.clear();
    w.step_slots.clear();
    for (uint32_t index = 0; index < slots.size(); ++index) {
        if (!slots[index].live) continue;
        LiveInstance& live = slots[index].value;
        if (live.state != InstanceState::playing && live.state != InstanceState::stopping) continue;
        receipt.instances_culled += live.culled ? 1u : 0u;
        if (live.decided_asleep) {
            if (!live.sleeping) {
                live.sleeping = true;
                live.slept_s = 0;
                live.asleep_since_s = w.clock_s; // this frame is the first it misses
            }
            receipt.instances_asleep += 1;
            continue;
        }
        if (live.sleeping) {
            receipt.instances_woken += 1;
            receipt.fast_forward_steps +=
                w.wake(Table::handleOf(index, slots[index].generation), live);
        }
        w.applyDriverConfig(live);
        // A frame sweeps between transforms and keeps a fractional clock: not a replay's state.
        live.history_clean = false;
        InstanceStepJob job;
        job.instance = live.fx.get();
        job.frame_dt_s =
            std::min(frame_dt_s * static_cast<double>(live.time_scale), kMaxFrameSeconds);
        if (live.path != nullptr) {
            w.moveAlongPath(live, job.frame_dt_s);
            if (live.sleep_distance_m > 0) w.placeInBuckets(live, index); // it moved
        }
        job.write_records = live.visible && !live.culled;
        if (live.fx->uses_scene_depth) {
            const SceneDepthInput& depth = w.world_inputs.scene_depth;
            receipt.depth_collisions_unfed += ((live.fx->cpu && depth.host_address == 0) ||
                                               (live.fx->gpu && depth.device_address == 0))
                                                  ? 1u
                                                  : 0u;
        }
        job.live_hint = live.live_cached;
        w.step_jobs.push_back(job);
        w.step_slots.push_back(index);
    }
    w.clock_s += frame_dt_s;
    // Retained instances (destroyed, world space) finish their particles after the slots.
    for (RetainedInstance& r : w.retained) {
        if (r.fx->gpu) gpu::setGameplayFrame(*r.fx->gpu, w.update_serial);
        InstanceStepJob job;
        job.instance = r.fx.get();
        job.frame_dt_s = std::min(frame_dt_s * static_cast<double>(r.time_scale), kMaxFrameSeconds);
        job.write_records = true;
        w.step_jobs.push_back(job);
    }
    // 3. Step them, in parallel across the world (world_stepping.h).
    stepInstances(w.jobs, w.step_jobs);
    // 4. In slot order: what each step did, finishing and destroying.
    size_t next_job = 0;
    for (uint32_t index = 0; index < slots.size(); ++index) {
        if (!slots[index].live) continue;
        const InstanceHandle h = Table::handleOf(index, slots[index].generation);
        LiveInstance& live = slots[index].value;
        const bool stepped = next_job < w.step_slots.size() && w.step_slots[next_job] == index;
        // In slot order: the event stream's order (whatever thread stepped it). A GPU instance
        // hands over the frames that have finished by now, stepped or not (paused, idle,
        // finished, asleep, or a frame of no step).
        if (stepped || (gpu_world && live.fx->gpu)) {
            if (live.fx->gpu) (void)gpu::pollStatistics(*live.fx->gpu);
            uint32_t latency = 0;
            receipt.events_dropped += w.events.collect(h, *live.fx, latency);
            receipt.events_latency_frames = std::max(receipt.events_latency_frames, latency);
        }
        if (live.sleeping) {
            receipt.live_particles += live.live_cached;
            continue;
        }

        if (stepped) {
            const InstanceStepJob& job = w.step_jobs[next_job++];
            const FrameReport& report = job.report;
            receipt.instances_stepped += 1;
            receipt.steps += report.steps;
            receipt.discarded_steps += report.discarded_steps;
            receipt.discarded_s += report.discarded_s;
            live.discarded_steps += report.discarded_steps;
            w.stats.discarded_steps += report.discarded_steps;
            if (report.steps > 0) live.placed_only = false;
            // The job answered these after the step; a GPU part's statistics moved on with the
            // poll above, so such an instance is asked again.
            const bool gpu = live.fx->gpu != nullptr;
            const uint64_t next = gpu ? nextStepIndex(*live.fx) : job.next_step_index;
            const uint64_t live_now = gpu ? liveCount(*live.fx) : job.live_after;
            const bool finished_now = gpu ? finished(*live.fx) : job.finished_after;
            // Bursts go with the step they were put on; later ones wait.
            if (!live.bursts.empty()) {
                std::erase_if(live.bursts,
                              [next](const HostBurst& b) { return b.step_index < next; });
            }
            const bool drained = live.state == InstanceState::stopping && live_now == 0;
            if (drained || finished_now) live.state = InstanceState::finished;
            live.live_cached = live_now;
            if (live.state != InstanceState::finished || live.finish_reported) {
                receipt.live_particles += live.live_cached;
                continue;
            }
        }

        if (live.state == InstanceState::finished && !live.finish_reported) {
            live.finish_reported = true;
            receipt.finished += 1;
            if ((live.flags & kDestroyOnFinish) != 0) {
                w.destroyLive(h);
                receipt.destroyed_on_finish += 1;
                continue;
            }
        }
        live.live_cached = liveCount(*live.fx);
        receipt.live_particles += live.live_cached;
    }
    // The retained, in the order they were destroyed; gone once their last particle dies.
    for (size_t r = 0; r < w.retained.size(); ++r) {
        RetainedInstance& kept = w.retained[r];
        const FrameReport& report = w.step_jobs[w.step_slots.size() + r].report;
        uint32_t latency = 0;
        receipt.events_dropped += w.events.collect(kept.handle, *kept.fx, latency);
        receipt.events_latency_frames = std::max(receipt.events_latency_frames, latency);
        receipt.steps += report.steps;
        const uint64_t live = liveCount(*kept.fx);
        receipt.live_particles += live;
        receipt.retained_particles += live;
    }
    std::erase_if(w.retained, [&](RetainedInstance& kept) {
        if (liveCount(*kept.fx) > 0 && !kept.fx->failed) return false;
        if (GameplayEventStream::pending(*kept.fx)) {
            w.draining.push_back({std::move(kept.fx), kept.base, kept.effect, kept.handle});
        } else {
            w.recycleInstance(kept.effect, kept.base, std::move(kept.fx));
        }
        return true;
    });
    // The drained (destroyed with events still to come), in the order they were destroyed: what
    // has arrived, under their stale handles; recycled once nothing is left.
    std::erase_if(w.draining, [&](DrainingInstance& d) {
        if (d.fx->gpu) {
            gpu::setGameplayFrame(*d.fx->gpu, w.update_serial);
            (void)gpu::pollStatistics(*d.fx->gpu);
        }
        uint32_t latency = 0;
        receipt.events_dropped += w.events.collect(d.handle, *d.fx, latency);
        receipt.events_latency_frames = std::max(receipt.events_latency_frames, latency);
        if (GameplayEventStream::pending(*d.fx) && !d.fx->failed) return false;
        w.recycleInstance(d.effect, d.base, std::move(d.fx));
        return true;
    });
    receipt.retained_instances = static_cast<uint32_t>(w.retained.size());
    receipt.instances = w.table.liveCount();
    receipt.events = w.events.events().size();
    return receipt;
}

RuntimeError World::play(InstanceHandle h) {
    return impl_->withInstance(h, [&](LiveInstance& live) {
        if (live.state == InstanceState::finished) impl_->restartLive(h, live);
        live.state = InstanceState::playing;
    });
}

RuntimeError World::pause(InstanceHandle h) {
    return impl_->withInstance(h, [&](LiveInstance& live) {
        impl_->settleSleep(live); // a paused sleeper accrues no time
        if (live.state == InstanceState::playing || live.state == InstanceState::stopping)
            live.state = InstanceState::paused;
    });
}

RuntimeError World::resume(InstanceHandle h) {
    return impl_->withInstance(h, [&](LiveInstance& live) {
        impl_->settleSleep(live);
        if (live.state == InstanceState::paused) live.state = InstanceState::playing;
    });
}

RuntimeError World::stop(InstanceHandle h) {
    return impl_->withInstance(h, [&](LiveInstance& live) {
        if (live.state != InstanceState::finished) {
            // Nothing alive and nothing to come: finished at once (the next update reports it).
            live.state =
                liveCount(*live.fx) == 0 ? InstanceState::finished : InstanceState::stopping;
        }
    });
}

RuntimeError World::clear(InstanceHandle h) {
    return impl_->withInstance(h, [&](LiveInstance& live) {
        const bool reported = live.finish_reported && live.state == InstanceState::finished;
        impl_->restartLive(h, live);
        live.finish_reported = reported;
        live.state = InstanceState::finished;
    });
}

RuntimeError World::restart(InstanceHandle h) {
    return impl_->withInstance(h, [&](LiveInstance& live) {
        impl_->restartLive(h, live);
        live.state = InstanceState::playing;
    });
}

RuntimeError World::emit(InstanceHandle h, std::string_view emitter, uint32_t count) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    uint32_t e = 0;
    if (!w.emitterIndex(*live, emitter, e, error)) return error;
    if (count > kMaxEmitCount) {
        return w.fail(RuntimeError::invalid_argument, "emit count " + std::to_string(count) +
                                                          " is over kMaxEmitCount (" +
                                                          std::to_string(kMaxEmitCount) + ")");
    }
    if (live->state == InstanceState::finished) {
        return w.fail(RuntimeError::not_running,
                      "the instance has finished: restart() or play() it before emitting");
    }
    if (live->bursts.size() >= kMaxPendingBursts) {
        return w.fail(RuntimeError::capacity_exceeded,
                      "the instance already has kMaxPendingBursts (" +
                          std::to_string(kMaxPendingBursts) + ") bursts waiting for a step");
    }
    live->bursts.push_back({nextStepIndex(*live->fx), e, count});
    live->inputs_generation += 1;
    return w.ok();
}

RuntimeError World::setTransform(InstanceHandle h, const InstanceTransform& transform,
                                 bool teleport) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    if (const std::string problem = transformProblem(transform); !problem.empty())
        return w.fail(RuntimeError::invalid_argument, problem);
    if (live->fx->effect->effect.space == kSpaceLocal && !unitScale(transform.scale)) {
        return w.fail(RuntimeError::unsupported, "'" + live->fx->source +
                                                     "' is a local-space effect: its transform "
                                                     "takes no scale (only (1, 1, 1))");
    }
    live->transform = transform;
    live->inputs_generation += 1;
    if (live->sleep_distance_m > 0) w.buckets.place(Table::indexOf(h), transform.position);
    const Rows3x4 rows = rowsOf(transform);
    if (teleport || live->placed_only) {
        placeInstance(*live->fx, rows);
    } else {
        spindrift::setTransform(*live->fx, rows);
    }
    return w.ok();
}

RuntimeError World::setTimeScale(InstanceHandle h, float time_scale) {
    return impl_->setChecked(h, timeScaleProblem(time_scale), [&](LiveInstance& live) {
        impl_->settleSleep(live); // the time slept so far at the old scale
        live.time_scale = time_scale;
        live.inputs_generation += 1; // replays run whole steps whatever the scale: safe side
    });
}

RuntimeError World::seek(InstanceHandle h, double time_s) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    const float dt = live->fx->effect->effect.fixed_timestep_s;
    uint64_t steps = 0;
    if (!boundedStepsInTime(time_s, dt, steps) || steps > w.config.max_seek_steps) {
        return w.fail(RuntimeError::invalid_argument,
                      "seek time " + std::to_string(time_s) +
                          " s is negative, not finite, or past WorldConfig::max_seek_steps (" +
                          std::to_string(w.config.max_seek_steps) + " steps of " +
                          std::to_string(dt) + " s)");
    }
    if (live->state == InstanceState::finished) live->state = InstanceState::paused;
    StepRun run;
    run.stop_when_finished = true;
    // A replay of one instance: its chunks spread over the world's runner (world_stepping.h).
    if (live->fx->cpu) live->fx->cpu->jobs = &w.jobs.chunkQueue();
    w.moveTo(h, *live, steps, Impl::SeekMode::seek, run);
    if (live->fx->cpu) live->fx->cpu->jobs = nullptr;
    GameplayEventStream::discard(*live->fx); // a replay delivers no events
    live->placed_only = steps == 0;
    if (finished(*live->fx)) live->state = InstanceState::finished;
    return w.ok();
}

RuntimeError World::setTint(InstanceHandle h, const Color& tint) {
    return impl_->setChecked(h, tintProblem(tint), [&](LiveInstance& live) {
        live.tint = tint;
        live.inputs_generation += 1; // applied when read, not simulated: safe side
    });
}

RuntimeError World::setSizeScale(InstanceHandle h, float size_scale) {
    return impl_->setChecked(h, scaleProblem("size_scale", size_scale), [&](LiveInstance& live) {
        live.size_scale = size_scale;
        live.inputs_generation += 1; // applied when read: safe side
    });
}

RuntimeError World::setSpawnRateScale(InstanceHandle h, float spawn_rate_scale) {
    return impl_->setChecked(h, scaleProblem("spawn_rate_scale", spawn_rate_scale),
                             [&](LiveInstance& live) {
                                 live.spawn_rate_scale = spawn_rate_scale;
                                 live.inputs_generation += 1;
                             });
}

RuntimeError World::setEmitterEnabled(InstanceHandle h, std::string_view emitter, bool enabled) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    uint32_t e = 0;
    if (!w.emitterIndex(*live, emitter, e, error)) return error;
    auto& names = live->disabled_emitters;
    const auto it = std::find(names.begin(), names.end(), emitter);
    if (enabled && it != names.end()) names.erase(it);
    if (!enabled && it == names.end()) names.emplace_back(emitter);
    w.updateEnabledMask(*live);
    live->inputs_generation += 1;
    return w.ok();
}

RuntimeError World::setSeed(InstanceHandle h, uint32_t seed) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    const LibraryEntry& entry = *w.library.entry(live->effect);
    live->override_seed = true;
    live->seed = seed;
    live->inputs_generation += 1;
    std::shared_ptr<const CompiledEffect> effect = Impl::withSeed(live->base, true, seed);
    if (effect != live->fx->effect) {
        std::unique_ptr<EffectInstance> fx =
            w.makeInstance(live->effect, entry, effect, rowsOf(live->transform), error);
        if (!fx) return error;
        w.scratch_diagnostics.clear();
        setParameterValues(*fx, live->fx->parameter_values, w.scratch_diagnostics);
        w.holdEvents(h, *live->fx);
        setInstanceStepTiming(*fx, instanceStepTiming(*live->fx));
        w.recycle(*live);
        live->fx = std::move(fx);
    }
    const InstanceState before = live->state;
    w.restartLive(h, *live);
    live->state = before == InstanceState::finished ? InstanceState::idle : before;
    return w.ok();
}

bool World::isAlive(InstanceHandle h) const {
    return impl_->table.lookup(h) == SlotLookup::live;
}

bool World::isPlaying(InstanceHandle h) const {
    if (impl_->table.lookup(h) != SlotLookup::live) return false;
    const InstanceState s = impl_->table.at(h).state;
    return s == InstanceState::playing || s == InstanceState::stopping;
}

bool World::isFinished(InstanceHandle h) const {
    if (impl_->table.lookup(h) != SlotLookup::live) return false;
    return impl_->table.at(h).state == InstanceState::finished;
}

RuntimeError World::info(InstanceHandle h, InstanceInfo& out) const {
    RuntimeError error;
    const LiveInstance* live = impl_->find(h, error);
    if (live == nullptr) return error;
    out.state = live->state;
    out.effect = live->effect;
    out.effect_version = live->version;
    out.backend =
        live->fx->backend.backend == Backend::gpu ? SimulationBackend::gpu : SimulationBackend::cpu;
    out.time_s = simulationTime(*live->fx);
    out.steps = live->fx->steps_run;
    out.live_particles = liveCount(*live->fx);
    out.discarded_steps = live->discarded_steps;
    out.restarts_by_reload = live->restarts_by_reload;
    out.reload_restart_reason = live->reload_restart_reason;
    out.transform = live->transform;
    out.asleep = live->sleeping;
    out.culled = live->culled;
    out.important = live->important;
    out.birth_fade = live->fade;
    return impl_->ok();
}

RuntimeError World::readParticles(InstanceHandle h, std::vector<Particle>& out) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    EffectInstance& fx = *live->fx;
    w.scratch_diagnostics.clear();
    // A GPU part drawn from the device is read back too: the particles are the caller's.
    if (!writeHostDrawRecords(fx, w.scratch_diagnostics, true)) {
        std::string text = "the instance's GPU part failed";
        for (const Diagnostic& d : w.scratch_diagnostics) text += "\n" + formatDiagnostic(d);
        out.clear();
        return w.fail(RuntimeError::backend_unavailable, std::move(text));
    }
    const Rows3x4 world_from_sim = worldFromSim(fx.world_from_effect, fx.effect->effect.space);
    const Color& tint = live->tint;
    size_t n = 0;
    for (uint32_t e = 0; e < fx.effect->emitters.size(); ++e) n += hostDrawRecords(fx, e).size();
    out.resize(n);
    size_t i = 0;
    for (uint32_t e = 0; e < fx.effect->emitters.size(); ++e) {
        for (const DrawRecord& r : hostDrawRecords(fx, e)) {
            const vec3 p = transformPoint(world_from_sim, vec3(r.position_size));
            const vec3 v = transformVector(world_from_sim, vec3(r.velocity_rotation));
            Particle& q = out[i++];
            q.position = {p.x, p.y, p.z};
            q.size_m = r.position_size.w * live->size_scale;
            q.color = {r.color.x * tint.r, r.color.y * tint.g, r.color.z * tint.b,
                       r.color.w * tint.a};
            q.velocity_m_per_s = {v.x, v.y, v.z};
            q.rotation_rad = r.velocity_rotation.w;
            q.normalized_age = r.normalized_age;
            q.flipbook_frame = r.flipbook_frame;
            q.emitter_index = r.emitter_index;
            q.key = r.key;
        }
    }
    return w.ok();
}

void World::instances(std::vector<InstanceHandle>& out) const {
    out.clear();
    const auto& slots = impl_->table.slots();
    for (uint32_t i = 0; i < slots.size(); ++i)
        if (slots[i].live) out.push_back(Table::handleOf(i, slots[i].generation));
}

uint32_t World::instanceCount() const {
    return impl_->table.liveCount();
}

const WorldStats& World::stats() const {
    return impl_->stats;
}

const std::string& World::lastErrorMessage() const {
    return impl_->message;
}

uint64_t writeWorldDrawRecords(World& world) {
    World::Impl& w = world.impl();
    w.draw_instances.clear();
    for (auto& slot : w.table.slots())
        if (slot.live) w.draw_instances.push_back(slot.value.fx.get());
    return writeDrawRecordsOf(w.jobs, w.draw_instances);
}

// ---------------------------------------------------------------------------------------------
// Timelines and drawing (include/spindrift/runtime.h; runtime/world_access.h for the engine's
// own hosts)

namespace {

// A path as the effect instance's motion (runSteps): each step from the path's transform at its
// start to that at its end.
class PathMotion final : public InstanceMotion {
public:
    PathMotion(World::Impl& world, const LiveInstance& live) : world_(world), live_(live) {}
    Rows3x4 worldFromEffectAt(double time_s) const override {
        return world_.pathRows(live_, time_s);
    }

private:
    World::Impl& world_;
    const LiveInstance& live_;
};

// Slack in advanceTo: a time that is a whole number of steps up to rounding still counts that
// last step (the scene player's rule since issue 3).
constexpr double kStepSlack = 1e-3;

} // namespace

RuntimeError World::followPath(InstanceHandle h, const TransformPath* path) {
    Impl& w = *impl_;
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    live->path = path;
    live->inputs_generation += 1;
    if (path != nullptr && live->placed_only) {
        live->path_time_s = 0;
        spindrift::restart(*live->fx, w.startRows(*live));
    }
    if (live->sleep_distance_m > 0) w.placeInBuckets(*live, Table::indexOf(h)); // where it is now
    return w.ok();
}

RuntimeError World::advanceTo(InstanceHandle h, double time_s) {
    return advanceInstanceTo(*this, h, time_s, nullptr);
}

RuntimeError advanceInstanceTo(World& world, InstanceHandle h, double time_s,
                               StepListener* listener) {
    World::Impl& w = world.impl();
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    const float dt = live->fx->effect->effect.fixed_timestep_s;
    // Counted in double, as instanceSteps (render/scene_player.h) always has: no time overflows.
    const double whole = time_s > 0 ? std::floor(time_s / dt + kStepSlack) : 0.0;
    if (!std::isfinite(time_s) || time_s < 0 ||
        !(whole <= static_cast<double>(w.config.max_seek_steps))) {
        return w.fail(RuntimeError::invalid_argument,
                      "advanceTo time " + std::to_string(time_s) +
                          " s is negative, not finite, or past WorldConfig::max_seek_steps (" +
                          std::to_string(w.config.max_seek_steps) + " steps of " +
                          std::to_string(dt) + " s)");
    }
    const auto target = static_cast<uint64_t>(whole);
    EffectInstance& fx = *live->fx;
    if (target < fx.steps_run && live->state == InstanceState::finished)
        live->state = InstanceState::idle;
    const PathMotion motion(w, *live);
    StepRun run;
    run.motion = live->path != nullptr ? &motion : nullptr;
    run.listener = listener;
    w.moveTo(h, *live, target, World::Impl::SeekMode::advance, run);
    live->path_time_s = time_s;
    if (target > 0) live->placed_only = false;
    if (finished(fx) && live->state != InstanceState::idle) live->state = InstanceState::finished;
    return w.ok();
}

RuntimeError World::lastSeekCost(InstanceHandle h, SeekCost& out) const {
    RuntimeError error;
    const LiveInstance* live = impl_->find(h, error);
    if (live == nullptr) return error;
    out = live->last_seek;
    impl_->fillCheckpointCounts(*live, out); // as they are now
    return impl_->ok();
}

RuntimeError World::setStepTiming(InstanceHandle h, bool on) {
    return impl_->withInstance(h, [&](LiveInstance& live) { setInstanceStepTiming(*live.fx, on); });
}

RuntimeError World::takeStepTimes(InstanceHandle h, StepTimes& out) {
    return impl_->withInstance(h, [&](LiveInstance& live) {
        out = {};
        EffectInstance& fx = *live.fx;
        auto ms = [](uint64_t ns) { return static_cast<double>(ns) / 1e6; };
        if (fx.cpu && fx.cpu->timing.on) {
            const cpu::StepTiming& t = fx.cpu->timing;
            out.timed = true;
            out.steps = t.steps;
            out.step_ms = ms(t.step_ns);
            out.plan_ms = ms(t.plan_ns);
            out.update_ms = ms(t.update_ns);
            out.collision_ms = ms(t.collision_ns);
            out.deaths_ms = ms(t.deaths_ns);
            out.births_ms = ms(t.births_ns);
            out.draw_records_ms = ms(t.draw_records_ns);
            fx.cpu->timing = {};
            fx.cpu->timing.on = true;
        }
        if (!fx.gpu) return;
        out.gpu_timed = gpu::gpuStageTiming(*fx.gpu);
        out.gpu_untimed = !out.gpu_timed;
        const gpu::GpuStageSums g = gpu::takeGpuStageSums(*fx.gpu, out.gpu_pending_submissions);
        out.gpu_steps = g.steps;
        out.gpu_steps_untimed = g.steps_untimed;
        out.gpu_plan_ms = g.plan_ms;
        out.gpu_step_ms = g.step_ms;
        out.gpu_update_ms = g.update_ms;
        out.gpu_events_ms = g.events_ms;
        out.gpu_births_ms = g.births_ms;
        out.gpu_order_ms = g.order_ms;
        out.gpu_draw_outputs = g.outputs;
        out.gpu_draw_records_ms = g.draw_ms;
    });
}

RuntimeError World::setVisible(InstanceHandle h, bool visible) {
    return impl_->withInstance(h, [&](LiveInstance& live) { live.visible = visible; });
}

RuntimeError World::drawList(const DrawView& view, DrawList& out) {
    Impl& w = *impl_;
    if (const std::string problem = drawViewProblem(view); !problem.empty()) {
        clearDrawList(out);
        return w.fail(RuntimeError::invalid_argument, problem);
    }
    std::vector<DrawInstance>& instances = w.draw_list_instances;
    instances.clear();
    auto& slots = w.table.slots();
    for (uint32_t index = 0; index < slots.size(); ++index) {
        if (!slots[index].live) continue;
        LiveInstance& live = slots[index].value;
        // Asleep or out of the cull view: not drawn.
        if (!live.visible || !live.fx || live.sleeping || live.culled) continue;
        DrawInstance d;
        d.handle = Table::handleOf(index, slots[index].generation);
        d.effect = live.effect;
        d.fx = live.fx.get();
        d.tint = vec4(live.tint.r, live.tint.g, live.tint.b, live.tint.a);
        d.size_scale = live.size_scale;
        if (live.path != nullptr) {
            const Rows3x4 rows = w.pathRows(live, live.path_time_s);
            d.origin = {rows.rows[0].w, rows.rows[1].w, rows.rows[2].w};
        } else {
            d.origin = live.transform.position;
        }
        instances.push_back(d);
    }
    for (RetainedInstance& kept : w.retained) {
        DrawInstance d;
        d.handle = kept.handle;
        d.effect = kept.effect;
        d.fx = kept.fx.get();
        d.origin = kept.origin;
        d.tint = vec4(kept.tint.r, kept.tint.g, kept.tint.b, kept.tint.a);
        d.size_scale = kept.size_scale;
        instances.push_back(d);
    }
    buildDrawList(view, instances, out);
    return w.ok();
}

void setWorldDevice(World& world, const WorldDevice& device) {
    World::Impl& w = world.impl();
    w.device = device.device;
    w.device_probed = true;
    w.device_name = device.name;
    w.device_validation = device.validation;
    w.shared_device = device.shared_device;
}

const std::shared_ptr<vk::Context>& worldSharedDevice(const World& world) {
    return world.impl().shared_device;
}

void appendWorldDeviceValidationMessages(const World& world, std::vector<std::string>& out) {
    const World::Impl& w = world.impl();
    if (!w.own_device) return;
    const std::vector<std::string>& messages = w.own_device->instance->messages().messages();
    out.insert(out.end(), messages.begin(), messages.end());
}

const std::vector<Diagnostic>& lastInstanceDiagnostics(const World& world) {
    return world.impl().scratch_diagnostics;
}

EffectInstance* effectInstanceOf(World& world, InstanceHandle h) {
    World::Impl& w = world.impl();
    if (w.table.lookup(h) != SlotLookup::live) return nullptr;
    return w.table.at(h).fx.get();
}

// ---------------------------------------------------------------------------------------------
// User parameters (runtime/instance_parameters.h).

namespace {

vec4 vec4Of(const Vec3& v) {
    return vec4(v.x, v.y, v.z, 0.0f);
}
vec4 vec4Of(const Color& c) {
    return vec4(c.r, c.g, c.b, c.a);
}

// The parameter `name` of the instance, or kNone with the error set.
template <typename Fail>
uint32_t parameterOf(const EffectInstance& fx, std::string_view name, Fail fail,
                     RuntimeError& error) {
    const uint32_t p = findParameter(*fx.effect, name);
    if (p == kNone) {
        error = fail(RuntimeError::unknown_parameter, "no parameter '" +
                                                          std::string(name.substr(0, 64)) + "'; " +
                                                          parameterNameList(*fx.effect));
    }
    return p;
}

} // namespace

static RuntimeError setParameterValue(World::Impl& w, InstanceHandle h, std::string_view name,
                                      ParameterType type, const vec4& value) {
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    EffectInstance& fx = *live->fx;
    auto fail = [&](RuntimeError e, std::string text) { return w.fail(e, std::move(text)); };
    const uint32_t p = parameterOf(fx, name, fail, error);
    if (p == kNone) return error;
    const std::string problem = parameterValueProblem(*fx.effect, p, type, value);
    if (!problem.empty()) return w.fail(RuntimeError::invalid_argument, problem);
    std::vector<vec4> values = fx.parameter_values;
    values[p] = value;
    live->inputs_generation += 1;
    w.scratch_diagnostics.clear();
    if (!setParameterValues(fx, values, w.scratch_diagnostics)) {
        std::string text = "the instance's GPU part failed";
        for (const Diagnostic& d : w.scratch_diagnostics) text += "\n" + formatDiagnostic(d);
        return w.fail(RuntimeError::backend_unavailable, std::move(text));
    }
    return w.ok();
}

static RuntimeError getParameterValue(World::Impl& w, InstanceHandle h, std::string_view name,
                                      ParameterType type, vec4& out) {
    RuntimeError error;
    LiveInstance* live = w.find(h, error);
    if (live == nullptr) return error;
    const EffectInstance& fx = *live->fx;
    auto fail = [&](RuntimeError e, std::string text) { return w.fail(e, std::move(text)); };
    const uint32_t p = parameterOf(fx, name, fail, error);
    if (p == kNone) return error;
    // The current value passes the type check only if the types match.
    const std::string problem = parameterValueProblem(*fx.effect, p, type, fx.parameter_values[p]);
    if (!problem.empty()) return w.fail(RuntimeError::invalid_argument, problem);
    out = fx.parameter_values[p];
    return w.ok();
}

RuntimeError World::setParameter(InstanceHandle h, std::string_view name, float value) {
    return setParameterValue(*impl_, h, name, ParameterType::float_, vec4(value, 0, 0, 0));
}
RuntimeError World::setParameter(InstanceHandle h, std::string_view name, const Vec3& value) {
    return setParameterValue(*impl_, h, name, ParameterType::float3, vec4Of(value));
}
RuntimeError World::setParameter(InstanceHandle h, std::string_view name, const Color& value) {
    return setParameterValue(*impl_, h, name, ParameterType::color, vec4Of(value));
}
RuntimeError World::getParameter(InstanceHandle h, std::string_view name, float& out) const {
    vec4 v(0.0f);
    const RuntimeError e = getParameterValue(*impl_, h, name, ParameterType::float_, v);
    if (e == RuntimeError::none) out = v.x;
    return e;
}
RuntimeError World::getParameter(InstanceHandle h, std::string_view name, Vec3& out) const {
    vec4 v(0.0f);
    const RuntimeError e = getParameterValue(*impl_, h, name, ParameterType::float3, v);
    if (e == RuntimeError::none) out = {v.x, v.y, v.z};
    return e;
}
RuntimeError World::getParameter(InstanceHandle h, std::string_view name, Color& out) const {
    vec4 v(0.0f);
    const RuntimeError e = getParameterValue(*impl_, h, name, ParameterType::color, v);
    if (e == RuntimeError::none) out = {v.x, v.y, v.z, v.w};
    return e;
}

const std::vector<GameplayEvent>& World::events() const {
    return impl_->events.events();
}

bool World::waitForGpu() {
    Impl& w = *impl_;
    bool ok = true;
    std::string failed;
    auto wait = [&](EffectInstance& fx) {
        if (!fx.gpu || gpu::waitForStatistics(*fx.gpu)) return;
        ok = false;
        if (failed.empty()) failed = "a GPU instance's device failed ('" + fx.source + "')";
    };
    for (auto& slot : w.table.slots())
        if (slot.live) wait(*slot.value.fx);
    for (RetainedInstance& r : w.retained) wait(*r.fx);
    for (DrainingInstance& d : w.draining) wait(*d.fx);
    if (!ok) {
        w.message = std::move(failed);
        return false;
    }
    w.message.clear();
    return true;
}

std::string_view World::emitterName(const GameplayEvent& event) const {
    return impl_->events.emitterName(event);
}

// ---------------------------------------------------------------------------------------------
// Host-fed world

RuntimeError World::setColliders(const WorldCollider* colliders, uint32_t count) {
    std::string problem;
    if (count > kMaxWorldColliders) {
        return impl_->fail(RuntimeError::capacity_exceeded,
                           std::to_string(count) + " colliders: a world holds at most " +
                               std::to_string(kMaxWorldColliders));
    }
    if (!buildWorldColliders(colliders, count, impl_->world_inputs, problem)) {
        return impl_->fail(RuntimeError::invalid_argument, std::move(problem));
    }
    impl_->world_inputs_generation += 1;
    return impl_->ok();
}

uint32_t World::colliderCount() const {
    return static_cast<uint32_t>(impl_->world_inputs.colliders.size());
}

RuntimeError World::setDistanceField(DistanceFieldFn field, void* user, uint32_t groups) {
    if (field != nullptr && (groups == 0 || (groups & ~kAllCollisionGroups) != 0)) {
        return impl_->fail(RuntimeError::invalid_argument,
                           "distance field groups must be a non-zero mask of bits 0..23");
    }
    impl_->distance_field = DistanceFieldTarget{field, user};
    DistanceFieldHook& hook = impl_->world_inputs.distance_field;
    hook.sample = field != nullptr ? &sampleDistanceField : nullptr;
    hook.user = &impl_->distance_field;
    hook.groups = groups;
    impl_->world_inputs_generation += 1;
    return impl_->ok();
}

RuntimeError World::setSceneDepth(const SceneDepth& depth) {
    if (std::string problem = sceneDepthProblem(depth, true); !problem.empty()) {
        return impl_->fail(RuntimeError::invalid_argument, std::move(problem));
    }
    impl_->scene_depth_samples.assign(depth.samples,
                                      depth.samples + size_t{depth.width} * depth.height);
    impl_->setSceneDepthInput(depth, reinterpret_cast<uintptr_t>(impl_->scene_depth_samples.data()),
                              0);
    return impl_->ok();
}

void World::clearSceneDepth() {
    impl_->world_inputs.scene_depth = SceneDepthInput{};
    impl_->scene_depth_samples = {};
    impl_->scene_depth_generation += 1;
}

RuntimeError setRendererSceneDepth(World& world, const SceneDepth& depth, uint64_t device_address) {
    World::Impl& w = world.impl();
    if (std::string problem = sceneDepthProblem(depth, false); !problem.empty()) {
        return w.fail(RuntimeError::invalid_argument, std::move(problem));
    }
    if (device_address != 0 && !w.shared_device) {
        return w.fail(RuntimeError::invalid_argument,
                      "a device scene depth needs the world on the renderer's device");
    }
    w.scene_depth_samples = {};
    // The renderer's samples, not copied.
    w.setSceneDepthInput(depth, reinterpret_cast<uintptr_t>(depth.samples), device_address);
    return w.ok();
}

RuntimeError World::setAttractors(const WorldAttractor* attractors, uint32_t count) {
    if (count > kMaxWorldAttractorsGiven) {
        return impl_->fail(RuntimeError::capacity_exceeded,
                           std::to_string(count) + " attractors: a world takes at most " +
                               std::to_string(kMaxWorldAttractorsGiven));
    }
    if (count > 0 && attractors == nullptr) {
        return impl_->fail(RuntimeError::invalid_argument, "attractors is null");
    }
    for (uint32_t i = 0; i < count; ++i) {
        if (std::string problem = attractorProblem(attractors[i]); !problem.empty()) {
            return impl_->fail(RuntimeError::invalid_argument,
                               "attractor " + std::to_string(i) + ": " + problem);
        }
    }
    impl_->attractors.assign(attractors, attractors + count);
    return impl_->ok();
}

RuntimeError World::setCameraPosition(const Vec3& position) {
    if (!finite(position)) {
        return impl_->fail(RuntimeError::invalid_argument, "camera position is not finite");
    }
    impl_->camera = position;
    return impl_->ok();
}

// ---------------------------------------------------------------------------------------------
// Scalability (runtime/world_scalability.h)

RuntimeError World::setSpawnScale(float scale) {
    if (!std::isfinite(scale) || scale < 0 || scale > 1e6f) {
        return impl_->fail(RuntimeError::invalid_argument,
                           "spawn scale must be finite in [0, 1e6], not " + std::to_string(scale));
    }
    impl_->spawn_scale = scale;
    return impl_->ok();
}

float World::spawnScale() const {
    return impl_->spawn_scale;
}

RuntimeError World::setQualityTier(QualityTier tier) {
    if (static_cast<uint8_t>(tier) > static_cast<uint8_t>(QualityTier::high)) {
        return impl_->fail(RuntimeError::invalid_argument,
                           "quality tier " + std::to_string(static_cast<int>(tier)) +
                               " is not low (0), medium (1) or high (2)");
    }
    impl_->tier = tier;
    return impl_->ok();
}

QualityTier World::qualityTier() const {
    return impl_->tier;
}

RuntimeError World::setCullView(const DrawView* view) {
    Impl& w = *impl_;
    if (view == nullptr) {
        w.cull_enabled = false;
        for (auto& slot : w.table.slots()) slot.value.culled = false;
        return w.ok();
    }
    if (const std::string problem = drawViewProblem(*view); !problem.empty())
        return w.fail(RuntimeError::invalid_argument, "cull view: " + problem);
    w.cull = cullFrustumOf(*view);
    w.cull_enabled = true;
    return w.ok();
}

RuntimeError World::setBudgets(const WorldBudgets& budgets) {
    impl_->budgets = budgets;
    return impl_->ok();
}

RuntimeError World::setImportant(InstanceHandle h, bool important) {
    return impl_->withInstance(h, [&](LiveInstance& live) { live.important = important; });
}

} // namespace spindrift
