#include <cstdio>
#include <filesystem>
#include <fstream>

#include "commands.h"
#include "cook/effect_file.h"
#include "cook/sfx_writer.h"
#include "effect_source.h"

namespace spindrift::cli {

int runCook(const std::string& input, std::string output) {
    if (output.empty()) output = std::filesystem::path(input).replace_extension(".sfx").string();
    std::vector<Diagnostic> diagnostics;
    CompiledEffect effect;
    const bool ok = loadCompiledEffect(input, effect, diagnostics);
    printDiagnostics(diagnostics);
    if (!ok) return 1;

    const std::vector<uint8_t> bytes = cookEffect(effect);
    // Write beside the target and rename, so a failed write never leaves a truncated .sfx.
    const std::string partial = output + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        if (!out.good()) {
            std::fprintf(stderr, "%s: error: cannot write file\n", output.c_str());
            std::filesystem::remove(partial);
            return 1;
        }
    }
    std::error_code error;
    std::filesystem::rename(partial, output, error);
    if (error) {
        std::fprintf(stderr, "%s: error: cannot write file: %s\n", output.c_str(),
                     error.message().c_str());
        std::filesystem::remove(partial, error);
        return 1;
    }
    std::printf("cooked %s -> %s (%zu bytes, %zu emitter%s)\n", input.c_str(), output.c_str(),
                bytes.size(), effect.emitters.size(), effect.emitters.size() == 1 ? "" : "s");
    return 0;
}

} // namespace spindrift::cli
