#include "render/scene_player.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <optional>
#include <span>

#include "cook/effect_assets.h"
#include "cook/effect_file.h"
#include "cpu/draw_records.h"
#include "cpu/trails.h"
#include "gpu/ribbon_strips.h"
#include "image/png_io.h"
#include "mesh/obj_reader.h"
#include "render/beam_strips.h"
#include "render/billboard_params.h"
#include "render/device_records.h"
#include "render/mesh_params.h"
#include "render/progress.h"
#include "render/simulation_device.h"
#include "render/strip_params.h"
#include "spindrift/scene_json.h"

namespace spindrift::render {

namespace {

namespace fs = std::filesystem;

// Slack in instanceSteps: a frame time that is a whole number of steps up to float rounding
// still counts that last step.
constexpr double kStepSlack = 1e-3;

struct LoadedEffect {
    std::string key; // normalised path: instances naming the same file share the effect
    std::string file;
    std::shared_ptr<const CompiledEffect> effect;
    std::vector<uint32_t> emitter_texture;
    std::vector<uint32_t> emitter_mesh;
};

// Render types drawn from their draw records one by one (sorted by the emitter's sort mode):
// billboards and meshes. Ribbons and beams are drawn as strips.
bool drawsRecords(uint32_t render_type) {
    return render_type == kRenderBillboard || render_type == kRenderMesh;
}

// Whether emitter e's strips are built on the host: a CPU emitter's, or a GPU emitter's whose
// part is read back (not drawn from the device).
bool stripsOnHost(const PlayerInstance& p, uint32_t e) {
    return p.backend.emitters[e] != Backend::gpu || !p.draws_from_device;
}

// The most ribbon strip points emitter e of the instance can append on the host in one frame (a
// ribbon writes fewer segments than points), from whichever backend simulates it.
uint64_t ribbonPointCapacity(const PlayerInstance& p, uint32_t e) {
    if (p.backend.emitters[e] != Backend::gpu) return cpu::maxRibbonPoints(*p.fx, e);
    return gpu::maxRibbonPoints(*p.gpu_fx, e);
}

// The most strip points / segments emitter e can append on the host in one frame.
uint64_t stripPointCapacity(const PlayerInstance& p, uint32_t e) {
    const EmitterRecord& emitter = p.effect->emitters[e];
    if (!stripsOnHost(p, e)) return 0;
    if (emitter.render_type == kRenderRibbon) return ribbonPointCapacity(p, e);
    if (emitter.render_type == kRenderBeam) {
        return beamPointCapacity(emitter.capacity, emitter.beam_segments);
    }
    return 0;
}
uint64_t stripSegmentCapacity(const PlayerInstance& p, uint32_t e) {
    const EmitterRecord& emitter = p.effect->emitters[e];
    if (!stripsOnHost(p, e)) return 0;
    if (emitter.render_type == kRenderRibbon) return ribbonPointCapacity(p, e);
    if (emitter.render_type == kRenderBeam) {
        return beamSegmentCapacity(emitter.capacity, emitter.beam_segments);
    }
    return 0;
}

std::string normalisedPath(const std::string& path) {
    std::error_code error;
    fs::path p = fs::weakly_canonical(fs::path(path), error);
    if (error) p = fs::path(path).lexically_normal();
    return p.string();
}

// Index in `assets` (PlayerTexture or PlayerMesh) of the file `asset` names, reading it with
// read(path, asset.<data>, diagnostics) the first time. kNone on failure, after one
// effectAssetError.
template <typename Asset, typename Read>
uint32_t assetFor(std::vector<Asset>& assets, const LoadedEffect& loaded, const EffectAsset& asset,
                  Read read, std::vector<Diagnostic>& diagnostics) {
    const std::string key = normalisedPath(asset.path);
    for (uint32_t i = 0; i < assets.size(); ++i) {
        if (normalisedPath(assets[i].path) == key) return i;
    }
    Asset entry;
    entry.path = asset.path;
    std::vector<Diagnostic> reader_diagnostics;
    if (!read(asset.path, entry, reader_diagnostics)) {
        diagnostics.push_back(
            effectAssetError(*loaded.effect, loaded.file, asset, reader_diagnostics));
        return kNone;
    }
    assets.push_back(std::move(entry));
    return static_cast<uint32_t>(assets.size() - 1);
}

// Index of the asset's texture (PNG) in player.textures, or of its mesh (OBJ) in player.meshes;
// kNone on failure (assetFor).
uint32_t assetIndexFor(ScenePlayer& player, const LoadedEffect& loaded, const EffectAsset& asset,
                       std::vector<Diagnostic>& diagnostics) {
    if (asset.kind == EffectAssetKind::texture) {
        auto read = [](const std::string& path, PlayerTexture& t, std::vector<Diagnostic>& d) {
            return readPng(path, t.image, d);
        };
        return assetFor(player.textures, loaded, asset, read, diagnostics);
    }
    auto read = [](const std::string& path, PlayerMesh& m, std::vector<Diagnostic>& d) {
        return readObj(path, m.mesh, d);
    };
    return assetFor(player.meshes, loaded, asset, read, diagnostics);
}

// Loads (once per distinct file) the effect of one instance. Returns its index in loaded, or
// kNone on error.
uint32_t loadEffectFor(ScenePlayer& player, const EffectInstanceDesc& instance,
                       std::vector<LoadedEffect>& loaded, std::vector<Diagnostic>& diagnostics) {
    const std::string file = resolveEffectPath(player.scene_file, instance.effect);
    const std::string key = normalisedPath(file);
    for (uint32_t i = 0; i < loaded.size(); ++i) {
        if (loaded[i].key == key) return loaded[i].effect ? i : kNone;
    }
    LoadedEffect entry;
    entry.key = key;
    entry.file = file;
    auto compiled = std::make_shared<CompiledEffect>();
    const bool ok = loadCompiledEffect(file, *compiled, diagnostics);
    if (ok) {
        entry.effect = compiled;
        entry.emitter_texture.assign(compiled->emitters.size(), kNone);
        entry.emitter_mesh.assign(compiled->emitters.size(), kNone);
        bool assets_ok = true;
        for (const EffectAsset& asset : effectAssets(*compiled, file)) {
            const uint32_t index = assetIndexFor(player, entry, asset, diagnostics);
            std::vector<uint32_t>& slot =
                asset.kind == EffectAssetKind::texture ? entry.emitter_texture : entry.emitter_mesh;
            slot[asset.emitter_index] = index;
            if (index == kNone) assets_ok = false;
        }
        if (!assets_ok) entry.effect = nullptr;
    }
    loaded.push_back(std::move(entry));
    return loaded.back().effect ? static_cast<uint32_t>(loaded.size() - 1) : kNone;
}

// Scene time at which an instance has run instance_s seconds.
float sceneTime(const EffectInstanceDesc& instance, double instance_s) {
    return static_cast<float>(instance.start_s + instance_s / instance.time_scale);
}

void restartInstance(PlayerInstance& p, const EffectInstanceDesc& desc) {
    p.steps_done = 0;
    const Rows3x4 start = instanceTransform(desc, desc.start_s);
    if (p.gpu_fx) {
        gpu::restart(*p.gpu_fx);
        p.gpu_fx->world_from_effect = start;
        p.gpu_fx->next_world_from_effect = start;
    }
    if (p.fx) {
        cpu::restart(*p.fx);
        p.fx->world_from_effect = start;
        p.fx->next_world_from_effect = start;
        p.fx->step_start = start;
        p.fx->step_end = start;
    }
}

// The GPU part of stepInstance: one host frame per fixed step from step `from`, so each step gets
// exactly the transforms at its start and end (advanceFrame would blend one frame's transforms
// linearly, which is not the motion path). A Vulkan failure stops the instance (fx.errors).
void stepGpuInstance(PlayerInstance& p, const EffectInstanceDesc& desc, uint64_t from,
                     uint64_t target, StepProgress* progress) {
    gpu::GpuEffect& fx = *p.gpu_fx;
    const double dt = fx.effect->effect.fixed_timestep_s;
    for (uint64_t step = from; step < target && fx.errors.empty(); ++step) {
        if (gpu::finished(fx)) break;
        const double t1 = static_cast<double>(step + 1) * dt;
        gpu::setTransform(fx, instanceTransform(desc, sceneTime(desc, t1)));
        gpu::advanceFrame(fx, dt);
        if (progress != nullptr) progress->update(step + 1 - from);
    }
    const Rows3x4 now = instanceTransform(desc, sceneTime(desc, static_cast<double>(target) * dt));
    fx.world_from_effect = now;
    fx.next_world_from_effect = now;
}

// The CPU part of stepInstance, from step `from`.
void stepCpuInstance(PlayerInstance& p, const EffectInstanceDesc& desc, uint64_t from,
                     uint64_t target, StepProgress* progress) {
    cpu::CpuEffect& fx = *p.fx;
    const double dt = fx.effect->effect.fixed_timestep_s;
    for (uint64_t step = from; step < target; ++step) {
        // A finished effect has no particles and plans no births: the remaining steps would
        // change nothing.
        if (cpu::finished(fx)) break;
        const double t0 = static_cast<double>(step) * dt;
        fx.step_start = instanceTransform(desc, sceneTime(desc, t0));
        fx.step_end = instanceTransform(desc, sceneTime(desc, t0 + dt));
        cpu::stepOnce(fx);
        if (progress != nullptr) progress->update(step + 1 - from);
    }
    const Rows3x4 now = instanceTransform(desc, sceneTime(desc, static_cast<double>(target) * dt));
    fx.world_from_effect = now;
    fx.next_world_from_effect = now;
    fx.step_start = now;
    fx.step_end = now;
}

// Runs the instance's fixed steps up to target on its backends (both, when split), each with the
// transforms at its start and end; a long run shows its progress when show_progress is set.
void stepInstance(PlayerInstance& p, const EffectInstanceDesc& desc, uint64_t target,
                  bool show_progress) {
    if (target < p.steps_done) restartInstance(p, desc);
    const uint64_t steps = target - p.steps_done;
    std::optional<StepProgress> progress;
    if (show_progress && steps >= kPlayerProgressMinSteps) {
        const std::string name = desc.name.empty() ? std::to_string(p.scene_index) : desc.name;
        progress.emplace(steps, false, "instance " + name + ": step");
    }
    StepProgress* shown = progress ? &*progress : nullptr;
    if (p.gpu_fx) stepGpuInstance(p, desc, p.steps_done, target, shown);
    if (p.fx) stepCpuInstance(p, desc, p.steps_done, target, shown);
    p.steps_done = target;
    p.world_from_effect = instanceTransform(
        desc, sceneTime(desc, static_cast<double>(target) * p.effect->effect.fixed_timestep_s));
}

// Lists the strips p appended since first_point / first_segment as one batch.
void appendStripBatch(ScenePlayer& player, const PlayerInstance& p, const EmitterRecord& emitter,
                      TextureHandle texture, size_t first_point, size_t first_segment) {
    StripBatch batch;
    batch.params = stripParams(emitter);
    batch.texture = texture;
    batch.points = std::span<const StripPoint>(p.strip_points).subspan(first_point);
    batch.segments = std::span<const uint32_t>(p.strip_segments).subspan(first_segment);
    player.strip_segments += batch.segments.size();
    player.batches.push_back(batch);
}

// Creates the instance's simulation on the backend chooseBackend picks. False after appending
// the error (a gpu request that cannot be met, a backend that fails to start).
bool createSimulation(PlayerInstance& instance, const std::string& file, const PlayerConfig& config,
                      const SimulationDevice& device, std::vector<Diagnostic>& diagnostics) {
    instance.backend = chooseBackend(*instance.effect, config.backend, device);
    if (!instance.backend.ok) {
        diagnostics.push_back({Severity::error, file, 0, 0, 0, "", instance.backend.reason});
        return false;
    }
    const size_t emitters = instance.effect->emitters.size();
    if (instance.backend.backend == Backend::gpu) {
        gpu::GpuConfig gpu_config;
        gpu_config.device = config.device;
        gpu_config.validation = config.validation;
        // On the renderer's device every emitter the renderer draws is drawn from the device:
        // billboards from their records, ribbons and beams from strips the GPU writes
        // (gpu::deviceStripSource).
        if (config.renderer != nullptr) {
            gpu_config.shared_device = rendererContext(*config.renderer);
            gpu_config.async_statistics = true;
            gpu_config.device_strips = true;
        }
        std::shared_ptr<const CompiledEffect> gpu_part =
            runOnly(instance.effect, instance.backend, Backend::gpu);
        std::vector<Diagnostic> gpu_diagnostics;
        instance.gpu_fx = gpu::createGpuEffect(gpu_part ? gpu_part : instance.effect, gpu_config,
                                               gpu_diagnostics);
        // auto only picked a device it found; one that then cannot start the backend (it lacks
        // a Vulkan 1.3 feature) hands the instance to the CPU and says so.
        const bool fall_back = !instance.gpu_fx && config.backend == BackendRequest::automatic;
        for (Diagnostic& d : gpu_diagnostics) {
            if (d.file.empty()) d.file = file;
            if (fall_back) d.severity = Severity::warning;
            diagnostics.push_back(std::move(d));
        }
        if (instance.gpu_fx) {
            instance.draws_from_device = gpu_config.async_statistics;
            for (const EmitterRecord& e : instance.effect->emitters) {
                instance.draw_request.sort_modes.push_back(
                    drawsRecords(e.render_type) ? e.sort : uint32_t{kSortNone});
            }
            instance.draw_request.beams.resize(emitters);
            instance.gpu_records.resize(instance.gpu_fx->layout.draw_records);
            instance.gpu_emitter_counts.assign(emitters, 0);
        } else if (!fall_back) {
            return false;
        } else {
            instance.backend = {true, Backend::cpu,
                                "auto: the GPU backend could not start on device '" + device.name +
                                    "'",
                                std::vector<Backend>(emitters, Backend::cpu)};
        }
    }
    if (std::count(instance.backend.emitters.begin(), instance.backend.emitters.end(),
                   Backend::cpu) == 0) {
        return true;
    }
    cpu::CpuConfig cpu_config;
    cpu_config.threads = config.threads;
    std::shared_ptr<const CompiledEffect> cpu_part =
        runOnly(instance.effect, instance.backend, Backend::cpu);
    // The CPU backend's own limits (ribbon trail storage) are checked here, not thrown.
    std::vector<Diagnostic> limits;
    instance.fx = cpu::createCpuEffect(cpu_part ? cpu_part : instance.effect, cpu_config, limits);
    for (Diagnostic& d : limits) {
        if (d.file.empty()) d.file = file;
        diagnostics.push_back(std::move(d));
    }
    instance.records.resize(instance.effect->effect.capacity);
    instance.emitter_counts.assign(emitters, 0);
    return instance.fx != nullptr;
}

// Fills the host record buffers of the instance's parts: the CPU part's records and counts
// (p.records, p.emitter_counts) and, for a GPU part not drawn from the device, its read-back
// records (p.gpu_records, p.gpu_emitter_counts); each packed in compiled emitter order, an
// emitter the part does not run counting 0. False when the GPU part failed (reported once in
// player.errors; the instance then draws nothing).
bool writeInstanceRecords(ScenePlayer& player, PlayerInstance& p) {
    if (p.failed) return false;
    if (p.fx) {
        cpu::writeDrawRecords(*p.fx, p.records.data());
        for (uint32_t e = 0; e < p.emitter_counts.size(); ++e)
            p.emitter_counts[e] = p.fx->pools[e].count;
    }
    if (!p.gpu_fx || p.draws_from_device) return true;
    std::vector<Diagnostic>& errors = player.errors;
    const size_t before = errors.size();
    if (gpu::readBackDrawRecords(*p.gpu_fx, p.gpu_records, p.gpu_emitter_counts, errors)) {
        return true;
    }
    p.failed = true;
    for (size_t i = before; i < errors.size(); ++i) {
        if (errors[i].file.empty()) errors[i].file = p.effect_file;
    }
    return false;
}

// Simulation time of the state drawn: what a beam's jitter cycle counts from.
float drawnSimulationTime(const PlayerInstance& p) {
    return static_cast<float>(double(p.steps_done) * p.effect->effect.fixed_timestep_s);
}

// A GPU part drawn from the device: submits its draw records, sorted orders and strips, beams
// with this frame's curve and jitter cycle, as the host path's appendBeamStrips takes them. A
// failure stops the instance (reported once in player.errors).
void submitDeviceDraw(ScenePlayer& player, PlayerInstance& p, const vec3& eye) {
    if (p.failed) return;
    gpu::GpuEffect& fx = *p.gpu_fx;
    const CompiledEffect& effect = *p.effect;
    p.draw_request.eye = eye;
    const float sim_time_s = drawnSimulationTime(p);
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        if (emitter.render_type != kRenderBeam) continue;
        BeamFrame& beam = p.draw_request.beams[e];
        beam.curve = beamCurve(emitter, p.world_from_effect);
        beam.jitter_cycle = sdBeamJitterCycle(sim_time_s, beam.curve.end_frequency.w);
    }
    // Emitters drawn through OIT need no order: their sort would be wasted GPU work.
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        const bool sorts = drawsRecords(emitter.render_type) &&
                           !drawsThroughOit(player.scene.transparency, emitter.blend);
        p.draw_request.sort_modes[e] = sorts ? emitter.sort : uint32_t{kSortNone};
        if (!sorts && emitter.sort != kSortNone) player.sort_skipped_records += fx.stats[e].live;
    }
    const size_t before = player.errors.size();
    if (gpu::submitDrawOutput(fx, p.draw_request, player.errors)) return;
    p.failed = true;
    for (size_t i = before; i < player.errors.size(); ++i) {
        if (player.errors[i].file.empty()) player.errors[i].file = p.effect_file;
    }
}

