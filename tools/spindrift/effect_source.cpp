#include "effect_source.h"

#include <cstdio>

namespace spindrift::cli {

void printDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
}

void printDiagnostics(std::vector<Diagnostic> diagnostics, const std::string& file) {
    for (Diagnostic& d : diagnostics) {
        if (d.file.empty()) d.file = file;
    }
    printDiagnostics(diagnostics);
}

} // namespace spindrift::cli
