#include "viewer/viewer_session.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "compiler/capabilities.h"
#include "render/render_file.h"
#include "runtime/effect_instance.h"

namespace spindrift::viewer {

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

ViewerSession::~ViewerSession() {
    // The player's GPU instances run on the renderer's device: they go first.
    player_.reset();
    renderer_.reset();
}

std::unique_ptr<ViewerSession> ViewerSession::open(const SessionConfig& config,
                                                   std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<ViewerSession> session(new ViewerSession());
    session->config_ = config;
    SceneDesc scene;
    std::string scene_file;
    if (!render::loadRenderScene(config.input, scene, scene_file, diagnostics)) return nullptr;
    session->width_ = config.width != 0 ? config.width : scene.resolution.width;
    session->height_ = config.width != 0 ? config.height : scene.resolution.height;

    render::RendererConfig renderer_config;
    renderer_config.width = session->width_;
    renderer_config.height = session->height_;
    renderer_config.device = config.device;
    renderer_config.validation = config.validation;
    session->renderer_ = render::createRenderer(renderer_config, diagnostics);
    if (!session->renderer_) return nullptr;
    if (!session->rebuild(config.backend, diagnostics)) return nullptr;
    return session;
}

bool ViewerSession::rebuild(BackendRequest backend, std::vector<Diagnostic>& diagnostics) {
    SceneDesc scene;
    std::string scene_file;
    if (!render::loadRenderScene(config_.input, scene, scene_file, diagnostics)) return false;
    // The frame keeps the size it was opened with: the renderer's targets (and the window) do not
    // follow a reloaded scene's resolution.
    scene.resolution = {width_, height_};

    render::PlayerConfig player_config;
    player_config.backend = backend;
    player_config.device = config_.device;
    player_config.validation = config_.validation;
    player_config.renderer = renderer_.get();
    player_config.threads = config_.threads;
    std::unique_ptr<render::ScenePlayer> player =
        render::createScenePlayer(scene, scene_file, player_config, diagnostics);
    if (!player) return false;
    if (player_) render::reuseAssets(*player_, *player);
    if (!render::uploadAssets(*player, *renderer_, diagnostics)) return false;
    player_ = std::move(player);
    config_.backend = backend;
    return true;
}

bool ViewerSession::reload(std::vector<Diagnostic>& diagnostics) {
    return rebuild(config_.backend, diagnostics);
}

bool ViewerSession::switchBackend(BackendRequest backend, std::vector<Diagnostic>& diagnostics) {
    return rebuild(backend, diagnostics);
}

bool ViewerSession::drawFrame(float time_s, const CameraPose& camera, Image& out,
                              std::vector<Diagnostic>& diagnostics) {
    auto start = std::chrono::steady_clock::now();
    render::FrameView view = render::frameView(player_->scene, time_s);
    view.camera = camera;
    // Real time: automatic exposure adapts from the window's previous frame (a seek or a jump
    // past 1 s starts converged).
    view.continues_previous = true;
    player_->errors.clear();
    render::playFrame(*player_, time_s, view.camera.eye);
    times_.simulate_ms = msSince(start);
    if (!player_->errors.empty()) {
        diagnostics.insert(diagnostics.end(), player_->errors.begin(), player_->errors.end());
        return false;
    }
    view.lights = player_->lights;
    view.scene_depth = player_->scene_depth; // the next frame's depth collision reads it
    start = std::chrono::steady_clock::now();
    render::FrameStats stats;
    const bool ok =
        render::renderFrame(*renderer_, view, player_->batches, out, stats, diagnostics);
    times_.render_ms = msSince(start);
    times_.gpu_ms = stats.gpu_ms;
    return ok;
}

const std::string& ViewerSession::deviceName() const {
    return render::rendererDevice(*renderer_).name;
}

std::vector<std::string> ViewerSession::inputFiles() const {
    std::vector<std::string> files = render::inputFiles(*player_);
    if (std::find(files.begin(), files.end(), config_.input) == files.end())
        files.insert(files.begin(), config_.input);
    return files;
}

SessionStats ViewerSession::stats() const {
    SessionStats s;
    std::vector<EmitterStatistics> emitters;
    for (const render::PlayerInstance& p : player_->instances) {
        if (p.simulation == nullptr) continue;
        ++s.instances;
        if (p.simulation->backend.backend != Backend::cpu) ++s.gpu_instances;
        emitterStatistics(*p.simulation, emitters);
        for (const EmitterStatistics& e : emitters) {
            s.live += e.live;
            s.births += e.births;
            s.deaths += e.deaths;
            s.drops += overflows(e) + e.events_dropped;
        }
        const DriverStats& driver = driverStatistics(*p.simulation);
        s.drops += driver.dropped_births + driver.discarded_steps;
    }
    s.drawn = player_->particles;
    return s;
}

std::vector<std::string> ViewerSession::backendLines() const {
    std::vector<std::string> lines;
    for (const render::PlayerInstance& p : player_->instances) {
        if (p.simulation == nullptr) continue;
        // The file's name: the panel is narrow, and the full path is in every diagnostic.
        lines.push_back(std::filesystem::path(p.effect_file).filename().string() + ": " +
                        std::string(backendName(p.simulation->backend.backend)) + " (" +
                        p.simulation->backend.reason + ")");
    }
    return lines;
}

} // namespace spindrift::viewer
