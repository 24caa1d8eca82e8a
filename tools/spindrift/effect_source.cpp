#include "effect_source.h"

#include <cstdio>

namespace spindrift::cli {

void printDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
}

} // namespace spindrift::cli
