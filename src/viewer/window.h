// The viewer's window: GLFW, with no client API (Vulkan presents into it). One window per
// process; GLFW is initialised by the first create() and terminated when the window goes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spindrift/diagnostic.h"

struct GLFWwindow;

namespace spindrift::viewer {

// Whether a display server can be reached, judged from the environment before GLFW is touched:
// false with `why` when neither DISPLAY nor WAYLAND_DISPLAY is set (a headless machine, a CI
// job outside Xvfb).
bool displayConfigured(std::string& why);

class Window {
public:
    // Initialises GLFW and opens a window of width x height pixels titled `title`. nullptr with an
    // error when GLFW cannot reach the display (its own description) or has no Vulkan loader.
    static std::unique_ptr<Window> create(const std::string& title, uint32_t width, uint32_t height,
                                          std::vector<Diagnostic>& diagnostics);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* handle() const { return window_; }
    bool shouldClose() const;
    void requestClose();
    // Processes pending events (input callbacks run here). The window's key callback is
    // installed at creation; an overlay that installs its own afterwards must chain to it
    // (ImGui's GLFW backend does).
    void pollEvents();
    // The drawable size in pixels (0 x 0 while minimised).
    void framebufferSize(uint32_t& width, uint32_t& height) const;
    void setTitle(const std::string& title);
    // The keys pressed (GLFW key codes, repeats included) since the last call, in order. Kept
    // here rather than read from ImGui's key state: ImGui 1.86 keeps only whether a key is down
    // at the frame, so a press and release within one slow frame (lavapipe) would be lost.
    std::vector<int> takeKeyPresses();

private:
    Window() = default;
    static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
    GLFWwindow* window_ = nullptr;
    std::vector<int> key_presses_;
};

} // namespace spindrift::viewer