// The renderer's handle of emitter e's texture, kNoTexture when it has none.
TextureHandle textureHandle(const ScenePlayer& player, const PlayerInstance& p, uint32_t e) {
    const uint32_t index = p.emitter_texture[e];
    return index == kNone ? kNoTexture : player.textures[index].handle;
}

// The batch of emitter e of a GPU part drawn from the device (submitDrawOutput has run): one draw
// over all its draw-record chunks (billboards, meshes), or one of its ribbon or beam strips; none
// when it can hold no particle.
void appendDeviceBatch(ScenePlayer& player, const PlayerInstance& p, uint32_t e) {
    const gpu::GpuEffect& fx = *p.gpu_fx;
    const EmitterRecord& emitter = p.effect->emitters[e];
    const TextureHandle texture = textureHandle(player, p, e);
    if (emitter.render_type == kRenderRibbon || emitter.render_type == kRenderBeam) {
        const gpu::GpuStripSource source = gpu::deviceStripSource(fx, e);
        if (source.max_strips == 0) return;
        StripBatch batch;
        batch.params = stripParams(emitter);
        batch.texture = texture;
        batch.device = {source.points, source.point_counts, source.count, source.points_per_strip,
                        source.max_strips};
        player.batches.push_back(batch);
        player.particles += fx.stats[e].live;
        return;
    }
    const gpu::GpuDrawSource source = gpu::drawSource(fx, e);
    if (source.max_records != 0 && emitter.render_type == kRenderMesh) {
        MeshBatch batch;
        batch.params = meshParams(emitter);
        batch.mesh = player.meshes[p.emitter_mesh[e]].handle;
        batch.device = deviceRecords(source);
        batch.texture = texture;
        player.batches.push_back(batch);
    } else if (source.max_records != 0) {
        BillboardBatch batch;
        batch.params = billboardParams(emitter, p.world_from_effect);
        batch.texture = texture;
        batch.device = deviceRecords(source);
        player.batches.push_back(batch);
    }
    player.particles += fx.stats[e].live;
}

