// spindrift: the command-line tool. Each subcommand lives in its own file; this file only
// declares the interface.
#include <CLI/CLI.hpp>

#include "commands.h"

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
    cook->add_option("-o,--output", cook_output, "Output .sfx (default: input with .sfx)");

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
    simulate->add_option("-t,--time", simulate_options.time_s, "Seconds to simulate")
        ->required()
        ->check(CLI::Range(0.0, 86400.0));
    simulate
        ->add_option("--threads", simulate_options.threads,
                     "Worker threads (results are identical for any count)")
        ->check(CLI::Range(1u, 256u));
    simulate->add_option("--seed", simulate_options.seed, "Override the effect's seed")
        ->each([&](const std::string&) { simulate_options.seed_set = true; });
    simulate->add_option("--dump", simulate_options.dump, "Print every live particle's draw record")
        ->check(CLI::IsMember({"csv", "json"}));
    simulate
        ->add_option("--backend", simulate_options.backend,
                     "Simulation backend: cpu (default), gpu, or auto (gpu on a GPU device when "
                     "every emitter allows it)")
        ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
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
                       "sequence) or .mp4 (default: <input stem>.png)");
    render
        ->add_option("--frames", render_options.frames,
                     "Frames of a sequence or video (default: scene duration x fps)")
        ->check(CLI::Range(1u, 1u << 20));
    render->add_option("--fps", render_options.fps, "Frames per second (default: the scene's)")
        ->check(CLI::Range(0.1, 240.0));
    render->add_option("--size", render_options.size, "Image size WIDTHxHEIGHT, e.g. 1280x720");
    render->add_option("--device", render_options.device,
                       "Vulkan device: an index from --list-devices or part of its name");
    render->add_flag("--list-devices", render_options.list_devices,
                     "List the Vulkan devices and exit");
    render
        ->add_option("--contact-sheet", render_options.contact_sheet,
                     "Write a contact sheet of N frames spread over the scene (a .png)")
        ->check(CLI::Range(1u, 256u));
    render
        ->add_option("--time", render_options.time_s,
                     "Scene time of a still, or of the first frame of a sequence or video (s)")
        ->check(CLI::Range(0.0, 3600.0))
        ->each([&](const std::string&) { render_options.time_set = true; });
    render->add_flag("--validation", render_options.validation,
                     "Enable the Vulkan validation layer; any message fails the render");
    render->add_flag("-q,--quiet", render_options.quiet, "No progress bar and no summary");
    render
        ->add_option("--backend", render_options.backend,
                     "Simulation backend of each effect instance: cpu (default), gpu, or auto")
        ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
    render
        ->add_option("--transparency", render_options.transparency,
                     "How alpha and premultiplied particles composite, overriding the scene: "
                     "sorted, or weighted_oit (order-independent, no sorting)")
        ->check(CLI::IsMember({"sorted", "weighted_oit"}));

    CLI11_PARSE(app, argc, argv);

    if (*validate) return spindrift::cli::runValidate(validate_inputs, quiet);
    if (*cook) return spindrift::cli::runCook(cook_input, cook_output);
    if (*inspect) return spindrift::cli::runInspect(inspect_input);
    if (*simulate) return spindrift::cli::runSimulate(simulate_options);
    if (*render) return spindrift::cli::runRender(render_options);
    return 2;
}
