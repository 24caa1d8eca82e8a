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
#include "gpu/ribbon_strips.h"
#include "image/png_io.h"
#include "mesh/obj_reader.h"
#include "render/beam_strips.h"
#include "render/billboard_params.h"
#include "render/device_records.h"
#include "render/mesh_params.h"
#include "render/progress.h"
#include "render/strip_params.h"
#include "runtime/simulation_device.h"
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
    return emitterBackend(*p.simulation, e) != Backend::gpu || !p.simulation->draws_from_device;
}

// The most ribbon strip points emitter e of the instance can append on the host in one frame (a
// ribbon writes fewer segments than points), from whichever backend simulates it.
uint64_t ribbonPointCapacity(const PlayerInstance& p, uint32_t e) {
    return maxRibbonPoints(*p.simulation, e);
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
    restart(*p.simulation, instanceTransform(desc, desc.start_s));
}

// A scene instance's motion path and rotation as the effect instance's placement over its own
// time: each step runs with the transforms at the scene times of its start and end.
class ScenePath final : public InstanceMotion {
public:
    explicit ScenePath(const EffectInstanceDesc& desc) : desc_(desc) {}
    Rows3x4 worldFromEffectAt(double time_s) const override {
        return instanceTransform(desc_, sceneTime(desc_, time_s));
    }

private:
    const EffectInstanceDesc& desc_;
};

// Shows a long run's progress (render/progress.h).
class ProgressListener final : public StepListener {
public:
    explicit ProgressListener(StepProgress& progress) : progress_(progress) {}
    void stepsDone(uint64_t steps) override { progress_.update(steps); }

private:
    StepProgress& progress_;
};

