// Every command reads its input the same way: a JSON effect is loaded, validated and compiled;
// a cooked .sfx file is loaded and validated. One function, so `validate`, `cook` and `inspect`
// can never disagree about what a file means.
#pragma once

#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/diagnostic.h"

namespace spindrift::cli {

enum class SourceKind { json, cooked };

SourceKind sourceKindOf(const std::string& path); // by extension: ".sfx" is cooked

// Loads path into out. Returns false when any error was found; every diagnostic (warnings too)
// is appended.
bool loadCompiledEffect(const std::string& path, CompiledEffect& out,
                        std::vector<Diagnostic>& diagnostics);

// Prints diagnostics to stderr, one compiler-style line each.
void printDiagnostics(const std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::cli
