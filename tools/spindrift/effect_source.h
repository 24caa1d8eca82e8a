// How every command reports what it found. Loading an effect file is the library's
// loadCompiledEffect (src/cook/effect_file.h), shared with the scene player.
#pragma once

#include <string>
#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift::cli {

// Prints diagnostics to stderr, one compiler-style line each.
void printDiagnostics(const std::vector<Diagnostic>& diagnostics);

// The same, naming `file` in each diagnostic that names none (a backend's limits and device
// errors know the effect's JSON paths, not which file it came from).
void printDiagnostics(std::vector<Diagnostic> diagnostics, const std::string& file);

} // namespace spindrift::cli