float distanceTo(const Float3& a, const Float3& b) {
    const double dx = double(a.x) - b.x, dy = double(a.y) - b.y, dz = double(a.z) - b.z;
    return static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz));
}

} // namespace

Rows3x4 instanceTransform(const EffectInstanceDesc& instance, float time_s) {
    // Rz * Ry * Rx (extrinsic X, then Y, then Z), as the compiler places emitters, in double so
    // the matrix is the correctly rounded one.
    constexpr double kDegToRad = std::numbers::pi / 180.0;
    const double x = instance.rotation_deg.x * kDegToRad;
    const double y = instance.rotation_deg.y * kDegToRad;
    const double z = instance.rotation_deg.z * kDegToRad;
    const double cx = std::cos(x), sx = std::sin(x);
    const double cy = std::cos(y), sy = std::sin(y);
    const double cz = std::cos(z), sz = std::sin(z);
    const Float3 p = instancePosition(instance, time_s);
    auto row = [](double a, double b, double c, float w) {
        return vec4(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c), w);
    };
    Rows3x4 m;
    m.rows[0] = row(cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx, p.x);
    m.rows[1] = row(sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx, p.y);
    m.rows[2] = row(-sy, cy * sx, cy * cx, p.z);
    return m;
}

uint64_t instanceSteps(const EffectInstanceDesc& instance, float fixed_timestep_s, float time_s) {
    const double tau = (double(time_s) - instance.start_s) * instance.time_scale;
    if (!(tau > 0) || !(fixed_timestep_s > 0)) return 0;
    const double steps = std::floor(tau / fixed_timestep_s + kStepSlack);
    if (!(steps <= static_cast<double>(kMaxSimulatedSteps))) return kMaxSimulatedSteps + 1;
    return static_cast<uint64_t>(steps);
}

