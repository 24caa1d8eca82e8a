#include "viewer/viewer_app.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "image/png_io.h"
#include "io/output_file.h"
#include "render/frame_output.h"
#include "viewer/camera.h"
#include "viewer/controls.h"
#include "viewer/file_watch.h"
#include "viewer/overlay.h"
#include "viewer/playback.h"
#include "viewer/present_device.h"
#include "viewer/presenter.h"
#include "viewer/viewer_session.h"
#include "viewer/window.h"

namespace spindrift::viewer {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// How often the watched files are looked at: often enough to feel immediate after a save.
constexpr double kWatchIntervalS = 0.25;
// The most messages the overlay lists at once.
constexpr size_t kMaxMessages = 8;

void print(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
}

std::vector<std::string> messageLines(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> lines;
    for (const Diagnostic& d : diagnostics) {
        if (lines.size() == kMaxMessages) break;
        lines.push_back(formatDiagnostic(d));
    }
    return lines;
}

double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// The screenshot's file: --screenshot, else "<input stem>_view_<n>.png" with the first n not
// taken, in the current folder.
std::string screenshotPath(const ViewerOptions& options) {
    if (!options.screenshot.empty()) return options.screenshot;
    const std::string stem = fs::path(options.input).stem().string();
    for (uint32_t n = 1;; ++n) {
        char name[32];
        std::snprintf(name, sizeof name, "_view_%04u.png", n);
        if (!fs::exists(stem + name)) return stem + name;
    }
}

// Writes the scene frame (never the overlay) atomically, refusing any of the session's inputs.
bool writeScreenshot(const std::string& path, const Image& frame, const ViewerSession& session,
                     std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> files = session.inputFiles();
    if (!checkOutputPath(path, resolveInputFiles(files), diagnostics)) return false;
    // At the level `render` writes frames at: the same frame gives the same file.
    PngEncoding encoding;
    encoding.level = render::kFramePngLevel;
    return writePng(path, frame, diagnostics, encoding);
}

struct App {
    const ViewerOptions& options;
    std::unique_ptr<ViewerSession> session;
    std::unique_ptr<Window> window;
    std::unique_ptr<PresentDevice> device;
    std::unique_ptr<Presenter> presenter;
    std::unique_ptr<Overlay> overlay;
    Playback playback;
    ViewerCamera camera;
    FileWatch watch;
    PanelView panel;
    Image frame;
    Image window_image; // the window capture (--window-screenshot)
    CameraPose shown;
};

// Rebuilds the session's player (a reload or a backend switch); the clock and the camera are the
// app's and stay as they were, so the next frame is the new player at the same time.
void applyRebuild(App& app, bool ok, std::vector<Diagnostic>& diagnostics, const std::string& done,
                  const std::string& failed) {
    if (ok) {
        app.panel.messages = messageLines(diagnostics); // warnings, if any
        app.panel.status = done;
        app.watch.watch(app.session->inputFiles());
        std::printf("%s\n", done.c_str());
        std::fflush(stdout);
    } else {
        app.panel.messages = messageLines(diagnostics);
        app.panel.status = failed;
        std::printf("%s\n", app.panel.status.c_str());
        std::fflush(stdout);
    }
    print(diagnostics);
}

bool openWindow(App& app, std::vector<Diagnostic>& diagnostics) {
    const uint32_t w = app.session->width();
    const uint32_t h = app.session->height();
    app.window = Window::create("spindrift view - " + app.options.input, w, h, diagnostics);
    if (!app.window) return false;
    app.device =
        PresentDevice::create(app.window->handle(), app.session->deviceName(), diagnostics);
    if (!app.device) return false;
    uint32_t fw = 0;
    uint32_t fh = 0;
    app.window->framebufferSize(fw, fh);
    app.presenter = Presenter::create(*app.device, w, h, fw, fh, diagnostics);
    if (!app.presenter) return false;
    app.overlay = Overlay::create(*app.window, *app.device, *app.presenter, diagnostics);
    return app.overlay != nullptr;
}

int loop(App& app) {
    const ViewerOptions& options = app.options;
    const bool scripted = options.frames > 0;
    const double fps = app.session->scene().fps;
    auto last = Clock::now();
    double since_watch = 0;
    for (uint32_t frame_index = 0; !app.window->shouldClose(); ++frame_index) {
        const auto start = Clock::now();
        const double wall_dt = std::chrono::duration<double>(start - last).count();
        last = start;
        app.window->pollEvents();
        // The clock first, so the panel shows the time about to be drawn and a seek or step made
        // in the panel applies to this frame. Scripted runs step exactly 1 / fps per frame (the
        // frames `spindrift render --time T --frames N` draws); interactive ones follow the wall
        // clock.
        if (scripted) {
            if (app.playback.playing) app.playback.time_s = app.options.time_s + frame_index / fps;
        } else if (frame_index > 0) {
            advance(app.playback, wall_dt, app.session->scene().duration_s);
        }

        app.overlay->beginFrame(*app.presenter);

        ControlActions actions;
        app.panel.duration_s = app.session->scene().duration_s;
        app.panel.fps = fps;
        app.panel.backend = app.session->backend();
        app.panel.stats = app.session->stats();
        app.panel.times = app.session->stageTimes();
        app.panel.device = app.session->deviceName();
        app.panel.backend_lines = app.session->backendLines();
        if (!app.overlay->hidden())
            drawPanel(app.panel, app.playback, app.camera, app.shown, actions);
        readInput(app.panel, app.window->takeKeyPresses(), app.playback, app.camera, app.shown,
                  wall_dt, actions);
        app.overlay->endFrame();
        if (actions.quit) break;
        if (actions.toggle_overlay) app.overlay->setHidden(!app.overlay->hidden());

        std::vector<Diagnostic> diagnostics;
        if (actions.backend) {
            const bool ok = app.session->switchBackend(*actions.backend, diagnostics);
            const std::string name = *actions.backend == BackendRequest::gpu ? "gpu" : "cpu";
            applyRebuild(app, ok, diagnostics, "switched to the " + name + " backend",
                         "the " + name + " backend is unavailable here: " +
                             (diagnostics.empty() ? std::string("no reason given")
                                                  : diagnostics[0].message) +
                             "; the current backend keeps playing");
            diagnostics.clear();
        }
        since_watch += wall_dt;
        if (!scripted && since_watch >= kWatchIntervalS) {
            since_watch = 0;
            if (app.watch.poll()) {
                const bool ok = app.session->reload(diagnostics);
                applyRebuild(app, ok, diagnostics, "reloaded " + app.options.input,
                             "the new " + app.options.input +
                                 " does not load: the previous version keeps playing");
                diagnostics.clear();
            }
        }

        const float t = float(app.playback.time_s);
        const CameraPose scene_pose = render::frameView(app.session->scene(), t).camera;
        app.shown = cameraPose(app.camera, scene_pose);
        if (!app.session->drawFrame(t, app.shown, app.frame, diagnostics)) {
            print(diagnostics);
            return 1;
        }
        const auto before_present = Clock::now();
        uint32_t fw = 0;
        uint32_t fh = 0;
        app.window->framebufferSize(fw, fh);
        Overlay& overlay = *app.overlay;
        const bool last_scripted = scripted && frame_index + 1 == options.frames;
        const bool capture = last_scripted && !options.window_screenshot.empty();
        bool captured = false;
        if (!app.presenter->present(
                app.frame, fw, fh, [&](VkCommandBuffer cmd) { overlay.record(cmd); }, diagnostics,
                capture ? &app.window_image : nullptr, &captured)) {
            print(diagnostics);
            return 1;
        }
        if (capture) {
            if (!captured) {
                std::fprintf(stderr, "error: the last frame was not presented (the window was "
                                     "minimised or resized): no window screenshot\n");
                return 1;
            }
            if (!writeScreenshot(options.window_screenshot, app.window_image, *app.session,
                                 diagnostics)) {
                print(diagnostics);
                return 1;
            }
            std::printf("wrote %s: the window, %ux%u\n", options.window_screenshot.c_str(),
                        app.window_image.width, app.window_image.height);
        }
        app.panel.present_ms = msBetween(before_present, Clock::now());
        app.panel.frame_ms = msBetween(start, Clock::now());

        if (actions.screenshot || (last_scripted && !options.screenshot.empty())) {
            const std::string path = screenshotPath(options);
            if (writeScreenshot(path, app.frame, *app.session, diagnostics)) {
                app.panel.status = "wrote " + path;
                if (scripted) std::printf("wrote %s: t = %.4g s\n", path.c_str(), double(t));
            } else {
                print(diagnostics);
                app.panel.messages = messageLines(diagnostics);
                if (scripted) return 1;
            }
        }
        if (last_scripted) break;
    }
    return 0;
}

} // namespace

