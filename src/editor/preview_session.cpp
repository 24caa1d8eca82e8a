#include "editor/preview_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

#include "compiler/compiled_effect.h"
#include "editor/document_check.h"
#include "editor/gizmo_lines.h"
#include "image/png_io.h"
#include "runtime/effect_instance.h"
#include "spindrift/effect_json.h"
#include "spindrift/scene_desc.h"

namespace spindrift::editor {

namespace fs = std::filesystem;

namespace {

int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double msSince(int64_t start_ns) {
    return static_cast<double>(nowNs() - start_ns) / 1e6;
}

const char* backendWord(BackendRequest b) {
    switch (b) {
    case BackendRequest::cpu:
        return "cpu";
    case BackendRequest::gpu:
        return "gpu";
    case BackendRequest::automatic:
        return "auto";
    }
    return "cpu";
}

// The stages inside the frame's fixed steps (World::takeStepTimes), of the stats' `advance`; draw
// records are of `draw_list`. A GPU instance's stages are device times (`gpu`), taken when its
// submissions finish: with the renderer's asynchronous frames they come a frame or two after
// their steps (`pending` submissions not in yet), so the panel shows what has come in.
nlohmann::json stepTimesJson(const StepTimes& t) {
    nlohmann::json j;
    j["timed"] = t.timed;
    j["gpu_untimed"] = t.gpu_untimed;
    if (t.timed) {
        j["steps"] = t.steps;
        j["step"] = t.step_ms;
        j["plan"] = t.plan_ms;
        j["update"] = t.update_ms;
        j["collision"] = t.collision_ms;
        j["deaths"] = t.deaths_ms;
        j["births"] = t.births_ms;
        j["draw_records"] = t.draw_records_ms;
    }
    if (t.gpu_timed) {
        nlohmann::json& g = j["gpu"];
        g["steps"] = t.gpu_steps;
        g["steps_untimed"] = t.gpu_steps_untimed;
        g["pending"] = t.gpu_pending_submissions;
        g["plan"] = t.gpu_plan_ms;
        g["step"] = t.gpu_step_ms;
        g["update"] = t.gpu_update_ms;
        g["events"] = t.gpu_events_ms;
        g["births"] = t.gpu_births_ms;
        g["order"] = t.gpu_order_ms;
        g["draw_outputs"] = t.gpu_draw_outputs;
        g["draw_records"] = t.gpu_draw_records_ms;
    }
    return j;
}

} // namespace

BackendRequest parseBackend(std::string_view name, bool& ok) {
    ok = true;
    if (name == "cpu") return BackendRequest::cpu;
    if (name == "gpu") return BackendRequest::gpu;
    if (name == "auto") return BackendRequest::automatic;
    ok = false;
    return BackendRequest::cpu;
}

std::unique_ptr<PreviewSession>
PreviewSession::create(const FileRoot& root, const PreviewConfig& config, std::string& error) {
    std::unique_ptr<PreviewSession> session(new PreviewSession());
    session->root_ = &root;
    session->config_ = config;
    std::string pattern = (fs::temp_directory_path() / "spindrift-edit-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
        error = "cannot make the preview's private folder in " + fs::temp_directory_path().string();
        return nullptr;
    }
    session->private_dir_ = pattern;
    render::RendererConfig renderer_config;
    renderer_config.width = config.width;
    renderer_config.height = config.height;
    renderer_config.device = config.device;
    std::vector<Diagnostic> diagnostics;
    session->renderer_ = render::createRenderer(renderer_config, diagnostics);
    if (!session->renderer_) {
        error =
            diagnostics.empty() ? "the renderer could not start" : formatDiagnostic(diagnostics[0]);
        return nullptr;
    }
    return session;
}

PreviewSession::~PreviewSession() {
    // The player's GPU instances run on the renderer's device: they go first.
    player_.reset();
    renderer_.reset();
    std::error_code ec;
    if (!private_dir_.empty()) fs::remove_all(private_dir_, ec);
}

// The version the preview plays: solo and mute applied, texture and mesh paths absolute (and
// inside the folder).
bool PreviewSession::previewEffect(EffectDesc& effect, std::vector<Diagnostic>& diagnostics) const {
    const fs::path folder = (root_->root() / fs::path(valid_file_)).parent_path();
    bool ok = true;
    for (size_t i = 0; i < effect.emitters.size(); ++i) {
        EmitterDesc& e = effect.emitters[i];
        const bool muted = std::find(muted_.begin(), muted_.end(), e.name) != muted_.end();
        if (muted || (!solo_.empty() && e.name != solo_)) e.enabled = false;
        for (auto [asset, key] :
             {std::pair{&e.render.texture, "texture"}, std::pair{&e.render.mesh.mesh, "mesh"}}) {
            if (asset->empty()) continue;
            const fs::path path = folder / fs::path(*asset);
            if (!root_->contains(path)) {
                diagnostics.push_back(
                    {Severity::error, valid_file_, 0, 0, 0,
                     "$.emitters[" + std::to_string(i) + "].render." + key,
                     "'" + *asset +
                         "' is outside the edited folder: the editor opens no file there"});
                ok = false;
                continue;
            }
            *asset = fs::weakly_canonical(path).string();
        }
    }
    bool any = false;
    uint64_t particles = 0;
    for (size_t i = 0; i < effect.emitters.size(); ++i) {
        const EmitterDesc& e = effect.emitters[i];
        any = any || e.enabled;
        if (!e.enabled) continue;
        particles += e.capacity;
        if (particles > kMaxPreviewParticles) {
            diagnostics.push_back(
                {Severity::error, valid_file_, 0, 0, 0,
                 "$.emitters[" + std::to_string(i) + "].capacity",
                 "the previewed emitters hold more than " + std::to_string(kMaxPreviewParticles) +
                     " particles in all: too many for the editor's preview (mute some, or lower "
                     "capacity)"});
            ok = false;
            break;
        }
    }
    if (!any) {
        diagnostics.push_back({Severity::error, valid_file_, 0, 0, 0, "$.emitters",
                               "solo and mute leave no emitter to preview"});
        ok = false;
    }
    return ok;
}

nlohmann::json PreviewSession::rebuild() {
    std::vector<Diagnostic> diagnostics;
    EffectDesc effect;
    std::vector<Diagnostic> load_diagnostics;
    bool ok = loadEffect(valid_text_, valid_file_, effect, load_diagnostics) &&
              previewEffect(effect, diagnostics);
    std::unique_ptr<render::ScenePlayer> player;
    SceneDesc scene;
    const fs::path file = private_dir_ / "preview.json";
    if (ok) {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out << saveEffect(effect);
        ok = static_cast<bool>(out);
        if (!ok)
            diagnostics.push_back({Severity::error, valid_file_, 0, 0, 0, "",
                                   "cannot write the preview's copy of the effect"});
    }
    if (ok) {
        scene = defaultSceneForEffect(effect, file.string());
        scene.resolution = {config_.width, config_.height};
        render::PlayerConfig player_config;
        player_config.backend = backend_;
        player_config.renderer = renderer_.get();
        player_config.device = config_.device;
        player_config.seek_checkpoints = true; // the play head is scrubbed back and forth
        std::vector<Diagnostic> player_diagnostics;
        player = render::createScenePlayer(scene, "", player_config, player_diagnostics);
        for (Diagnostic& d : player_diagnostics) {
            if (d.file == file.string()) d.file = valid_file_;
            diagnostics.push_back(std::move(d));
        }
        if (player) {
            if (player_) render::reuseAssets(*player_, *player);
            if (!render::uploadAssets(*player, *renderer_, diagnostics)) player.reset();
        }
        ok = player != nullptr;
    }
    if (ok) {
        player_ = std::move(player);
        // The statistics show the stages inside the steps (World::takeStepTimes).
        player_->world->setStepTiming(player_->instances[0].handle, true);
        step_times_ = {};
        scene_ = scene;
        ++version_;
        dirty_ = true;
        const CompiledEffect& compiled = *player_->instances[0].effect;
        end_s_ = effect.looping
                     ? 0.0
                     : static_cast<double>(effect.duration_s) +
                           static_cast<double>(render::longestChainTime(compiled)) + 0.25;
        if (!camera_set_) frameEffect();
    }
    nlohmann::json out;
    out["ok"] = ok;
    out["diagnostics"] = diagnosticsJson(diagnostics);
    return out;
}

nlohmann::json PreviewSession::setDocument(std::string_view text, std::string_view file) {
    DocumentCheck check = checkDocument(text, file);
    file_ = std::string(file);
    last_valid_ = check.valid;
    nlohmann::json out;
    out["valid"] = check.valid;
    nlohmann::json diagnostics = diagnosticsJson(check.diagnostics);
    if (check.valid && (text != valid_text_ || file_ != valid_file_ || !player_)) {
        const std::string old_text = valid_text_;
        const std::string old_file = valid_file_;
        // Another file is framed afresh; edits of the same file keep the user's camera.
        if (file_ != old_file) camera_set_ = false;
        valid_text_ = std::string(text);
        valid_file_ = file_;
        nlohmann::json built = rebuild();
        for (const auto& d : built["diagnostics"]) diagnostics.push_back(d);
        if (!built["ok"].get<bool>()) {
            // Valid as a document but not playable here (a missing texture, a GPU refusal): the
            // last playable version stays.
            out["valid"] = false;
            last_valid_ = false;
            valid_text_ = old_text;
            valid_file_ = old_file;
        }
    }
    if (!last_valid_ && file_ != valid_file_ && player_) {
        // The last valid version is another file's: show nothing rather than that.
        player_.reset();
        valid_text_.clear();
        valid_file_.clear();
        last_png_.clear();
    }
    out["diagnostics"] = diagnostics;
    out["previewing"] = !player_ ? "nothing" : (last_valid_ ? "document" : "last valid version");
    out["version"] = version_;
    return out;
}

nlohmann::json PreviewSession::setEmitterFilter(std::vector<std::string> muted, std::string solo) {
    muted_ = std::move(muted);
    solo_ = std::move(solo);
    if (valid_text_.empty()) return {{"ok", true}, {"diagnostics", nlohmann::json::array()}};
    return rebuild();
}

double PreviewSession::fixedStep() const {
    return player_ ? static_cast<double>(player_->instances[0].effect->effect.fixed_timestep_s)
                   : 1.0 / 60.0;
}

double PreviewSession::instanceTime() const {
    if (!player_ || player_->instances.empty() || !player_->instances[0].simulation) return 0;
    return static_cast<double>(player_->instances[0].simulation->steps_run) * fixedStep();
}

void PreviewSession::play() {
    playing_ = true;
    last_frame_ns_ = 0;
    dirty_ = true;
}

void PreviewSession::pause() {
    playing_ = false;
    dirty_ = true;
}

void PreviewSession::restart() {
    time_s_ = 0;
    last_frame_ns_ = 0;
    dirty_ = true;
}

void PreviewSession::step() {
    playing_ = false;
    // The next whole step after the one shown (a quarter step past it against rounding).
    const double dt = fixedStep();
    time_s_ = (std::floor(time_s_ / dt + 0.001) + 1.25) * dt;
    dirty_ = true;
}

bool PreviewSession::setTimeScale(double scale) {
    if (!std::isfinite(scale) || scale < 0 || scale > 100) return false;
    time_scale_ = scale;
    return true;
}

bool PreviewSession::seek(double time_s) {
    if (!std::isfinite(time_s) || time_s < 0 || time_s > kMaxPreviewTime_s) return false;
    playing_ = false;
    time_s_ = time_s;
    dirty_ = true;
    return true;
}

bool PreviewSession::setCamera(float yaw_deg, float pitch_deg, float distance_m) {
    if (!std::isfinite(yaw_deg) || !std::isfinite(pitch_deg) || !std::isfinite(distance_m) ||
        distance_m <= 0.01f || distance_m > 1000 || std::fabs(pitch_deg) > 89)
        return false;
    camera_.yaw_deg = std::fmod(yaw_deg, 360.0f);
    camera_.pitch_deg = pitch_deg;
    camera_.distance_m = distance_m;
    camera_set_ = true;
    dirty_ = true;
    return true;
}

void PreviewSession::frameEffect() {
    camera_set_ = false;
    dirty_ = true;
    if (!player_) return;
    // The default scene's look-at camera as yaw, pitch and distance about its target.
    const CameraPose pose = cameraPose(scene_.camera, 0);
    const float dx = pose.eye.x - pose.target.x;
    const float dy = pose.eye.y - pose.target.y;
    const float dz = pose.eye.z - pose.target.z;
    const float distance = std::sqrt(dx * dx + dy * dy + dz * dz);
    camera_.target = pose.target;
    camera_.distance_m = distance > 0.01f ? distance : 6.0f;
    camera_.pitch_deg = distance > 0.01f ? std::asin(dy / distance) * 57.29578f : 15.0f;
    camera_.yaw_deg = std::atan2(dx, dz) * 57.29578f;
}

void PreviewSession::setGround(bool on) {
    ground_ = on;
    dirty_ = true;
}

void PreviewSession::setGizmos(bool on, std::string selected) {
    gizmos_ = on;
    gizmo_selected_ = std::move(selected);
    dirty_ = true;
}

bool PreviewSession::setBackground(std::string_view name) {
    if (name != "scene" && name != "black" && name != "grey" && name != "light") return false;
    background_ = std::string(name);
    dirty_ = true;
    return true;
}

bool PreviewSession::setBackend(BackendRequest backend, std::string& error) {
    const BackendRequest old = backend_;
    backend_ = backend;
    if (valid_text_.empty()) return true;
    nlohmann::json built = rebuild();
    if (!built["ok"].get<bool>()) {
        backend_ = old;
        error = "the " + std::string(backendWord(backend)) + " backend cannot run this effect";
        for (const auto& d : built["diagnostics"]) error += "\n" + d["text"].get<std::string>();
        rebuild();
        return false;
    }
    return true;
}

bool PreviewSession::frame(std::vector<uint8_t>& png, nlohmann::json& stats, std::string& error) {
    if (!player_) {
        error = "no valid effect to preview yet";
        return false;
    }
    const int64_t now = nowNs();
    if (playing_) {
        if (last_frame_ns_ != 0) {
            const double wall_s = static_cast<double>(now - last_frame_ns_) / 1e9;
            time_s_ += std::min(wall_s, kMaxFrameAdvance_s) * time_scale_;
        }
        if (end_s_ > 0 && time_s_ > end_s_) time_s_ = 0;
        if (time_s_ > kMaxPreviewTime_s) time_s_ = 0; // a looping effect starts over too
        dirty_ = true;
    }
    last_frame_ns_ = now;
    if (!dirty_ && !last_png_.empty()) {
        png = last_png_;
        stats = this->stats();
        return true;
    }

    const float pitch = camera_.pitch_deg * 0.0174532925f;
    const float yaw = camera_.yaw_deg * 0.0174532925f;
    const Float3 t = camera_.target;
    const float d = camera_.distance_m;
    CameraPose pose;
    pose.target = t;
    pose.eye = {t.x + d * std::cos(pitch) * std::sin(yaw), t.y + d * std::sin(pitch),
                t.z + d * std::cos(pitch) * std::cos(yaw)};
    pose.up = {0, 1, 0};

    int64_t start = nowNs();
    const float time_s = static_cast<float>(time_s_);
    render::FrameView view = render::frameView(scene_, time_s);
    view.camera = pose;
    view.ground.enabled = ground_ && scene_.ground.enabled;
    if (background_ == "black") view.background = {0, 0, 0};
    if (background_ == "grey") view.background = {0.18f, 0.18f, 0.18f};
    if (background_ == "light") view.background = {0.6f, 0.6f, 0.65f};
    view.continues_previous = playing_;
    player_->errors.clear();
    const EffectInstance* sim = player_->instances[0].simulation;
    const uint64_t steps_before = sim ? sim->steps_run : 0;
    render::playFrame(*player_, time_s, view.camera.eye);
    simulate_ms_ = msSince(start);
    const uint64_t steps_after = sim ? sim->steps_run : 0;
    // What the frame's advance cost (World::lastSeekCost): a seek backwards resumes from the
    // latest seek checkpoint before the time (CPU backend) or replays from time 0.
    frame_origin_ = "none";
    frame_steps_ = 0;
    frame_resumed_from_ = 0;
    frame_replayed_ = false;
    SeekCost cost;
    if (sim != nullptr && steps_after != steps_before &&
        player_->world->lastSeekCost(player_->instances[0].handle, cost) == RuntimeError::none) {
        frame_steps_ = cost.steps_replayed;
        frame_resumed_from_ = cost.resumed_from_step;
        frame_replayed_ = cost.origin == SeekOrigin::start && steps_after < steps_before;
        frame_origin_ = cost.origin == SeekOrigin::start        ? "start"
                        : cost.origin == SeekOrigin::checkpoint ? "checkpoint"
                                                                : "current";
        checkpoints_ = cost.checkpoint_count;
        checkpoint_bytes_ = cost.checkpoint_bytes;
    }
    std::vector<Diagnostic> diagnostics;
    if (!player_->errors.empty()) {
        error = formatDiagnostic(player_->errors[0]);
        return false;
    }
    view.lights = player_->lights;
    view.scene_depth = player_->scene_depth; // the next frame's depth collision reads it
    gizmo_lines_.clear();
    if (gizmos_) {
        appendGizmoLines(*player_->instances[0].effect,
                         render::instanceTransform(scene_.effects[0], time_s), gizmo_selected_,
                         gizmo_lines_);
        view.overlay = gizmo_lines_;
    }
    start = nowNs();
    Image image;
    render::FrameStats frame_stats;
    if (!render::renderFrame(*renderer_, view, player_->batches, image, frame_stats, diagnostics)) {
        error = diagnostics.empty() ? "the renderer failed" : formatDiagnostic(diagnostics[0]);
        return false;
    }
    render_ms_ = msSince(start);
    player_->world->takeStepTimes(player_->instances[0].handle, step_times_);
    advance_ms_ = player_->advance_ms;
    draw_list_ms_ = player_->draw_list_ms;
    gpu_ms_ = frame_stats.gpu_ms;
    gpu_post_ms_ = frame_stats.gpu_post_ms;
    start = nowNs();
    PngEncoding encoding;
    encoding.level = 1;
    encoding.filter = PngFilter::sub;
    if (!encodePng(image, "preview.png", png, diagnostics, encoding)) {
        error = diagnostics.empty() ? "PNG encoding failed" : formatDiagnostic(diagnostics[0]);
        return false;
    }
    encode_ms_ = msSince(start);
    last_png_ = png;
    dirty_ = false;
    ++frames_drawn_;
    stats = this->stats();
    return true;
}

nlohmann::json PreviewSession::stats() const {
    nlohmann::json s;
    s["playing"] = playing_;
    s["time_scale"] = time_scale_;
    s["requested_time_s"] = time_s_;
    s["backend_request"] = backendWord(backend_);
    s["ground"] = ground_;
    s["background"] = background_;
    s["gizmos"] = {{"on", gizmos_}, {"selected", gizmo_selected_}, {"lines", gizmo_lines_.size()}};
    s["camera"] = {{"yaw_deg", camera_.yaw_deg},
                   {"pitch_deg", camera_.pitch_deg},
                   {"distance_m", camera_.distance_m},
                   {"target", {camera_.target.x, camera_.target.y, camera_.target.z}},
                   {"fov_deg", scene_.camera.fov_deg},
                   {"near_m", scene_.camera.near}};
    s["version"] = version_;
    s["file"] = valid_file_;
    s["previewing"] = !player_ ? "nothing" : (last_valid_ ? "document" : "last valid version");
    // Per stage: simulate = advance (the fixed steps) + draw_list (batches, lights) + what the
    // player does around them; render is the frame on the host and device, waited for, of which
    // gpu is the device's own time (timestamps; 0 where unsupported) and gpu_post the HDR post's
    // part of it; encode the PNG.
    s["ms"] = {{"simulate", simulate_ms_}, {"advance", advance_ms_}, {"draw_list", draw_list_ms_},
               {"render", render_ms_},     {"gpu", gpu_ms_},         {"gpu_post", gpu_post_ms_},
               {"encode", encode_ms_}};
    s["step_ms"] = stepTimesJson(step_times_);
    s["frames_drawn"] = frames_drawn_;
    s["frame_steps"] = frame_steps_;
    s["frame_replayed_from_zero"] = frame_replayed_;
    s["frame_resumed_from_step"] = frame_resumed_from_;
    s["frame_origin"] = frame_origin_;
    s["seek_checkpoints"] = {{"count", checkpoints_}, {"bytes", checkpoint_bytes_}};
    s["emitters"] = nlohmann::json::array();
    if (!player_ || player_->instances.empty() || !player_->instances[0].simulation) return s;
    const EffectInstance& sim = *player_->instances[0].simulation;
    const CompiledEffect& compiled = *sim.effect;
    s["time_s"] = instanceTime();
    s["fixed_timestep_s"] = fixedStep();
    s["steps"] = sim.steps_run;
    s["duration_s"] = compiled.effect.duration_s;
    s["looping"] = (compiled.effect.flags & kEffectFlagLooping) != 0;
    s["end_s"] = end_s_;
    const DriverStats& driver = driverStatistics(sim);
    s["discarded_steps"] = driver.discarded_steps;
    s["discarded_s"] = driver.discarded_s;
    s["dropped_births"] = driver.dropped_births;
    s["backend"] = std::string(backendName(sim.backend.backend));
    s["backend_reason"] = sim.backend.reason;
    std::vector<EmitterStatistics> rows;
    emitterStatistics(sim, rows);
    uint64_t live = 0;
    for (uint32_t e = 0; e < rows.size() && e < compiled.emitters.size(); ++e) {
        const EmitterRecord& record = compiled.emitters[e];
        const Backend backend =
            e < sim.backend.emitters.size() ? sim.backend.emitters[e] : sim.backend.backend;
        live += rows[e].live;
        s["emitters"].push_back(
            {{"name", std::string(stringAt(compiled, record.name_offset, record.name_length))},
             {"live", rows[e].live},
             {"births", rows[e].births},
             {"deaths", rows[e].deaths},
             {"drops", overflows(rows[e]) + rows[e].events_dropped},
             {"capacity", record.capacity},
             {"capacity_use",
              record.capacity ? static_cast<double>(rows[e].live) / record.capacity : 0.0},
             {"backend", std::string(backendName(backend))}});
    }
    s["live"] = live;
    s["drawn"] = player_->particles;
    return s;
}

} // namespace spindrift::editor