bool checkPlayTimes(const ScenePlayer& player, std::span<const float> times_s,
                    std::vector<Diagnostic>& diagnostics) {
    // An instance's steps grow with the scene time (time_scale > 0): the latest time decides.
    if (times_s.empty()) return true;
    const float latest = *std::max_element(times_s.begin(), times_s.end());
    bool ok = true;
    for (const PlayerInstance& p : player.instances) {
        const EffectInstanceDesc& desc = player.scene.effects[p.scene_index];
        const float dt = p.effect->effect.fixed_timestep_s;
        if (instanceSteps(desc, dt, latest) <= kMaxSimulatedSteps) continue;
        const double tau = (double(latest) - desc.start_s) * desc.time_scale;
        const double longest_s = static_cast<double>(kMaxSimulatedSteps) * dt;
        const std::string name = desc.name.empty()
                                     ? "effect instance " + std::to_string(p.scene_index)
                                     : "effect instance '" + desc.name + "'";
        char numbers[400];
        std::snprintf(numbers, sizeof numbers,
                      " (%s) at scene time %g s has run %g s (start_s %g, time_scale %g): "
                      "%.4g fixed steps of %g s, more than the %llu a run may simulate "
                      "(kMaxSimulatedSteps, docs/driver.md, \"Limits\"); start it at %g s or "
                      "later",
                      p.effect_file.c_str(), double(latest), tau, double(desc.start_s),
                      double(desc.time_scale), tau / dt, double(dt),
                      static_cast<unsigned long long>(kMaxSimulatedSteps),
                      double(latest) - longest_s / desc.time_scale);
        diagnostics.push_back(
            {Severity::error, player.scene_file.empty() ? p.effect_file : player.scene_file, 0, 0,
             0,
             player.scene_file.empty() ? ""
                                       : "$.effects[" + std::to_string(p.scene_index) + "].start_s",
             name + numbers});
        ok = false;
    }
    return ok;
}

