// What the viewer shows: one input file (a scene, or an effect in the scene framing it), played
// through the same scene player and renderer as `spindrift render`, so a frame at scene time t
// with the scene's camera is the offline render's frame at t, byte for byte.
//
// The session owns the renderer and the scene player (a client of the public runtime: an
// EffectLibrary and a World, render/scene_player.h). Time is the scene's: drawFrame(t) advances
// every instance to t with World::advanceTo, forward from the last frame or from 0 again, so a
// seek to any time is exact and costs the steps up to it. Switching backend and reloading the
// input rebuild the player and land on the same time at the next drawFrame; when the rebuild
// fails the old player stays and the failure's diagnostics are returned.
//
// Hot reload rebuilds the player from the files rather than asking the library to carry the
// running particles into the new version (EffectLibrary::pollChanges, what a game does): the
// viewer's frame is defined as a function of scene time, and a rebuilt player shows the new
// version exactly as `spindrift render --time t` of the new files does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "image/image.h"
#include "render/renderer.h"
#include "render/scene_player.h"
#include "runtime/backend_choice.h"
#include "spindrift/diagnostic.h"
#include "spindrift/scene_desc.h"

namespace spindrift::viewer {

struct SessionConfig {
    std::string input;  // a scene (.json) or an effect (.json or .sfx)
    uint32_t width = 0; // the frame's size; 0: the scene's resolution
    uint32_t height = 0;
    std::string device;      // RendererConfig::device
    bool validation = false; // RendererConfig::validation
    BackendRequest backend = BackendRequest::cpu;
    uint32_t threads = 1; // CPU-backend threads per instance
};

// Counters of the instances at the last frame, summed over instances and emitters.
struct SessionStats {
    uint32_t instances = 0;
    uint32_t gpu_instances = 0;
    uint64_t live = 0;
    uint64_t births = 0;
    uint64_t deaths = 0;
    // Births refused or replacing (pool full), sub-emitter events past the queue, planned births
    // past a step's capacity, steps past the catch-up cap.
    uint64_t drops = 0;
    uint64_t drawn = 0; // particles drawn (ScenePlayer::particles)
};

// How long each stage of the last drawFrame took.
struct StageTimes {
    double simulate_ms = 0; // playFrame: the world's steps and draw list
    double render_ms = 0;   // renderFrame, readback included
    double gpu_ms = 0;      // the renderer's passes on the device (0 when not measured)
};

class ViewerSession {
public:
    // Loads the input, creates the renderer (the scene's resolution or config's size) and the
    // player, and uploads the textures and meshes. nullptr with the diagnostics on failure.
    static std::unique_ptr<ViewerSession> open(const SessionConfig& config,
                                               std::vector<Diagnostic>& diagnostics);
    ~ViewerSession();

    // The one "draw a frame" step: plays every instance to time_s, draws the frame seen from
    // camera and reads it into out (width() x height(), sRGB RGBA8). False with the errors when
    // a GPU instance or the renderer fails.
    bool drawFrame(float time_s, const CameraPose& camera, Image& out,
                   std::vector<Diagnostic>& diagnostics);

    // Rebuilds the player from the input file as it is now (the scene and every effect, texture
    // and mesh); on failure keeps the current one and returns false with the diagnostics.
    bool reload(std::vector<Diagnostic>& diagnostics);
    // Rebuilds the player with every instance on `backend`; on failure (no device for the GPU, an
    // emitter the GPU backend cannot run) keeps the current one and returns false.
    bool switchBackend(BackendRequest backend, std::vector<Diagnostic>& diagnostics);

    const SceneDesc& scene() const { return player_->scene; }
    BackendRequest backend() const { return config_.backend; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    const std::string& deviceName() const;
    const render::Renderer& renderer() const { return *renderer_; }
    // The files the player read (the input, effects, textures, meshes): what a reload watches.
    std::vector<std::string> inputFiles() const;
    SessionStats stats() const;
    const StageTimes& stageTimes() const { return times_; }
    // Each instance's effect file name, backend and the reason it was chosen, a line each.
    std::vector<std::string> backendLines() const;

private:
    ViewerSession() = default;
    bool rebuild(BackendRequest backend, std::vector<Diagnostic>& diagnostics);

    SessionConfig config_;
    uint32_t width_ = 0;
    uint32_t height_ = 0;
    render::RendererPtr renderer_;
    std::unique_ptr<render::ScenePlayer> player_;
    StageTimes times_;
};

} // namespace spindrift::viewer
