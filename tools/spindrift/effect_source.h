// How every command reports what it found. Loading an effect file is the library's
// loadCompiledEffect (src/cook/effect_file.h), shared with the scene player.
#pragma once

#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift::cli {

// Prints diagnostics to stderr, one compiler-style line each.
void printDiagnostics(const std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::cli
