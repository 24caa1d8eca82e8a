// The Dear ImGui overlay drawn over the frame in the window (Debian's libimgui with its GLFW and
// Vulkan backends). It only draws and reads input: what the panel shows and what the user asked
// for go through overlay_panel.h.
#pragma once

#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "viewer/present_device.h"
#include "viewer/presenter.h"
#include "viewer/window.h"

namespace spindrift::viewer {

class Overlay {
public:
    // Sets up ImGui on the window (its input callbacks, chained after any already installed)
    // and on the presenter's device and overlay pass, and uploads the font. No ini file is
    // written. nullptr with the error on failure.
    static std::unique_ptr<Overlay> create(Window& window, const PresentDevice& device,
                                           Presenter& presenter,
                                           std::vector<Diagnostic>& diagnostics);
    ~Overlay();
    Overlay(const Overlay&) = delete;
    Overlay& operator=(const Overlay&) = delete;

    // Starts an ImGui frame (after the window's events were polled); the panel is built between
    // this and endFrame.
    void beginFrame(const Presenter& presenter);
    void endFrame();
    // Records the frame's draws (inside the overlay pass); nothing when hidden.
    void record(VkCommandBuffer commands) const;
    void setHidden(bool hidden) { hidden_ = hidden; }
    bool hidden() const { return hidden_; }

private:
    Overlay() = default;
    VkDevice device_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    bool glfw_ready_ = false;
    bool vulkan_ready_ = false;
    bool hidden_ = false;
};

} // namespace spindrift::viewer
