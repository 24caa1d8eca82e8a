#include "viewer/window.h"

#include <cstdlib>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace spindrift::viewer {

namespace {

Diagnostic windowError(std::string message) {
    return {Severity::error, "", 0, 0, 0, "", std::move(message)};
}

// The last GLFW error's description, or "" when it reported none.
std::string glfwErrorText() {
    const char* description = nullptr;
    glfwGetError(&description);
    return description != nullptr ? description : "";
}

bool nonEmpty(const char* value) {
    return value != nullptr && value[0] != '\0';
}

} // namespace

bool displayConfigured(std::string& why) {
    if (nonEmpty(std::getenv("DISPLAY")) || nonEmpty(std::getenv("WAYLAND_DISPLAY"))) return true;
    why = "no display: DISPLAY and WAYLAND_DISPLAY are unset (spindrift view needs a window; "
          "use spindrift render for images without one, or run under xvfb-run)";
    return false;
}

std::unique_ptr<Window> Window::create(const std::string& title, uint32_t width, uint32_t height,
                                       std::vector<Diagnostic>& diagnostics) {
    if (glfwInit() != GLFW_TRUE) {
        diagnostics.push_back(windowError("no display: the window system could not be reached (" +
                                          glfwErrorText() + ")"));
        return nullptr;
    }
    if (glfwVulkanSupported() != GLFW_TRUE) {
        diagnostics.push_back(
            windowError("the window system has no Vulkan loader (" + glfwErrorText() + ")"));
        glfwTerminate();
        return nullptr;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    std::unique_ptr<Window> window(new Window());
    window->window_ = glfwCreateWindow(int(width), int(height), title.c_str(), nullptr, nullptr);
    if (window->window_ == nullptr) {
        diagnostics.push_back(windowError("could not open a window: " + glfwErrorText()));
        glfwTerminate();
        return nullptr;
    }
    glfwSetWindowUserPointer(window->window_, window.get());
    glfwSetKeyCallback(window->window_, &Window::onKey);
    return window;
}

void Window::onKey(GLFWwindow* handle, int key, int, int action, int) {
    auto* window = static_cast<Window*>(glfwGetWindowUserPointer(handle));
    // Bounded: a frame that never comes (a hung device) must not grow the list without end.
    constexpr size_t kMaxPendingKeys = 256;
    if (window != nullptr && (action == GLFW_PRESS || action == GLFW_REPEAT) &&
        window->key_presses_.size() < kMaxPendingKeys)
        window->key_presses_.push_back(key);
}

std::vector<int> Window::takeKeyPresses() {
    std::vector<int> keys;
    keys.swap(key_presses_);
    return keys;
}

Window::~Window() {
    if (window_ != nullptr) glfwDestroyWindow(window_);
    glfwTerminate();
}

bool Window::shouldClose() const {
    return glfwWindowShouldClose(window_) == GLFW_TRUE;
}

void Window::requestClose() {
    glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

void Window::pollEvents() {
    glfwPollEvents();
}

void Window::framebufferSize(uint32_t& width, uint32_t& height) const {
    int w = 0;
    int h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    width = w > 0 ? uint32_t(w) : 0;
    height = h > 0 ? uint32_t(h) : 0;
}

void Window::setTitle(const std::string& title) {
    glfwSetWindowTitle(window_, title.c_str());
}

} // namespace spindrift::viewer
