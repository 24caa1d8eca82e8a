#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
    CLI::App app{"spindrift: real-time visual-effects particles"};
    app.set_version_flag("--version", std::string("spindrift ") + SPINDRIFT_VERSION);
    CLI11_PARSE(app, argc, argv);
    return 0;
}
