// `spindrift view`: the real-time window (docs/viewer.md). Opens the input in a ViewerSession,
// shows it in a GLFW window through the Presenter with the Overlay over it, and runs the loop:
// input, clock, hot reload, draw, present.
#pragma once

#include <cstdint>
#include <string>

namespace spindrift::viewer {

struct ViewerOptions {
    std::string input;  // a scene (.json) or an effect (.json or .sfx)
    uint32_t width = 0; // --size: the frame's size; 0 = the scene's resolution
    uint32_t height = 0;
    std::string device;          // Vulkan device of the renderer (render --device rules)
    bool validation = false;     // the renderer's validation layer; any message fails the run
    std::string backend = "cpu"; // "cpu" or "gpu": every instance's backend at the start
    bool time_set = false;
    double time_s = 0;     // --time: the scene time of the first frame
    bool paused = false;   // --paused: start paused
    double time_scale = 1; // --time-scale
    // --frames N: a scripted run: N frames, frame i at scene time time_s + i / fps (the scene's
    // fps; all at time_s when paused) whatever the wall clock, then exit. 0: interactive.
    uint32_t frames = 0;
    // --screenshot FILE: the PNG the screenshot key writes, and with --frames the last frame,
    // written before exiting. The scene frame only (no overlay), the size of the frame.
    std::string screenshot;
    // --window-screenshot FILE: with --frames, the window as presented at the last frame (the
    // frame scaled to the window, the overlay over it), read back from the swapchain image.
    std::string window_screenshot;
    bool hide_overlay = false; // --hide-overlay: start with the overlay hidden
};

// Runs the viewer; returns the exit code: 0 after the window was closed (or a scripted run
// finished), 1 on any error, including no display ("error: no display: ..." on stderr).
int runViewer(const ViewerOptions& options);

} // namespace spindrift::viewer
