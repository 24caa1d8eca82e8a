// spindrift-texgen: writes the procedural sample textures (texture_generators.h) into a folder.
// The committed copies in examples/effects/textures/ come from
//   build/bin/spindrift-texgen examples/effects/textures
// and a test fails if they drift from what this program writes.
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>

#include "image/png_io.h"
#include "texgen/texture_generators.h"

int main(int argc, char** argv) {
    CLI::App app{"Writes Spindrift's procedural sample textures (PNG) into a folder."};
    std::string folder;
    app.add_option("folder", folder, "Output folder (created if missing)")->required();
    CLI11_PARSE(app, argc, argv);

    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) {
        std::fprintf(stderr, "%s: error: cannot create the folder: %s\n", folder.c_str(),
                     error.message().c_str());
        return 1;
    }
    int failures = 0;
    for (const spindrift::texgen::GeneratedTexture& texture :
         spindrift::texgen::generatedTextures()) {
        const std::string path = (std::filesystem::path(folder) / texture.file_name).string();
        std::vector<spindrift::Diagnostic> diagnostics;
        if (!spindrift::writePng(path, texture.generate(), diagnostics)) {
            for (const spindrift::Diagnostic& d : diagnostics) {
                std::fprintf(stderr, "%s\n", spindrift::formatDiagnostic(d).c_str());
            }
            ++failures;
            continue;
        }
        std::printf("wrote %s\n", path.c_str());
    }
    return failures == 0 ? 0 : 1;
}