// Runs the instance's fixed steps up to target (from 0 again when target is earlier than where it
// is), along the scene path; a long run shows its progress when show_progress is set.
void stepInstance(PlayerInstance& p, const EffectInstanceDesc& desc, uint64_t target,
                  bool show_progress) {
    EffectInstance& sim = *p.simulation;
    if (target < sim.steps_run) restartInstance(p, desc);
    const uint64_t steps = target - sim.steps_run;
    std::optional<StepProgress> progress;
    std::optional<ProgressListener> listener;
    if (show_progress && steps >= kPlayerProgressMinSteps) {
        const std::string name = desc.name.empty() ? std::to_string(p.scene_index) : desc.name;
        progress.emplace(steps, false, "instance " + name + ": step");
        listener.emplace(*progress);
    }
    const ScenePath path(desc);
    StepRun run;
    run.motion = &path;
    run.listener = listener ? &*listener : nullptr;
    runSteps(sim, steps, run);
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

// Creates the instance's simulation (createEffectInstance) and, for a GPU part drawn from the
// device, its draw request. False after appending the error.
bool createSimulation(PlayerInstance& instance, const std::string& file, const PlayerConfig& config,
                      const SimulationDevice& device, std::vector<Diagnostic>& diagnostics) {
    InstanceConfig instance_config;
    instance_config.backend = config.backend;
    instance_config.threads = config.threads;
    instance_config.device = config.device;
    instance_config.validation = config.validation;
    if (config.renderer != nullptr)
        instance_config.shared_device = rendererContext(*config.renderer);
    instance.simulation =
        createEffectInstance(instance.effect, instance_config, device, file, diagnostics);
    if (!instance.simulation) return false;
    if (instance.simulation->draws_from_device) {
        for (const EmitterRecord& e : instance.effect->emitters) {
            instance.draw_request.sort_modes.push_back(
                drawsRecords(e.render_type) ? e.sort : uint32_t{kSortNone});
        }
        instance.draw_request.beams.resize(instance.effect->emitters.size());
    }
    return true;
}

// Simulation time of the state drawn: what a beam's jitter cycle counts from.
float drawnSimulationTime(const PlayerInstance& p) {
    return static_cast<float>(simulationTime(*p.simulation));
}

// A GPU part drawn from the device: submits its draw records, sorted orders and strips, beams
// with this frame's curve and jitter cycle, as the host path's appendBeamStrips takes them. A
// failure stops the instance (reported once in player.errors).
void submitInstanceDeviceDraw(ScenePlayer& player, PlayerInstance& p, const vec3& eye) {
    if (p.simulation->failed) return;
    const CompiledEffect& effect = *p.effect;
    p.draw_request.eye = eye;
    const float sim_time_s = drawnSimulationTime(p);
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        if (emitter.render_type != kRenderBeam) continue;
        BeamFrame& beam = p.draw_request.beams[e];
        beam.curve = beamCurve(emitter, p.simulation->world_from_effect);
        beam.jitter_cycle = sdBeamJitterCycle(sim_time_s, beam.curve.end_frequency.w);
    }
    // Emitters drawn through OIT need no order: their sort would be wasted GPU work.
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        const bool sorts = drawsRecords(emitter.render_type) &&
                           !drawsThroughOit(player.scene.transparency, emitter.blend);
        p.draw_request.sort_modes[e] = sorts ? emitter.sort : uint32_t{kSortNone};
        if (!sorts && emitter.sort != kSortNone) {
            player.sort_skipped_records += emitterLive(*p.simulation, e);
        }
    }
    submitDeviceDraw(*p.simulation, p.draw_request, player.errors);
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
    const gpu::GpuEffect& fx = *p.simulation->gpu;
    const uint64_t live = emitterLive(*p.simulation, e);
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
        player.particles += live;
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
        batch.params = billboardParams(emitter, p.simulation->world_from_effect);
        batch.texture = texture;
        batch.device = deviceRecords(source);
        player.batches.push_back(batch);
    }
    player.particles += live;
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
                                  ? simulationDeviceOf(rendererDevice(*config.renderer).name,
                                                       rendererDevice(*config.renderer).type)
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
    // On the renderer's device the messages are the renderer's (validationMessages).
    for (const PlayerInstance& p : player.instances) appendValidationMessages(*p.simulation, out);
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
        EffectInstance& sim = *p.simulation;
        if (sim.draws_from_device) submitInstanceDeviceDraw(player, p, eye_v);
        if (!writeHostDrawRecords(sim, player.errors) || sim.failed) continue;
        const float sim_time_s = drawnSimulationTime(p);
        const Rows3x4& world_from_effect = sim.world_from_effect;
        for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
            const EmitterRecord& emitter = effect.emitters[e];
            if (emitterBackend(sim, e) == Backend::gpu && sim.draws_from_device) {
                appendDeviceBatch(player, p, e);
                continue;
            }
            // Each emitter's records come from the part that runs it.
            const std::span<DrawRecord> records = hostDrawRecords(sim, e);
            const size_t count = records.size();
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
                        billboardParams(emitter, world_from_effect), texture, records, {}});
                }
                player.particles += count;
            } else if (emitter.render_type == kRenderBeam) {
                // The vectors were reserved at load for every strip emitter's most: appending
                // never reallocates, so spans taken here stay valid for the frame.
                const size_t first_point = p.strip_points.size();
                const size_t first_segment = p.strip_segments.size();
                const BeamCurve curve = beamCurve(emitter, world_from_effect);
                appendBeamStrips(curve, sdBeamJitterCycle(sim_time_s, curve.end_frequency.w),
                                 records, p.strip_points, p.strip_segments);
                appendStripBatch(player, p, emitter, texture, first_point, first_segment);
                player.particles += count;
            } else if (emitter.render_type == kRenderRibbon) {
                const size_t first_point = p.strip_points.size();
                const size_t first_segment = p.strip_segments.size();
                writeRibbonStrips(sim, e, p.strip_points, p.strip_segments);
                if (p.strip_segments.size() == first_segment) continue;
                appendStripBatch(player, p, emitter, texture, first_point, first_segment);
                player.particles += count;
            }
        }
    }
}

} // namespace spindrift::render
