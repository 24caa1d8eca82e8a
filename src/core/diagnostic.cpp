#include "spindrift/diagnostic.h"

namespace spindrift {

std::string formatDiagnostic(const Diagnostic& d) {
    std::string out;
    if (!d.file.empty()) {
        out += d.file;
        if (d.line != 0) {
            out += ':' + std::to_string(d.line) + ':' + std::to_string(d.column);
        }
        out += ": ";
    }
    out += d.severity == Severity::error ? "error: " : "warning: ";
    if (!d.path.empty()) out += d.path + ": ";
    out += d.message;
    return out;
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::error) return true;
    }
    return false;
}

} // namespace spindrift