float developedTime(const CompiledEffect& effect) {
    // chain[e]: seconds from the effect's start until emitter e's last particle of a first
    // cycle can die, following sub-emitter links (acyclic: validated by the compiler).
    const size_t n = effect.emitters.size();
    std::vector<double> chain(n);
    for (size_t e = 0; e < n; ++e)
        chain[e] = double(effect.emitters[e].delay_s) + effect.emitters[e].lifetime_max_s;
    for (size_t pass = 0; pass < n; ++pass) {
        for (size_t e = 0; e < n; ++e) {
            const EmitterRecord& parent = effect.emitters[e];
            for (uint32_t k = 0; k < parent.sub_emitter_count; ++k) {
                const SubEmitterRecord& link = effect.sub_emitters[parent.sub_emitter_first + k];
                if (link.emitter >= n) continue;
                const EmitterRecord& child = effect.emitters[link.emitter];
                chain[link.emitter] =
                    std::max(chain[link.emitter], chain[e] + child.lifetime_max_s);
            }
        }
    }
    double longest = 0;
    for (const double c : chain) longest = std::max(longest, c);
    constexpr double kMinSteadyTime_s = 2;
    constexpr double kOneShotFraction = 0.4;
    if ((effect.effect.flags & kEffectFlagLooping) != 0)
        return static_cast<float>(std::max(kMinSteadyTime_s, longest));
    return static_cast<float>(
        std::min(kOneShotFraction * longest, double(effect.effect.duration_s)));
}

