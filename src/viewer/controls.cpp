#include "viewer/controls.h"

#include <cinttypes>
#include <cstdio>

#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace spindrift::viewer {

namespace {

// Fly speed, in metres per second per metre of distance to the target: the scale of the scene
// sets the pace.
constexpr float kFlySpeedPerMetre = 0.8f;
constexpr float kFlyFastFactor = 4.0f;

// A free camera where the scene camera is, the first time the user moves it.
void freeCamera(ViewerCamera& camera, const CameraPose& shown, CameraMode mode) {
    if (camera.mode == CameraMode::scene) camera = freeCameraFrom(shown, mode);
    camera.mode = mode;
}

BackendRequest otherBackend(BackendRequest b) {
    return b == BackendRequest::cpu ? BackendRequest::gpu : BackendRequest::cpu;
}

const char* backendLabel(BackendRequest b) {
    return b == BackendRequest::cpu ? "cpu" : b == BackendRequest::gpu ? "gpu" : "auto";
}

} // namespace

void drawPanel(const PanelView& view, Playback& playback, ViewerCamera& camera,
               const CameraPose& shown, ControlActions& actions) {
    ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("spindrift view", nullptr, ImGuiWindowFlags_AlwaysAutoResize);

    float t = float(playback.time_s);
    if (ImGui::SliderFloat("time (s)", &t, 0.0f, float(view.duration_s), "%.3f"))
        seekTo(playback, t, view.duration_s);
    if (ImGui::Button(playback.playing ? "pause" : "play")) playback.playing = !playback.playing;
    ImGui::SameLine();
    if (ImGui::Button("step")) stepFrame(playback, view.fps, view.duration_s);
    ImGui::SameLine();
    if (ImGui::Button("restart")) restart(playback);
    ImGui::SameLine();
    ImGui::Checkbox("loop", &playback.loop);
    float scale = playback.time_scale;
    if (ImGui::SliderFloat("time scale", &scale, kMinTimeScale, kMaxTimeScale, "%.2f"))
        setTimeScale(playback, scale);

    int backend = view.backend == BackendRequest::gpu ? 1 : 0;
    ImGui::Text("backend");
    ImGui::SameLine();
    if (ImGui::RadioButton("cpu", &backend, 0) && view.backend != BackendRequest::cpu)
        actions.backend = BackendRequest::cpu;
    ImGui::SameLine();
    if (ImGui::RadioButton("gpu", &backend, 1) && view.backend != BackendRequest::gpu)
        actions.backend = BackendRequest::gpu;

    int mode = int(camera.mode);
    ImGui::Text("camera ");
    ImGui::SameLine();
    if (ImGui::RadioButton("scene", &mode, 0)) camera.mode = CameraMode::scene;
    ImGui::SameLine();
    if (ImGui::RadioButton("orbit", &mode, 1)) freeCamera(camera, shown, CameraMode::orbit);
    ImGui::SameLine();
    if (ImGui::RadioButton("fly", &mode, 2)) freeCamera(camera, shown, CameraMode::fly);
    if (ImGui::Button("screenshot")) actions.screenshot = true;

    ImGui::Separator();
    const SessionStats& s = view.stats;
    ImGui::Text("live %" PRIu64 "  drawn %" PRIu64, s.live, s.drawn);
    ImGui::Text("births %" PRIu64 "  deaths %" PRIu64 "  drops %" PRIu64, s.births, s.deaths,
                s.drops);
    ImGui::Text("instances %u (%u on the gpu)", s.instances, s.gpu_instances);
    ImGui::Text("ms: simulate %.2f  render %.2f (gpu %.2f)  present %.2f  frame %.2f",
                view.times.simulate_ms, view.times.render_ms, view.times.gpu_ms, view.present_ms,
                view.frame_ms);
    ImGui::Text("device: %s, backend request %s", view.device.c_str(), backendLabel(view.backend));
    for (const std::string& line : view.backend_lines) ImGui::TextUnformatted(line.c_str());
    if (!view.status.empty()) ImGui::TextUnformatted(view.status.c_str());
    for (const std::string& m : view.messages)
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", m.c_str());
    ImGui::End();
}

void readInput(const PanelView& view, const std::vector<int>& pressed, Playback& playback,
               ViewerCamera& camera, const CameraPose& shown, double wall_dt_s,
               ControlActions& actions) {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantCaptureKeyboard) {
        for (const int key : pressed) {
            switch (key) {
            case GLFW_KEY_SPACE:
                playback.playing = !playback.playing;
                break;
            case GLFW_KEY_PERIOD:
            case GLFW_KEY_RIGHT:
                stepFrame(playback, view.fps, view.duration_s);
                break;
            case GLFW_KEY_R:
                restart(playback);
                break;
            case GLFW_KEY_HOME:
                camera.mode = CameraMode::scene;
                break;
            case GLFW_KEY_TAB:
                freeCamera(camera, shown,
                           camera.mode == CameraMode::orbit ? CameraMode::fly : CameraMode::orbit);
                break;
            case GLFW_KEY_P:
            case GLFW_KEY_F12:
                actions.screenshot = true;
                break;
            case GLFW_KEY_H:
                actions.toggle_overlay = true;
                break;
            case GLFW_KEY_B:
                actions.backend = otherBackend(view.backend);
                break;
            case GLFW_KEY_ESCAPE:
                actions.quit = true;
                break;
            default:
                break;
            }
        }
        if (camera.mode == CameraMode::fly) {
            float speed = kFlySpeedPerMetre * camera.distance_m * float(wall_dt_s);
            if (ImGui::IsKeyDown(GLFW_KEY_LEFT_SHIFT)) speed *= kFlyFastFactor;
            auto axis = [](int plus, int minus) {
                return (ImGui::IsKeyDown(plus) ? 1.0f : 0.0f) -
                       (ImGui::IsKeyDown(minus) ? 1.0f : 0.0f);
            };
            moveBy(camera, axis(GLFW_KEY_D, GLFW_KEY_A) * speed,
                   axis(GLFW_KEY_E, GLFW_KEY_Q) * speed, axis(GLFW_KEY_W, GLFW_KEY_S) * speed);
        }
    }
    if (io.WantCaptureMouse) return;
    const float dx = io.MouseDelta.x;
    const float dy = io.MouseDelta.y;
    const bool moved = dx != 0 || dy != 0;
    if (io.MouseWheel != 0) {
        freeCamera(camera, shown,
                   camera.mode == CameraMode::fly ? CameraMode::fly : CameraMode::orbit);
        dollyBy(camera, io.MouseWheel);
    }
    if (!moved) return;
    if (io.MouseDown[0] && camera.mode != CameraMode::fly) {
        freeCamera(camera, shown, CameraMode::orbit);
        orbitBy(camera, dx, dy);
    } else if (io.MouseDown[2]) {
        freeCamera(camera, shown,
                   camera.mode == CameraMode::fly ? CameraMode::fly : CameraMode::orbit);
        panBy(camera, dx, dy);
    } else if (io.MouseDown[1]) {
        freeCamera(camera, shown, CameraMode::fly);
        lookBy(camera, dx, dy);
    }
}

} // namespace spindrift::viewer
