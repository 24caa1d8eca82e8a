#include "render/scene_player.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <optional>
#include <span>

#include "cook/effect_assets.h"
#include "cook/effect_file.h"
#include "image/png_io.h"
#include "mesh/obj_reader.h"
#include "render/draw_list_batches.h"
#include "render/particle_lights.h"
#include "render/progress.h"
#include "render/scene_depth_export.h"
#include "runtime/draw_list.h"
#include "runtime/effect_library_impl.h"
#include "runtime/simulation_device.h"
#include "runtime/world_access.h"
#include "spindrift/scene_json.h"

namespace spindrift::render {

namespace {

namespace fs = std::filesystem;

// Slack in instanceSteps: a frame time that is a whole number of steps up to float rounding
// still counts that last step (World::advanceTo keeps the same rule).
constexpr double kStepSlack = 1e-3;

struct LoadedEffect {
    std::string key; // normalised path: instances naming the same file share the effect
    std::string file;
    EffectId id;
    std::shared_ptr<const CompiledEffect> effect;
    std::vector<uint32_t> emitter_texture;
    std::vector<uint32_t> emitter_mesh;
};

std::string normalisedPath(const std::string& path) {
    std::error_code error;
    fs::path p = fs::weakly_canonical(fs::path(path), error);
    if (error) p = fs::path(path).lexically_normal();
    return p.string();
}

bool sameKind(const PlayerTexture& a, const PlayerTexture& b) {
    return a.encoding == b.encoding;
}

bool sameKind(const PlayerMesh&, const PlayerMesh&) {
    return true;
}

// Index in `assets` (PlayerTexture or PlayerMesh) of the file `asset` names, reading it with
// read(path, asset.<data>, diagnostics) the first time. kNone on failure, after one
// effectAssetError.
// Textures are told apart by encoding too: the same file drawn as colour by one emitter and as a
// distortion field by another is uploaded twice.
template <typename Asset, typename Read>
uint32_t assetFor(std::vector<Asset>& assets, const LoadedEffect& loaded, const EffectAsset& asset,
                  const Asset& prototype, Read read, std::vector<Diagnostic>& diagnostics) {
    const std::string key = normalisedPath(asset.path);
    for (uint32_t i = 0; i < assets.size(); ++i) {
        if (normalisedPath(assets[i].path) == key && sameKind(assets[i], prototype)) return i;
    }
    Asset entry = prototype;
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
        PlayerTexture prototype;
        prototype.encoding = textureEncoding(loaded.effect->emitters[asset.emitter_index]);
        return assetFor(player.textures, loaded, asset, prototype, read, diagnostics);
    }
    auto read = [](const std::string& path, PlayerMesh& m, std::vector<Diagnostic>& d) {
        return readObj(path, m.mesh, d);
    };
    return assetFor(player.meshes, loaded, asset, PlayerMesh{}, read, diagnostics);
}

// Loads (once per distinct file, through the player's effect library) the effect of one
// instance. Returns its index in loaded, or kNone on error.
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
    entry.id = player.library->add(file);
    const bool ok = player.library->compile(entry.id) == RuntimeError::none;
    EffectInfo info;
    player.library->info(entry.id, info);
    for (const Diagnostic& d : info.diagnostics) diagnostics.push_back(d);
    if (ok) {
        std::shared_ptr<const CompiledEffect> compiled =
            player.library->impl().entry(entry.id)->effect;
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

// A scene instance's motion path and rotation as the world instance's path over its own time:
// each step runs with the transforms at the scene times of its start and end.
class ScenePath final : public TransformPath {
public:
    explicit ScenePath(const EffectInstanceDesc& desc) : desc_(desc) {}
    Matrix3x4 worldFromEffectAt(double time_s) const override {
        const Rows3x4 rows = instanceTransform(desc_, sceneTime(desc_, time_s));
        Matrix3x4 m;
        for (int i = 0; i < 3; ++i) {
            m.rows[i][0] = rows.rows[i].x;
            m.rows[i][1] = rows.rows[i].y;
            m.rows[i][2] = rows.rows[i].z;
            m.rows[i][3] = rows.rows[i].w;
        }
        return m;
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

// Advances the instance to instance time tau (World::advanceTo: from 0 again when that is earlier
// than where it is), along the scene path; a long run shows its progress when show_progress is
// set. A refusal (none is expected once checkPlayTimes passed) goes to player.errors.
void advanceInstance(ScenePlayer& player, PlayerInstance& p, const EffectInstanceDesc& desc,
                     double tau, uint64_t target) {
    const EffectInstance& sim = *p.simulation;
    const uint64_t steps = target - (target < sim.steps_run ? 0 : sim.steps_run);
    std::optional<StepProgress> progress;
    std::optional<ProgressListener> listener;
    if (player.config.step_progress && steps >= kPlayerProgressMinSteps) {
        const std::string name = desc.name.empty() ? std::to_string(p.scene_index) : desc.name;
        progress.emplace(steps, false, "instance " + name + ": step");
        listener.emplace(*progress);
    }
    if (advanceInstanceTo(*player.world, p.handle, tau, listener ? &*listener : nullptr) !=
        RuntimeError::none) {
        player.errors.push_back(
            {Severity::error, p.effect_file, 0, 0, 0, "", player.world->lastErrorMessage()});
    }
}

// The renderer's texture and mesh of each emitter, from the files the player uploaded.
class PlayerAssets final : public DrawAssets {
public:
    explicit PlayerAssets(const ScenePlayer& player) : player_(player) {}
    TextureHandle texture(EffectId effect, uint32_t emitter) const override {
        const uint32_t index = player_.effects[effect.value - 1].emitter_texture[emitter];
        return index == kNone ? kNoTexture : player_.textures[index].handle;
    }
    MeshHandle mesh(EffectId effect, uint32_t emitter) const override {
        const uint32_t index = player_.effects[effect.value - 1].emitter_mesh[emitter];
        return index == kNone ? kNoMesh : player_.meshes[index].handle;
    }

private:
    const ScenePlayer& player_;
};

SimulationBackend worldBackend(BackendRequest request) {
    switch (request) {
    case BackendRequest::gpu:
        return SimulationBackend::gpu;
    case BackendRequest::automatic:
        return SimulationBackend::automatic;
    case BackendRequest::cpu:
        break;
    }
    return SimulationBackend::cpu;
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

float longestChainTime(const CompiledEffect& effect) {
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
    return static_cast<float>(longest);
}

float developedTime(const CompiledEffect& effect) {
    const double longest = longestChainTime(effect);
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
    view.shadows = scene.shadows;
    view.ambient = scene.ambient;
    view.sky = scene.sky;
    view.lights = scene.lights;
    view.transparency = scene.transparency;
    view.particle_resolution = scene.particle_resolution;
    view.exposure = scene.exposure;
    view.tonemap = scene.tonemap;
    view.bloom = scene.bloom;
    view.time_s = time_s;
    return view;
}

namespace {

// Which copy of the renderer's depth the player's instances read: the host's when a CPU part
// collides with it, the device's for a GPU part on the renderer's device; none without a
// renderer (nothing renders a depth) or a depth_buffer op.
SceneDepthOutput sceneDepthNeeded(const ScenePlayer& player) {
    if (player.config.renderer == nullptr) return SceneDepthOutput::none;
    SceneDepthOutput out = SceneDepthOutput::none;
    for (const PlayerInstance& p : player.instances) {
        if (p.simulation == nullptr || !p.simulation->uses_scene_depth) continue;
        if (p.simulation->cpu) return SceneDepthOutput::device_and_host;
        out = SceneDepthOutput::device;
    }
    return out;
}

// The depth the renderer copied from the last frame, for this frame's steps (one frame late);
// false when it has none (the first frame, or a frame that did not ask).
bool feedSceneDepth(ScenePlayer& player) {
    if (player.scene_depth == SceneDepthOutput::none) return false;
    const SceneDepthCopy& copy = lastSceneDepth(*player.config.renderer);
    if (!copy.valid) return false;
    return setRendererSceneDepth(*player.world, sceneDepthOf(copy), copy.device_address) ==
           RuntimeError::none;
}

} // namespace

std::unique_ptr<ScenePlayer> createScenePlayer(const SceneDesc& scene,
                                               const std::string& scene_file,
                                               const PlayerConfig& config,
                                               std::vector<Diagnostic>& diagnostics) {
    auto player = std::make_unique<ScenePlayer>();
    player->scene = scene;
    player->scene_file = scene_file;
    player->config = config;
    player->library = std::make_unique<EffectLibrary>();
    WorldConfig world_config;
    world_config.backend = worldBackend(config.backend);
    world_config.threads = config.threads;
    // A scene's time is checked against kMaxSimulatedSteps (checkPlayTimes), not an hour.
    world_config.max_seek_steps = kMaxSimulatedSteps;
    if (!config.seek_checkpoints) world_config.seek_checkpoint_interval_steps = 0;
    // Without a renderer the player reads each frame's counts and records at once (a shared
    // device stays asynchronous: the renderer draws what the device holds).
    world_config.gpu_readback = GpuReadback::synchronous;
    player->world = std::make_unique<World>(*player->library, world_config);
    World& world = *player->world;
    std::vector<LoadedEffect> loaded;
    bool ok = true;
    // One probe for every instance: a cpu request needs no Vulkan at all.
    WorldDevice device;
    device.device = config.backend == BackendRequest::cpu ? SimulationDevice{}
                    : config.renderer != nullptr
                        ? simulationDeviceOf(rendererDevice(*config.renderer).name,
                                             rendererDevice(*config.renderer).type)
                        : probeSimulationDevice(config.device);
    if (config.auto_on_cpu_device && device.device.kind == DeviceKind::cpu)
        device.device.kind = DeviceKind::gpu;
    device.name = config.device;
    device.validation = config.validation;
    if (config.renderer != nullptr) device.shared_device = rendererContext(*config.renderer);
    setWorldDevice(world, device);
    for (uint32_t i = 0; i < scene.effects.size(); ++i) {
        const uint32_t index = loadEffectFor(*player, scene.effects[i], loaded, diagnostics);
        if (index == kNone) {
            ok = false;
            continue;
        }
        const LoadedEffect& effect = loaded[index];
        if (player->effects.size() < effect.id.value) player->effects.resize(effect.id.value);
        player->effects[effect.id.value - 1] = {effect.emitter_texture, effect.emitter_mesh};
        PlayerInstance instance;
        instance.scene_index = i;
        instance.effect_file = effect.file;
        instance.effect = effect.effect;
        instance.effect_id = effect.id;
        InstanceDesc desc;
        desc.effect = effect.id;
        desc.flags = 0; // driven by advanceTo, never by update
        const bool created = world.create(desc, instance.handle) == RuntimeError::none;
        const std::vector<Diagnostic>& backend = lastInstanceDiagnostics(world);
        diagnostics.insert(diagnostics.end(), backend.begin(), backend.end());
        if (!created) {
            if (backend.empty()) {
                diagnostics.push_back(
                    {Severity::error, effect.file, 0, 0, 0, "", world.lastErrorMessage()});
            }
            ok = false;
            continue;
        }
        instance.simulation = effectInstanceOf(world, instance.handle);
        instance.path = std::make_unique<ScenePath>(player->scene.effects[i]);
        world.followPath(instance.handle, instance.path.get());
        world.setVisible(instance.handle, false);
        player->instances.push_back(std::move(instance));
    }
    if (!ok) return nullptr;
    player->scene_depth = sceneDepthNeeded(*player);
    player->batches.reserve(player->instances.size());
    // Every light a frame can have, so playing a frame allocates nothing for them.
    size_t lights = scene.lights.size();
    for (const PlayerInstance& p : player->instances) {
        for (uint32_t e = 0; e < p.effect->emitters.size(); ++e) {
            lights += particleLights(*p.effect, e).count;
        }
    }
    player->lights.reserve(lights);
    return player;
}

void appendSimulationValidationMessages(const ScenePlayer& player, std::vector<std::string>& out) {
    // On the renderer's device the messages are the renderer's (validationMessages); without a
    // renderer the world's GPU instances share the world's device, whose messages it reports.
    for (const PlayerInstance& p : player.instances) appendValidationMessages(*p.simulation, out);
    appendWorldDeviceValidationMessages(*player.world, out);
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
        texture.handle =
            addTexture(renderer, texture.image, texture.path, diagnostics, texture.encoding);
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
    player.particles = 0;
    player.strip_segments = 0;
    player.sort_skipped_records = 0;
    player.advance_ms = 0;
    player.draw_list_ms = 0;
    // The scene's lights first (also when the frame fails below), so the frame's bound
    // (kMaxFrameLights) drops particle lights before authored ones.
    player.lights.assign(player.scene.lights.begin(), player.scene.lights.end());
    for (PlayerInstance& p : player.instances) p.strip_points = {};
    if (!checkPlayTimes(player, std::span<const float>(&time_s, 1), player.errors)) return;
    World& world = *player.world;
    using Clock = std::chrono::steady_clock;
    const auto msSince = [](Clock::time_point start) {
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };
    Clock::time_point start = Clock::now();
    // The renderer's depth of the last frame, for this frame's steps only: its buffers belong to
    // the renderer, which may change them before the next playFrame.
    const bool fed_depth = feedSceneDepth(player);
    for (PlayerInstance& p : player.instances) {
        const EffectInstanceDesc& desc = player.scene.effects[p.scene_index];
        const double tau = (double(time_s) - desc.start_s) * desc.time_scale;
        p.started = tau >= 0;
        world.setVisible(p.handle, p.started);
        if (!p.started) continue;
        advanceInstance(player, p, desc, tau,
                        instanceSteps(desc, p.effect->effect.fixed_timestep_s, time_s));
    }

    if (fed_depth) world.clearSceneDepth();
    player.advance_ms = msSince(start);
    start = Clock::now();

    // The scene camera's eye is all the order needs; the renderer has the rest (frameView).
    DrawView view;
    view.eye = {eye.x, eye.y, eye.z};
    view.order_independent = player.scene.transparency == Transparency::weighted_oit;
    world.drawList(view, player.draw_list);
    const DrawList& list = player.draw_list;
    player.errors.insert(player.errors.end(), list.diagnostics().begin(), list.diagnostics().end());
    appendDrawListBatches(list, PlayerAssets(player), player.batches);
    player.particles = list.stats().particles;
    player.strip_segments = list.stats().strip_segments;
    player.sort_skipped_records = list.stats().sort_skipped_particles;
    player.device_light_emitters = 0;
    InstanceHandle read_back; // whose particles device_particles holds
    for (size_t i = 0; i < list.impl().entries.size(); ++i) {
        const DrawEntry& entry = list.impl().entries[i];
        if (!entry.device) {
            appendParticleLights(entry.particle_lights, entry.light_records, player.lights);
            continue;
        }
        if (entry.particle_lights.count == 0) continue;
        // A GPU emitter's records stay on the device: its particles are read back (the same
        // selection then runs on them, in the device's order) so its lights are not lost.
        const spindrift::DrawBatch& batch = list.batches()[i];
        if (!(read_back == batch.instance)) {
            if (world.readParticles(batch.instance, player.device_particles) !=
                RuntimeError::none) {
                player.device_particles.clear();
            }
            read_back = batch.instance;
        }
        player.device_light_records.clear();
        for (const Particle& q : player.device_particles) {
            if (q.emitter_index != batch.emitter_index) continue;
            player.device_light_records.push_back(sdDrawRecord(
                vec3(q.position.x, q.position.y, q.position.z), q.size_m,
                vec4(q.color.r, q.color.g, q.color.b, q.color.a),
                vec3(q.velocity_m_per_s.x, q.velocity_m_per_s.y, q.velocity_m_per_s.z),
                q.rotation_rad, q.normalized_age, q.flipbook_frame, q.emitter_index, q.key));
        }
        appendParticleLights(entry.particle_lights, player.device_light_records, player.lights);
        ++player.device_light_emitters;
    }
    for (const DrawList::Impl::InstancePoints& drawn : list.impl().instance_points) {
        for (PlayerInstance& p : player.instances) {
            if (p.handle == drawn.handle) p.strip_points = drawn.points;
        }
    }
    player.draw_list_ms = msSince(start);
}

void reuseAssets(const ScenePlayer& old_player, ScenePlayer& player) {
    for (PlayerTexture& t : player.textures) {
        for (const PlayerTexture& o : old_player.textures) {
            if (o.path == t.path && o.encoding == t.encoding && o.image.width == t.image.width &&
                o.image.height == t.image.height && o.image.rgba8 == t.image.rgba8) {
                t.handle = o.handle;
                break;
            }
        }
    }
    for (PlayerMesh& m : player.meshes) {
        for (const PlayerMesh& o : old_player.meshes) {
            const auto& a = o.mesh.vertices;
            const auto& b = m.mesh.vertices;
            if (o.path == m.path && a.size() == b.size() &&
                std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0) {
                m.handle = o.handle;
                break;
            }
        }
    }
}

} // namespace spindrift::render