float defaultStillTime(const ScenePlayer& player) {
    double t = 0;
    for (const PlayerInstance& p : player.instances) {
        const EffectInstanceDesc& desc = player.scene.effects[p.scene_index];
        t = std::max(t, desc.start_s + double(developedTime(*p.effect)) / desc.time_scale);
    }
    return static_cast<float>(std::clamp(t, 0.0, double(player.scene.duration_s)));
}

FrameView frameView(const SceneDesc& scene, float time_s) {
    FrameView view;
    view.camera = cameraPose(scene.camera, time_s);
    view.fov_deg = scene.camera.fov_deg;
    view.near_m = scene.camera.near;
    view.far_m = scene.camera.far;
    view.background = scene.background;
    view.ground = scene.ground;
    view.primitives = scene.primitives;
    view.sun = scene.sun;
    view.ambient = scene.ambient;
    view.transparency = scene.transparency;
    return view;
}

std::unique_ptr<ScenePlayer> createScenePlayer(const SceneDesc& scene,
                                               const std::string& scene_file,
                                               const PlayerConfig& config,
                                               std::vector<Diagnostic>& diagnostics) {
    auto player = std::make_unique<ScenePlayer>();
    player->scene = scene;
    player->scene_file = scene_file;
    player->config = config;
    std::vector<LoadedEffect> loaded;
    bool ok = true;
    size_t drawn_emitters = 0;
    // One probe for every instance: a cpu request needs no Vulkan at all.
    SimulationDevice device = config.backend == BackendRequest::cpu ? SimulationDevice{}
                              : config.renderer != nullptr
                                  ? simulationDeviceOf(rendererDevice(*config.renderer))
                                  : probeSimulationDevice(config.device);
    if (config.auto_on_cpu_device && device.kind == DeviceKind::cpu) device.kind = DeviceKind::gpu;
    for (uint32_t i = 0; i < scene.effects.size(); ++i) {
        const uint32_t index = loadEffectFor(*player, scene.effects[i], loaded, diagnostics);
        if (index == kNone) {
            ok = false;
            continue;
        }
        const LoadedEffect& effect = loaded[index];
        PlayerInstance instance;
        instance.scene_index = i;
        instance.effect_file = effect.file;
        instance.effect = effect.effect;
        if (!createSimulation(instance, effect.file, config, device, diagnostics)) {
            ok = false;
            continue;
        }
        instance.emitter_texture = effect.emitter_texture;
        instance.emitter_mesh = effect.emitter_mesh;
        uint64_t strip_points = 0;
        uint64_t strip_segments = 0;
        for (uint32_t e = 0; e < effect.effect->emitters.size(); ++e) {
            ++drawn_emitters;
            strip_points += stripPointCapacity(instance, e);
            strip_segments += stripSegmentCapacity(instance, e);
        }
        instance.strip_points.reserve(strip_points);
        instance.strip_segments.reserve(strip_segments);
        restartInstance(instance, scene.effects[i]);
        player->instances.push_back(std::move(instance));
    }
    if (!ok) return nullptr;
    player->batches.reserve(drawn_emitters);
    player->instance_order.reserve(player->instances.size());
    player->instance_distance.resize(player->instances.size());
    return player;
}

