// Errors about input (effect JSON, cooked files, CLI arguments) are values, never crashes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spindrift/export.h"

namespace spindrift {

enum class Severity : uint8_t { error = 0, warning = 1 };

// One finding about an input. Where it is: file, 1-based line and column (0 when the input
// has no text positions, e.g. a cooked file, where byte_offset names the place instead), and
// the JSON path of the value ("$.emitters[2].spawn.rate_per_s"). What: message says what was
// found and what was expected.
struct Diagnostic {
    Severity severity = Severity::error;
    std::string file;
    uint32_t line = 0;
    uint32_t column = 0;
    uint64_t byte_offset = 0;
    std::string path;
    std::string message;
};

// "file:line:col: error: path: message" (compiler style; parts without a value are left out).
SPINDRIFT_API std::string formatDiagnostic(const Diagnostic& diagnostic);

SPINDRIFT_API bool hasErrors(const std::vector<Diagnostic>& diagnostics);

// The most diagnostics a document load (loadEffect, loadScene and their file forms) returns for
// one file: the first ones in document order, then one more that says how many were not shown
// ("12345 more errors not shown"). A hostile file with millions of mistakes stays a short report.
inline constexpr size_t kMaxDiagnosticsPerFile = 100;

} // namespace spindrift
