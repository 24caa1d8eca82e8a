// What the user can do in the window: the overlay's panel (timeline, play controls, time scale,
// backend, camera style, stats, messages) and the keys and mouse over the frame. Both only
// change plain state (Playback, ViewerCamera) or ask the app for an action (ControlActions);
// the app does the work. Must run between Overlay::beginFrame and endFrame.
//
// Keys (when no overlay widget has the keyboard): Space play/pause, . or Right one frame,
// R restart, Home scene camera, Tab orbit/fly, P or F12 screenshot, H hide/show the overlay,
// B switch backend, Escape quit. Mouse over the frame: orbit style — left drag orbits, middle
// drag pans, wheel dollies; fly style — right drag looks, WASD moves (Q/E down/up, Shift faster),
// wheel dollies. Moving the scene camera makes it a free camera (orbit) where it was.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/backend_choice.h"
#include "viewer/camera.h"
#include "viewer/playback.h"
#include "viewer/viewer_session.h"

namespace spindrift::viewer {

struct ControlActions {
    bool screenshot = false;
    bool quit = false;
    bool toggle_overlay = false;
    std::optional<BackendRequest> backend; // switch every instance to this backend
};

// What the panel shows.
struct PanelView {
    double duration_s = 0;
    double fps = 30;
    BackendRequest backend = BackendRequest::cpu;
    SessionStats stats;
    StageTimes times;
    double present_ms = 0;
    double frame_ms = 0; // wall time of the whole last loop
    std::string device;
    std::vector<std::string> backend_lines;
    // Problems to show until they are gone: the last reload's or backend switch's errors.
    std::vector<std::string> messages;
    std::string status; // one line: the last thing that happened (a reload, a screenshot)
};

// Builds the panel; changes playback and camera as the user asks.
void drawPanel(const PanelView& view, Playback& playback, ViewerCamera& camera,
               const CameraPose& shown, ControlActions& actions);

// Reads the keys and the mouse over the frame (ignored while the overlay wants them): the keys
// pressed since the last frame (Window::takeKeyPresses) for the actions, the keys held and the
// mouse from ImGui's state for the camera. shown is the pose drawn last, where a free camera
// starts from. wall_dt_s scales fly movement.
void readInput(const PanelView& view, const std::vector<int>& pressed, Playback& playback,
               ViewerCamera& camera, const CameraPose& shown, double wall_dt_s,
               ControlActions& actions);

} // namespace spindrift::viewer
