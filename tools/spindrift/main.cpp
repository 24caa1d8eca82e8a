// spindrift: the command-line tool. Each subcommand lives in its own file; this file only
// declares the interface. Option values are parsed strictly (option_values.h), and every usage
// error (an unknown command or option, a missing argument, a bad value) prints "error: ..." and
// exits 1, as every other error does; --help and --version exit 0 (docs/cli.md).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "option_values.h"
#include "render/frame_write_queue.h"
#include "spindrift/scene_desc.h"
#include "viewer/viewer_app.h"

namespace {

using spindrift::cli::addChoiceOption;
using spindrift::cli::addNumberOption;
using spindrift::cli::NumberSpec;

// The longest a simulation or a render may be asked to run, in scene seconds.
constexpr double kMaxSimulateSeconds = 86400;
constexpr double kMaxRenderSeconds = 3600;
constexpr double kMaxRenderFrames = 1u << 20;

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"spindrift: real-time visual-effects particles"};
    app.set_version_flag("--version", std::string("spindrift ") + SPINDRIFT_VERSION);
    app.require_subcommand(1);

    std::vector<std::string> validate_inputs;
    bool quiet = false;
    CLI::App* validate = app.add_subcommand(
        "validate", "Check effects (.json) and cooked files (.sfx); directories are searched");
    validate->add_option("inputs", validate_inputs, "Files or directories")->required();
    validate->add_flag("-q,--quiet", quiet, "Print only diagnostics, no summary");

    std::string cook_input;
    std::string cook_output;
    CLI::App* cook = app.add_subcommand("cook", "Compile an effect into a cooked .sfx file");
    cook->add_option("input", cook_input, "Effect file (.json)")->required();
    cook->add_option("-o,--output", cook_output,
                     "Output .sfx (default: input with .sfx); never one of the inputs");

    std::string inspect_input;
    CLI::App* inspect = app.add_subcommand(
        "inspect", "Show an effect's emitters, modules, capacities, LUT use, hash and backends");
    inspect->add_option("input", inspect_input, "Effect (.json) or cooked file (.sfx)")->required();

    spindrift::cli::SimulateOptions simulate_options;
    CLI::App* simulate = app.add_subcommand(
        "simulate",
        "Run an effect on the CPU or GPU backend and report counts (and the CPU's state hash)");
    simulate->add_option("input", simulate_options.input, "Effect (.json) or cooked file (.sfx)")
        ->required();
    addNumberOption(simulate, "-t,--time", simulate_options.time_s,
                    {"a finite number of seconds", 0, kMaxSimulateSeconds}, "Seconds to simulate")
        ->required();
    addNumberOption(simulate, "--threads", simulate_options.threads,
                    {"a whole number of threads", 1, 256, true},
                    "Worker threads (results are identical for any count)");
    addNumberOption(simulate, "--seed", simulate_options.seed,
                    {"a whole number", 0, 4294967295.0, true}, "Override the effect's seed",
                    &simulate_options.seed_set);
    addChoiceOption(simulate, "--dump", simulate_options.dump, {"csv", "json"},
                    "Print every live particle's draw record");
    addChoiceOption(simulate, "--backend", simulate_options.backend, {"cpu", "gpu", "auto"},
                    "Simulation backend: cpu (default), gpu, or auto (gpu on a GPU device when "
                    "every emitter allows it)");
    simulate->add_option("--device", simulate_options.device,
                         "Vulkan device of the gpu backend: an index or part of its name");
    simulate->add_flag("--validation", simulate_options.validation,
                       "gpu backend: enable the Vulkan validation layer; any message fails");

    spindrift::cli::RenderOptions render_options;
    CLI::App* render = app.add_subcommand(
        "render",
        "Render a scene, or an effect in a default scene, to PNG, MP4 or a contact sheet");
    render->add_option("input", render_options.input,
                       "Scene (.json), or effect (.json or .sfx) shown in a scene framing it");
    render->add_option("-o,--output", render_options.output,
                       "Output: .png (a still; with %d/%04d or --frames N > 1 a numbered "
                       "sequence) or .mp4 (default: <input stem>.png); never one of the inputs");
    addNumberOption(render, "--frames", render_options.frames,
                    {"a whole number of frames", 1, kMaxRenderFrames, true},
                    "Frames of a sequence or video (default: scene duration x fps)");
    addNumberOption(render, "--fps", render_options.fps,
                    {"a finite number of frames per second", 0.1, 240},
                    "Frames per second (default: the scene's)");
    spindrift::cli::addSizeOption(render, "--size", render_options.width, render_options.height,
                                  spindrift::kMinResolution, spindrift::kMaxResolution,
                                  "Image size WIDTHxHEIGHT, e.g. 1280x720");
    render->add_option("--device", render_options.device,
                       "Vulkan device: an index from --list-devices or part of its name");
    render->add_flag("--list-devices", render_options.list_devices,
                     "List the Vulkan devices and exit");
    addNumberOption(render, "--contact-sheet", render_options.contact_sheet,
                    {"a whole number of frames", 1, 256, true},
                    "Write a contact sheet of N frames spread over the scene (a .png)");
    addNumberOption(render, "--time", render_options.time_s,
                    {"a finite number of seconds", 0, kMaxRenderSeconds},
                    "Scene time of a still, or of the first frame of a sequence or video (s)",
                    &render_options.time_set);
    render->add_flag("--validation", render_options.validation,
                     "Enable the Vulkan validation layer; any message fails the render");
    render->add_flag("-q,--quiet", render_options.quiet, "No progress bar and no summary");
    addChoiceOption(render, "--backend", render_options.backend, {"cpu", "gpu", "auto"},
                    "Simulation backend of each effect instance: cpu (default), gpu, or auto");
    addChoiceOption(render, "--transparency", render_options.transparency,
                    {"sorted", "weighted_oit"},
                    "How alpha and premultiplied particles composite, overriding the scene: "
                    "sorted, or weighted_oit (order-independent, no sorting)");
    addChoiceOption(render, "--particle-resolution", render_options.particle_resolution,
                    {"full", "half"},
                    "Resolution of blended billboards and strips, overriding the scene: full, or "
                    "half (a quarter of the pixels, upsampled depth-aware)");
    addChoiceOption(render, "--raster", render_options.raster, {"graphics", "compute", "automatic"},
                    "How billboards are drawn: graphics (default), compute (the compute "
                    "rasteriser), or automatic (compute for emitters of many particles)");
    addNumberOption(render, "--png-level", render_options.png_level,
                    {"a whole zlib level", 0, 9, true},
                    "PNG compression: 0 (none, fastest) .. 9 (smallest, slowest); default " +
                        std::to_string(spindrift::cli::kRenderPngLevel));
    addNumberOption(render, "--jobs", render_options.jobs,
                    {"a whole number of threads", 1, spindrift::render::kMaxFrameWriters, true},
                    "Frames of a PNG sequence encoded at once beside rendering (default: the "
                    "cores, at most 16); 1 writes each frame before drawing the next");
    CLI::Option* motion_vectors = render->add_option(
        "--motion-vectors", render_options.motion_vectors,
        "Also write the motion vectors of a still or of each frame of a PNG "
        "sequence to this .pfm (float x, y in pixels: this frame minus the previous, "
        "y down), for temporal anti-aliasing");
    addNumberOption(render, "--motion-coverage", render_options.motion_coverage,
                    {"a coverage", 0, 1},
                    "The coverage (alpha) a particle's pixel needs to write its motion; below it "
                    "the pixel keeps what is behind (default 0.5; 0: every pixel it draws)")
        ->needs(motion_vectors);
    render
        ->add_flag("--motion-additive", render_options.motion_additive,
                   "Additive particles write their motion too (by default they cover nothing "
                   "and keep the motion of what is behind them)")
        ->needs(motion_vectors);

    spindrift::viewer::ViewerOptions view_options;
    CLI::App* view = app.add_subcommand(
        "view", "Play a scene, or an effect in a default scene, in a real-time window");
    view->add_option("input", view_options.input,
                     "Scene (.json), or effect (.json or .sfx) shown in a scene framing it")
        ->required();
    spindrift::cli::addSizeOption(view, "--size", view_options.width, view_options.height,
                                  spindrift::kMinResolution, spindrift::kMaxResolution,
                                  "Frame size WIDTHxHEIGHT (default: the scene's resolution)");
    addNumberOption(view, "--time", view_options.time_s,
                    {"a finite number of seconds", 0, kMaxRenderSeconds},
                    "Scene time of the first frame (s)", &view_options.time_set);
    view->add_flag("--paused", view_options.paused, "Start paused");
    addNumberOption(view, "--time-scale", view_options.time_scale, {"a finite number", 0, 8},
                    "Playback speed (1 = real time)");
    addNumberOption(view, "--frames", view_options.frames,
                    {"a whole number of frames", 1, kMaxRenderFrames, true},
                    "Scripted run: N frames at exactly 1/fps apart from --time, then exit");
    view->add_option("--screenshot", view_options.screenshot,
                     "PNG the screenshot key writes; with --frames, the last frame, then exit");
    view->add_option("--window-screenshot", view_options.window_screenshot,
                     "With --frames: PNG of the window as shown at the last frame, overlay "
                     "included");
    view->add_flag("--hide-overlay", view_options.hide_overlay, "Start with the overlay hidden");
    addChoiceOption(view, "--backend", view_options.backend, {"cpu", "gpu"},
                    "Simulation backend at the start: cpu (default) or gpu; switch in the window");
    view->add_option("--device", view_options.device,
                     "Vulkan device: an index from render --list-devices or part of its name");
    view->add_flag("--validation", view_options.validation,
                   "Enable the Vulkan validation layer; any message fails the run");

    spindrift::cli::EditOptions edit_options;
    CLI::App* edit = app.add_subcommand(
        "edit", "Edit effects in the browser, previewed live by Spindrift (127.0.0.1 only)");
    edit->add_option("input", edit_options.input,
                     "Effect file (.json) to open, or the folder to edit (default: .)");
    addNumberOption(edit, "--port", edit_options.port, {"a whole port number", 1, 65535, true},
                    "Port on 127.0.0.1 (default: a free one)");
    edit->add_option("--device", edit_options.device,
                     "Vulkan device of the preview: an index or part of its name");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version are "errors" with exit code 0: CLI11 prints them.
        if (e.get_exit_code() == 0) return app.exit(e);
        const std::vector<CLI::App*> commands = app.get_subcommands();
        const std::string help = commands.empty()
                                     ? "spindrift --help"
                                     : "spindrift " + commands[0]->get_name() + " --help";
        // Without a command CLI11 only says one is required; say what the first argument was.
        std::string message = e.what();
        if (commands.empty() && argc > 1) {
            message = std::string(argv[1][0] == '-' ? "unknown option '" : "unknown command '") +
                      argv[1] +
                      "'; expected a command: validate, cook, inspect, simulate, render, view, "
                      "edit";
        }
        std::fprintf(stderr, "error: %s\nRun '%s' for the options.\n", message.c_str(),
                     help.c_str());
        return 1;
    }

    if (*validate) return spindrift::cli::runValidate(validate_inputs, quiet);
    if (*cook) return spindrift::cli::runCook(cook_input, cook_output);
    if (*inspect) return spindrift::cli::runInspect(inspect_input);
    if (*simulate) return spindrift::cli::runSimulate(simulate_options);
    if (*render) return spindrift::cli::runRender(render_options);
    if (*view) return spindrift::viewer::runViewer(view_options);
    if (*edit) return spindrift::cli::runEdit(edit_options);
    return 1;
}
