// Keeping a file's diagnostics to kMaxDiagnosticsPerFile (include/spindrift/diagnostic.h): the
// earliest in document order are kept, the rest only counted, and one closing diagnostic says how
// many were left out. Used while reading (so a document with a million mistakes never holds a
// million diagnostics) and once more when a load ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift {

struct DroppedDiagnostics {
    uint64_t errors = 0;
    uint64_t warnings = 0;
    uint64_t total() const { return errors + warnings; }
};

// Sorts diagnostics[first, end) into document order (by byte offset; equal offsets keep their
// order) and keeps the first keep of them; the others are counted into dropped and erased.
void keepEarliestDiagnostics(std::vector<Diagnostic>& diagnostics, size_t first, size_t keep,
                             DroppedDiagnostics& dropped);

// When anything was dropped, appends one diagnostic naming file and no position: "N more errors
// not shown (at most 100 diagnostics are listed per file)". It is an error when a dropped one
// was, so hasErrors() says the same as before the cut.
void appendDroppedSummary(std::vector<Diagnostic>& diagnostics, std::string_view file,
                          const DroppedDiagnostics& dropped);

} // namespace spindrift