int runViewer(const ViewerOptions& options) {
    std::string why;
    if (!displayConfigured(why)) {
        std::fprintf(stderr, "error: %s\n", why.c_str());
        return 1;
    }
    BackendRequest backend = BackendRequest::cpu;
    if (!parseBackendRequest(options.backend, backend) || backend == BackendRequest::automatic) {
        std::fprintf(stderr, "error: --backend: expected cpu or gpu, found '%s'\n",
                     options.backend.c_str());
        return 1;
    }
    std::vector<Diagnostic> diagnostics;
    SessionConfig config;
    config.input = options.input;
    config.width = options.width;
    config.height = options.height;
    config.device = options.device;
    config.validation = options.validation;
    config.backend = backend;
    config.threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);

    App app{options, nullptr, nullptr, nullptr, nullptr, nullptr, {}, {}, {}, {}, {}, {}, {}};
    app.session = ViewerSession::open(config, diagnostics);
    print(diagnostics);
    if (!app.session) return 1;
    // An output that is an input (or a special file) is refused before any window opens.
    const InputFiles inputs = resolveInputFiles(app.session->inputFiles());
    for (const std::string& output : {options.screenshot, options.window_screenshot}) {
        if (!output.empty() && !checkOutputPath(output, inputs, diagnostics)) {
            print(diagnostics);
            return 1;
        }
    }
    diagnostics.clear();
    if (!openWindow(app, diagnostics)) {
        print(diagnostics);
        return 1;
    }
    app.watch.watch(app.session->inputFiles());
    app.playback.playing = !options.paused;
    app.playback.time_s = options.time_set ? options.time_s : 0.0;
    setTimeScale(app.playback, float(options.time_scale));
    app.overlay->setHidden(options.hide_overlay);

    int code = loop(app);
    const std::vector<std::string>& messages = render::validationMessages(app.session->renderer());
    for (const std::string& m : messages) std::fprintf(stderr, "validation: %s\n", m.c_str());
    if (!messages.empty()) code = 1;
    // The overlay and the window's device go before the window; the session (renderer) last.
    app.overlay.reset();
    app.presenter.reset();
    app.device.reset();
    app.window.reset();
    return code;
}

} // namespace spindrift::viewer
