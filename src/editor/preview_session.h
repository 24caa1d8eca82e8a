// The editor's live preview: the document being edited, played by the public runtime and drawn by
// Spindrift's own renderer, exactly as `spindrift render` plays and draws an effect. The session
// holds a renderer (640x360 by default, offscreen, on the machine's Vulkan device: a GPU, or
// lavapipe) and a scene player (render/scene_player.h: an EffectLibrary and a World with one
// instance of the document's effect at the origin, in the scene defaultSceneForEffect frames).
//
// Document. setDocument checks the text (document_check.h); a valid one replaces what is played
// and lands on the same time, an invalid one changes nothing that is played: the last valid
// version keeps playing and the answer says so. The version played is the document with the
// preview's solo and mute applied (emitters switched off, `enabled: false`) and each texture and
// mesh path made absolute; it is written to the session's private folder, since the player reads
// an effect file. A texture or mesh that resolves outside the edited folder is refused.
//
// Clock. The preview's time is the instance's time. Each frame while playing adds the wall time
// since the last frame times the time scale (at most kMaxFrameAdvance_s a frame); the instance is
// then advanced to it with World::advanceTo — whole fixed steps, from the last frame, or from 0
// again for an earlier time — so seek is exact: the frame at time t shows the state after the
// whole steps that fit in t, the state `spindrift simulate --time` reports for that time. A
// one-shot effect starts over once its last particle can have died, any effect after
// kMaxPreviewTime_s.
//
// Not thread-safe: the server calls it under one lock.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "editor/file_root.h"
#include "render/renderer.h"
#include "render/scene_player.h"
#include "runtime/backend_choice.h"
#include "spindrift/diagnostic.h"

namespace spindrift::editor {

inline constexpr uint32_t kPreviewWidth = 640;
inline constexpr uint32_t kPreviewHeight = 360;
inline constexpr double kMaxFrameAdvance_s = 0.25;
// The latest time the preview plays or seeks to: the cost of a seek is the steps up to it.
inline constexpr double kMaxPreviewTime_s = 600;
// The most particles (the sum of the previewed emitters' capacities) the preview allocates: a
// valid document may ask for 2^27 per emitter, which would take the server's memory. Past it the
// preview refuses the version with an error at $.emitters[i].capacity and keeps the last one.
inline constexpr uint64_t kMaxPreviewParticles = uint64_t{1} << 21;

struct PreviewConfig {
    uint32_t width = kPreviewWidth;
    uint32_t height = kPreviewHeight;
    std::string device; // RendererConfig::device
};

// The orbit camera: about target, yaw from +Z toward +X, pitch above the horizon.
struct PreviewCamera {
    float yaw_deg = 0;
    float pitch_deg = 15;
    float distance_m = 6;
    Float3 target{0, 1, 0};
};

class PreviewSession {
public:
    // Creates the renderer and the private folder. nullptr with the reason on failure.
    static std::unique_ptr<PreviewSession> create(const FileRoot& root, const PreviewConfig& config,
                                                  std::string& error);
    ~PreviewSession();

    // The document at `file` (relative to the root; textures resolve against its folder).
    // Returns {valid, previewing ("document", "last valid version" or "nothing"), diagnostics}.
    nlohmann::json setDocument(std::string_view text, std::string_view file);
    // Emitters by authored name that the preview leaves out (mute) or keeps alone (solo, "" for
    // none). Replays the last valid document.
    nlohmann::json setEmitterFilter(std::vector<std::string> muted, std::string solo);

    void play();
    void pause();
    void restart();
    void step(); // pauses, then one fixed step forward
    bool setTimeScale(double scale);
    bool seek(double time_s); // pauses; exact
    bool setCamera(float yaw_deg, float pitch_deg, float distance_m);
    void frameEffect(); // the camera back to the document's default framing
    void setGround(bool on);
    // The background behind the effect: "scene" (the default scene's), "black", "grey" or
    // "light". False for another name.
    bool setBackground(std::string_view name);
    // The gizmos (gizmo_lines.h), drawn by the renderer into the frame when on; `selected` names
    // the emitter drawn brighter ("" for none). Off by default: the page asks.
    void setGizmos(bool on, std::string selected);
    // Rebuilds on the backend; false (and the old backend kept) with the reason when it cannot.
    bool setBackend(BackendRequest backend, std::string& error);

    // Draws the frame at the current time: a PNG and the statistics. A paused preview whose state
    // did not change returns the previous frame without drawing. False with the reason when
    // there is nothing to draw (no valid document yet) or the renderer failed.
    bool frame(std::vector<uint8_t>& png, nlohmann::json& stats, std::string& error);
    nlohmann::json stats() const;
    bool hasEffect() const { return player_ != nullptr; }

private:
    PreviewSession() = default;
    nlohmann::json rebuild();
    bool previewEffect(EffectDesc& effect, std::vector<Diagnostic>& diagnostics) const;
    double instanceTime() const;
    double fixedStep() const;

    const FileRoot* root_ = nullptr;
    PreviewConfig config_;
    std::filesystem::path private_dir_;
    render::RendererPtr renderer_;
    std::unique_ptr<render::ScenePlayer> player_;
    SceneDesc scene_;

    // The last document set, and the last valid one (what is played).
    std::string file_;
    std::string valid_text_;
    std::string valid_file_;
    bool last_valid_ = false;
    std::vector<Diagnostic> last_diagnostics_;
    std::vector<std::string> muted_;
    std::string solo_;
    uint64_t version_ = 0; // valid documents played so far

    BackendRequest backend_ = BackendRequest::cpu;
    PreviewCamera camera_;
    bool camera_set_ = false; // the user moved the camera: edits keep it
    bool ground_ = true;
    std::string background_ = "scene";
    bool gizmos_ = false;
    std::string gizmo_selected_;
    std::vector<render::OverlayLine> gizmo_lines_; // the last frame's (reused)
    bool playing_ = true;
    double time_s_ = 0;
    double time_scale_ = 1;
    double end_s_ = 0; // a one-shot effect starts over past this; 0 when looping
    int64_t last_frame_ns_ = 0;
    bool dirty_ = true;
    std::vector<uint8_t> last_png_;
    double simulate_ms_ = 0, render_ms_ = 0, encode_ms_ = 0;
    double advance_ms_ = 0, draw_list_ms_ = 0, gpu_ms_ = 0, gpu_post_ms_ = 0; // of the above
    StepTimes step_times_; // the stages inside the last frame's steps (of advance_ms_)
    uint64_t frames_drawn_ = 0;
    // The cost of the last frame's advance (World::lastSeekCost): fixed steps run; where they ran
    // from ("start": time 0, "checkpoint": a seek checkpoint restored, "current": on from the
    // last frame, "none": no step) and its step; whether they replayed from time 0 going back (a
    // seek backwards without a checkpoint before it, a restart, a rebuilt player). The world's
    // checkpoints of the instance after it.
    uint64_t frame_steps_ = 0;
    bool frame_replayed_ = false;
    uint64_t frame_resumed_from_ = 0;
    std::string frame_origin_ = "none";
    uint64_t checkpoints_ = 0;
    uint64_t checkpoint_bytes_ = 0;
};

BackendRequest parseBackend(std::string_view name, bool& ok);

} // namespace spindrift::editor