void appendSimulationValidationMessages(const ScenePlayer& player, std::vector<std::string>& out) {
    for (const PlayerInstance& p : player.instances) {
        // On the renderer's device the messages are the renderer's (validationMessages).
        if (!p.gpu_fx || p.gpu_fx->config.shared_device) continue;
        const std::vector<std::string>& messages = gpu::validationMessages(*p.gpu_fx);
        out.insert(out.end(), messages.begin(), messages.end());
    }
}

std::vector<std::string> inputFiles(const ScenePlayer& player) {
    std::vector<std::string> files;
    if (!player.scene_file.empty()) files.push_back(player.scene_file);
    for (const PlayerInstance& p : player.instances) {
        if (std::find(files.begin(), files.end(), p.effect_file) == files.end())
            files.push_back(p.effect_file);
    }
    for (const PlayerTexture& texture : player.textures) files.push_back(texture.path);
    for (const PlayerMesh& mesh : player.meshes) files.push_back(mesh.path);
    return files;
}

bool uploadAssets(ScenePlayer& player, Renderer& renderer, std::vector<Diagnostic>& diagnostics) {
    for (PlayerTexture& texture : player.textures) {
        if (texture.handle != kNoTexture) continue;
        texture.handle = addTexture(renderer, texture.image, texture.path, diagnostics);
        if (texture.handle == kNoTexture) return false;
    }
    for (PlayerMesh& mesh : player.meshes) {
        if (mesh.handle != kNoMesh) continue;
        mesh.handle = addMesh(renderer, mesh.mesh.vertices, mesh.path, diagnostics);
        if (mesh.handle == kNoMesh) return false;
    }
    return true;
}

