#include "io/diagnostic_cap.h"

#include <algorithm>
#include <string>

namespace spindrift {

void keepEarliestDiagnostics(std::vector<Diagnostic>& diagnostics, size_t first, size_t keep,
                             DroppedDiagnostics& dropped) {
    if (first >= diagnostics.size()) return;
    const auto begin = diagnostics.begin() + std::ptrdiff_t(first);
    std::stable_sort(begin, diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.byte_offset < b.byte_offset;
    });
    if (diagnostics.size() - first <= keep) return;
    const auto cut = begin + std::ptrdiff_t(keep);
    for (auto it = cut; it != diagnostics.end(); ++it) {
        ++(it->severity == Severity::error ? dropped.errors : dropped.warnings);
    }
    diagnostics.erase(cut, diagnostics.end());
}

void appendDroppedSummary(std::vector<Diagnostic>& diagnostics, std::string_view file,
                          const DroppedDiagnostics& dropped) {
    if (dropped.total() == 0) return;
    auto plural = [](uint64_t n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::string counted;
    if (dropped.errors != 0 && dropped.warnings != 0) {
        counted = plural(dropped.errors, "more error", "more errors") + " and " +
                  plural(dropped.warnings, "warning", "warnings");
    } else if (dropped.errors != 0) {
        counted = plural(dropped.errors, "more error", "more errors");
    } else {
        counted = plural(dropped.warnings, "more warning", "more warnings");
    }
    Diagnostic d;
    d.severity = dropped.errors != 0 ? Severity::error : Severity::warning;
    d.file = std::string(file);
    d.message = counted + " not shown (at most " + std::to_string(kMaxDiagnosticsPerFile) +
                " diagnostics are listed per file)";
    diagnostics.push_back(std::move(d));
}

} // namespace spindrift
