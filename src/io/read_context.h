// Where a document's values came from, while a reader walks its JSON tree: every path the reader
// visits is recorded with its source position, and every path it rejects is remembered. The
// semantic rules report JSON paths only; this map places them, and the rejected paths tell which
// of their findings are consequences of a mistake already reported (docs/architecture.md, "One
// set of rules for input"). Shared by every document reader (effects, scenes).
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "io/diagnostic_cap.h"
#include "io/json_value.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

struct ReadContext {
    std::string file;
    // The reader's diagnostics go to (*diagnostics)[first, end). Past twice
    // kMaxDiagnosticsPerFile they are cut back to the earliest ones in document order and the rest
    // only counted in dropped, so the number of mistakes in a file never sets the memory used.
    std::vector<Diagnostic>* diagnostics = nullptr;
    size_t first = 0;
    DroppedDiagnostics dropped;
    std::unordered_map<std::string, json::SourcePos> positions;
    // Paths the reader already reported on; semantic diagnostics at or below them are dropped.
    std::unordered_set<std::string> reported;

    void record(const std::string& path, const json::SourcePos& pos) { positions[path] = pos; }
    void error(const std::string& path, const json::SourcePos& pos, std::string message);
    // Gives a diagnostic that names only a JSON path the file and the position of that path.
    void place(Diagnostic& d) const;
    // The recorded position of path, else of its nearest recorded ancestor.
    json::SourcePos positionOf(std::string path) const;
    bool isSuppressed(std::string path) const;
};

} // namespace spindrift
