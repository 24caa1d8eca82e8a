// `spindrift render`: a scene or a lone effect to a still, a PNG sequence, an MP4 or a contact
// sheet (docs/rendering.md, "Command line and outputs").
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include "commands.h"
#include "effect_source.h"
#include "image/png_io.h"
#include "io/output_file.h"
#include "render/contact_sheet.h"
#include "render/frame_output.h"
#include "render/frame_write_queue.h"
#include "render/motion_file.h"
#include "render/progress.h"
#include "render/render_file.h"
#include "render/renderer.h"
#include "render/scene_player.h"
#include "render/video_writer.h"
#include "scene/scene_enum_names.h"

namespace spindrift::cli {

namespace {

namespace fs = std::filesystem;

// Renders of more frames than this show a progress bar.
constexpr uint32_t kProgressMinFrames = 4;
constexpr uint32_t kMaxRenderFrames = 1u << 20;

void error(const std::string& file, const std::string& message) {
    printDiagnostics({{Severity::error, file, 0, 0, 0, "", message}});
}

int listRenderDevices() {
    std::vector<Diagnostic> diagnostics;
    const std::vector<render::DeviceInfo> devices = render::listDevices(diagnostics);
    printDiagnostics(diagnostics);
    if (hasErrors(diagnostics)) return 1;
    for (const render::DeviceInfo& d : devices) {
        std::printf("%u: %s (%s, Vulkan %u.%u.%u)%s%s\n", d.index, d.name.c_str(), d.type.c_str(),
                    d.api_version >> 22, (d.api_version >> 12) & 0x3ffu, d.api_version & 0xfffu,
                    d.driver.empty() ? "" : ", ", d.driver.c_str());
    }
    if (devices.empty()) std::printf("no Vulkan devices\n");
    return 0;
}

// What will be written, decided from the options before any rendering.
struct Plan {
    enum class Kind { still, sequence, video, contact_sheet } kind = Kind::still;
    std::string output;
    render::FramePattern pattern; // sequence
    std::vector<float> times;     // scene time of each frame
    double fps = 30;
    render::RasterPath raster = render::RasterPath::graphics; // --raster
    bool motion = false;                                      // --motion-vectors
    render::FramePattern motion_pattern;
    render::MotionVectorsDesc motion_settings; // interval, coverage threshold, additive writes
};

// The motion-vector files of the plan (--motion-vectors): a .pfm for a still or for every frame
// of a sequence; refused for a video or a contact sheet. Prints the error.
bool planMotion(const RenderOptions& options, Plan& plan) {
    if (options.motion_vectors.empty()) return true;
    const std::string& path = options.motion_vectors;
    if (fs::path(path).extension() != ".pfm") {
        error(path, "--motion-vectors writes a Portable Float Map: name the file .pfm");
        return false;
    }
    if (plan.kind != Plan::Kind::still && plan.kind != Plan::Kind::sequence) {
        error(path, "--motion-vectors goes with a still or a PNG sequence, not a video or a "
                    "contact sheet");
        return false;
    }
    const double interval_s = 1.0 / plan.fps;
    if (!(interval_s > 0 && interval_s <= double(render::kMaxMotionIntervalS))) {
        error(path, "--motion-vectors needs a frame interval in (0, 1] s: --fps of at least 1");
        return false;
    }
    std::string pattern_error;
    if (!render::parseFramePattern(path, plan.motion_pattern, pattern_error)) {
        error(path, pattern_error);
        return false;
    }
    if (plan.kind == Plan::Kind::sequence && !plan.motion_pattern.has_placeholder) {
        render::parseFramePattern(render::defaultSequencePattern(path), plan.motion_pattern,
                                  pattern_error);
    }
    if (plan.kind == Plan::Kind::still && plan.motion_pattern.has_placeholder) {
        error(path, "a still's motion vectors are one file: leave out the frame number");
        return false;
    }
    plan.motion = true;
    plan.motion_settings.interval_s = static_cast<float>(interval_s);
    plan.motion_settings.coverage_threshold = static_cast<float>(options.motion_coverage);
    plan.motion_settings.additive_writes = options.motion_additive;
    return true;
}

bool makePlan(const RenderOptions& options, const std::string& input,
              const render::ScenePlayer& player, Plan& plan) {
    plan.output =
        options.output.empty() ? fs::path(input).stem().string() + ".png" : options.output;
    const render::OutputKind kind = render::outputKindOf(plan.output);
    if (kind == render::OutputKind::unknown) {
        error(plan.output, "unknown output type '" + fs::path(plan.output).extension().string() +
                               "': write .png (a still, a numbered sequence or a contact sheet) "
                               "or .mp4 (a video)");
        return false;
    }
    const SceneDesc& scene = player.scene;
    plan.fps = options.fps > 0 ? options.fps : double(scene.fps);
    const double start = options.time_set ? options.time_s : 0.0;
    const long long rounded_frames = std::llround(double(scene.duration_s) * plan.fps);
    const uint32_t scene_frames =
        static_cast<uint32_t>(std::clamp<long long>(rounded_frames, 1, kMaxRenderFrames));

    if (options.contact_sheet > 0) {
        if (kind != render::OutputKind::png) {
            error(plan.output, "a contact sheet is a PNG: name the output .png");
            return false;
        }
        if (options.frames > 0 || options.time_set) {
            error(plan.output, "--contact-sheet spreads its frames over the scene's duration: "
                               "leave out --frames and --time");
            return false;
        }
        plan.kind = Plan::Kind::contact_sheet;
        plan.times = render::contactSheetTimes(options.contact_sheet, scene.duration_s);
        return true;
    }
    std::string pattern_error;
    if (kind == render::OutputKind::png &&
        !render::parseFramePattern(plan.output, plan.pattern, pattern_error)) {
        error(plan.output, pattern_error);
        return false;
    }
    if (kind == render::OutputKind::mp4 ||
        (kind == render::OutputKind::png && (plan.pattern.has_placeholder || options.frames > 1))) {
        plan.kind = kind == render::OutputKind::mp4 ? Plan::Kind::video : Plan::Kind::sequence;
        if (plan.kind == Plan::Kind::sequence && !plan.pattern.has_placeholder)
            render::parseFramePattern(render::defaultSequencePattern(plan.output), plan.pattern,
                                      pattern_error);
        const uint32_t frames = options.frames > 0 ? options.frames : scene_frames;
        for (uint32_t i = 0; i < frames; ++i)
            plan.times.push_back(static_cast<float>(start + i / plan.fps));
        return true;
    }
    plan.kind = Plan::Kind::still;
    plan.times.push_back(options.time_set ? static_cast<float>(options.time_s)
                                          : render::defaultStillTime(player));
    return true;
}

// Every file the plan writes must be a new name or a regular file, and none of the render's
// inputs: the scene, its effects, their textures and meshes (io/output_file.h). Checked for every
// frame of a sequence before anything is rendered; prints the error.
bool checkOutputs(const Plan& plan, const render::ScenePlayer& player, const std::string& input) {
    std::vector<std::string> files = render::inputFiles(player);
    files.push_back(input);
    const InputFiles inputs = resolveInputFiles(files);
    std::vector<Diagnostic> diagnostics;
    if (plan.kind == Plan::Kind::sequence) {
        for (uint32_t i = 0; i < plan.times.size(); ++i) {
            if (!checkOutputPath(render::frameFileName(plan.pattern, i), inputs, diagnostics))
                break;
        }
    } else {
        checkOutputPath(plan.output, inputs, diagnostics);
    }
    for (uint32_t i = 0; plan.motion && diagnostics.empty() && i < plan.times.size(); ++i) {
        const std::string motion = render::frameFileName(plan.motion_pattern, i);
        const std::string colour = plan.kind == Plan::Kind::sequence
                                       ? render::frameFileName(plan.pattern, i)
                                       : plan.output;
        if (fs::weakly_canonical(motion) == fs::weakly_canonical(colour)) {
            diagnostics.push_back({Severity::error, motion, 0, 0, 0, "",
                                   "the motion vectors would replace the colour output"});
            break;
        }
        checkOutputPath(motion, inputs, diagnostics);
    }
    printDiagnostics(diagnostics);
    return diagnostics.empty();
}

// Renders every frame of the plan and hands each to sink(index, image, diagnostics); the sink may
// swap image for another buffer. Returns false after printing the error.
template <typename Sink>
bool renderFrames(render::Renderer& renderer, render::ScenePlayer& player, const Plan& plan,
                  bool quiet, uint64_t& particles, Sink&& sink) {
    const uint32_t count = static_cast<uint32_t>(plan.times.size());
    render::ProgressBar progress(count, quiet || count < kProgressMinFrames);
    Image frame;
    render::MotionImage motion;
    for (uint32_t i = 0; i < count; ++i) {
        render::FrameStats stats;
        std::vector<Diagnostic> diagnostics;
        // Every frame after the first continues the sequence: automatic exposure adapts.
        if (!render::renderSceneFrame(renderer, player, plan.times[i], i > 0, frame, stats,
                                      diagnostics, plan.raster, plan.motion ? &motion : nullptr,
                                      plan.motion_settings) ||
            (plan.motion && !render::writeMotionPfm(render::frameFileName(plan.motion_pattern, i),
                                                    motion, diagnostics)) ||
            !sink(i, frame, diagnostics)) {
            progress.finish();
            printDiagnostics(diagnostics);
            return false;
        }
        particles = std::max(particles, player.particles);
        progress.update(i + 1);
    }
    progress.finish();
    return true;
}

uint32_t renderJobs(const RenderOptions& options) {
    if (options.jobs > 0) return options.jobs;
    return std::clamp(std::thread::hardware_concurrency(), 1u, kDefaultRenderJobs);
}

// Renders the plan's frames, each written by write(index, frame, diagnostics): on the render
// thread before the next frame is drawn when jobs is 1 (the sequential path), else by a
// FrameWriteQueue of `writers` threads while the render thread simulates and draws the next
// frames. Returns false after printing every error.
bool renderThroughWriters(render::Renderer& renderer, render::ScenePlayer& player, const Plan& plan,
                          bool quiet, uint64_t& particles, uint32_t jobs, uint32_t writers,
                          const render::FrameWriteQueue::WriteFrame& write) {
    if (jobs <= 1) {
        return renderFrames(renderer, player, plan, quiet, particles,
                            [&](uint32_t i, const Image& frame, std::vector<Diagnostic>& d) {
                                return write(i, frame, d);
                            });
    }
    const SceneDesc& scene = player.scene;
    const uint64_t frame_bytes = uint64_t{scene.resolution.width} * scene.resolution.height * 4;
    render::FrameWriteQueue queue(write, writers, render::frameQueueDepth(writers, frame_bytes));
    // A failed push means a write failed: its errors come from finish(), after the bar.
    const bool rendered = renderFrames(
        renderer, player, plan, quiet, particles,
        [&](uint32_t i, Image& frame, std::vector<Diagnostic>&) { return queue.push(i, frame); });
    std::vector<Diagnostic> diagnostics;
    const bool written = queue.finish(diagnostics);
    printDiagnostics(diagnostics);
    return rendered && written;
}

bool writeOutputs(render::Renderer& renderer, render::ScenePlayer& player, const Plan& plan,
                  const RenderOptions& options, uint64_t& particles) {
    const SceneDesc& scene = player.scene;
    const bool quiet = options.quiet;
    PngEncoding encoding;
    encoding.level = static_cast<int>(options.png_level);
    const uint32_t jobs = renderJobs(options);
    switch (plan.kind) {
    case Plan::Kind::still:
        return renderFrames(renderer, player, plan, quiet, particles,
                            [&](uint32_t, const Image& frame, std::vector<Diagnostic>& d) {
                                return writePng(plan.output, frame, d, encoding);
                            });
    case Plan::Kind::sequence:
        // Each frame its own file, so any number of writers.
        return renderThroughWriters(
            renderer, player, plan, quiet, particles, jobs, jobs,
            [&](uint32_t i, const Image& frame, std::vector<Diagnostic>& d) {
                return writePng(render::frameFileName(plan.pattern, i), frame, d, encoding);
            });
    case Plan::Kind::contact_sheet: {
        const render::ContactSheetLayout layout = render::contactSheetLayout(
            uint32_t(plan.times.size()), scene.resolution.width, scene.resolution.height);
        Image sheet = render::makeContactSheet(layout);
        if (!renderFrames(renderer, player, plan, quiet, particles,
                          [&](uint32_t i, const Image& frame, std::vector<Diagnostic>&) {
                              render::placeInContactSheet(sheet, layout, i, frame);
                              return true;
                          }))
            return false;
        std::vector<Diagnostic> diagnostics;
        const bool ok = writePng(plan.output, sheet, diagnostics, encoding);
        printDiagnostics(diagnostics);
        return ok;
    }
    case Plan::Kind::video: {
        std::vector<Diagnostic> diagnostics;
        render::VideoConfig config;
        config.width = scene.resolution.width;
        config.height = scene.resolution.height;
        config.fps = plan.fps;
        auto video = render::VideoWriter::open(plan.output, config, diagnostics);
        printDiagnostics(diagnostics);
        if (!video) return false;
        // One pipe, frames in order: one writer thread (ffmpeg threads its own encoding).
        if (!renderThroughWriters(renderer, player, plan, quiet, particles, jobs, 1,
                                  [&](uint32_t, const Image& frame, std::vector<Diagnostic>& d) {
                                      return video->writeFrame(frame, d);
                                  }))
            return false;
        diagnostics.clear();
        const bool ok = video->finish(diagnostics);
        printDiagnostics(diagnostics);
        return ok;
    }
    }
    return false;
}

} // namespace

int runRender(const RenderOptions& options) {
    if (options.list_devices) return listRenderDevices();
    if (options.input.empty()) {
        error("", "render: give a scene or an effect file (or --list-devices)");
        return 1;
    }

    SceneDesc scene;
    std::string scene_file;
    {
        std::vector<Diagnostic> diagnostics;
        const bool ok = render::loadRenderScene(options.input, scene, scene_file, diagnostics);
        printDiagnostics(diagnostics);
        if (!ok) return 1;
    }
    if (options.width != 0) scene.resolution = {options.width, options.height};
    if (!options.transparency.empty() && !enumFromName(options.transparency, scene.transparency)) {
        error("", "--transparency: expected sorted or weighted_oit, found '" +
                      options.transparency + "'");
        return 1;
    }
    if (!options.particle_resolution.empty() &&
        !enumFromName(options.particle_resolution, scene.particle_resolution)) {
        error("", "--particle-resolution: expected full or half, found '" +
                      options.particle_resolution + "'");
        return 1;
    }

    std::vector<Diagnostic> diagnostics;
    render::PlayerConfig player_config;
    if (!parseBackendRequest(options.backend, player_config.backend)) {
        error("", "--backend: expected cpu, gpu or auto, found '" + options.backend + "'");
        return 1;
    }
    // The renderer comes first: GPU-simulated instances run on its device and are drawn from it.
    render::RendererConfig config;
    config.width = scene.resolution.width;
    config.height = scene.resolution.height;
    config.device = options.device;
    config.validation = options.validation;
    render::RendererPtr renderer = render::createRenderer(config, diagnostics);
    if (!renderer) {
        printDiagnostics(diagnostics);
        return 1;
    }
    player_config.device = options.device;
    player_config.validation = options.validation;
    player_config.renderer = renderer.get();
    player_config.step_progress = !options.quiet; // a long pre-roll says how far it got
    player_config.threads = render::playerThreadsFor(scene);
    auto player = render::createScenePlayer(scene, scene_file, player_config, diagnostics);
    printDiagnostics(diagnostics);
    if (!player) return 1;

    Plan plan;
    if (!makePlan(options, options.input, *player, plan)) return 1;
    if (options.raster == "compute") plan.raster = render::RasterPath::compute;
    if (options.raster == "automatic") plan.raster = render::RasterPath::automatic;
    if (!planMotion(options, plan)) return 1;
    if (!checkOutputs(plan, *player, options.input)) return 1;
    // Every instance's steps up to the last frame, pre-roll included, within kMaxSimulatedSteps:
    // refused before anything is rendered or written.
    diagnostics.clear();
    if (!render::checkPlayTimes(*player, plan.times, diagnostics)) {
        printDiagnostics(diagnostics);
        return 1;
    }
    if (!options.quiet && player_config.backend != BackendRequest::cpu) {
        for (const render::PlayerInstance& p : player->instances) {
            const EffectInstance& sim = *p.simulation;
            std::printf("%s: %s backend (%s)%s\n", p.effect_file.c_str(),
                        std::string(backendName(sim.backend.backend)).c_str(),
                        sim.backend.reason.c_str(),
                        sim.draws_from_device ? ", drawn from the device" : "");
        }
    }

    diagnostics.clear();
    if (!render::uploadAssets(*player, *renderer, diagnostics)) {
        printDiagnostics(diagnostics);
        return 1;
    }
    printDiagnostics(diagnostics);

    uint64_t particles = 0;
    bool ok = writeOutputs(*renderer, *player, plan, options, particles);

    std::vector<std::string> messages = render::validationMessages(*renderer);
    render::appendSimulationValidationMessages(*player, messages);
    for (const std::string& m : messages) std::fprintf(stderr, "validation: %s\n", m.c_str());
    if (!messages.empty()) {
        error("", std::to_string(messages.size()) + " Vulkan validation message" +
                      (messages.size() == 1 ? "" : "s"));
        ok = false;
    }
    if (!ok) return 1;
    if (!options.quiet) {
        const char* what = plan.kind == Plan::Kind::still           ? "still"
                           : plan.kind == Plan::Kind::sequence      ? "PNG sequence"
                           : plan.kind == Plan::Kind::contact_sheet ? "contact sheet"
                                                                    : "video";
        const std::string output = plan.kind == Plan::Kind::sequence
                                       ? render::frameFileName(plan.pattern, 0) + " ..."
                                       : plan.output;
        std::printf("wrote %s %s: %zu frame%s at %ux%u", what, output.c_str(), plan.times.size(),
                    plan.times.size() == 1 ? "" : "s", scene.resolution.width,
                    scene.resolution.height);
        if (plan.kind == Plan::Kind::still) std::printf(", t = %.3g s", double(plan.times[0]));
        std::printf(", up to %" PRIu64 " particles, on %s\n", particles,
                    render::rendererDevice(*renderer).name.c_str());
    }
    return 0;
}

} // namespace spindrift::cli
