#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "cook/effect_file.h"
#include "cook/sfx_writer.h"
#include "effect_source.h"
#include "io/output_file.h"

namespace spindrift::cli {

int runCook(const std::string& input, std::string output) {
    if (output.empty()) output = std::filesystem::path(input).replace_extension(".sfx").string();
    // Refused before compiling: an output onto the input (a cooked input's default output is
    // the input itself) or onto a special file (io/output_file.h).
    std::vector<Diagnostic> diagnostics;
    const std::string inputs[] = {input};
    if (!checkOutputPath(output, resolveInputFiles(inputs), diagnostics)) {
        printDiagnostics(diagnostics);
        return 1;
    }
    CompiledEffect effect;
    const bool ok = loadCompiledEffect(input, effect, diagnostics);
    printDiagnostics(diagnostics);
    if (!ok) return 1;

    const std::vector<uint8_t> bytes = cookEffect(effect);
    diagnostics.clear();
    // A temporary file renamed into place: a failed write never leaves a truncated .sfx.
    if (!writeFileAtomically(output, bytes, diagnostics)) {
        printDiagnostics(diagnostics);
        return 1;
    }
    std::printf("cooked %s -> %s (%zu bytes, %zu emitter%s)\n", input.c_str(), output.c_str(),
                bytes.size(), effect.emitters.size(), effect.emitters.size() == 1 ? "" : "s");
    return 0;
}

} // namespace spindrift::cli