void playFrame(ScenePlayer& player, float time_s, const Float3& eye) {
    player.batches.clear();
    player.instance_order.clear();
    player.particles = 0;
    player.strip_segments = 0;
    player.sort_skipped_records = 0;
    if (!checkPlayTimes(player, std::span<const float>(&time_s, 1), player.errors)) return;
    for (uint32_t i = 0; i < player.instances.size(); ++i) {
        PlayerInstance& p = player.instances[i];
        const EffectInstanceDesc& desc = player.scene.effects[p.scene_index];
        const double tau = (double(time_s) - desc.start_s) * desc.time_scale;
        p.started = tau >= 0;
        if (!p.started) continue;
        stepInstance(p, desc, instanceSteps(desc, p.effect->effect.fixed_timestep_s, time_s),
                     player.config.step_progress);
        player.instance_distance[i] = distanceTo(instancePosition(desc, time_s), eye);
        player.instance_order.push_back(i);
    }

    // Farthest first, ties in scene order: a stable insertion sort (at most kMaxSceneEffects
    // instances, and nothing to allocate).
    std::vector<uint32_t>& order = player.instance_order;
    for (size_t i = 1; i < order.size(); ++i) {
        const uint32_t v = order[i];
        size_t j = i;
        while (j > 0 && player.instance_distance[order[j - 1]] < player.instance_distance[v]) {
            order[j] = order[j - 1];
            --j;
        }
        order[j] = v;
    }

    const vec3 eye_v(eye.x, eye.y, eye.z);
    for (const uint32_t i : order) {
        PlayerInstance& p = player.instances[i];
        const CompiledEffect& effect = *p.effect;
        p.strip_points.clear();
        p.strip_segments.clear();
        if (p.draws_from_device) submitDeviceDraw(player, p, eye_v);
        if (!writeInstanceRecords(player, p) || p.failed) continue;
        const float sim_time_s = drawnSimulationTime(p);
        // Each emitter's records come from the part that runs it (the other part counts it 0).
        size_t cpu_first = 0;
        size_t gpu_first = 0;
        for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
            const EmitterRecord& emitter = effect.emitters[e];
            const bool on_gpu = p.backend.emitters[e] == Backend::gpu;
            if (on_gpu && p.draws_from_device) {
                appendDeviceBatch(player, p, e);
                continue;
            }
            const size_t count = on_gpu ? p.gpu_emitter_counts[e] : p.emitter_counts[e];
            DrawRecord* base =
                on_gpu ? p.gpu_records.data() + gpu_first : p.records.data() + cpu_first;
            (on_gpu ? gpu_first : cpu_first) += count;
            const std::span<DrawRecord> records(base, count);
            if (count == 0) continue;
            const TextureHandle texture = textureHandle(player, p, e);
            if (drawsRecords(emitter.render_type)) {
                // Through OIT the order does not change the image: sorting would be waste.
                if (!drawsThroughOit(player.scene.transparency, emitter.blend)) {
                    sortDrawRecords(records, emitter.sort, eye_v, player.sort_scratch);
                } else if (sortReorders(emitter.sort)) {
                    player.sort_skipped_records += count;
                }
                if (emitter.render_type == kRenderMesh) {
                    player.batches.push_back(MeshBatch{meshParams(emitter),
                                                       player.meshes[p.emitter_mesh[e]].handle,
                                                       records,
                                                       {},
                                                       texture});
                } else {
                    player.batches.push_back(BillboardBatch{
                        billboardParams(emitter, p.world_from_effect), texture, records, {}});
                }
                player.particles += count;
            } else if (emitter.render_type == kRenderBeam) {
                // The vectors were reserved at load for every strip emitter's most: appending
                // never reallocates, so spans taken here stay valid for the frame.
                const size_t first_point = p.strip_points.size();
                const size_t first_segment = p.strip_segments.size();
                const BeamCurve curve = beamCurve(emitter, p.world_from_effect);
                appendBeamStrips(curve, sdBeamJitterCycle(sim_time_s, curve.end_frequency.w),
                                 records, p.strip_points, p.strip_segments);
                appendStripBatch(player, p, emitter, texture, first_point, first_segment);
                player.particles += count;
            } else if (emitter.render_type == kRenderRibbon) {
                const size_t first_point = p.strip_points.size();
                const size_t first_segment = p.strip_segments.size();
                // A GPU part's trails were gathered with its records (ribbon_strips.h).
                if (!on_gpu) {
                    cpu::writeRibbonStrips(*p.fx, e, p.strip_points, p.strip_segments);
                } else {
                    gpu::writeRibbonStrips(*p.gpu_fx, e, records, p.strip_points, p.strip_segments);
                }
                if (p.strip_segments.size() == first_segment) continue;
                appendStripBatch(player, p, emitter, texture, first_point, first_segment);
                player.particles += count;
            }
        }
    }
}

} // namespace spindrift::render
