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
        "Run an effect on the deterministic CPU backend and report counts and a state hash");
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

    CLI11_PARSE(app, argc, argv);

    if (*validate) return spindrift::cli::runValidate(validate_inputs, quiet);
    if (*cook) return spindrift::cli::runCook(cook_input, cook_output);
    if (*inspect) return spindrift::cli::runInspect(inspect_input);
    if (*simulate) return spindrift::cli::runSimulate(simulate_options);
    return 2;
}
